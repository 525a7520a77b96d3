#!/bin/sh
# branch: every change form beside git. Each command runs on two copies of
# the same repository at the same path, one with git and one with
# mini-git; output, exit code, refs, reflogs and config must match.
. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIRECTORY/lib-ref-change.sh"
# change ARGS...: "branch ARGS" with both tools on fresh copies of orig
change() { compare_change branch "$@"; }

test_expect_success 'setup' '
	git init -q up && (cd up && test_commit one && test_commit two &&
		git branch other one && git branch feature) &&
	git clone -q up orig && (cd orig &&
		test_commit three &&
		git branch side one && git branch merged two &&
		git branch unmerged && git checkout -q unmerged && test_commit four &&
		git checkout -q master &&
		git branch deep/a/b one &&
		git branch -q --set-upstream-to=origin/other side &&
		git tag -a -m ann ann two &&
		git config core.logAllRefUpdates true)
'

for args in "new" "new one" "new ann" "new origin/other" "--track new origin/other" \
	"--no-track new origin/other" "-t new master" "--track=inherit new side" \
	"--track=inherit new merged" "--track=inherit new origin/other" "--track=inherit new one" \
	"new nothere" "--track new nothere" "--track new one" "side" "-f side two" \
	"-f master one" "bad..name" "-- -x" "HEAD" "deep/a" "deep/a/b/c" "new/x origin/feature" \
	"-q new origin/other" "--create-reflog new" "new one extra" "-r new" \
	"-d merged" "-d unmerged" "-D unmerged" "-d master" "-d nothere" "-d feature" \
	"-d merged side" "-D deep/a/b" "-d" "-d -r origin/other" "-dr origin/nothere" \
	"-q -d merged" "-d side" \
	"-m side renamed" "-m side deep/x" "-m master main" "-m main" "-M side merged" \
	"-m side merged" "-m nothere x" "-m side bad..name" "-m a b c" "-m side side" \
	"-c side copied" "-c master copy" "-C side merged" "-c side merged" "-c nothere x" \
	"-u origin/other" "-u origin/feature side" "--set-upstream-to=master side" \
	"-u side side" "-u origin/nothere" "-u one side" "-u origin/other nothere" \
	"--unset-upstream side" "--unset-upstream merged" "--unset-upstream" \
	"--unset-upstream nothere" \
	"--sort=refname new" "--sort=bogus -d merged" "--no-sort -m side renamed" \
	"--contains one -d merged" "--merged one new" "--points-at one --no-points-at new" \
	"-D origin/other" "-d merged merged" "-d -r origin/other origin/other" \
	"-D side merged nothere" "-m deep/a/b deep" "-m deep/a/b deep/a/b/c" "-m master master/x" \
	"-c master master/x" "-c deep/a/b deep" "-M side deep/a" "-c master deep" \
	"-u master@{u}" "-u @" "new master@{u}" "new side@{u}" "--track new @" \
	"new master@{push}" "-u side@{u} merged" "--unset-upstream HEAD" "--edit-description HEAD"
do
	test_expect_success "branch $args" 'change $args'
done

test_expect_success 'branch -d of several, one of them locked: the others go, as in git' '
	(cd orig && git pack-refs --all && git branch loose two && touch .git/refs/heads/side.lock) &&
	change -D side loose merged &&
	change -D loose &&
	(cd orig && touch .git/refs/heads/loose.lock) && change -D loose merged &&
	(cd orig && rm .git/refs/heads/side.lock .git/refs/heads/loose.lock && git branch -D -q loose)
'

test_expect_success 'a branch that is a symref: -f moves the branch it points to' '
	(cd orig && git symbolic-ref refs/heads/alias refs/heads/side) &&
	change -f alias && change -f alias one && change --create-reflog -f alias two &&
	change -D alias &&
	(cd orig && git symbolic-ref -d refs/heads/alias)
'

