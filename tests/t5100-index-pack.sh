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

# --fix-thin: a thin pack (deltas against objects it does not hold) is
# completed from the repository's own objects, which are appended to it
test_expect_success 'index-pack --stdin --fix-thin completes a thin pack as git does' '
	git init -q thin-src && (cd thin-src && seq 1 20000 >f && seq 5000 >g &&
	 git add . && test_commit t1 && sed -i "s/^100\$/x/" f && sed -i "s/^7\$/y/" g &&
	 git commit -q -am t2 &&
	 git pack-objects --stdout --revs <<-EOF >../thin-base.pack &&
	$(git rev-parse HEAD~1)
	EOF
	 git pack-objects --thin --stdout --revs <<-EOF >../thin.pack
	$(git rev-parse HEAD)
	^$(git rev-parse HEAD~1)
	EOF
	) &&
	for who in git mini; do
		git init -q thin-$who && (cd thin-$who && git index-pack --stdin <../thin-base.pack >/dev/null) || return 1
	done &&
	(cd thin-git && git index-pack --stdin --fix-thin -v <../thin.pack >../out.git 2>../err.git) &&
	(cd thin-mini && mini-git index-pack --stdin --fix-thin -v <../thin.pack >../out.mini 2>../err.mini) &&
	test_cmp err.git err.mini &&
	grep "completed with 2 local objects" err.mini &&
	(cd thin-mini && git fsck --strict --no-dangling &&
	 git verify-pack .git/objects/pack/pack-$(cut -f2 ../out.mini).idx) &&
	git -C thin-mini cat-file -p $(git -C thin-src rev-parse HEAD:f) | cmp - thin-src/f
'

test_expect_success 'a thin pack without its bases: git'"'"'s message, nothing written' '
	git init -q thin-none &&
	(cd thin-none &&
	 git index-pack --stdin --fix-thin <../thin.pack >../out.git 2>../err.git; echo "exit=$?" >>../err.git;
	 ls .git/objects/pack | { grep -v "^tmp_pack_" || :; } >../ls.git &&
	 rm -f .git/objects/pack/tmp_pack_* &&   # git leaves its own behind
	 mini-git index-pack --stdin --fix-thin <../thin.pack >../out.mini 2>../err.mini; echo "exit=$?" >>../err.mini;
	 ls .git/objects/pack >../ls.mini) &&
	grep "^exit=128" err.mini &&
	test_cmp err.git err.mini && test_cmp ls.git ls.mini &&
	(cd thin-none && git index-pack --fix-thin ../thin.pack 2>../err.git; echo "exit=$?" >>../err.git;
	 mini-git index-pack --fix-thin ../thin.pack 2>../err.mini; echo "exit=$?" >>../err.mini) &&
	test_cmp err.git err.mini
'

# A pack that names objects it does not hold: what a server that leaves
# objects out sends. clone and fetch check the same way, counting our own
# objects too. (One object is left out: with several, git names the first
# in its hash table's order, mini-git the smallest id. git leaves its
# temporary pack behind when it dies; mini-git removes it.)
test_expect_success 'index-pack --check-self-contained-and-connected as git' '
	git init -q links && (cd links && echo a >a && echo b >b && git add . &&
	 git commit -q -m l1 &&
	 git rev-list --objects --all | cut -d" " -f1 | git pack-objects --stdout >../links-full.pack &&
	 printf "%s\n" $(git rev-parse HEAD HEAD^{tree} HEAD:a) |
	 git pack-objects --stdout >../links-partial.pack) &&
	for p in full partial; do
		for who in git mini-git; do
			rm -rf lk && git init -q lk &&
			(cd lk && $who index-pack --stdin --check-self-contained-and-connected \
				<../links-$p.pack >../out.$who 2>../err.$who; echo "exit=$?" >>../out.$who;
			 ls .git/objects/pack | { grep -v "^tmp_pack_" || :; } >../ls.$who) || return 1
		done &&
		test_cmp out.git out.mini-git && test_cmp err.git err.mini-git &&
		test_cmp ls.git ls.mini-git || return 1
	done &&
	grep "did not receive expected object" err.mini-git
'

test_done
