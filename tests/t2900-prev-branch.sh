#!/bin/sh
# @{-N}, the branch checked out N switches ago (from HEAD's reflog), beside
# git: in rev-parse, as a start point, and as a branch name for branch's
# changes; with a detached switch, a deleted branch, too few switches,
# and in a linked work tree, whose HEAD has its own reflog.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-ref-change.sh"

test_expect_success 'setup: switches between branches and a detached HEAD' '
	git init -q orig && cd orig &&
	git config core.logAllRefUpdates true &&
	test_commit one && test_commit two &&
	git branch side one && git branch gone one && git branch other &&
	git checkout -q side && git checkout -q gone && git checkout -q other &&
	git checkout -q master && git branch -D gone &&
	git checkout -q side && git checkout -q --detach master &&
	git checkout -q master &&
	git config branch.side.remote . && git config branch.side.merge refs/heads/master
'

# newest first: @{-1} detached at two, @{-2} side, @{-3} master, @{-4} other,
# @{-5} gone (deleted), @{-6} side, @{-7} master
for rev in @{-1} @{-2} @{-3} @{-4} @{-5} @{-6} @{-7} @{-8} @{-0} @{-01} "@{- 2}" "@{-+2}" \
	"@{--2}" @{-} @{-x} @{-2x} "@{-2}}" x@{-1} @{-2}~1 @{-2}^0 @{-3}^{tree} @{-3}: \
	@{-1}^{/one} - @{-99999999999999999999}
do
	for opt in "" --symbolic-full-name --abbrev-ref --symbolic "--verify -q" --verify; do
		test_expect_success "rev-parse $opt $rev" 'cd orig && compare_git rev-parse $opt "$rev"'
	done
done

for args in "new @{-1}" "new @{-2}" "new @{-5}" "new @{-8}" "new -" "--track new @{-2}" \
	"@{-2} master" "-f @{-2} two" "-f @{-3} one" "@{-8} one" \
	"-d @{-2}" "-D @{-4}" "-d @{-1}" "-d @{-5}" "-d @{-8}" "-r -d @{-2}" "-d -- -" \
	"-m @{-2} renamed" "-m @{-4} @{-2}" "-M @{-4} @{-2}" "-m @{-1} x" "-m @{-5} x" \
	"-m @{-8} x" "-m side @{-8}" "-c @{-2} copied" "-C @{-2} @{-4}" "-M @{-3}" \
	"-m @{-3} main" "-u master @{-4}" "-u master @{-5}" "--unset-upstream @{-2}" \
	"--unset-upstream @{-4}" "--list @{-2}" "--points-at @{-3}" "--contains @{-2}" \
	"--merged @{-6}"
do
	test_expect_success "branch $args" 'set -f && compare_change branch $args'
done

test_expect_success 'a tag named like the branch: git warns about @{-N}' '
	git clone -q orig amb && cd amb &&
	git checkout -q -b dual && git checkout -q master && git tag dual one &&
	compare_git rev-parse @{-1} && compare_git rev-parse --symbolic-full-name @{-1} &&
	compare_git rev-parse --abbrev-ref @{-1} && compare_git branch new @{-1}
'

test_expect_success 'in a linked work tree, @{-N} reads that work tree'"'"'s HEAD reflog' '
	cd orig && git worktree add -q ../lw other &&
	cd ../lw && git checkout -q side && git checkout -q other &&
	compare_git rev-parse --symbolic-full-name @{-1} @{-2} &&
	compare_git rev-parse --abbrev-ref @{-1} &&
	compare_git rev-parse @{-3} &&
	cd ../orig && compare_git rev-parse --symbolic-full-name @{-1} @{-2}
'

test_expect_success 'no reflog at all' '
	git init -q bare-log && cd bare-log && test_commit one &&
	rm -f .git/logs/HEAD &&
	compare_git rev-parse @{-1} && compare_git rev-parse --verify -q @{-1} &&
	compare_git branch new @{-1} && compare_git branch -d @{-1}
'

test_done
