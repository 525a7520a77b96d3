#!/bin/sh
# index-pack -v: git's progress lines on stderr, byte for byte (carriage
# returns included), for files and --stdin, with and without deltas, on
# one thread and two, on good packs and bad ones.
#
# The expected lines come from git --threads=1: with threads git may skip
# a count when two deltas resolve at once, mini-git never does. After
# --stdin git shows the bytes received and a rate; the rate depends on
# time, so it is replaced by RATE on both sides (the byte count is kept).
# The packs are small enough that git's once-a-second redraw cannot come.
. "$(dirname "$0")/test-lib.sh"

# progress_file PACK THREADS [ARGS...]: git and mini-git on the file PACK.
progress_file() {
	pack=$1 threads=$2
	shift 2
	git index-pack --threads=1 -v -o git.idx "$@" "$pack" >expect.out 2>expect.err
	echo "exit=$?" >>expect.out
	mini-git index-pack --threads="$threads" -v -o mini.idx "$@" "$pack" >actual.out 2>actual.err
	echo "exit=$?" >>actual.out
	test_cmp expect.out actual.out &&
	cmp expect.err actual.err || {
		tr '\r' '\n' <expect.err >expect.lines
		tr '\r' '\n' <actual.err >actual.lines
		test_cmp expect.lines actual.lines
		return 1
	}
}

rate_out() {
	tr '\r' '\n' <"$1" | sed -E 's# \| [0-9.]+ (bytes?|KiB|MiB|GiB)/s# | RATE#'
}

# progress_stdin PACK THREADS: git and mini-git reading PACK on stdin,
# each into a repository of its own.
progress_stdin() {
	pack=$1 threads=$2
	rm -f in-git/.git/objects/pack/* in-mini/.git/objects/pack/* &&
	(cd in-git && git index-pack --threads=1 --stdin -v <"../$pack" >../expect.out 2>../expect.err
	 echo "exit=$?" >>../expect.out) &&
	(cd in-mini && mini-git index-pack --threads="$threads" --stdin -v <"../$pack" >../actual.out 2>../actual.err
	 echo "exit=$?" >>../actual.out) &&
	test_cmp expect.out actual.out &&
	rate_out expect.err >expect.lines &&
	rate_out actual.err >actual.lines &&
	test_cmp expect.lines actual.lines &&
	if grep -q RATE expect.lines; then
		# the rest of each line, carriage returns included
		sed -E 's# \| [0-9.]+ (bytes?|KiB|MiB|GiB)/s# | RATE#g' expect.err >expect.cr &&
		sed -E 's# \| [0-9.]+ (bytes?|KiB|MiB|GiB)/s# | RATE#g' actual.err >actual.cr &&
		cmp expect.cr actual.cr
	else
		cmp expect.err actual.err
	fi
}

test_expect_success 'setup: packs made by git' '
	git init -q r &&
	(cd r &&
	 for i in 1 2 3 4 5 6; do
		seq 1 $((i * 150)) >f$i && seq 1 600 | sed "s/^/$i /" >>big &&
		git add . && test_commit c$i || exit 1
	 done &&
	 git repack -adq &&
	 cp .git/objects/pack/pack-*.pack ../ofs.pack &&
	 git -c pack.threads=1 pack-objects --all --stdout --no-delta-base-offset </dev/null >../ref.pack &&
	 git rev-list --objects --all | git pack-objects --stdout --window=0 >../nodelta.pack &&
	 git rev-parse c1 | git pack-objects --stdout >../one.pack &&
	 git rev-list --objects c2 | head -n 7 | git pack-objects --stdout >../seven.pack &&
	 git pack-objects --thin --stdout --revs >../thin.pack <<-EOF
	c6
	^c5
	EOF
	) &&
	git init -q many &&
	(cd many &&
	 awk "BEGIN { for (i = 1; i <= 150; i++) {
		print \"line \" i >>(\"f\" (i % 40)); print \"blob \" i >(\"b\" i) } }" &&
	 git add . && test_commit m1 &&
	 awk "BEGIN { for (i = 0; i < 40; i++) print \"more \" i >>(\"f\" i) }" &&
	 git add . && test_commit m2 &&
	 git rev-list --objects --all | head -n 150 | git pack-objects --stdout >../150.pack &&
	 for j in 1 2 3 4 5; do
		awk -v j=$j "BEGIN { for (i = 1; i <= 200; i++) {
			l = j \" \" i; for (k = 1; k <= i; k++) l = l \" \" k
			print l >>(\"g\" i) } }" &&
		git add . && test_commit n$j || exit 1
	 done &&
	 git repack -adq --depth=50 &&
	 cp .git/objects/pack/pack-*.pack ../1000.pack) &&
	git init -q empty && git -C empty pack-objects --stdout </dev/null >empty.pack &&
	git init -q in-git && git init -q in-mini &&
	git index-pack 1000.pack && git index-pack ofs.pack &&
	test "$(git show-index <1000.idx | wc -l)" -gt 1000 &&
	git verify-pack -v ofs.idx | grep -q "chain length = 1" &&
	rm 1000.idx ofs.idx
'

for p in ofs ref nodelta one seven 150 1000 empty; do
	for t in 1 2; do
		test_expect_success "index-pack -v $p.pack --threads=$t: git's lines" "
			progress_file $p.pack $t
		"
		test_expect_success "index-pack --stdin -v <$p.pack --threads=$t: git's lines" "
			progress_stdin $p.pack $t
		"
	done
done

test_expect_success 'the lines are the ones expected (not only the same as git)' '
	progress_file seven.pack 2 &&
	tr "\r" "\n" <actual.err >lines &&
	cat >expect <<-\EOF &&
	Indexing objects:  14% (1/7)
	Indexing objects:  28% (2/7)
	Indexing objects:  42% (3/7)
	Indexing objects:  57% (4/7)
	Indexing objects:  71% (5/7)
	Indexing objects:  85% (6/7)
	Indexing objects: 100% (7/7)
	Indexing objects: 100% (7/7), done.
	EOF
	test_cmp expect lines
'

test_expect_success 'without -v nothing is printed on stderr' '
	compare_git index-pack --threads=1 -o quiet.idx 1000.pack &&
	test_must_be_empty() { test ! -s "$1"; } &&
	test_must_be_empty .actual.err &&
	git init -q quiet && (cd quiet && compare_git_stdin ../1000.pack index-pack --stdin) &&
	test_must_be_empty .actual.err
'

test_expect_success '--progress-title replaces the first title' '
	compare_git index-pack --threads=1 -v --progress-title "Copying things" -o title.idx ofs.pack &&
	grep "Copying things: 100%" .actual.err
'

test_expect_success 'a narrow terminal splits the line as git does' '
	(COLUMNS=20 && export COLUMNS && progress_file ofs.pack 2) &&
	tr "\r" "\n" <actual.err >lines &&
	grep "^Indexing objects:   $" lines &&
	grep "^Resolving deltas:   $" lines &&
	grep "^  100% ([0-9]*/[0-9]*), done.$" lines
