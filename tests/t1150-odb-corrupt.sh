#!/bin/sh
# Damaged object stores: every case is compared with git on the same copy
# (exit code, stdout and stderr). Nothing may crash or loop.
#
# git's streaming of a corrupt loose blob writes the chunks it inflated
# before the error, so for those cases stdout is compared only up to the
# shorter of the two outputs (git writes 16 KiB chunks, as we do).
. "$(dirname "$0")/test-lib.sh"

# Every way cat-file reads the objects given, compared with git.
compare_reads() {
	for id in "$@"; do
		for m in -t -s -p -e blob commit; do
			compare_git cat-file $m $id || return 1
		done &&
		echo $id >in &&
		compare_git_stdin in cat-file --batch &&
		compare_git_stdin in cat-file --batch-check || return 1
	done
}

# poke FILE OFFSET HEX: overwrite bytes.
poke() {
	chmod u+w "$1" &&
	perl -e 'open F, "+<", $ARGV[0] or die; seek F, $ARGV[1], 0; print F pack("H*", $ARGV[2]);' "$@"
}

# flip FILE OFFSET: invert one byte.
flip() {
	chmod u+w "$1" &&
	perl -e 'open F, "+<", $ARGV[0] or die; seek F, $ARGV[1], 0; read F, $c, 1;
		seek F, $ARGV[1], 0; print F chr(ord($c) ^ 0xff);' "$@"
}

loose_path() {
	echo .git/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-)
}

