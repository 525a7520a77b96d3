#!/bin/sh
# fsck on damaged repositories: each fault is made on a fresh copy of a
# clean repository and `git fsck` and `mini-git fsck` must print the same
# lines with the same exit code. Stdout (missing/dangling/broken link
# lines) comes out of git in hash-table order and is compared sorted.
# Where git reports one fault several times because several of its code
# paths trip over it (an unusable pack is complained about at every
# lookup), stderr is compared as a set of distinct lines: cmp_fsck -u.
. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIRECTORY/lib-fsck.sh"

# cmp_fsck, and git must find something unless -z is given.
cmp_fault() {
	case " $1 $2 " in *" -z "*) cmp_fsck "$@"; return ;; esac
	cmp_fsck "$@" && ! grep -q "^exit=0" "$TRASH/g.out"
}

test_expect_success 'setup: a clean repository, packed and loose' '
	git init -q clean && cd clean &&
	for i in 1 2 3 4; do test_commit c$i || return 1; done &&
	git tag -a -m "annotated" ann c2 &&
	git repack -q -ad &&
	test_commit c5 && test_commit c6 &&
	git fsck
'

test_expect_success 'flipped byte in a loose object (zlib header area)' '
	fresh && f=$(loose_path $(git rev-parse c6:c6.t)) &&
	poke "$f" 4 377 && cmp_fault
'

test_expect_success 'flipped byte in a reachable loose commit: git dies reading it' '
	fresh && f=$(loose_path $(git rev-parse HEAD)) &&
	poke "$f" 10 130 && cmp_fault
'

test_expect_success 'truncated loose object' '
	fresh && f=$(loose_path $(git rev-parse HEAD)) &&
	chmod u+w "$f" && truncate -s 8 "$f" && cmp_fault
'

test_expect_success 'loose object under the wrong name (hash-path mismatch)' '
	fresh && b=$(git rev-parse c6:c6.t) &&
	echo other | git hash-object -w --stdin >/dev/null &&
	o=$(echo other | git hash-object --stdin) &&
	chmod u+w "$(loose_path $b)" && cp "$(loose_path $o)" "$(loose_path $b)" &&
	cmp_fault
'

test_expect_success 'garbage file in the object directory' '
	fresh && mkdir -p .git/objects/ab && echo junk >.git/objects/ab/not-an-object &&
	cmp_fault -z
'

test_expect_success 'missing loose blob and commit' '
	fresh && rm -f "$(loose_path $(git rev-parse c6:c6.t))" && cmp_fault &&
	fresh && rm -f "$(loose_path $(git rev-parse c6))" && cmp_fault
'

