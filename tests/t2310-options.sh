#!/bin/sh
# Option words beside git: abbreviations and their ambiguities (the usage
# then goes to stdout), negations, values given to negations, hidden
# options (--help-all), a lone -h, rev-parse's --not, and branch's odd
# corners: --set-upstream, --with/--without, --recurse-submodules,
# --no-all, empty names.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-ref-change.sh"

test_expect_success 'setup' '
	git init -q orig && cd orig &&
	test_commit one && test_commit two && test_commit three &&
	git branch side one && git branch other two &&
	git update-ref refs/remotes/origin/main HEAD &&
	git config branch.master.remote . && git config branch.master.merge refs/heads/side
'

# (only words that change nothing: compare_git runs both on one repository)
test_expect_success 'abbreviations, ambiguous and not, and negations' '
	cd orig &&
	for words in "--co" "--co=x" "--no-co" "--no" "--n" "--no-" "--set-up x" "--verb" \
		"--no-verb" "--verb=3" "--no-color=x" "--no-q=1" "--no-col" "--colo=never" \
		"--no-contains=HEAD" "--no-merged=one" "--merg one" "--wi one" "--with" \
		"--witho one" "--without" "--no-with one" "--rem" "--no-rem" "--all=x" \
		"--no-track" "--abb" "--no-abb" "--abbrev=x" \
		"--sort" "--no-sort" "--no-format"; do
		compare_git branch $words || { echo "branch $words"; return 1; }
	done &&
	for words in "--co" "--no" "--n" "--no-c" "--sh" "--no-sh" "--py=x" "--count" "--no-count"; do
		compare_git for-each-ref $words || { echo "for-each-ref $words"; return 1; }
	done &&
	for words in "--h" "--he" "--ha" "--no-ha" "--no-d" "--exclude-e" "--ver" "--no-verify"; do
		compare_git show-ref $words || { echo "show-ref $words"; return 1; }
	done
'

test_expect_success 'an abbreviation that changes: --unset-up' '
	compare_change branch --unset-up
'

test_expect_success '--help-all shows the hidden options' '
	cd orig &&
	compare_git branch --help-all &&
	compare_git branch -h &&
	compare_git for-each-ref --help-all
'

test_expect_success 'show-ref: -h is a hidden --head, and alone asks for the usage' '
	cd orig &&
	compare_git show-ref -d -h &&
	compare_git show-ref -h master &&
	compare_git show-ref -h &&
	compare_git show-ref --help-all
'

test_expect_success 'rev-parse: --not turns the sense of the revisions after it' '
	cd orig &&
	for words in "--not" "--not master ^side" "--not --not master" "--verify ^master" \
		"--not --verify master" "--not --verify ^master" "--not --short=5 master" \
		"--not --symbolic master ^side" "-h --verify master" "master -h"; do
		compare_git rev-parse $words || { echo "rev-parse $words"; return 1; }
	done
'

test_expect_success '--with and --without are --contains and --no-contains' '
	cd orig &&
	compare_git branch --with one &&
	compare_git branch --without two &&
	compare_git branch --with &&
	compare_git branch --without nothere
'

test_expect_success 'the old --set-upstream' '
	(cd orig && compare_git branch --set-upstream) &&
	compare_change branch --set-upstream new &&
	compare_change branch --set-upstream new side &&
	compare_change branch --set-upstream --track new side &&
	compare_change branch --track --set-upstream new side &&
	compare_change branch --no-set-upstream new origin/main
'

test_expect_success '--recurse-submodules and submodule.propagateBranches' '
	(cd orig &&
	 compare_git branch --recurse-submodules &&
	 compare_git -c submodule.propagateBranches=true branch --recurse-submodules -d x &&
	 compare_git -c submodule.propagateBranches=true branch --recurse-submodules &&
	 compare_git -c submodule.propagateBranches=bogus branch &&
	 compare_git -c submodule.recurse=bogus branch) &&
	compare_change branch --recurse-submodules new &&
	compare_change -c submodule.recurse=true branch new &&
	compare_change branch --no-recurse-submodules new
'

test_expect_success '--no-all and --no-remotes leave nothing to list' '
	(cd orig &&
	 compare_git branch --no-all &&
	 compare_git branch --no-remotes -v &&
	 compare_git branch -a --no-all --list "o*" &&
	 compare_git branch --no-all --sort=bogus) &&
	compare_change branch --no-all -d side &&
	compare_change branch --no-remotes new
'

test_expect_success 'an empty name: not found for -d, the current branch for -u' '
	compare_change branch -d "" &&
	compare_change branch -D -r "" &&
	compare_change branch -u side "" &&
	compare_change branch --unset-upstream "" &&
	cp -a orig detached && cd detached && git checkout -q --detach &&
	compare_git branch -u side "" &&
	compare_git branch --unset-upstream "" &&
	compare_git branch --unset-upstream HEAD
'

test_expect_success 'branch -d of a ref that does not resolve: not found, as in git' '
	echo garbage >orig/.git/refs/heads/garbage &&
	compare_change branch -d garbage &&
	compare_change branch -D garbage &&
	rm orig/.git/refs/heads/garbage &&
	git -C orig rev-parse HEAD >orig/.git/refs/heads/bad..name &&
	compare_change branch -D bad..name &&
	rm orig/.git/refs/heads/bad..name
'

test_done
