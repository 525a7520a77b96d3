#!/bin/sh
# Ref changes from inside a git dir, and with GIT_WORK_TREE given to a
# bare repository, beside git: which branch counts as checked out, whether
# reflogs are written, and HEAD's log when its branch is deleted or unborn.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-ref-change.sh"

test_expect_success 'setup' '
	git init -q plain && (cd plain && test_commit one && test_commit two && git branch side one) &&
	git clone -q --bare plain bare.git && git init -q unborn
'

# in_copy REPO DIR CMD...: CMD with git and mini-git, each in DIR of a
# fresh copy of REPO, with the environment's assignments in $IN_ENV;
# output, exit code and the git dir's files must match
in_copy() {
	repo=$1 dir=$2
	shift 2
	for tool in git "$MINI_GIT"; do
		rm -rf work && cp -a "$repo" work &&
		(cd "work/$dir" && env $IN_ENV "$tool" "$@" 2>"$TRASH/err.$(basename $tool)" \
			>"$TRASH/out.$(basename $tool)"; echo "exit=$?" >>"$TRASH/out.$(basename $tool)") &&
		(cd work && { test -d .git && cd .git; true; } &&
		 for f in $(find . -path ./objects -prune -o -type f -print | sort); do
			echo "== $f"; case $f in ./logs/*) cut -d" " -f1,2 "$f";; ./index) ;; *) cat "$f";; esac
		 done) >"$TRASH/state.$(basename $tool)"
	done
	mini_to_git "$TRASH/err.mini-git"
	test_cmp "$TRASH/out.git" "$TRASH/out.mini-git" &&
	test_cmp "$TRASH/err.git" "$TRASH/err.mini-git" &&
	test_cmp "$TRASH/state.git" "$TRASH/state.mini-git"
}

test_expect_success 'from inside .git, the work tree'"'"'s branch is still checked out' '
	in_copy plain .git branch -D master &&
	in_copy plain .git branch -d master &&
	in_copy plain .git branch -m master renamed &&
	in_copy plain .git/refs branch -D master &&
	in_copy plain .git branch -D side
'

test_expect_success 'a bare repository given GIT_WORK_TREE is not bare: its changes are logged' '
	IN_ENV="GIT_WORK_TREE=$TRASH/plain" in_copy bare.git . branch -D master &&
	IN_ENV="GIT_WORK_TREE=$TRASH/plain" in_copy bare.git . branch new side &&
	IN_ENV="GIT_WORK_TREE=$TRASH/plain" in_copy bare.git . update-ref refs/heads/x side &&
	in_copy bare.git . branch new side &&
	in_copy plain .git update-ref refs/heads/x side
'

test_expect_success 'deleting an unborn branch logs null to null in HEAD'"'"'s log' '
	in_copy unborn . update-ref -d HEAD &&
	in_copy unborn . update-ref -d refs/heads/master &&
	in_copy unborn . update-ref --no-deref -d HEAD &&
	in_copy unborn . update-ref -d refs/heads/other
'

test_done
