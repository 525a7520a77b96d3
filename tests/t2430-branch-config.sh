#!/bin/sh
# branch and for-each-ref beside git over hand-written configs: renamed,
# copied and removed [branch] sections (headers matched byte for byte,
# what follows a header on its line), upstreams read as git's remote
# code reads them (the first .merge, values with blanks, and its
# refusals), and --unset-upstream.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-ref-change.sh"

test_expect_success 'setup' '
	git init -q base && cd base &&
	test_commit one && test_commit two &&
	for b in a b c d.e x/y q; do git branch "$b" || return 1; done &&
	git update-ref refs/remotes/origin/main HEAD &&
	git update-ref refs/remotes/origin/other HEAD~1 &&
	cp .git/config ../config.base
'

# with_config TEXT CMD...: compare_change on base with TEXT (printf
# format) appended to its config
with_config() {
	text=$1
	shift
	rm -rf orig && cp -a base orig &&
	printf "$text" >>orig/.git/config &&
	compare_change "$@"
}

test_expect_success 'sections renamed, copied and removed as git edits them' '
	for cfg in \
		"[BRANCH \"b\"]\n\tRemote = origin\n\tMERGE = refs/heads/main\n" \
		"[branch.b]\n\tremote = origin\n\tmerge = refs/heads/main\n" \
		"\t[branch \"b\"]   # indented\n\t\tremote = origin\n" \
		"[branch \"b\"] remote = origin\n" \
		"[branch \"b\"]\n\tremote = origin\n[other]\n\tkey = v\n[branch \"b\"]\n\tmerge = refs/heads/main\n" \
		"[branch   \"b\"  ]\n\tremote = origin\n" \
		"[branch \"\\\\b\"]\n\tremote = origin\n"; do
		for cmd in "-m b new" "-M b a" "-c b new" "-C b q" "-D b"; do
			with_config "$cfg" branch $cmd ||
				{ echo "config: $cfg; branch $cmd"; return 1; }
		done
	done
'

test_expect_success 'upstreams: the first .merge, the last .remote, values with blanks' '
	for cfg in \
		"[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n\tmerge = refs/heads/c\n" \
		"[branch \"c\"]\n\tremote = .\n\tmerge = refs/heads/main\\\\\n\tcont\n" \
		"[branch \"c\"]\n\tremote = origin\n\tmerge = refs/heads/main\n\tremote = .\n"; do
		for cmd in "branch -vv" "for-each-ref --format=%%(refname)|%%(upstream)|%%(upstream:short)|%%(upstream:remotename)" \
			"branch --unset-upstream a" "branch --unset-upstream c"; do
			with_config "$cfg" $cmd || { echo "config: $cfg; $cmd"; return 1; }
		done
	done
'

test_expect_success 'what git refuses where it reads the remotes, and only there' '
	for cfg in \
		"[branch \"c\"]\n\tmerge\n" \
		"[branch \"c\"]\n\tremote\n" \
		"[branch \"c\"]\n\tpushremote\n" \
		"[branch \"\"]\n\tremote = origin\n" \
		"[remote \"origin\"]\n\tfetch\n" \
		"[remote \"origin\"]\n\tprune = maybe\n" \
		"[remote \"/x\"]\n\turl = u\n" \
		"[remote]\n\tpushdefault\n" \
		"[url \"u\"]\n\tinsteadOf\n"; do
		for cmd in "branch" "branch -v" "branch -vv" "branch -d a" "branch -D a" \
			"branch --unset-upstream a" "branch -u origin/main a" "branch new a" \
			"branch new origin/main" "branch -m a new" \
			"for-each-ref --format=%%(upstream)" "for-each-ref --format=%%(push)"; do
			with_config "$cfg" $cmd || { echo "config: $cfg; $cmd"; return 1; }
		done
	done
'

test_expect_success '--track=inherit copies every .merge and names a remote of "." as git does' '
	for cfg in \
		"[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n\tmerge = refs/heads/c\n" \
		"[branch \"a\"]\n\tremote = origin\n\tmerge = refs/heads/x\n\tmerge = refs/heads/y\n" \
		"[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n[branch]\n\tautosetuprebase = remote\n" \
		"[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/new\n" \
		"[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n\tmerge = refs/heads/c\n[branch]\n\tautosetuprebase = always\n" \
		"[branch \"a\"]\n\tremote = .\n\tmerge =\n\tmerge = refs/heads/c\n"; do
		with_config "$cfg" branch --track=inherit new a || { echo "config: $cfg"; return 1; }
	done