test_expect_success 'flipped byte in a pack entry (CRC and inflate failure)' '
	fresh && p=$(ls .git/objects/pack/*.pack) &&
	git verify-pack -v "${p%.pack}.idx" | grep " blob " | head -1 >blob.line &&
	off=$(awk "{print \$5}" blob.line) &&
	poke "$p" $((off + 6)) 125 && cmp_fault
'

test_expect_success 'flipped byte in a reachable packed commit: git dies reading it' '
	fresh && p=$(ls .git/objects/pack/*.pack) &&
	off=$(git verify-pack -v "${p%.pack}.idx" | grep " commit " | head -1 | awk "{print \$5}") &&
	poke "$p" $((off + 8)) 125 && cmp_fault
'

test_expect_success 'truncated pack' '
	fresh && p=$(ls .git/objects/pack/*.pack) &&
	chmod u+w "$p" && truncate -s 300 "$p" && cmp_fault -u
'

test_expect_success 'pack trailer damaged (checksum mismatch)' '
	fresh && p=$(ls .git/objects/pack/*.pack) &&
	size=$(wc -c <"$p") && poke "$p" $((size - 3)) 0 && cmp_fault -u
'

test_expect_success 'index checksum damaged' '
	fresh && i=$(ls .git/objects/pack/*.idx) &&
	size=$(wc -c <"$i") && poke "$i" $((size - 3)) 0 && cmp_fault -u
'

test_expect_success 'a REF_DELTA whose base is missing' '
	git init -q refd && cd refd &&
	for i in 1 2 3 4 5 6; do
		seq 1 100 | sed "s/^$i\$/x$i/" >f && git add f && git commit -q -m c$i || return 1
	done &&
	git -c repack.useDeltaBaseOffset=false repack -q -adf &&
	cd .. && rm -rf refd.clean && cp -R refd refd.clean && cd refd &&
	p=$(ls .git/objects/pack/*.pack) &&
	git verify-pack -v "${p%.pack}.idx" >vp &&
	off=$(awk "\$6 ~ /^[0-9]+\$/ && \$2 == \"blob\" { print \$5; exit }" vp) &&
	test -n "$off" &&
	poke "$p" $((off + 3)) 1 && cmp_fault
'

test_expect_success 'an index that does not match its pack (entries swapped)' '
	rm -rf swapped && cp -R refd.clean swapped && cd swapped &&
	i=$(ls .git/objects/pack/*.idx) && chmod u+w "$i" &&
	python3 - "$i" <<-\PY &&
	import sys, hashlib, struct
	p = sys.argv[1]
	d = bytearray(open(p, "rb").read())
	n = struct.unpack(">I", d[8 + 255 * 4:8 + 256 * 4])[0]
	off = 8 + 256 * 4 + n * 24
	a, b = off + 4, off + 8
	d[a:a + 4], d[b:b + 4] = d[b:b + 4], d[a:a + 4]
	d[-20:] = hashlib.sha1(bytes(d[:-20])).digest()
	open(p, "wb").write(d)
	PY
	cmp_fault
'

# Syntax faults: objects written with hash-object --literally (loose),
# then the same objects packed, since git's exit bits differ (a bad packed
# object is a pack error).
T= B= C=
bad() {
	type=$1 name=$2; shift 2
	printf "$@" >"$TRASH/obj.$name" &&
	fresh && id=$(git hash-object -t $type --literally -w "$TRASH/obj.$name") &&
	cmp_fault -z && echo $id | git pack-objects -q .git/objects/pack/pack >/dev/null &&
	rm -f "$(loose_path $id)" && cmp_fault -z
}
tree_of() {
	while [ $# -gt 0 ]; do
		printf "%s %s\\0" "$1" "$2" && printf "%s" "$3" | xxd -r -p || return 1
		shift 3
	done
}

test_expect_success 'setup syntax faults' '
	cd clean && git rev-parse HEAD^{tree} >../T && git rev-parse HEAD:c1.t >../B &&
	git rev-parse HEAD >../C && command -v xxd
'
T=$(cat T 2>/dev/null) B=$(cat B 2>/dev/null) C=$(cat C 2>/dev/null)
A="author A U Thor <a@example.com> 1112911993 -0700"
K="committer C O Mitter <c@example.com> 1112911993 -0700"
G="tagger T A Gger <t@example.com> 1112911993 -0700"

for c in \
	"unsorted:100644 b $B 100644 a $B" \
	"duplicate:100644 a $B 100644 a $B" \
	"dup-blob-tree:100644 a $B 40000 a $T" \
	"dup-non-adjacent:100644 a $B 100644 a.c $B 40000 a $T" \
	"zero-padded:0100644 a $B" \
	"group-writable:100664 a $B" \
	"bad-mode:100600 a $B" \
	"dot:100644 . $B" \
	"dotdot:100644 .. $B" \
	"dotgit:100644 .GIT $B" \
	"full-path:100644 a/b $B" \
	"backslash-dotgit:100644 a\\.git $B" \
	"gitmodules-symlink:120000 .gitmodules $B" \
	"gitignore-symlink:120000 .gitignore $B" \
	"null-sha1:100644 a 0000000000000000000000000000000000000000"
do
	name=${c%%:*} entries=${c#*:}
	test_expect_success "tree: $name" '
		tree_of $entries >"$TRASH/tree.$name" &&
		bad tree $name "%s" "$(cat "$TRASH/tree.$name" | od -An -v -tx1 | tr -d " \\n" | sed "s/../\\\\x&/g")"
	'
done

test_expect_success 'tree: truncated entries' '
	bad tree short1 "100644 a\\0abc" && bad tree badmodechar "10x644 a\\0abcdefghijklmnopqrst"
'

test_expect_success 'commit: header faults' '
	bad commit notree "$A\\n$K\\n\\nm\\n" &&
	bad commit badtree "tree ${T%?}x\\n$A\\n$K\\n\\nm\\n" &&
	bad commit badparent "tree $T\\nparent ${C%?}x\\n$A\\n$K\\n\\nm\\n" &&
	bad commit noauthor "tree $T\\n$K\\n\\nm\\n" &&
	bad commit twoauthors "tree $T\\n$A\\n$A\\n$K\\n\\nm\\n" &&
	bad commit nocommitter "tree $T\\n$A\\n\\nm\\n" &&
	bad commit unterminated "tree $T\\n$A\\n$K" &&
	bad commit nulbody "tree $T\\n$A\\n$K\\n\\nm\\0x\\n" &&
	bad commit nulheader "tree $T\\n$A\\0\\n$K\\n\\nm\\n"
'

test_expect_success 'commit: ident faults' '
	bad commit bademail "tree $T\\nauthor A a@example.com> 1 -0700\\n$K\\n\\nm\\n" &&
	bad commit bademail2 "tree $T\\nauthor A <a@example.com 1 -0700\\n$K\\n\\nm\\n" &&
	bad commit noname "tree $T\\nauthor <a@example.com> 1 -0700\\n$K\\n\\nm\\n" &&
	bad commit nospace "tree $T\\nauthor A<a@example.com> 1 -0700\\n$K\\n\\nm\\n" &&
	bad commit nodatespace "tree $T\\nauthor A <a@example.com>1 -0700\\n$K\\n\\nm\\n" &&
	bad commit zerodate "tree $T\\nauthor A <a@example.com> 01 -0700\\n$K\\n\\nm\\n" &&
	bad commit overflow "tree $T\\nauthor A <a@example.com> 99999999999999999999999 -0700\\n$K\\n\\nm\\n" &&
	bad commit baddate "tree $T\\nauthor A <a@example.com> abc -0700\\n$K\\n\\nm\\n" &&
	bad commit badtz "tree $T\\nauthor A <a@example.com> 1 -07000\\n$K\\n\\nm\\n" &&
	bad commit badname "tree $T\\nauthor A>B <a@example.com> 1 -0700\\n$K\\n\\nm\\n"
'

test_expect_success 'tag: header faults (missing tagger is a warning)' '
	bad tag notagger "object $C\\ntype commit\\ntag v1\\n\\nm\\n" &&
	bad tag noobject "type commit\\ntag v1\\n$G\\n\\nm\\n" &&
	bad tag badobject "object ${C%?}x\\ntype commit\\ntag v1\\n$G\\n\\nm\\n" &&
	bad tag badtype "object $C\\ntype cmmit\\ntag v1\\n$G\\n\\nm\\n" &&
	bad tag notype "object $C\\ntag v1\\n$G\\n\\nm\\n" &&
	bad tag notag "object $C\\ntype commit\\n$G\\n\\nm\\n" &&
	bad tag badname "object $C\\ntype commit\\ntag v..1\\n$G\\n\\nm\\n" &&
	bad tag extra "object $C\\ntype commit\\ntag v1\\n$G\\nextra\\n\\nm\\n"
'

# A tag that lies about its object's type. git's first lookup of an id
# fixes the type of its in-memory object; when the lying tag is read first
# (loose objects are read before packs) the tagged commit, every object
# naming it and every ref to them then fail in cascade. mini-git reports
# the lie only when the object was read before the tag.
test_expect_failure 'tag: wrong type of the tagged object, tag read first' '
	printf "object %s\\ntype tree\\ntag v1\\n%s\\n\\nm\\n" $(git -C clean rev-parse c2) "$G" >"$TRASH/obj.wt" &&
	fresh && git hash-object -t tag --literally -w "$TRASH/obj.wt" >/dev/null && cmp_fault
'

# git's connectivity walk decodes each reachable tree again and repeats
# what stops its decoder; a bad later entry is told twice while checking
# (its walk, then its syntax check), a bad first entry once.
test_expect_success 'reachable trees git cannot decode: told again by the walk' '
	B=$(git -C clean rev-parse c1:c1.t) &&
	fresh &&
	{ tree_of 100644 a $B 10x644 b $B >"$TRASH/tree.mode" &&
	  printf "100644 a\0" >"$TRASH/tree.short" && printf 1234 >>"$TRASH/tree.short"; } &&
	t1=$(git hash-object -t tree --literally -w "$TRASH/tree.mode") &&
	t2=$(git hash-object -t tree --literally -w "$TRASH/tree.short") &&
	git update-ref refs/heads/b1 $(git commit-tree $t1 -m one) &&
	git update-ref refs/heads/b2 $(git commit-tree $t2 -m two) &&
	cmp_fault && test $(grep -c "malformed mode" "$TRASH/m.err") = 3 &&
	MINI_GIT_THREADS=3 cmp_fault --no-dangling &&
	cmp_fault -z --connectivity-only && test $(grep -c "malformed mode" "$TRASH/m.err") = 1
'

# --connectivity-only reads objects to walk them, without git's syntax
# checks: a bad date is no finding there, nor is a tag listed by --tags.
test_expect_success '--connectivity-only: no syntax findings' '
	T=$(git -C clean rev-parse c1^{tree}) &&
	printf "tree %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> xx +0000\n\nm\n" $T >"$TRASH/obj.bd" &&
	fresh && c=$(git hash-object -t commit --literally -w "$TRASH/obj.bd") &&
	git update-ref refs/heads/bd $c && git tag -a -m t tg $c &&
	cmp_fault && grep badDate "$TRASH/m.err" &&
	cmp_fault -z --connectivity-only --tags && ! grep badDate "$TRASH/m.err" &&
	echo $c | git pack-objects -q .git/objects/pack/pack && rm -f "$(loose_path $c)" &&
	cmp_fault -z --connectivity-only --root
'

test_expect_success '--strict and fsck.<msg-id> change severities like git' '
	printf "object $C\\ntype commit\\ntag v1\\n\\nm\\n" >"$TRASH/obj.nt" &&
	fresh && git hash-object -t tag --literally -w "$TRASH/obj.nt" >/dev/null &&
	cmp_fault -z --strict &&
	git config fsck.missingTaggerEntry error && cmp_fault &&
	git config fsck.missingTaggerEntry ignore && cmp_fault -z &&
	git config fsck.missingTaggerEntry bogus && cmp_fault &&
	git config --unset fsck.missingTaggerEntry &&
	git config fsck.noSuchId error && cmp_fault
'

test_done
