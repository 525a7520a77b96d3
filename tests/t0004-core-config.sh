#!/bin/sh
# Variables every git command checks (git's default config): a bad value
# is fatal with git's message, from -c or from the repository's config,
# whatever the command; good values pass. core.abbrev as a length;
# GIT_CONFIG_COUNT and its keys and values, under the -c options.
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

test_expect_success 'config syntax at its edges: what git reads and what it calls a bad line' '
	cd r &&
	cp .git/config ../config.saved &&
	for text in "[a]\n\tk ; c\n" "[a]\n\tk # c\n" "[a]\r\n\tk\r\n" "[a]\n\tk \r\n" "[a]\n\tk" \
		"[a]\n\tk\r" "[a]\n\tk\rx\n" "[a]\n\tk=1\v\n" "[a]\v\n" "\f[a]\n" "[a]\n\tk = a\fb\n" \
		"[]\n" "[ \"x\"]\n\tk = v\n" "[a]\n\tk = \"a\\\\" "[a]\n\tk = a\\\\" "[a]\n\tk = a\\\\\nb\n" \
		"[a]\f\tk = v\n" "[a] [b]\n\tk = v\n"; do
		cp ../config.saved .git/config &&
		printf "$text" >>.git/config &&
		compare_git branch -vv || { echo "config text: $text"; return 1; }
	done &&
	cp ../config.saved .git/config
'

test_expect_success 'core.abbrev: the length of every abbreviation not given one' '
	cd r && git branch other &&
	for cfg in "" "-c core.abbrev=12" "-c core.abbrev=no" "-c core.abbrev=auto" "-c core.abbrev=4" \
		"-c core.abbrev=40"; do
		for c in "branch -v" "rev-parse --short HEAD" "branch -v --abbrev=9" \
			"for-each-ref --format=%(objectname:short)" "show-ref --abbrev" "show-ref --hash=5"; do
			compare_git $cfg $c || return 1
		done
	done
'

test_expect_success 'GIT_CONFIG_COUNT: entries before -c, and git'"'"'s refusals' '
	cd r &&
	for e in "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.abbrev GIT_CONFIG_VALUE_0=10" \
		"GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=core.abbrev GIT_CONFIG_VALUE_0=5" \
		"GIT_CONFIG_COUNT=x" "GIT_CONFIG_COUNT=1 GIT_CONFIG_VALUE_0=5" \
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.abbrev" \
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=bad GIT_CONFIG_VALUE_0=5" \
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core. GIT_CONFIG_VALUE_0=5" \
		"GIT_CONFIG_COUNT=0" "GIT_CONFIG_COUNT=" "GIT_CONFIG_COUNT=-1" \
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=Color.Branch.Current GIT_CONFIG_VALUE_0=foo"; do
		for c in "branch -v" "show-ref --heads" "-c core.abbrev=12 branch -v"; do
			(export $e && compare_git $c) || return 1
		done
	done
'

test_done
