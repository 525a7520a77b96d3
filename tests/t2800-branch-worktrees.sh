#!/bin/sh
# branch with linked work trees, beside git: the "+" of a branch checked
# out elsewhere and its path with -vv, %(worktreepath), and the changes
# git refuses (-d, -f) or carries over to the other work trees (-m).
. "$(dirname "$0")/test-lib.sh"

# The repositories and their work trees are made once; a branch change
# touches only the git dirs, so each test restores saved copies of those.
make_repo() {
	git init -q --template= r && (cd r &&
		git config core.logAllRefUpdates true &&
		test_commit one && test_commit two &&
		for b in a b c e f g; do git branch $b || return 1; done &&
		git worktree add -q ../wa a && git worktree add -q ../wb b &&
		git worktree add -q --detach ../wd one &&
		git worktree add -q ../wr e &&
		git worktree add -q -f ../wdup a) &&
	rm -rf wb &&
	git clone -q --template= --bare r bare.git && (cd bare.git &&
		git worktree add -q ../bw1 a && git worktree add -q ../bw2 c) &&
	rm -f r/.git/index r/.git/COMMIT_EDITMSG &&
	mkdir saved && cp -a r/.git saved/r.git && cp -a bare.git saved/bare.git
}
restore() {
	(cd "$TRASH" && rm -rf r/.git bare.git &&
	 cp -a saved/r.git r/.git && cp -a saved/bare.git bare.git)
}
# restore_one GITDIR: only the one a test changes
restore_one() {
	case $1 in r/.git) from=r.git ;; *) from=$1 ;; esac
	(cd "$TRASH" && rm -rf "$1" && cp -a "saved/$from" "$1")
}

# Everything a branch change may touch: refs, every HEAD and its reflog,
# config, reflogs of branches.
wt_state() {
	(cd "$1" &&
	 git for-each-ref --format="%(refname) %(objectname)" &&
	 find HEAD config worktrees logs -type f \( -name HEAD -o -name config -o -path "*logs/*" \) |
		sort | xargs tail -n +1)
}

# wt_change DIR GITDIR ARGS...: "branch ARGS" run in DIR by both tools on
# fresh repositories; output, exit code and the state of GITDIR compared.
wt_change() {
	dir=$1 gd=$2
	shift 2
	for tool in git "$MINI_GIT"; do
		t=$(basename $tool)
		restore_one $gd && (cd "$TRASH" && eval "$WT_PREP") &&
		(cd "$TRASH/$dir" && "$tool" branch "$@" >"$TRASH/out.$t" 2>"$TRASH/err.$t"
		 echo "exit=$?" >>"$TRASH/out.$t") &&
		wt_state "$TRASH/$gd" >"$TRASH/state.$t" || return 1
	done
	mini_to_git "$TRASH/err.mini-git"
	test_cmp "$TRASH/out.git" "$TRASH/out.mini-git" &&
	test_cmp "$TRASH/err.git" "$TRASH/err.mini-git" &&
	test_cmp "$TRASH/state.git" "$TRASH/state.mini-git"
}

test_expect_success 'setup' 'make_repo'

ALL_FORMS='"" "-v" "-vv" "--color=always" "--color=always -vv" "-a" \
	"--format=%(refname)|%(worktreepath)|%(HEAD)" "--format=%(worktreepath:x)" \
	"--sort=worktreepath" "--sort=-worktreepath -v" "--list [ab]*" "--contains two"'
SOME_FORMS='"" "-vv" "--color=always -vv" "--format=%(refname)|%(worktreepath)|%(HEAD)" \
	"--sort=-worktreepath -v"'
for dir in r wa wd wr bare.git bw1; do
	case $dir in r|wa|wd) forms=$ALL_FORMS ;; *) forms=$SOME_FORMS ;; esac
	eval "set -- $forms"
	for args
	do
		test_expect_success "in $dir: branch $args" \
			'cd $dir && set -f && compare_git branch $args'
	done
	test_expect_success "in $dir: for-each-ref %(worktreepath)" '
		cd $dir &&
		compare_git for-each-ref "--format=%(worktreepath) %(refname)" refs/heads
	'
done

test_expect_success 'color.branch.worktree and color.branch.current' '
	cd r &&
	compare_git -c color.branch.worktree="bold red" branch --color=always -vv &&
	compare_git -c color.branch.worktree=normal -c color.branch.current=blue branch --color=always &&
	compare_git -c color.branch=always branch -v
'

WT_PREP='mv r/.git/worktrees/wa/gitdir r/.git/worktrees/wa/gitdir.off &&
	echo junk >r/.git/worktrees/stray &&
	mkdir r/.git/worktrees/empty && : >r/.git/worktrees/empty/gitdir'
for args in "-vv" "-d a" "-m a a2"; do
	test_expect_success "work trees without a gitdir file, a stray file: branch $args" \
		"wt_change r r/.git $args"
done
WT_PREP='echo garbage >r/.git/worktrees/wr/HEAD && rm r/.git/worktrees/wd/HEAD'
for args in "-vv" "-d e" "-m e e2"; do
	test_expect_success "garbage or a missing HEAD in a work tree: branch $args" \
		"wt_change r r/.git $args"
done

# git 2.39 prints a relative gitdir path as it is written
WT_PREP='echo ../../../wr/.git >r/.git/worktrees/wr/gitdir'
for args in "-vv" "-d e" "-m e e2"; do
	test_expect_success "a relative gitdir file: branch $args" "wt_change r r/.git $args"
