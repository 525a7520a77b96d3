#!/bin/sh
# Variables every git command checks (git's default config): a bad value
# is fatal with git's message, from -c or from the repository's config,
# whatever the command; good values pass.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q r && cd r && test_commit one
'

for kv in push.default=bogus push.default push.default=current push.default=tracking \
	branch.autoSetupRebase branch.autoSetupRebase=bogus branch.autoSetupRebase=remote \
	branch.autoSetupMerge branch.autoSetupMerge=bogus branch.autoSetupMerge=inherit \
	core.logAllRefUpdates=bogus core.logAllRefUpdates=always core.logAllRefUpdates=false \
	core.warnAmbiguousRefs=bogus core.warnAmbiguousRefs=no core.abbrev=3 core.abbrev=41 \
	core.abbrev=x core.abbrev=no core.abbrev=auto core.abbrev=12 core.abbrev
do
	test_expect_success "-c $kv" '
		cd r &&
		for c in branch "for-each-ref --count=1" "show-ref -q" "rev-parse HEAD" \
			"branch -d nothere" "update-ref -d refs/heads/nothere"; do
			compare_git -c $kv $c || return 1
		done
	'
done

test_expect_success 'a bad value in the repository config names its file and line' '
	cd r &&
	git config push.default bogus &&
	compare_git branch && compare_git show-ref -q && compare_git for-each-ref &&
	git config --unset push.default &&
	git config core.abbrev 2 &&
	compare_git branch && compare_git rev-parse HEAD &&
	git config --unset core.abbrev
'

test_done
