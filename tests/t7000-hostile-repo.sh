#!/bin/sh
# Damaged repositories, made by scripts: every command that reads one
# gives git's exit code (and git's message where git's is stable), within
# bounded CPU time and memory, and never writes to the repository.
. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIRECTORY/lib-hostile.sh"

# hostile [-c] ARGS...: "same", skipped for a command mini-git lacks.
hostile() {
	cmd=$1
	[ "$cmd" = "-c" ] && cmd=$2
	if ! has_cmd "$cmd"; then
		echo "skipped: no mini-git $cmd"
		return 0
	fi
	same "$@"
}

# mini_only CODE PATTERN ARGS...: where git's own answer is no model (it
# runs out of memory), mini-git exits with CODE, says PATTERN on stderr,
# within the bounds, without writing.
mini_only() {
	want=$1 pattern=$2; shift 2
	if ! has_cmd "$1"; then
		echo "skipped: no mini-git $1"
		return 0
	fi
	snapshot "$TRASH/.before"
	bounded "$MINI_GIT" "$@" >"$TRASH/.actual.out" 2>"$TRASH/.actual.err"
	ret=$?
	snapshot "$TRASH/.after"
	test_cmp "$TRASH/.before" "$TRASH/.after" || { echo "mini-git $* wrote to the repository"; return 1; }
	cat "$TRASH/.actual.err"
	[ $ret = "$want" ] || { echo "exit $ret, want $want"; return 1; }
	grep -q "$pattern" "$TRASH/.actual.err"
}

# The healthy repository every case starts from: history, annotated tags,
# a branch, refs packed, objects in one pack.
test_expect_success 'setup' '
	git init -q base &&
	(
		cd base &&
		for i in 1 2 3; do
			test_tick &&
			echo "content $i" >f$i && git add f$i &&
			git commit -q -m "c$i" && git tag -a -m "t$i" v$i || exit 1
		done &&
		git branch side HEAD~1 &&
		git pack-refs --all &&
		git -c gc.writeCommitGraph=false gc -q &&
		rm -f .git/objects/info/commit-graph &&
		git fsck
	)
'

fresh() {
	rm -rf "$TRASH/$1" && cp -R "$TRASH/base" "$TRASH/$1" && cd "$TRASH/$1"
}

REF_CMDS='show-ref
rev-parse master
rev-parse --verify -q refs/heads/side
branch
branch -a -v
for-each-ref
cat-file -t master
symbolic-ref HEAD'

# all_ref_cmds [-c]: every reading command of REF_CMDS through hostile.
all_ref_cmds() {
	ok=0
	echo "$REF_CMDS" | {
		while read -r line; do
			echo "== $line"
			# shellcheck disable=SC2086
			hostile $1 $line || ok=1
		done
		exit $ok
	}
}

test_expect_success 'truncated packed-refs (cut in a line)' '
	fresh trunc1 &&
	head -c 100 .git/packed-refs >tmp && mv tmp .git/packed-refs &&
	all_ref_cmds
'

test_expect_success 'truncated packed-refs (after the header)' '
	fresh trunc2 &&
	head -n 1 .git/packed-refs >tmp && mv tmp .git/packed-refs &&
	all_ref_cmds
'

# git reports the record before the cut peeled line as "unexpected line".
test_expect_success 'truncated packed-refs (in a peeled line)' '
	fresh trunc3 &&
	n=$(grep -b "^\^" .git/packed-refs | head -n1 | cut -d: -f1) &&
	head -c $((n + 7)) .git/packed-refs >tmp && mv tmp .git/packed-refs &&
	all_ref_cmds
'

test_expect_success 'garbage packed-refs' '
	fresh garbage1 &&
	printf "garbage\nmore garbage\n" >.git/packed-refs &&
	all_ref_cmds
'

# git checks the records of a packed-refs file only as it reads them (a
# lookup that does not land on a bad record succeeds).
test_expect_success 'binary garbage packed-refs' '
	fresh garbage2 &&
	perl -e "binmode STDOUT; print map { chr((\$_ * 37 + 11) % 256) } 0 .. 4095; print qq(\n)" \
		>.git/packed-refs &&
	all_ref_cmds -c
'