done
# a HEAD that cannot be locked: git renames, then names that work tree
WT_PREP=': >r/.git/worktrees/wa/HEAD.lock'
test_expect_success "a locked HEAD elsewhere: branch -m a a2" "wt_change r r/.git -m a a2"
WT_PREP=
for args in "-d a" "-D a" "-d b" "-D a b c" "-d c" "-f a two" "-f c one" "-f e" \
	"-m a a2" "-M a a2" "-m b b2" "-m a master" "-M a master" "-M master a" \
	"-c a a3" "-C c a" "-c a e" "-M a a" "-m master main" "-M @{-1}" "new one" \
	"-f master" "-m master master" "-M master master"
do
	test_expect_success "in r: branch $args" "wt_change r r/.git $args"
done
for args in "-d a" "-d c" "-f c one" "-M a a2" "-m master main" "-M a master" "-c a e" \
	"-m a a" "-M master master"; do
	test_expect_success "in wa: branch $args" "wt_change wa r/.git $args"
done

for args in "-d master" "-D a" "-f c" "-f master one" "-m master m2" "-m a a2" "-m c" "-c master m3"; do
	test_expect_success "bare, in bare.git: branch $args" "wt_change bare.git bare.git $args"
done
# In a linked work tree of a bare repository git is not bare (core.bare
# is the main work tree's), so new refs get reflogs there.
for args in "-d master" "-D a" "-f c" "-m c" "-f master one" "-m master m2" "-m a a2" "-c master m3"; do
	test_expect_success "bare, in bw1: branch $args" "wt_change bw1 bare.git $args"
done

# a detached work tree rebasing or bisecting a branch holds it too
WT_PREP='mkdir r/.git/worktrees/wd/rebase-merge && echo refs/heads/f >r/.git/worktrees/wd/rebase-merge/head-name'
for args in "-d f" "-f f one" "-m f f2" "-c f f3" "-M g f" "-m f master" "-u master f" \
	"-d g"; do
	test_expect_success "rebase-merge in wd: branch $args" "wt_change r r/.git $args"
done
WT_PREP='mkdir r/.git/worktrees/wd/rebase-apply && echo refs/heads/f >r/.git/worktrees/wd/rebase-apply/head-name'
for args in "-d f" "-m f f2"; do
	test_expect_success "rebase-apply in wd: branch $args" "wt_change r r/.git $args"
done
WT_PREP='mkdir r/.git/worktrees/wd/rebase-apply && echo refs/heads/f >r/.git/worktrees/wd/rebase-apply/head-name && : >r/.git/worktrees/wd/rebase-apply/applying'
for args in "-d f" "-m f f2"; do
	test_expect_success "git am in wd: branch $args" "wt_change r r/.git $args"
done
WT_PREP='echo f >r/.git/worktrees/wd/BISECT_START && : >r/.git/worktrees/wd/BISECT_LOG'
for args in "-d f" "-f f one" "-m f f2" "-c f f3"; do
	test_expect_success "bisect in wd: branch $args" "wt_change r r/.git $args"
done
# on a branch, a rebase still holds its branch against -d and -f, not -m
WT_PREP='mkdir r/.git/worktrees/wa/rebase-merge && echo refs/heads/f >r/.git/worktrees/wa/rebase-merge/head-name'
for args in "-d f" "-f f one" "-m f f2"; do
	test_expect_success "rebase-merge in wa: branch $args" "wt_change r r/.git $args"
done
WT_PREP='mkdir r/.git/worktrees/wd/rebase-merge && printf "refs/heads/g\n%s\n%s\n" $(git -C r rev-parse one two) >r/.git/worktrees/wd/rebase-merge/update-refs'
for args in "-d g" "-f g one"; do
	test_expect_success "update-refs in wd: branch $args" "wt_change r r/.git $args"
done
WT_PREP='echo "ref: refs/heads/unborn" >r/.git/worktrees/wd/HEAD'
for args in "-d unborn" "-m unborn x" "-f unborn" "-u master unborn" "-vv"; do
	test_expect_success "unborn branch in wd: branch $args" "wt_change r r/.git $args"
done
# wd's HEAD names a symref: git follows the chain to the branch at its end
WT_PREP='git -C r symbolic-ref refs/heads/alias refs/heads/f && echo "ref: refs/heads/alias" >r/.git/worktrees/wd/HEAD'
for args in "" "-vv" "-a -v" "-d f" "-D f" "-f f one" "-m f f2" \
	"-d alias" "-m alias a2"; do
	test_expect_success "symref chain in wd: branch $args" "wt_change r r/.git $args"
done
WT_PREP='git -C r symbolic-ref refs/heads/alias refs/heads/nothere && echo "ref: refs/heads/alias" >r/.git/worktrees/wd/HEAD'
for args in "" "-d alias" "-f nothere one"; do
	test_expect_success "dangling symref chain in wd: branch $args" "wt_change r r/.git $args"
done
WT_PREP=

test_expect_success 'syscalls: no linked work tree costs one failed open of worktrees/' '
	if ! have_strace; then exit 0; fi
	ASAN_OPTIONS=detect_leaks=0 && export ASAN_OPTIONS &&
	git init -q lone && cd lone && test_commit one &&
	strace -f -o ../lone.trace "$MINI_GIT" branch >/dev/null &&
	! grep "/worktrees\"" ../lone.trace &&
	git branch other &&
	compare_git branch &&
	strace -f -o ../lone.trace "$MINI_GIT" branch >/dev/null &&
	test "$(grep -c "/worktrees\"" ../lone.trace)" = 1 &&
	grep "/worktrees\".*ENOENT" ../lone.trace
'

test_done