test_expect_success 'changes in a detached HEAD and on an unborn branch' '
	(cd orig && git checkout -q --detach two) &&
	change new && change -m x && change -u origin/other && change -d side &&
	change --unset-upstream HEAD &&
	(cd orig && git checkout -q master && git checkout -q --orphan unborn) &&
	change new && change -m unborn renamed && change -c unborn copied &&
	change -u side && change -u side unborn && change --set-upstream-to=side HEAD &&
	change -m side unborn && change -M side unborn && change -c side unborn &&
	change -C side unborn &&
	(cd orig && git checkout -q master)
'

test_expect_success 'setup: editors for --edit-description' '
	cat >"$TRASH/editor" <<-EOF &&
	#!/bin/sh
	{ echo "args: \$# \$1" && cat "\$1"; } >>"$TRASH/editor.log"
	printf "  \\n\\nMy desc  \\n\\n\\n# comment\\nline2\\t\\n\\n" >"\$1"
	EOF
	cat >"$TRASH/blank-editor" <<-\EOF &&
	#!/bin/sh
	printf "# only comments\n\n" >"$1"
	EOF
	chmod +x "$TRASH/editor" "$TRASH/blank-editor"
'

test_expect_success '--edit-description: write, rewrite, clear, refusals, editors' '
	export GIT_EDITOR="$TRASH/editor" &&
	change --edit-description && change --edit-description side &&
	change --edit-description nothere && change --edit-description side merged &&
	change --edit-description @{-1} &&
	(cd orig && git config branch.side.description "old
text") &&
	change --edit-description side &&
	GIT_EDITOR="$TRASH/blank-editor" change --edit-description side &&
	GIT_EDITOR="$TRASH/blank-editor" change --edit-description merged &&
	GIT_EDITOR=false change --edit-description &&
	GIT_EDITOR=: change --edit-description side &&
	GIT_EDITOR="\"$TRASH/editor\" # through the shell" change --edit-description &&
	GIT_EDITOR=no-such-editor change --edit-description &&
	(unset GIT_EDITOR && TERM=dumb && export TERM && unset EDITOR VISUAL &&
	 change --edit-description &&
	 VISUAL="$TRASH/blank-editor" change --edit-description &&
	 EDITOR="$TRASH/editor" change --edit-description) &&
	(unset GIT_EDITOR && compare_change -c core.editor="$TRASH/editor" branch --edit-description) &&
	(cd orig && git config --unset branch.side.description) &&
	(cd orig && git checkout -q --detach two) && change --edit-description &&
	(cd orig && git checkout -q master)
'

test_expect_success '--edit-description: the editor is given what git gives it' '
	(cd orig && git config branch.side.description "old text") &&
	for tool in git "$MINI_GIT"; do
		rm -rf work "$TRASH/editor.log" && cp -a orig work &&
		(cd work && GIT_EDITOR="$TRASH/editor" "$tool" branch --edit-description side) &&
		sed "s|$TRASH|TRASH|g" "$TRASH/editor.log" >"$TRASH/log.$(basename "$tool")" || return 1
	done &&
	test_cmp "$TRASH/log.git" "$TRASH/log.mini-git" &&
	grep "^# Please edit" "$TRASH/log.git" &&
	(cd orig && git config --unset branch.side.description)
'

test_expect_success 'packed branches: delete and rename rewrite packed-refs' '
	(cd orig && git pack-refs --all) &&
	change -d merged && change -D unmerged deep/a/b && change -m side renamed &&
	change -m side deep/side && change -c merged again && change -f side one
'

test_expect_success 'bare repository: no reflogs by default' '
	rm -rf orig.nonbare && mv orig orig.nonbare &&
	git clone -q --bare up orig &&
	change new one && change -m other renamed && change -d feature &&
	rm -rf orig && mv orig.nonbare orig
'

test_expect_success 'a stale lock: git message, nothing changed' '
	(cd orig && touch .git/refs/heads/locked.lock && touch .git/config.lock) &&
	change locked && change -u origin/other side &&
	(cd orig && rm .git/refs/heads/locked.lock .git/config.lock)
'

test_expect_success 'a rename or copy that cannot write the new name puts everything back as git does' '
	rm -rf orig.saved && cp -a orig orig.saved &&
	(cd orig && echo garbage >.git/refs/heads/garb && mkdir -p .git/refs/heads/d/e &&
		touch .git/refs/heads/d/x.lock .git/refs/heads/new.lock &&
		git config branch.master.remote origin) &&
	for args in "-m master garb/x" "-M side garb/x" "-c master garb/x" "-m master d" \
		"-c master d" "-m side d" "-m master new" "-c side new" "-C master new" \
		"-m master garb/y/z"; do
		change $args || return 1
	done &&
	rm -rf orig && mv orig.saved orig
'

test_expect_success 'a rename whose log cannot move leaves HEAD'"'"'s log as git does' '
	(cd orig && mkdir -p .git/logs/refs/heads/new/sub && echo x >.git/logs/refs/heads/new/sub/f) &&
	change -m master new && change -c master new &&
	rm -r orig/.git/logs/refs/heads/new
'

test_expect_success 'a rename from a nested name leaves no empty log directory behind, as in git' '
	rm -rf nested && cp -a orig nested &&
	(cd nested && git branch deep/er/name && git branch deep/x && git branch a/b/c &&
		rm .git/logs/refs/heads/a/b/c && mkdir -p .git/logs/refs/heads/a/b/d) &&
	for args in "-M deep/er/name new/sub" "-m deep/er/name new" "-m deep/er/name deep/er" \
		"-m a/b/c x" "-d a/b/c" "-c deep/er/name y/z"; do
		CHANGE_REPO=nested change $args || return 1
	done
'

test_expect_success 'deletions rewrite packed-refs as git does: header, order, ^ lines (HEAD unborn there)' '
	(cd orig && git pack-refs --all && cp .git/packed-refs ../saved-packed &&
	 git branch loose-one one && git branch loose-two two) &&
	change -d loose-one &&
	change -D loose-one nothere loose-two &&
	change -d nothere &&
	tag=$(git -C orig rev-parse ann) && commit=$(git -C orig rev-parse one) &&
	for hdr in "" "# pack-refs with: peeled " "# pack-refs with: peeled fully-peeled "; do
		{ test -z "$hdr" || echo "$hdr"; echo "$commit refs/heads/zz-packed";
		  echo "$tag refs/heads/tag-branch"; echo "$tag refs/tags/ann";
		  echo "$commit refs/heads/aa-packed"; } >orig/.git/packed-refs &&
		change -d loose-one &&
		change -D aa-packed &&
		compare_change update-ref -d refs/heads/zz-packed || return 1
	done &&
	rm orig/.git/packed-refs && change -D loose-one &&
	cp saved-packed orig/.git/packed-refs
'

test_expect_success 'created refs and configs are read back by git' '
	rm -rf work && cp -a orig work && cd work &&
	"$MINI_GIT" branch --track made origin/other &&
	"$MINI_GIT" branch -m made remade &&
	git rev-parse --verify refs/heads/remade &&
	test "$(git config branch.remade.merge)" = refs/heads/other &&
	git reflog show remade >/dev/null &&
	git fsck
'

test_expect_success 'a rename onto itself, and renames beside stale locks, delete and put back as git does' '
	rm -rf renamed && cp -a orig renamed &&
	(cd renamed && git pack-refs --all && git branch loose two) &&
	CHANGE_REPO=renamed change -M master && CHANGE_REPO=renamed change -m side side &&
	CHANGE_REPO=renamed change -M loose loose &&
	touch renamed/.git/packed-refs.lock &&
	for args in "-M master" "-m master new" "-M side loose" "-M loose side" "-m loose new" \
		"-M merged merged" "-C side loose"; do
		CHANGE_REPO=renamed change $args || return 1
	done &&
	rm renamed/.git/packed-refs.lock && touch renamed/.git/refs/heads/loose.lock &&
	CHANGE_REPO=renamed change -M side loose && CHANGE_REPO=renamed change -M master loose
'

test_done
