#!/bin/sh
# <branch>@{upstream}, @{u}, @{push} and <ref>@{N} beside git: in
# rev-parse (plain, --verify -q, --symbolic-full-name, --abbrev-ref) and
# where branch and for-each-ref take a commit; every push.default, push
# refspecs, mirrors, local upstreams, and git's refusals.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a clone with upstreams of every kind, and reflogs' '
	git init -q up && (cd up && test_commit one && test_commit two && git branch other one) &&
	git clone -q up r && cd r &&
	git config core.logAllRefUpdates true &&
	test_commit three &&
	git branch feat origin/master && git branch --set-upstream-to=origin/master feat &&
	git branch --set-upstream-to=origin/other master &&
	git branch gone && git config branch.gone.remote origin &&
	git config branch.gone.merge refs/heads/nothere &&
	git branch local && git config branch.local.remote . &&
	git config branch.local.merge refs/heads/master &&
	git config remote.nofetch.url ../up &&
	git branch nofetch && git config branch.nofetch.remote nofetch &&
	git config branch.nofetch.merge refs/heads/master &&
	git branch plain one &&
	git checkout -q feat && git checkout -q master &&
	git update-ref refs/heads/plain two && git update-ref refs/heads/plain three &&
	git branch empty && : >.git/logs/refs/heads/empty &&
	git branch nolog one && rm .git/logs/refs/heads/nolog &&
	git branch oldest two &&
	printf "%s %s T <t@x> 1 +0000\tmade\n" $(git rev-parse one two) >.git/logs/refs/heads/oldest
'

names="@{u} @{U} @{upstream} @{UpStReAm} master@{u} feat@{u} feat@{upstream}~1 HEAD@{u} \
	gone@{u} local@{u} nofetch@{u} plain@{u} nope@{u} one@{u} @{-1}@{u} @{-9}@{u} @{1}@{u} \
	@{push} master@{push} feat@{push} feat@{PUSH}^0 gone@{push} local@{push} nofetch@{push} \
	nope@{push} @{-1}@{push} \
	HEAD@{0} HEAD@{1} HEAD@{2} HEAD@{9} @{0} @{1} @{9} master@{1} refs/heads/plain@{1} \
	heads/plain@{2} plain@{01} plain@{3} plain@{4} empty@{0} empty@{1} nolog@{0} oldest@{0} \
	oldest@{1} oldest@{2} nope@{1} master@{1}@{1} @{-1}@{1} master@{-1} master@{x} master@{} \
	master@{1}^ master@{1}~1 master@{1}^{tree}"

for cfg in "" "-c push.default=nothing" "-c push.default=current" "-c push.default=upstream" \
	"-c push.default=matching" "-c remote.origin.push=refs/heads/*:refs/heads/pushed/*" \
	"-c remote.origin.push=refs/heads/feat:refs/heads/other" \
	"-c remote.pushDefault=nofetch -c push.default=current" "-c remote.origin.mirror=true" \
	"-c branch.feat.pushRemote=nofetch" "-c branch.nope.merge=refs/heads/master -c branch.nope.remote=origin"
do
	test_expect_success "rev-parse with config '$cfg'" '
		cd r && set -f &&
		for n in $names; do
			for opt in "" "--verify -q" --symbolic-full-name --abbrev-ref; do
				compare_git $cfg rev-parse $opt "$n" || return 1
			done
		done
	'
done

test_expect_success 'detached HEAD: @{u} and @{push} name no branch; @{N} is HEAD'"'"'s' '
	cd r && git checkout -q --detach HEAD~1 &&
	for n in @{u} @{push} @{0} @{1} HEAD@{1}; do
		compare_git rev-parse "$n" || return 1
	done &&
	git checkout -q master
'

test_expect_success 'in branch and for-each-ref' '
	cd r &&
	compare_git branch --contains @{u} &&
	compare_git branch --merged feat@{upstream} &&
	compare_git branch --no-merged master@{1} &&
	compare_git branch --points-at plain@{1} &&
	compare_git branch -v --contains plain@{2} &&
	compare_git for-each-ref --points-at=HEAD@{0} --format="%(refname)" &&
	compare_git for-each-ref --contains gone@{u} &&
	compare_git branch --contains HEAD@{99}
'

test_done
