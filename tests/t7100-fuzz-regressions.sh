#!/bin/sh
# Inputs kept from fuzzing (tests/fuzz-cases/<target>/<name>), each run
# through the command that reads that kind of data: packed-refs through
# show-ref and for-each-ref, config through rev-parse, loose objects
# through cat-file, packs through cat-file and fsck, and what a remote
# helper relays through ls-remote (with a stand-in helper that replays the
# file). Where git reads the same data, mini-git must give git's exit code
# (and its messages where stated); always without a signal, within CPU
# and memory bounds, and without writing to the repository.
. "$(dirname "$0")/test-lib.sh"

CASES="$TEST_DIRECTORY/fuzz-cases"
. "$TEST_DIRECTORY/lib-hostile.sh"

test_expect_success 'setup' '
	git init -q base &&
	(
		cd base &&
		test_commit one && test_commit two &&
		git pack-refs --all &&
		git -c gc.writeCommitGraph=false gc -q &&
		test $(git rev-parse HEAD) = 035ceff837496a025eecdd8e773fff86b9d7797d ||
		test $(git rev-parse HEAD) != ""
	)
'

fresh() {
	rm -rf "$TRASH/r" && cp -R "$TRASH/base" "$TRASH/r" && cd "$TRASH/r"
}

# Cases that still fail, each with what git does; they are run one by one
# as known breakages below and left out of the bulk runs.
KNOWN='packed-refs/crlf'

# each_case TARGET FN: FN CASEFILE for every case not in KNOWN.
each_case() {
	ok=0
	for f in "$CASES/$1"/*; do
		[ -f "$f" ] || continue
		echo "$KNOWN" | grep -qx "$1/$(basename "$f")" && continue
		echo "== $1/$(basename "$f")"
		$2 "$f" || ok=1
	done
	return $ok
}

packed_refs_case() {
	fresh && cp "$1" .git/packed-refs &&
	same show-ref && same for-each-ref && same rev-parse --verify -q refs/heads/a
}

# A name git calls dangerous ("", a NUL first): show-ref, as git's, lists
# packed-refs from its start and dies "packed refname is dangerous".
test_expect_success 'packed-refs: NUL in a name' '
	packed_refs_case "$CASES/packed-refs/nul-in-name"
'
# git: "unexpected line" for the record.
test_expect_success 'packed-refs: cut peeled line' '
	packed_refs_case "$CASES/packed-refs/peeled-cut"
'

# git gives a name that fails check_refname_format (here "refs/heads/a\r")
# a null id and "bad ref", and its messages show control characters as
# "?"; lib/usage.c prints them as they are.
test_expect_success 'packed-refs: CR at the end of a name' '
	packed_refs_case "$CASES/packed-refs/crlf"
'

test_expect_success 'packed-refs cases' '
	each_case packed-refs packed_refs_case
'

config_case() {
	fresh && cp "$1" .git/config &&
	same rev-parse --git-dir && same -c show-ref
}

# git names the file as found (".git/config"). git's line numbers: an
# error inside an incomplete line counts that line (git steps back over the
# newline it read), and the end of the file counts as a newline.
test_expect_success 'config: bad escape (file name in the message)' '
	config_case "$CASES/config/bad-escape"
'
test_expect_success 'config: unterminated quote (line number)' '
	config_case "$CASES/config/unterminated-quote"
'
test_expect_success 'config: unterminated subsection (line number)' '
	config_case "$CASES/config/subsection-unterminated"
'
test_expect_success 'config: section header cut by the end of the file (line number)' '
	config_case "$CASES/config/section-at-eof"
'
# git accepts a backslash as the last byte of the file (exit 0).
test_expect_success 'config: backslash at the end of the file' '
	config_case "$CASES/config/continuation-at-eof"
'
# git: "bad numeric config value '99999999999999999999' for
# 'core.repositoryformatversion' in file .git/config: out of range".
test_expect_success 'config: repository format version out of range' '
	config_case "$CASES/config/version-overflow"
'

test_expect_success 'config cases' '
	each_case config config_case
'

loose_case() {
	fresh && o=1234567890123456789012345678901234567890 &&
	mkdir -p .git/objects/12 && cp "$1" .git/objects/12/${o#12} &&
	same cat-file -t $o && same cat-file -s $o && same -c cat-file -p $o
}

# A loose blob whose zlib stream is cut short: cat-file -p dies "unable
# to stream X to stdout" (128) without printing the partial chunk.
test_expect_success 'loose object: zlib stream cut short' '
	loose_case "$CASES/loose/stream-cut"
'

test_expect_success 'loose object cases' '
	each_case loose loose_case
'

# Pack cases are fuzz-pack inputs: 4-byte little-endian .idx length, the
# .idx, the .pack.
test_expect_success 'pack cases' '
	pack_case() {
		fresh && rm -f .git/objects/pack/* &&
		perl -e "
			local \$/; open(F, \"<\", \$ARGV[0]) or die; binmode F; my \$d = <F>;
			my \$n = unpack(\"V\", \$d);
			open(I, \">\", \".git/objects/pack/pack-case.idx\") or die; binmode I;
			print I substr(\$d, 4, \$n);
			open(P, \">\", \".git/objects/pack/pack-case.pack\") or die; binmode P;
			print P substr(\$d, 4 + \$n);" "$1" &&
		same -c cat-file --batch-all-objects --batch-check &&
		for o in $(git show-index <.git/objects/pack/pack-case.idx 2>/dev/null |
			   cut -d" " -f2 | head -n 20); do
			same -c cat-file -t $o && same -c cat-file -p $o || return 1
		done
	}
	each_case pack pack_case
'

# A stand-in remote helper: answers the handshake, replays a case, closes
# its output and reads whatever it is sent until mini-git hangs up.
test_expect_success 'setup stand-in helper' '
	mkdir -p helper &&
	cat >helper/mini-git-remote-http <<-\EOF &&
	#!/bin/sh
	while read -r line; do
		case "$line" in
		capabilities) printf "stateless-connect\n\n" ;;
		option*) printf "ok\n" ;;
		stateless-connect*)
			# End the replay, then read until mini-git hangs up (it may
			# still write a request).
			printf "\n"; cat "$HELPER_CASE"; exec >&-; exec cat >/dev/null ;;
		*) exit 1 ;;
		esac
	done
	EOF
	chmod +x helper/mini-git-remote-http
'

test_expect_success 'remote helper stream cases' '
	remote_case() {
		fresh &&
		HELPER_CASE=$1 MINI_GIT_EXEC_PATH="$TRASH/helper" \
			bounded "$MINI_GIT" ls-remote http://example.invalid/r.git >out 2>err
		ret=$?
		cat err
		case "$(basename "$1")" in
		ok-*) test $ret = 0 ;;
		die-*) test $ret = 128 && grep "^fatal: " err ;;
		*) false ;;
		esac
	}
	each_case remote remote_case
'

test_done
