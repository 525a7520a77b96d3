#!/bin/sh
# refs: loose, packed (with and without header and traits), mixed,
# symbolic refs, overrides; read through show-ref and branch beside git.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: commits, tags, branches with slashes' '
	git init -q r && cd r &&
	test_commit one && test_commit two &&
	git tag -a -m "annotated" ann one &&
	git tag -a -m "tag of tag" annann ann &&
	git branch feature/x one && git branch feature/y && git branch zeta
'

test_expect_success 'all loose' '
	cd r &&
	compare_git show-ref &&
	compare_git show-ref -d &&
	compare_git branch
'

test_expect_success 'all packed (sorted, fully-peeled)' '
	cd r && git pack-refs --all &&
	test_path=.git/refs/heads/zeta && test ! -f $test_path &&
	head -1 .git/packed-refs | grep sorted &&
	compare_git show-ref &&
	compare_git show-ref -d &&
	compare_git branch
'

test_expect_success 'mixed: a loose ref overrides its packed twin' '
	cd r &&
	git rev-parse one >.git/refs/heads/zeta &&
	git update-ref refs/heads/new two &&
	compare_git show-ref &&
	compare_git show-ref --verify refs/heads/zeta &&
	compare_git branch -v
'

test_expect_success 'packed-refs without a header (unsorted) is sorted in memory' '
	cd r &&
	cp .git/packed-refs saved &&
	grep -v "^#" saved | grep -v "^\^" | sort -r -k2 >.git/packed-refs &&
	compare_git show-ref &&
	compare_git show-ref -d &&
	compare_git branch &&
	cp saved .git/packed-refs
'

test_expect_success 'packed-refs with only the peeled trait' '
	cd r &&
	sed "1s/.*/# pack-refs with: peeled /" saved >.git/packed-refs &&
	compare_git show-ref -d &&
	cp saved .git/packed-refs
'

test_expect_success 'symbolic refs under refs/ and HEAD' '
	cd r &&
	git symbolic-ref refs/heads/alias refs/heads/feature/x &&
	compare_git branch &&
	compare_git show-ref --verify refs/heads/alias &&
	compare_git show-ref --verify HEAD &&
	compare_git show-ref --head &&
	git update-ref -d refs/heads/alias
'

test_expect_success 'detached HEAD' '
	cd r && git checkout -q --detach two &&
	compare_git show-ref --head &&
	compare_git branch &&
	git checkout -q master
'

test_expect_success 'subdirectory and GIT_DIR' '
	cd r && mkdir -p sub/dir && cd sub/dir &&
	compare_git branch -a &&
	compare_git show-ref --heads &&
	cd "$TRASH" && GIT_DIR=r/.git && export GIT_DIR &&
	compare_git branch &&
	compare_git show-ref --tags
'

test_expect_success 'bare clone: refs only packed' '
	git clone -q --bare r bare.git && cd bare.git &&
	compare_git branch &&
	compare_git show-ref -d
'

test_done