test_expect_success 'binary garbage packed-refs: same failure as git when read' '
	fresh garbage2b &&
	perl -e "binmode STDOUT; print map { chr((\$_ * 37 + 11) % 256) } 0 .. 4095; print qq(\n)" \
		>.git/packed-refs &&
	hostile -c show-ref &&
	hostile -c for-each-ref
'

test_expect_success 'packed-refs: short hash, bad peeled line, two peeled lines' '
	fresh garbage3 &&
	{ echo "# pack-refs with: peeled fully-peeled sorted " &&
	  echo "0123 refs/heads/short"; } >.git/packed-refs &&
	all_ref_cmds &&
	{ echo "# pack-refs with: peeled fully-peeled sorted " &&
	  echo "$(git rev-parse --verify HEAD) refs/heads/x" &&
	  echo "^zz"; } >.git/packed-refs &&
	all_ref_cmds &&
	{ echo "# pack-refs with: peeled fully-peeled sorted " &&
	  echo "$(git rev-parse --verify HEAD) refs/heads/x" &&
	  echo "^$(git rev-parse --verify HEAD)" &&
	  echo "^$(git rev-parse --verify HEAD)"; } >.git/packed-refs &&
	all_ref_cmds
'

# git dies "packed refname is dangerous: <name>" when it lists such a record.
test_expect_success 'packed-refs: names outside refs/ and dangerous names' '
	fresh dangerous &&
	h=$(git rev-parse --verify HEAD) &&
	{ echo "# pack-refs with: peeled fully-peeled sorted " &&
	  echo "$h refs/heads/../../config"; } >.git/packed-refs &&
	all_ref_cmds
'

# A record named "" (a NUL first) sorts before refs/: git's show-ref and
# branch -a read packed-refs from its start and die on it; branch and
# for-each-ref with a pattern start where their prefix does.
test_expect_success 'packed-refs: a dangerous name before refs/' '
	fresh dangerous2 &&
	h=$(git rev-parse --verify HEAD) &&
	{ echo "# pack-refs with: peeled fully-peeled sorted " &&
	  printf "%s \\000x\\n" "$h"; } >.git/packed-refs &&
	all_ref_cmds
'

# git reads packed-refs from a pattern's longest prefix before its first
# wildcard ("refs/tags" for "refs/tags"), so a dangerous record between
# refs/heads/ and refs/tags/ stops some listings and not others.
test_expect_success 'packed-refs: a dangerous name between two prefixes' '
	fresh dangerous3 &&
	h=$(git rev-parse --verify HEAD) &&
	{ echo "# pack-refs with: peeled fully-peeled sorted " &&
	  echo "$h HEADX" && echo "$h refs/heads/p" &&
	  echo "$h refs/notes/../x" && echo "$h refs/tags/t1"; } >.git/packed-refs &&
	all_ref_cmds &&
	for args in "for-each-ref refs/tags" "for-each-ref refs/tags/" "for-each-ref refs/t*" \
		"for-each-ref refs/heads/p" "branch -a --list m*" "show-ref --tags" "branch -r"; do
		echo "== $args" && hostile $args || return 1
	done
'

test_expect_success 'garbage HEAD' '
	fresh head1 &&
	echo garbage >.git/HEAD &&
	all_ref_cmds &&
	printf "ref: refs/heads/master" >.git/HEAD &&
	all_ref_cmds &&
	: >.git/HEAD &&
	all_ref_cmds &&
	head -c 100000 /dev/zero | tr "\\0" a >.git/HEAD &&
	all_ref_cmds
'

test_expect_success 'HEAD pointing outside refs/' '
	fresh head2 &&
	echo "ref: refs/heads/../../config" >.git/HEAD &&
	all_ref_cmds &&
	echo "ref: /etc/passwd" >.git/HEAD &&
	all_ref_cmds &&
	echo "ref: ../outside" >.git/HEAD &&
	all_ref_cmds
'

test_expect_success 'symlink loops in refs' '
	fresh symlinks &&
	ln -s loop .git/refs/heads/loop &&
	ln -s b .git/refs/heads/a && ln -s a .git/refs/heads/b &&
	all_ref_cmds -c &&
	hostile rev-parse loop &&
	hostile rev-parse a &&
	hostile show-ref refs/heads/a
'

