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
	core.abbrev=x core.abbrev=no core.abbrev=auto core.abbrev=12 core.abbrev core.abbrev=k \
	core.abbrev=1k pack.compression=k pack.compression=0x9
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

# A global config holding KEY=VALUE ("-" for a name without a value, "_"
# for a space) before the commands run.
global_config() {
	k=${1%%=*} v=$(printf %s "${1#*=}" | tr _ " ")
	s=${k%%.*} rest=${k#*.}
	n=${rest##*.} sub=
	[ "$rest" = "$n" ] || sub=${rest%.*}
	{
		if [ -n "$sub" ]; then printf '[%s "%s"]\n' "$s" "$sub"; else printf '[%s]\n' "$s"; fi
		if [ "$v" = - ]; then printf '\t%s\n' "$n"; else printf '\t%s = %s\n' "$n" "$v"; fi
	} >"$HOME/.gitconfig"
}

test_expect_success 'git'"'"'s default config in the global file: every command checks it' '
	cd r &&
	i=0 &&
	for kv in \
	core.filemode=x core.trustctime=x core.quotepath=x core.symlinks=x core.ignorecase=x \
	core.attributesfile=- core.hookspath=- core.bare=x core.ignorestat=x core.abbrev=x \
	core.abbrev=3 core.abbrev=- core.abbrev=-1 core.abbrev=no core.abbrev=41 core.abbrev=40 \
	core.disambiguate=x core.disambiguate=- core.disambiguate=Commit core.disambiguate= \
	core.loosecompression=x core.loosecompression=12 core.compression=x core.compression=12 \
	core.compression=-1 core.compression=-2 core.compression=- core.packedgitwindowsize=x \
	core.bigfilethreshold=x core.bigfilethreshold=-1 core.bigfilethreshold=99999999999999999999 \
	core.bigfilethreshold=1k core.bigfilethreshold=- core.packedgitlimit=x \
	core.deltabasecachelimit=x core.autocrlf=x core.autocrlf=- core.autocrlf=INPUT core.safecrlf=x \
	core.safecrlf=WARN core.safecrlf=- core.eol=x core.editor=- core.commentchar=- \
	core.commentchar=ab core.commentchar= core.commentchar=AUTO core.askpass=- core.excludesfile=- \
	core.whitespace=x core.fsync=x core.fsync=- core.fsync=,x,_-pack_,none core.fsync=all,-bogus \
	core.fsync=Pack core.fsync=-_pack core.fsync=none core.fsync=none,bogus core.fsync=pack,,x \
	core.fsync=pa core.fsync=- core.fsync=pack,- core.fsync=-,pack core.fsync=x_y \
	core.fsyncmethod=x core.fsyncmethod=- core.fsyncmethod=Batch core.fsyncmethod=batch \
	core.fsyncobjectfiles=x core.fsyncobjectfiles=true core.preloadindex=x core.createobject=x \
	core.createobject=Link core.createobject=link core.createobject= core.sparsecheckout=x \
	core.sparsecheckoutcone=x core.precomposeunicode=x core.protecthfs=x core.protectntfs=x \
	core.splitindex=x core.logallrefupdates=x core.logallrefupdates=ALWAYS \
	core.warnambiguousrefs=x core.unknown=x user.name=- user.email=- user.useconfigonly=x \
	author.name=- author.email=- committer.name=- committer.email=- i18n.commitencoding=- \
	i18n.logoutputencoding=- branch.autosetupmerge=x branch.autosetupmerge=Always \
	branch.autosetuprebase=x branch.autosetuprebase=- push.default=x push.default=- mailmap.file=- \
	mailmap.blob=- advice.detachedhead=x advice.bogus=x advice.pushupdaterejected=x \
	advice.pushnonfastforward=x advice.waitingforeditor=x color.advice=x color.advice=- \
	color.advice=auto color.advice.hint=x color.advice.reset=x color.advice.bogus=x \
	color.advice.hint=- color.advice.hint=red pager.color=x color.pager=x pack.packsizelimit=x \
	pack.packsizelimit=-1 pack.compression=x pack.compression=12 pack.compression=-1 \
	sparse.expectfilesoutsideofpatterns=x color.ui=x column.ui=x core.filemode=- core.filemode= \
	core.filemode=0x10 core.filemode=1k user.name= core.compression=3000000000 \
	core.abbrev=3000000000 core.bigfilethreshold=3g pack.packsizelimit=1G
	do
		global_config "$kv" &&
		i=$((i + 1)) &&
		case $((i % 6)) in
		0) compare_git symbolic-ref HEAD ;;
		1) compare_git show-ref -q ;;
		2) compare_git rev-parse HEAD ;;
		3) compare_git cat-file -t HEAD ;;
		4) compare_git for-each-ref --count=1 ;;
		5) compare_git update-ref -d refs/heads/nothere ;;
		esac || return 1
		compare_git branch || return 1
	done &&
	rm "$HOME/.gitconfig"
'

test_expect_success 'the default config is checked before the options, as git checks it' '
	global_config core.quotepath=x &&
	cd r &&
	for c in "symbolic-ref --bogus" "show-ref -h" "update-ref -h" "for-each-ref --bogus" \
		"cat-file -h" "cat-file --bogus" "rev-parse --bogus" "fetch --bogus" "branch --bogus" \
		"branch -h" "fsck --bogus" "hash-object --bogus" "rev-parse --local-env-vars"; do
		compare_git $c || return 1
	done &&
	compare_git_stdin /dev/null hash-object --stdin &&
	compare_git init -q "$TRASH/new" &&
	test_must_fail "$MINI_GIT" init -q "$TRASH/new2" 2>/dev/null &&
	test_must_fail test -d "$TRASH/new2/.git" &&
	rm "$HOME/.gitconfig"
'

test_expect_success 'a lone -h needs no repository' '
	mkdir -p norepo && cd norepo &&
	export GIT_CEILING_DIRECTORIES="$TRASH" &&
	for c in symbolic-ref show-ref update-ref for-each-ref cat-file; do
		compare_git $c -h && compare_git $c --bogus || return 1
	done
'

test_expect_success 'the settings git reads when it opens the object store: last values, in git'"'"'s order' '
	cd r &&
	for kv in core.commitgraph=x core.multipackindex=x index.sparse=x index.version=x \
		index.version=99999999999 core.untrackedcache=- core.untrackedcache=x feature.manyfiles=x \
		feature.experimental=x gc.writecommitgraph=x fetch.writecommitgraph=x pack.usesparse=x \
		fetch.negotiationalgorithm=x fetch.negotiationalgorithm=- fetch.negotiationalgorithm=Noop \
		commitgraph.generationversion=x commitgraph.readchangedpaths=x; do
		global_config "$kv" &&
		for c in "cat-file -t HEAD" "branch -v" "branch" "for-each-ref" "rev-parse --git-dir" \
			"show-ref" "symbolic-ref HEAD" "update-ref -d refs/heads/nothere" "fsck" \
			"for-each-ref --format=%(refname)"; do
			compare_git $c || return 1
		done
	done &&
	printf "[core]\n\tcommitGraph = x\n\tcommitGraph\n[index]\n\tversion = y\n" >"$HOME/.gitconfig" &&
	compare_git cat-file -t HEAD &&
	printf "[fetch]\n\tnegotiationAlgorithm\n[gc]\n\twriteCommitGraph = z\n[fetch]\n\tnegotiationAlgorithm\n" \
		>"$HOME/.gitconfig" &&
	compare_git rev-parse HEAD &&
	rm "$HOME/.gitconfig"
'

test_done
