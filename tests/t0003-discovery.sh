#!/bin/sh
# Repository discovery: subdirectories, -C, GIT_DIR/--git-dir, gitdir
# files, linked worktrees, bare repositories, ceilings, format checks and
# ownership, all compared with git (rev-parse is the probe).
. "$(dirname "$0")/test-lib.sh"

# The trash directory lives inside the project's own checkout: stop
# discovery from walking up into it.
export GIT_CEILING_DIRECTORIES="$TRASH"

test_expect_success 'setup' '
	git init -q repo &&
	(cd repo && test_commit one && mkdir -p sub/deeper) &&
	git init -q --bare bare.git &&
	git init -q --separate-git-dir "$TRASH/sep.git" gitfile &&
	git -C repo worktree add -q ../wt 2>/dev/null &&
	mkdir outside
'

for dir in repo repo/sub repo/sub/deeper bare.git bare.git/refs gitfile wt; do
	test_expect_success "discovery from $dir" "
		(cd $dir && compare_git rev-parse --git-dir --show-toplevel --show-prefix \
			--is-bare-repository --is-inside-work-tree --git-common-dir)
	"
done

test_expect_success '-C and repeated -C' '
	compare_git -C repo rev-parse --git-dir --show-toplevel &&
	compare_git -C repo -C sub rev-parse --show-prefix
'

test_expect_success 'GIT_DIR and --git-dir' '
	(GIT_DIR=repo/.git && export GIT_DIR && compare_git rev-parse --git-dir --show-toplevel) &&
	compare_git --git-dir=repo/.git rev-parse --git-dir &&
	compare_git --git-dir=bare.git rev-parse --is-bare-repository &&
	compare_git --git-dir=repo/.git --work-tree=repo rev-parse --show-toplevel
'

test_expect_success 'GIT_DIR naming a linked worktree gitdir file' '
	compare_git --git-dir=wt/.git rev-parse --git-dir --git-common-dir HEAD
'

test_expect_success 'GIT_WORK_TREE with the current directory outside it' '
	(cd outside && GIT_DIR=../repo/.git GIT_WORK_TREE=../repo &&
	 export GIT_DIR GIT_WORK_TREE &&
	 compare_git rev-parse --git-dir --show-toplevel --show-prefix)
'

test_expect_success 'not a repository' '
	(cd outside && compare_git rev-parse --git-dir) &&
	(cd outside && test_expect_code 128 mini-git rev-parse --git-dir 2>err &&
	 echo "fatal: not a git repository (or any of the parent directories): .git" >expect &&
	 test_cmp expect err)
'

test_expect_success 'GIT_DIR that is not a repository' '
	compare_git --git-dir=outside rev-parse --git-dir
'

test_expect_success 'ceiling stops the walk' '
	(cd repo/sub && GIT_CEILING_DIRECTORIES="$TRASH/repo" && export GIT_CEILING_DIRECTORIES &&
	 compare_git rev-parse --git-dir)
'

test_expect_success 'a repository without a config file' '
	cp -R repo noconf && rm noconf/.git/config &&
	(cd noconf && compare_git rev-parse --git-dir HEAD)
'

test_expect_success 'format version 1 with an unknown extension is refused' '
	cp -R repo ext && git -C ext config core.repositoryformatversion 1 &&
	git -C ext config extensions.frobnicate yes &&
	(cd ext && compare_git rev-parse HEAD)
'

test_expect_success 'format version 2 is refused' '
	cp -R repo v2 && git -C v2 config core.repositoryformatversion 2 &&
	(cd v2 && compare_git rev-parse HEAD)
'

test_expect_success 'extensions are ignored in format version 0' '
	cp -R repo ext0 && git -C ext0 config extensions.frobnicate yes &&
	(cd ext0 && compare_git rev-parse HEAD)
'

test_expect_success 'SHA-256 repositories are refused with a clear message' '
	git init -q --object-format=sha256 s256 &&
	(cd s256 && test_expect_code 128 mini-git rev-parse --git-dir 2>err) &&
	grep "SHA-256" s256/err
'