test_expect_success 'symbolic-ref loops and long chains' '
	fresh symrefs &&
	echo "ref: refs/heads/y" >.git/refs/heads/x &&
	echo "ref: refs/heads/x" >.git/refs/heads/y &&
	echo "ref: refs/heads/self" >.git/refs/heads/self &&
	all_ref_cmds &&
	hostile rev-parse x &&
	hostile rev-parse --verify -q self &&
	echo "ref: refs/heads/x" >.git/HEAD &&
	all_ref_cmds
'

# git follows at most 5 symbolic refs (SYMREF_MAXDEPTH): a chain of five
# symrefs before the value is broken.
test_expect_success 'symbolic-ref chains longer than git allows' '
	fresh symchain &&
	i=0 && while [ $i -lt 10 ]; do
		echo "ref: refs/heads/c$((i + 1))" >.git/refs/heads/c$i && i=$((i + 1))
	done &&
	git rev-parse --verify HEAD >.git/refs/heads/c10 &&
	hostile rev-parse c0 &&
	hostile rev-parse c5 &&
	hostile rev-parse c6 &&
	hostile show-ref &&
	hostile for-each-ref
'

test_expect_success 'loose refs pointing outside refs/' '
	fresh outside &&
	echo "ref: ../../config" >.git/refs/heads/up &&
	echo "ref: /etc/passwd" >.git/refs/heads/abs &&
	ln -s /etc/passwd .git/refs/heads/link &&
	ln -s ../../../config .git/refs/heads/link2 &&
	all_ref_cmds -c &&
	hostile rev-parse up &&
	hostile rev-parse abs &&
	hostile -c rev-parse link &&
	hostile -c rev-parse link2
'

# A loose object file with any header: loose_object HEADER BODY writes
# zlib(HEADER NUL BODY) under the SHA-1 of those bytes (so that only the
# header is wrong, not the name); prints the name. With a third argument,
# that is the name instead.
loose_object() {
	header=$1 body=$2
	name=${3:-$(printf "%s\0%s" "$header" "$body" | sha1sum | cut -c1-40)}
	mkdir -p .git/objects/$(echo $name | cut -c1-2) &&
	perl -MCompress::Zlib -e '
		binmode STDOUT; print compress($ARGV[0] . "\0" . $ARGV[1]);' "$header" "$body" \
		>.git/objects/$(echo $name | cut -c1-2)/$(echo $name | cut -c3-) &&
	echo $name
}

# How many times git repeats an error about a bad pack while peeling is
# an accident of its retry logic: the last command compares codes only.
OBJ_CMDS='cat-file -t OID
cat-file -s OID
cat-file -p OID
cat-file blob OID
-c rev-parse --verify OID^{commit}'

all_obj_cmds() {
	oid=$1 ok=0
	echo "$OBJ_CMDS" | sed "s/OID/$oid/" | {
		while read -r line; do
			echo "== $line"
			# shellcheck disable=SC2086
			case "$line" in
			-c*) hostile $line || ok=1 ;;
			*) hostile $2 $line || ok=1 ;;
			esac
		done
		exit $ok
	}
}

test_expect_success 'loose objects with huge sizes in their headers' '
	fresh huge &&
	for h in "blob 999999999999999999" "blob 18446744073709551609"; do
		o=$(loose_object "$h" "abc") && all_obj_cmds $o || exit 1
	done &&
	# git allocates the size it is told; what follows depends on the
	# memory it may use (out of memory under our bounds, exit 0 without).
	# mini-git refuses a size zlib cannot reach from the length of the file.
	for h in "commit 4294967296" "tree 2147483648"; do
		o=$(loose_object "$h" "abc") &&
		hostile cat-file -t $o &&
		hostile cat-file -s $o &&
		mini_only 128 "corrupt" cat-file -p $o || exit 1
	done &&
	for h in "blob 18446744073709551616" "blob 9999999999999999999999999999"; do
		o=$(loose_object "$h" "abc") && all_obj_cmds $o -c || exit 1
	done
'

# git dies "size_t overflow: 18446744073709551610 + 6" on a size that does
# not fit in 64 bits.
test_expect_success 'loose object sizes past 2^64: git message' '
	fresh overflow &&
	o=$(loose_object "blob 18446744073709551616" "abc") &&
	all_obj_cmds $o
'

# git takes any size up to 2^64-1 (cat-file -t/-s answer, -p streams
# the 3 bytes and exits 0).
test_expect_success 'loose objects of sizes just below 2^64' '
	fresh sizemax &&
	for h in "blob 18446744073709551610" "blob 18446744073709551615"; do
		o=$(loose_object "$h" "abc") && all_obj_cmds $o || exit 1
	done