'

test_expect_success '--unset-upstream leaves .pushremote' '
	with_config "[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n\tpushremote = origin\n" \
		branch --unset-upstream a
'

# config_edit TEXT CMD...: CMD by git and by mini-git, each in a copy of
# base kept for these edits of the config alone, with TEXT (printf format)
# appended to the config: the same output, exit code and config after.
config_edit() {
	text=$1
	shift
	for who in git mini-git; do
		[ -d "edit.$who" ] || cp -a base "edit.$who" || return 1
		cp config.base "edit.$who/.git/config" &&
		printf "$text" >>"edit.$who/.git/config" &&
		bin=git && { [ $who = git ] || bin=$MINI_GIT; } &&
		(cd "edit.$who" && "$bin" "$@" >../out.$who 2>../err.$who; echo "exit=$?" >>../out.$who) &&
		cp "edit.$who/.git/config" "conf.$who" || return 1
	done
	mini_to_git err.mini-git &&
	test_cmp out.git out.mini-git && test_cmp err.git err.mini-git &&
	test_cmp conf.git conf.mini-git
}

test_expect_success 'one key set or removed as git edits it: on a header line, a section left empty, several values' '
	for cfg in \
		"[branch \"a\"] remote = .\n\tmerge = refs/heads/b\n" \
		"[branch \"a\"]\tremote = .\n[branch \"a\"] merge = refs/heads/b\n[other]\n\tk = v\n" \
		"# my branches\n[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n[z]\n" \
		"[branch \"a\"] # c\n\tremote = .\n\tmerge = refs/heads/b\n" \
		"[branch \"a\"]\n\tremote = . # c\n\tmerge = refs/heads/b\n\n\n  [z]\n" \
		"[branch \"a\"]\n\tremote = .\n[branch \"a\"]\n\tmerge = refs/heads/b\n\n  [z]\n" \
		"[branch \"a\"]\n\tremote = .\n\n[branch \"a\"]\n\tmerge = refs/heads/b\n\trebase = true\n  [z]\n" \
		"[z]   \n[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n  ; end\n" \
		"[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n\tmerge = refs/heads/c\n" \
		"[branch \"a\"]\n\tmerge = refs/heads/b\n" \
		"[branch \"a\"]\n\tpushremote = .\n\tmerge = refs/heads/b\n" \
		"[branch \"a\"]\n\tremote =\n\tmerge = refs/heads/b\n" \
		"[branch \"a\"]   \n[z]\n" "[branch \"a\"] ; c\n\n" \
		"[branch \"a\"]\n\tmerge = refs/heads/b # c\n[branch \"a\"] # e\n" \
		"[branch \"a\"]\f\tremote = .\n\tmerge = refs/heads/b\n" \
		"[branch \"a\"] [z]\n\tremote = .\n[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n" \
		"[branch \"a\"]\n\tremote ; c\\\\\n q\n\tremote = .\n\tmerge = refs/heads/b\n"; do
		for cmd in "--unset-upstream a" "-u b a" "--edit-description a"; do
			GIT_EDITOR="f() { echo text >\"\$1\"; }; f" config_edit "$cfg" branch $cmd ||
			{ echo "config: $cfg; branch $cmd"; return 1; }
		done &&
		GIT_EDITOR="f() { : >\"\$1\"; }; f" config_edit "$cfg" branch --edit-description a ||
		{ echo "config: $cfg; empty description"; return 1; }
	done
'

test_expect_success 'a remote with two refspecs to the same ref is one match, as in git' '
	with_config "[remote \"origin\"]\n\turl = u\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote \"origin\"]\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" \
		branch --track new origin/main &&
	with_config "[remote \"origin\"]\n\turl = u\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote \"o2\"]\n\turl = u\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" \
		branch --track new origin/main
'

test_expect_success '--unset-upstream with the config locked fails as git does' '
	rm -rf orig && cp -a base orig &&
	printf "[branch \"a\"]\n\tremote = .\n\tmerge = refs/heads/b\n" >>orig/.git/config &&
	: >orig/.git/config.lock &&
	compare_change branch --unset-upstream a
'

test_done
