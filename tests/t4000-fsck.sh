#!/bin/sh
# fsck on clean repositories made by git: no findings, exit 0, and the
# same dangling/unreachable/root/tagged lines as git. Those lines come out
# of git in hash-table order, so stdout is compared sorted (compare_git -s);
# stderr and the exit code are compared as they are.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: loose objects, two packs, tags, branches, dangling objects' '
	git init -q repo && cd repo &&
	for i in 1 2 3 4 5; do test_commit c$i || return 1; done &&
	git tag -a -m "annotated" ann c3 &&
	git repack -q -d &&
	git checkout -q -b side c2 &&
	for i in 6 7; do test_commit s$i || return 1; done &&
	git repack -q -d &&
	git checkout -q master &&
	test_commit c8 &&
	echo dangling-blob | git hash-object -w --stdin &&
	tree=$(git write-tree) &&
	echo dangling | git commit-tree $tree -p HEAD >../dangling-commit &&
	test $(ls .git/objects/pack/*.pack | wc -l) = 2
'

test_expect_success 'fsck: clean repository, same as git' '
	cd repo && compare_git -s fsck
'

test_expect_success 'fsck --unreachable --root --tags' '
	cd repo && compare_git -s fsck --unreachable --root --tags
'

test_expect_success 'fsck --no-dangling --strict --no-reflogs' '
	cd repo && compare_git -s fsck --no-dangling --strict --no-reflogs
'

test_expect_success 'fsck --no-full checks only loose objects' '
	cd repo && compare_git -s fsck --no-full
'

test_expect_success 'one thread and many threads find the same' '
	cd repo &&
	MINI_GIT_THREADS=1 mini-git fsck --root --tags --unreachable >one 2>&1 &&
	MINI_GIT_THREADS=7 mini-git fsck --root --tags --unreachable >many 2>&1 &&
	sort one >one.s && sort many >many.s && test_cmp one.s many.s && test -s one
'

# fast-import deltas each blob against the previous version of its path,
# so 80 revisions of one file make a chain as deep as --depth allows.
gen_revisions() {
	for i in $(seq 1 80); do
		printf 'blob\nmark :%d\ndata <<EOF\n' $i
		seq 1 300 | sed "s/^$i\$/changed $i/"
		printf 'EOF\n'
		printf 'commit refs/heads/master\nmark :%d\n' $((1000 + i))
		printf 'committer A <a@b> %d +0000\ndata 4\nrev\n' $((1112911993 + i))
		if [ $i -gt 1 ]; then printf 'from :%d\n' $((999 + i)); fi
		printf 'M 100644 :%d file\n\n' $i
	done
}

test_expect_success 'deep delta chains (fast-import --depth=60, repack -adf --depth=50)' '
	git init -q deep && cd deep &&
	gen_revisions | git fast-import --quiet --depth=60 &&
	git verify-pack -v .git/objects/pack/*.idx >vp &&
	grep "chain length = 60:" vp &&
	compare_git -s fsck --unreachable --root &&
	git repack -q -adf --depth=50 --window=50 &&
	compare_git -s fsck --root &&
	MINI_GIT_THREADS=1 mini-git fsck --root >one &&
	test_cmp one .actual.out 2>/dev/null || { sort one >one.s; grep -v ^exit= "$TRASH/.actual.out" | sort >m.s; test_cmp one.s m.s; }
'

test_expect_success 'an alternate: objects of both stores checked' '
	git clone -q -s repo alt && cd alt &&
	test_commit in-alt &&
	git repack -q -d -l &&
	compare_git -s fsck --unreachable --root --tags
'

test_expect_success 'bare repository' '
	git clone -q --bare repo bare.git && cd bare.git &&
	compare_git -s fsck --root --unreachable
'

test_expect_success 'empty repository and unborn HEAD' '
	git init -q empty && cd empty && compare_git fsck
'

test_expect_success 'detached HEAD and a ref outside refs/heads' '
	cd repo &&
	git update-ref refs/notes/x HEAD~1 &&
	git checkout -q --detach HEAD~2 &&
	compare_git -s fsck --unreachable &&
	git checkout -q master
'

test_expect_success 'fsck writes nothing into the repository' '
	cd repo &&
	find .git -newer .git/HEAD -print | sort >before &&
	(cd .git && find . -type f | sort | xargs cat | git hash-object --stdin) >sum1 &&
	mini-git fsck >/dev/null 2>&1 &&
	(cd .git && find . -type f | sort | xargs cat | git hash-object --stdin) >sum2 &&
	test_cmp sum1 sum2
'

test_expect_success '--connectivity-only on loose and packed objects' '
	cd repo && compare_git -s fsck --connectivity-only &&
	compare_git -s fsck --connectivity-only --unreachable --root
'

# --progress byte for byte: git shows its object meter after every 1024th
# entry and at the end of each pack, and redraws when the percentage
# changes (or a second has gone by: these repositories take far less).
test_expect_success '--progress: git'"'"'s lines on stderr; --verbose and --no-progress silence them' '
	cd repo &&
	compare_git -s fsck --progress &&
	grep "Checking objects: 100% (22/22), done." "$TRASH/.actual.err" &&
	compare_git -s fsck --no-progress &&
	mini-git fsck --progress --verbose 2>err >/dev/null &&
	! grep "Checking objects:" err &&
	compare_git -s fsck --progress --connectivity-only
'

# n blobs from mark $1 to $2 in one commit on branch $3.
gen_blobs() {
	for i in $(seq $1 $2); do printf 'blob\nmark :%d\ndata <<E\n%d\nE\n' $i $i; done
	printf 'commit refs/heads/%s\ncommitter A <a@b> 1 +0000\ndata 2\nm\n' $3
	for i in $(seq $1 $2); do printf 'M 100644 :%d f%d\n' $i $i; done
}

test_expect_success '--progress over two packs past 1024 entries, on many threads' '
	git init -q meter && cd meter &&
	gen_blobs 1 1500 master | git fast-import --quiet &&
	git repack -q -d &&
	gen_blobs 1501 2800 b | git fast-import --quiet &&
	test $(ls .git/objects/pack/*.pack | wc -l) = 2 &&
	MINI_GIT_THREADS=4 compare_git -s fsck --progress &&
	grep "(1024/2804)" "$TRASH/.actual.err" &&
	grep "(2048/2804)" "$TRASH/.actual.err"
'

test_expect_success '--progress with an alternate: one directory meter per store' '
	git clone -q -s repo prog-alt && cd prog-alt &&
	test_commit p1 && compare_git -s fsck --progress &&
	test $(tr "\r" "\n" <"$TRASH/.actual.err" | grep -c "directories.*done") = 2
'

test_expect_success 'usage and bad options like git' '
	cd repo && compare_git fsck --no-such-option && compare_git fsck -h
'

test_expect_success 'blobs only in the index are roots, in index versions 2, 3 and 4' '
	git init -q staged && cd staged && test_commit one &&
	mkdir -p a/b && echo s1 >a/b/staged1 && echo s2 >staged2 && git add a staged2 &&
	echo new >ita && git add -N ita &&
	for v in 2 3 4; do
		git update-index --index-version $v &&
		compare_git -s fsck && compare_git -s fsck --unreachable --cache || return 1
	done &&
	rm -f .git/objects/$(git rev-parse :staged2 | sed "s|^..|&/|") &&
	compare_git -s fsck
'

test_done