'

test_expect_success 'loose objects with broken headers' '
	fresh badhdr &&
	for h in "blob 3" "blob 03" "blob 4" \
		"blobblobblobblobblobblobblobblobblob 3" "bad 3" "blob 3 3"; do
		o=$(loose_object "$h" "abc") && all_obj_cmds $o || exit 1
	done &&
	# git reads an uninitialized size for these: its message varies.
	for h in "blob" "blob " "blob -3"; do
		o=$(loose_object "$h" "abc") && all_obj_cmds $o -c || exit 1
	done &&
	o6=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa &&
	mkdir -p .git/objects/aa && : >.git/objects/aa/$(echo $o6 | cut -c3-) &&
	all_obj_cmds $o6 &&
	o7=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb &&
	mkdir -p .git/objects/bb && echo garbage >.git/objects/bb/$(echo $o7 | cut -c3-) &&
	all_obj_cmds $o7
'

# mkpack PREFIX < spec: a .pack and its .idx with any delta graph (see
# the script); git index-pack refuses to index such packs.
mkpack() {
	perl "$TRASH/mkpack.pl" "$1"
}

# A blob with more data than its header says: git streams all of it
# (cat-file -p and cat-file blob print "abc", exit 0).
test_expect_success 'loose blob longer than its header' '
	fresh longblob &&
	o=$(loose_object "blob 2" "abc") &&
	hostile cat-file -p $o &&
	hostile cat-file blob $o
'

test_expect_success 'loose blob longer than its header: type, size, exit code' '
	fresh longblob2 &&
	o=$(loose_object "blob 2" "abc") &&
	hostile cat-file -t $o &&
	hostile cat-file -s $o &&
	hostile -c cat-file -p $o
'

# rev-parse X^{commit} parses the commit as git does ("error: bogus
# commit object X", exit 128).
test_expect_success 'rev-parse peeling a corrupt commit' '
	fresh bogus &&
	o=$(loose_object "commit 3" "abc") &&
	hostile rev-parse --verify $o^{commit} &&
	hostile rev-parse --verify $o^{tree} &&
	o=$(loose_object "commit 4294967296" "abc") &&
	hostile -c rev-parse --verify $o^{commit}
'

# git checks the hash of an object it parses (rev-parse ^{commit} says
# "hash mismatch").
test_expect_success 'loose object whose contents do not match its name' '
	fresh mismatch &&
	o=$(loose_object "blob 3" "abc" 5555555555555555555555555555555555555555) &&
	hostile rev-parse --verify $o^{commit}
'

test_expect_success 'setup pack builder' '
	cat >"$TRASH/mkpack.pl" <<-\PERL
	# PREFIX < lines "blob TEXT" or "refdelta CLAIMED_HEX BASE_HEX" (a
	# delta inserting "abc", on a 3-byte base): PREFIX.pack, PREFIX.idx (v2).
	use strict; use warnings;
	use Compress::Zlib; use Digest::SHA qw(sha1);
	my $prefix = shift;
	my @ent;
	while (<STDIN>) {
		chomp;
		my @f = split / /, $_, 3;
		if ($f[0] eq "blob") {
			push @ent, [sha1("blob " . length($f[1]) . "\0" . $f[1]), 3, $f[1], ""];
		} elsif ($f[0] eq "refdelta") {
			push @ent, [pack("H40", $f[1]), 7, "\x03\x03\x03abc", pack("H40", $f[2])];
		}
	}
	my $pack = "PACK" . pack("NN", 2, scalar @ent);
	my @idx;
	for my $e (@ent) {
		my ($oid, $type, $data, $base) = @$e;
		my $len = length $data;
		my $h = chr(($type << 4) | ($len & 15) | ($len > 15 ? 0x80 : 0));
		$len >>= 4;
		while ($len) { $h .= chr(($len & 0x7f) | ($len > 127 ? 0x80 : 0)); $len >>= 7; }
		my $raw = $h . $base . compress($data);
		push @idx, [$oid, length $pack, crc32($raw)];
		$pack .= $raw;
	}
	$pack .= sha1($pack);
	@idx = sort { $a->[0] cmp $b->[0] } @idx;
	my @fan = (0) x 256;
	$fan[ord(substr($_->[0], 0, 1))]++ for @idx;
	$fan[$_] += $fan[$_ - 1] for 1 .. 255;
	my $idx = "\377tOc" . pack("N", 2) . pack("N256", @fan);
	$idx .= $_->[0] for @idx;
	$idx .= pack("N", $_->[2]) for @idx;
	$idx .= pack("N", $_->[1]) for @idx;
	$idx .= substr($pack, -20);
	$idx .= sha1($idx);
	for (["pack", $pack], ["idx", $idx]) {
		open(my $f, ">", "$prefix.$_->[0]") or die; binmode $f; print $f $_->[1]; close $f;
	}
	PERL
	git init -q packtest &&
	echo "blob hello" | mkpack packtest/.git/objects/pack/pack-t &&
	git -C packtest cat-file -p $(printf hello | git hash-object --stdin) >out &&
	printf hello >expect && test_cmp expect out