'

test_expect_success 'setup: damaged packs' '
	size=$(wc -c <ofs.pack) &&
	head -c $((size - 1)) ofs.pack >cut-trailer.pack &&
	head -c 300 ofs.pack >cut-entries.pack &&
	cp ofs.pack bad-sum.pack && chmod u+w bad-sum.pack &&
	printf "\377" | dd of=bad-sum.pack bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null &&
	cat ofs.pack >junk.pack && echo junk >>junk.pack &&
	# a header that counts more entries than there are: git reads the
	# trailer as an entry; fewer: it reads an entry as the trailer
	cp ofs.pack liar.pack && chmod u+w liar.pack &&
	printf "\000\017\102\100" | dd of=liar.pack bs=1 seek=8 conv=notrunc 2>/dev/null &&
	cp ofs.pack fewer.pack && chmod u+w fewer.pack &&
	printf "\000\000\000\003" | dd of=fewer.pack bs=1 seek=8 conv=notrunc 2>/dev/null &&
	cp ofs.pack bad-type.pack && chmod u+w bad-type.pack &&
	b=$(od -An -tu1 -j12 -N1 ofs.pack) &&
	printf "\\$(printf %o $(( (b & 143) | 80 )))" |
		dd of=bad-type.pack bs=1 seek=12 conv=notrunc 2>/dev/null &&
	! cmp ofs.pack bad-type.pack &&
	# the first entry says it is one byte longer, or shorter, than it is
	b=$(od -An -tu1 -j12 -N1 one.pack) &&
	for d in 1 15; do
		cp one.pack size$d.pack && chmod u+w size$d.pack &&
		printf "\\$(printf %o $(( (b & 240) | ((b + d) & 15) )))" |
			dd of=size$d.pack bs=1 seek=12 conv=notrunc 2>/dev/null || return 1
	done
'

for p in cut-trailer cut-entries bad-sum junk thin liar fewer bad-type size1 size15; do
	test_expect_success "index-pack -v $p.pack: the lines git prints before failing" "
		progress_file $p.pack 2 &&
		grep -q fatal actual.err
	"
	test_expect_success "index-pack --stdin -v <$p.pack: the lines git prints before failing" "
		progress_stdin $p.pack 2
	"
done

test_done