test_expect_success 'setup' '
	git init -q orig && cd orig &&
	seq 1 3000 >a && git add a && git commit -q -m one &&
	seq 1 3001 >a && git add a && git commit -q -m two &&
	git tag -a -m tag v1 &&
	git rev-parse HEAD:a >../blob &&
	git rev-parse HEAD >../commit &&
	git rev-parse HEAD^{tree} >../tree &&
	git rev-parse HEAD~1:a >../oldblob &&
	cd .. && cp -R orig packed && git -C packed gc -q &&
	test -z "$(find packed/.git/objects -path "*/objects/??/*")"
'

B=$(cat blob 2>/dev/null) C=$(cat commit 2>/dev/null)
T=$(cat tree 2>/dev/null) O=$(cat oldblob 2>/dev/null)

loose_case() {
	rm -rf l && cp -R orig l && cd l && p=$(loose_path $1) && chmod u+w $p
}

test_expect_success 'loose: truncated blob' '
	loose_case $B && head -c 100 ../orig/$p >$p && compare_reads $B
'
test_expect_success 'loose: flipped byte in blob data (inflate error)' '
	loose_case $B && flip $p 1000 && compare_reads $B
'
test_expect_success 'loose: flipped byte in the zlib header' '
	loose_case $B && flip $p 1 && compare_reads $B
'
test_expect_success 'loose: empty file' '
	loose_case $B && : >$p && compare_reads $B
'
test_expect_success 'loose: cut inside the object header' '
	loose_case $B && head -c 5 ../orig/$p >$p && compare_reads $B
'
test_expect_success 'loose: flipped byte in a commit' '
	loose_case $C && flip $p 100 && compare_reads $C
'
test_expect_success 'loose: truncated commit and tree' '
	loose_case $C && head -c 120 ../orig/$p >$p &&
	q=$(loose_path $T) && chmod u+w $q && head -c 30 ../orig/$q >$q &&
	compare_reads $C $T
'

# zlib of arbitrary bytes as a loose object file.
write_loose() {
	perl -MCompress::Zlib -e 'binmode STDOUT; print compress(join "", map { pack("H*", $_) } @ARGV)' "$@"
}

test_expect_success 'loose: header size smaller and larger than the data' '
	loose_case $C &&
	write_loose $(printf "commit 10\000" | od -An -tx1 | tr -d " \n") \
		$(git cat-file commit $C | od -An -tx1 | tr -d " \n") >$p &&
	compare_reads $C &&
	write_loose $(printf "commit 999\000abc" | od -An -tx1 | tr -d " \n") >$p &&
	# git returns the 999 bytes of a buffer it filled with only 3: the
	# rest is whatever malloc gave, so the contents are not compared.
	compare_git cat-file -t $C && compare_git cat-file -s $C &&
	echo $C >in && compare_git_stdin in cat-file --batch-check &&
	write_loose $(printf "commit 1x\000a" | od -An -tx1 | tr -d " \n") >$p &&
	compare_reads $C &&
	write_loose $(printf "nosuchtypeatall 1\000a" | od -An -tx1 | tr -d " \n") >$p &&
	compare_reads $C
'

pack_case() {
	rm -rf pk && cp -R packed pk && cd pk &&
	idx=$(ls .git/objects/pack/*.idx) && pack=${idx%.idx}.pack &&
	nr=$(git show-index <$idx | wc -l) &&
	chmod u+w $idx $pack
}

# Offset of id in the pack, and its position in the index.
pack_offset() {
	git show-index <$idx | awk -v id=$1 "\$2 == id { print \$1 }"
}
idx_pos() {
	git show-index <$idx | awk "{ print \$2 }" | sort | grep -n $1 | cut -d: -f1
}

test_expect_success 'idx: non-monotonic fan-out' '
	pack_case && poke $idx $((8 + 4 * 100)) 7fffffff && compare_reads $B $C
'
test_expect_success 'idx: too small' '
	pack_case && head -c 100 ../packed/$idx >$idx && compare_reads $B $C
'
test_expect_success 'idx: wrong size' '
	pack_case && printf xxxx >>$idx && compare_reads $B $C
'
test_expect_success 'idx: unknown version' '
	pack_case && poke $idx 4 00000003 && compare_reads $B $C
'
test_expect_success 'idx: offset past the end of the pack' '
	pack_case && pos=$(idx_pos $B) &&
	poke $idx $((8 + 1024 + nr * 24 + (pos - 1) * 4)) 00100000 &&
	compare_reads $B
'
test_expect_success 'idx: 64-bit offset index out of range' '
	pack_case && pos=$(idx_pos $B) &&
	poke $idx $((8 + 1024 + nr * 24 + (pos - 1) * 4)) 80000005 &&
	compare_reads $B
'
test_expect_success 'pack: truncated' '
	pack_case && head -c 300 ../packed/$pack >$pack && compare_reads $B $C
'
test_expect_success 'pack: object count differs from the index' '
	pack_case && poke $pack 8 00000063 && compare_reads $B $C
'
test_expect_success 'pack: flipped byte in a whole object (inflate error)' '
	pack_case && off=$(pack_offset $C) && flip $pack $((off + 10)) && compare_reads $C
'
test_expect_success 'pack: flipped byte in a delta base' '
	pack_case && off=$(pack_offset $B) && flip $pack $((off + 20)) &&
	compare_reads $B $O
'
test_expect_success 'pack: invalid type in an entry header' '
	pack_case && off=$(pack_offset $C) && poke $pack $off d0 &&
	# git -s decodes the size without checking the type: not compared.
	for m in -t -p -e commit; do
		compare_git cat-file $m $C || return 1
	done &&
	echo $C >in &&
	compare_git_stdin in cat-file --batch &&
	compare_git_stdin in cat-file --batch-check
'

# mkpack.pl OUT: writes OUT.pack and OUT.idx (v2) from entry lines:
#   whole <type> <hex data> [<declared size> <id>]
#   ofs <base entry number> <hex delta> <id>
#   ref <base id> <hex delta> <id>
# so that deltas can be wrong in ways no git command would write.
cat >mkpack.pl <<'PERL'
use strict; use warnings;
use Compress::Zlib; use Digest::SHA qw(sha1);
my $out = shift;
my %tn = (commit => 1, tree => 2, blob => 3, tag => 4);
my @lines = <STDIN>;
my $pack = "PACK" . pack("NN", 2, scalar @lines);
my @ent;
for my $l (@lines) {
	chomp $l;
	my @f = split / /, $l;
	my ($type, $data, $id, $size, $extra) = (0, '', '', 0, '');
	if ($f[0] eq 'whole') {
		$type = $tn{$f[1]}; $data = pack("H*", $f[2]);
		$size = defined $f[3] ? $f[3] : length $data;
		$id = defined $f[4] ? pack("H*", $f[4]) : sha1("$f[1] " . length($data) . "\0" . $data);
	} elsif ($f[0] eq 'ofs') {
		$type = 6; $data = pack("H*", $f[2]); $size = length $data;
		my $back = length($pack) - $ent[$f[1]]{off};
		my @b = ($back & 127);
		while ($back >>= 7) { $back--; unshift @b, 128 | ($back & 127); }
		$extra = pack("C*", @b);
		$id = pack("H*", $f[3]);
	} else {
		$type = 7; $data = pack("H*", $f[2]); $size = length $data;
		$extra = pack("H*", $f[1]);
		$id = pack("H*", $f[3]);
	}
	my $off = length $pack;
	my $c = ($type << 4) | ($size & 15);
	$size >>= 4;
	my $hdr = '';
	while ($size) { $hdr .= chr($c | 128); $c = $size & 127; $size >>= 7; }
	$hdr .= chr($c);
	my $e = $hdr . $extra . compress($data);
	$pack .= $e;
	push @ent, { off => $off, id => $id, crc => crc32($e) };
}
my $sum = sha1($pack);
$pack .= $sum;
open my $P, '>', "$out.pack" or die; binmode $P; print $P $pack; close $P;
my @s = sort { $a->{id} cmp $b->{id} } @ent;
my $idx = "\377tOc" . pack("N", 2);
my @fan = (0) x 256;
$fan[ord substr($_->{id}, 0, 1)]++ for @s;
my $acc = 0;
for (0..255) { $acc += $fan[$_]; $idx .= pack("N", $acc); }
$idx .= $_->{id} for @s;
$idx .= pack("N", $_->{crc}) for @s;
$idx .= pack("N", $_->{off}) for @s;
$idx .= $sum;
$idx .= sha1($idx);
open my $I, '>', "$out.idx" or die; binmode $I; print $I $idx; close $I;
PERL

id() { printf "%040d" 0 | tr 0 $1; }
base=$(printf "hello world, base object\n" | od -An -tx1 | tr -d " \n")

test_expect_success 'setup: a pack of broken deltas' '
	git init -q deltas &&
	cat >entries <<-EOT &&
	whole blob $base
	ofs 0 19059005 $(id 1)
	ofs 0 192891002805 $(id 2)
	ofs 0 190500 $(id 3)
	ofs 0 1a059005 $(id 4)
	ofs 0 19089005 $(id 5)
	ofs 0 19050a6162 $(id 6)
	ref $(id 8) 19059005 $(id 7)
	ref $(id 9) 05059005 $(id 8)
	ref $(id 8) 05059005 $(id 9)
	whole blob $base 30 $(id a)
	whole blob 414243 2 $(id b)
	ref $(id c) 19059005 $(id d)
	ofs 0 19 $(id e)
	EOT
	perl mkpack.pl deltas/.git/objects/pack/pack-test <entries &&
	git -C deltas cat-file -p $(id 1) >out &&
	echo hello >expect && printf hello | cmp - out
'

test_expect_success 'delta: good delta reads (control)' '
	cd deltas && compare_reads $(id 1)
'
test_expect_success 'delta: copy reading past its base' '
	cd deltas && compare_reads $(id 2)
'
test_expect_success 'delta: reserved opcode 0' '
	cd deltas && compare_reads $(id 3)
'
test_expect_success 'delta: base size mismatch' '
	cd deltas && compare_reads $(id 4)
'
test_expect_success 'delta: result shorter than its header says' '
	cd deltas && compare_reads $(id 5)
'
test_expect_success 'delta: insert past the end of the delta' '
	cd deltas && compare_reads $(id 6)
'
# Exit code and the first line of stderr only, for cases where git's
# retries add messages that depend on which of its paths ran first.
compare_first_line() {
	git "$@" >/dev/null 2>expect.err; echo "exit=$?" >expect
	mini-git "$@" >/dev/null 2>actual.err; echo "exit=$?" >actual
	head -n 1 expect.err >>expect && head -n 1 actual.err >>actual &&
	test_cmp expect actual
}

# git -t and -s read past a truncated delta header (into the next bytes)
# and answer; we refuse. Reading the object fails in both.
test_expect_success 'delta: truncated delta header' '
	cd deltas &&
	compare_first_line cat-file -p $(id e) &&
	compare_first_line cat-file commit $(id e)
'
test_expect_success 'delta: REF_DELTA base missing' '
	cd deltas &&
	# (-s: git does not look for the base at all and says less.)
	for m in -t -p blob commit; do
		compare_first_line cat-file $m $(id d) || return 1
	done
'
test_expect_success 'pack: entry size larger and smaller than its data' '
	cd deltas && compare_reads $(id a) $(id b)
'

# git itself loops on a REF_DELTA cycle (and grows without bound), so
# there is nothing to compare: mini-git must stop with an error.
test_expect_success 'delta: REF_DELTA cycle fails instead of looping' '
	cd deltas &&
	test_expect_code 128 mini-git cat-file -p $(id 7) 2>err &&
	grep "delta chain too long" err &&
	echo $(id 8) | mini-git cat-file --batch-check >out 2>err &&
	echo "$(id 8) missing" >expect && test_cmp expect out
'

test_done