'

test_expect_success 'delta chains that loop' '
	fresh loops &&
	X=$(printf loop1 | git hash-object --stdin) &&
	A=$(printf A | git hash-object --stdin) &&
	B=$(printf B | git hash-object --stdin) &&
	printf "refdelta $X $X\nrefdelta $A $B\nrefdelta $B $A\nblob hello\n" |
		mkpack .git/objects/pack/pack-loop &&
	# git itself runs out of memory on these: only mini-git is judged.
	for o in $X $A $B; do
		mini_only 128 "delta chain" cat-file -t $o &&
		mini_only 128 "delta chain" cat-file -p $o || exit 1
	done &&
	hostile cat-file -p $(printf hello | git hash-object --stdin) &&
	mini_only 4 "unresolved deltas\|delta" fsck
'

test_expect_success 'REF_DELTA on a missing base' '
	fresh nobase &&
	X=$(printf nb | git hash-object --stdin) &&
	printf "refdelta $X 1234567890123456789012345678901234567890\n" |
		mkpack .git/objects/pack/pack-nobase &&
	hostile -c cat-file -t $X &&
	hostile -c cat-file -p $X
'

# Offsets in an index: patch_idx_offset IDX N VALUE sets the N-th entry
# of the 8-byte offset table (the index must have one) to VALUE.
patch_idx_offset() {
	perl -e '
		my ($f, $n, $v) = @ARGV;
		open(F, "+<", $f) or die; binmode F; local $/; my $d = <F>;
		my $nr = unpack("N", substr($d, 8 + 255 * 4, 4));
		my $at = 8 + 1024 + $nr * 28 + $n * 8;
		die "no such entry" if $at + 8 > length($d) - 40;
		substr($d, $at, 8) = pack("Q>", $v);
		seek(F, 0, 0); print F $d; close F;' "$@"
}

test_expect_success '64-bit offsets past the end of the pack' '
	fresh off64 &&
	idx=$(ls .git/objects/pack/pack-*.idx) &&
	pack=${idx%.idx}.pack &&
	rm -f "$idx" &&
	git index-pack --index-version=2,100 -o "$idx" "$pack" >/dev/null &&
	test $(($(wc -c <"$idx") - 8 - 1024 - 40 - 12 * 28)) -ge 24 &&
	chmod u+w "$idx" &&
	patch_idx_offset "$idx" 0 68719476736 &&
	patch_idx_offset "$idx" 1 18446744073709551615 &&
	patch_idx_offset "$idx" 2 12 &&
	for o in $(git cat-file --batch-all-objects --batch-check="%(objectname)"); do
		hostile -c cat-file -t $o &&
		hostile -c cat-file -p $o || exit 1
	done &&
	hostile -c rev-parse --verify master^{tree} &&
	hostile -c branch -v
'