test_expect_success 'dubious ownership is refused like git' '
	(cd repo && GIT_TEST_ASSUME_DIFFERENT_OWNER=1 && export GIT_TEST_ASSUME_DIFFERENT_OWNER &&
	 compare_git rev-parse --git-dir)
'

test_expect_success 'safe.directory allows it' '
	(cd repo && GIT_TEST_ASSUME_DIFFERENT_OWNER=1 && export GIT_TEST_ASSUME_DIFFERENT_OWNER &&
	 git config --global safe.directory "$TRASH/repo" &&
	 compare_git rev-parse --git-dir &&
	 git config --global --unset safe.directory &&
	 git config --global safe.directory "*" &&
	 compare_git rev-parse --git-dir &&
	 git config --global --unset safe.directory)
'

# Real owners, as git checks them: the work tree, the git dir, and the
# .git file of a linked worktree, each by lstat(); GIT_DIR is trusted.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	test_expect_success 'setup: a repository and a linked worktree to hand to nobody' '
		git init -q owned && git -C owned commit -q --allow-empty -m one &&
		git -C owned worktree add -q ../owned-wt 2>/dev/null
	'
	for what in owned owned/.git owned/.git/HEAD owned-wt owned-wt/.git \
		owned/.git/worktrees/owned-wt; do
		test_expect_success "owner check: $what belongs to someone else" '
			chown nobody "$what" &&
			(cd owned && compare_git branch && compare_git rev-parse --git-dir &&
			 GIT_DIR=.git compare_git branch &&
			 cd .git && compare_git rev-parse --git-dir) &&
			(cd owned-wt && compare_git branch) &&
			(cd owned/sub 2>/dev/null || cd owned && mkdir -p sub && cd sub &&
			 compare_git rev-parse --show-toplevel);
			ret=$?; chown root "$what"; test $ret = 0
		'
	done
	test_expect_success 'owner check: a .git symbolic link counts by its own owner' '
		mv owned/.git owned-gitdir && ln -s ../owned-gitdir owned/.git &&
		chown -h nobody owned/.git &&
		(cd owned && compare_git branch);
		ret=$?; rm owned/.git && mv owned-gitdir owned/.git && test $ret = 0
	'
else
	test_skip 'owner checks with real owners' 'not root, or no user nobody'
fi

test_expect_success 'a linked worktree of a bare repository is not bare' '
	git clone -q --bare repo bare-main.git &&
	git -C bare-main.git worktree add -q ../bare-linked 2>/dev/null &&
	(cd bare-linked &&
	 compare_git rev-parse --is-bare-repository --is-inside-work-tree --show-toplevel --git-dir &&
	 mkdir -p sub && cd sub && compare_git rev-parse --show-prefix --show-toplevel) &&
	git -C bare-main.git config core.worktree /nonexistent &&
	(cd bare-linked && compare_git rev-parse --is-bare-repository --show-toplevel)
'

test_expect_success 'a discovered repository with GIT_WORK_TREE or core.worktree is set up as GIT_DIR would be' '
	git init -q wt-r && (cd wt-r && test_commit one && mkdir -p sub/deep) &&
	git clone -q --bare wt-r wt-bare.git && mkdir -p wt-plain/dir &&
	git init -q wt-cw && git -C wt-cw config core.worktree "$TRASH/wt-plain" &&
	git init -q wt-cb && git -C wt-cb config core.worktree "$TRASH/wt-plain" &&
	git -C wt-cb config core.bare true &&
	for d in wt-r wt-r/sub/deep wt-r/.git wt-r/.git/refs wt-bare.git wt-cw wt-cw/.git wt-cb wt-cb/.git; do
		for wt in "" "$TRASH/wt-r" "$TRASH/wt-plain"; do
			(cd $d && if test -n "$wt"; then export GIT_WORK_TREE="$wt"; fi &&
			 compare_git rev-parse --git-dir --git-common-dir --show-toplevel --show-prefix \
				--show-cdup --is-inside-work-tree --is-inside-git-dir --is-bare-repository) ||
				{ echo "in $d, GIT_WORK_TREE=$wt"; return 1; }
		done
	done
'

test_done
