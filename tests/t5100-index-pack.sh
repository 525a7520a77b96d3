#!/bin/sh
# index-pack: the .idx is byte-identical to git's; bad packs fail as git's do.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: packs made by git (deltas, both delta kinds)' '
	git init -q r &&
	(cd r &&
	 for i in 1 2 3 4 5 6; do
		seq 1 $((i * 300)) >f$i && seq 1 2000 | sed "s/^/$i /" >>big &&
		git add . && test_commit c$i || exit 1
	 done &&
	 git tag -a -m "an annotated tag" ann c3 &&
	 git repack -adq &&
	 cp .git/objects/pack/pack-*.pack ../ofs.pack &&
	 git repack -adFq --depth=5 &&
	 git -c pack.threads=1 pack-objects --all --stdout --no-delta-base-offset </dev/null >../ref.pack &&
	 git rev-list --objects --all | git pack-objects --stdout --window=0 >../nodelta.pack) &&
	git init -q empty && git -C empty pack-objects --stdout </dev/null >empty.pack
'

for p in ofs ref nodelta empty; do
	test_expect_success "index-pack $p.pack: .idx identical to git's" "
		git index-pack -o $p.git.idx $p.pack >expect &&
		mini-git index-pack -o $p.mini.idx $p.pack >actual &&
		test_cmp expect actual &&
		cmp $p.git.idx $p.mini.idx
	"
done

test_expect_success 'the default .idx name is the pack name; threads do not change it' '
	cp ofs.pack copy.pack &&
	mini-git index-pack copy.pack >out &&
	cmp copy.idx ofs.git.idx &&
	rm copy.idx &&
	MINI_GIT_THREADS=1 mini-git index-pack --threads=1 copy.pack &&
	cmp copy.idx ofs.git.idx &&
	mini-git index-pack --threads=4 -o copy4.idx copy.pack &&
	cmp copy4.idx ofs.git.idx
'

test_expect_success 'index-pack --stdin stores the pack in the repository' '
	git init -q dst && git init -q dst-git &&
	(cd dst-git && git index-pack --stdin <../ref.pack >../expect) &&
	(cd dst && mini-git index-pack --stdin <../ref.pack >../actual) &&
	test_cmp expect actual &&
	h=$(cut -f2 actual) &&
	cmp dst/.git/objects/pack/pack-$h.idx dst-git/.git/objects/pack/pack-$h.idx &&
	cmp dst/.git/objects/pack/pack-$h.pack ref.pack &&
	test -z "$(ls dst/.git/objects/pack | grep tmp_)" &&
	git -C dst verify-pack .git/objects/pack/pack-$h.idx &&
	git -C dst cat-file -e $(git -C r rev-parse ann)
'

test_expect_success 'index-pack --stdin --keep writes a .keep file' '
	git init -q keep &&
	(cd keep && mini-git index-pack --stdin --keep=because <../ofs.pack >../out) &&
	h=$(cut -f2 out) && test "$(cut -f1 out)" = keep &&
	echo because >expect && test_cmp expect keep/.git/objects/pack/pack-$h.keep
'

test_expect_success 'setup: damaged packs' '
	sz=$(wc -c <ofs.pack) &&
	head -c $((sz - 30)) ofs.pack >trunc.pack &&
	head -c 100 ofs.pack >trunc2.pack &&
	head -c 10 ofs.pack >short.pack &&
	cp ofs.pack junk.pack && echo junk >>junk.pack &&
	cp ofs.pack badsum.pack &&
	printf "\377\377\377\377" | dd of=badsum.pack bs=1 seek=$((sz - 4)) conv=notrunc 2>/dev/null &&
	{ printf "PACX"; tail -c +5 ofs.pack; } >badsig.pack &&
	cp ofs.pack corrupt.pack &&
	printf XXXX | dd of=corrupt.pack bs=1 seek=200 conv=notrunc 2>/dev/null &&
	git init -q thin-src && (cd thin-src && seq 1 1000 >a.t && git add a.t &&
		git commit -qm a && echo more >>a.t &&
		git commit -qam b && git rev-parse HEAD^ >../base &&
		printf "%s\n^%s\n" $(git rev-parse HEAD) $(cat ../base) |
		git pack-objects --thin --revs --stdout >../thin.pack)
'

for p in trunc trunc2 short junk badsum badsig thin; do
	test_expect_success "index-pack $p.pack fails like git and writes nothing" "
		compare_git index-pack -o $p.idx $p.pack &&
		! test -e $p.idx &&
		test -z \"\$(ls | grep tmp)\"
	"
done

test_expect_success 'a corrupt zlib stream is reported at its offset, like git' '
	compare_git index-pack -o corrupt.idx corrupt.pack &&
	grep "^fatal: pack has bad object at offset" .actual.err &&
	! test -e corrupt.idx
'

test_expect_success 'index-pack --stdin: a bad pack leaves no file behind' '
	git init -q bad &&
	(cd bad && test_expect_code 128 mini-git index-pack --stdin <../trunc.pack) &&
	test -z "$(ls bad/.git/objects/pack)"
'

test_expect_success 'usage and bad names like git' '
	compare_git index-pack &&
	compare_git index-pack foo &&
	compare_git index-pack --stdin --bogus
'

test_done