test_expect_success '32-bit offsets past the end and into the header' '
	fresh off32 &&
	idx=$(ls .git/objects/pack/pack-*.idx) &&
	chmod u+w "$idx" &&
	perl -e "
		my (\$f) = @ARGV;
		open(F, \"+<\", \$f) or die; binmode F; local \$/; my \$d = <F>;
		my \$nr = unpack(\"N\", substr(\$d, 8 + 255 * 4, 4));
		my \$at = 8 + 1024 + \$nr * 24;
		substr(\$d, \$at, 4) = pack(\"N\", 0x7ffffff0);
		substr(\$d, \$at + 4, 4) = pack(\"N\", 3);
		seek(F, 0, 0); print F \$d; close F;" "$idx" &&
	set -- $(git show-index <"$idx" | cut -d" " -f2 | head -n 2) &&
	hostile -c cat-file -t $1 &&
	hostile -c cat-file -p $1 &&
	# git reads an entry at offset 3 (inside the pack header) as whatever
	# it finds there; mini-git refuses offsets below 12.
	mini_only 128 "bad object header" cat-file -t $2 &&
	hostile -c cat-file -p $2
'

test_expect_success 'offset past the end: git message' '
	cd "$TRASH/off32" &&
	hostile cat-file -p $(git show-index <$(ls .git/objects/pack/pack-*.idx) | cut -d" " -f2 | head -n 1)
'

test_expect_success 'zero-length pack and index' '
	fresh zero &&
	pack=$(ls .git/objects/pack/pack-*.pack) &&
	chmod u+w "$pack" && : >"$pack" &&
	all_obj_cmds $(git -C ../base rev-parse master) &&
	hostile show-ref &&
	hostile branch &&
	fresh zeroidx &&
	idx=$(ls .git/objects/pack/pack-*.idx) &&
	chmod u+w "$idx" && : >"$idx" &&
	all_obj_cmds $(git -C ../base rev-parse master)
'

# git branch -v skips branches whose commit it cannot read (each pack
# error reported twice per branch: parse_object looks, then reads; exit 0).
test_expect_success 'branch -v with an unreadable pack' '
	cd "$TRASH/zero" &&
	hostile branch -v
'

test_expect_success 'huge sparse pack and index' '
	fresh sparse &&
	pack=$(ls .git/objects/pack/pack-*.pack) &&
	chmod u+w "$pack" && truncate -s 64G "$pack" &&
	all_obj_cmds $(git -C ../base rev-parse master) -c &&
	fresh sparseidx &&
	idx=$(ls .git/objects/pack/pack-*.idx) &&
	chmod u+w "$idx" && truncate -s 8G "$idx" &&
	all_obj_cmds $(git -C ../base rev-parse master) -c
'

test_expect_success 'pack with a wrong object count, version, signature' '
	fresh packhdr &&
	pack=$(ls .git/objects/pack/pack-*.pack) && chmod u+w "$pack" &&
	printf "\\000\\000\\377\\377" | dd of="$pack" bs=1 seek=8 conv=notrunc 2>/dev/null &&
	all_obj_cmds $(git -C ../base rev-parse master) &&
	fresh packver &&
	pack=$(ls .git/objects/pack/pack-*.pack) && chmod u+w "$pack" &&
	printf "\\000\\000\\000\\011" | dd of="$pack" bs=1 seek=4 conv=notrunc 2>/dev/null &&
	all_obj_cmds $(git -C ../base rev-parse master) &&
	fresh packsig &&
	pack=$(ls .git/objects/pack/pack-*.pack) && chmod u+w "$pack" &&
	printf "JUNK" | dd of="$pack" bs=1 seek=0 conv=notrunc 2>/dev/null &&
	all_obj_cmds $(git -C ../base rev-parse master)
'

test_expect_success 'alternates cycle' '
	fresh alt1 && cd .. && fresh alt2 && cd .. &&
	echo "$TRASH/alt2/.git/objects" >alt1/.git/objects/info/alternates &&
	echo "$TRASH/alt1/.git/objects" >alt2/.git/objects/info/alternates &&
	cd alt1 &&
	all_obj_cmds $(git rev-parse master) &&
	hostile cat-file -t 1234567890123456789012345678901234567890 &&
	cd ../alt2 && hostile -c fsck &&
	cd .. && fresh alt3 &&
	echo "$TRASH/alt3/.git/objects" >.git/objects/info/alternates &&
	echo "../../../alt3/.git/objects" >>.git/objects/info/alternates &&
	all_obj_cmds $(git rev-parse master) &&
	hostile -c fsck
'

# git 2.39: "unable to normalize alternate object path: X" for a path
# whose real path cannot be found (a missing directory before the last).
test_expect_success 'alternates: missing, relative, garbage' '
	fresh alt4 &&
	printf "/nonexistent/objects\n\n#comment\nrelative/nowhere\n" >.git/objects/info/alternates &&
	all_obj_cmds $(git rev-parse master) &&
	hostile -c fsck
'

test_done
