#!/bin/sh
# init: repositories git accepts, messages as git's.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'init non-bare: git status and fsck accept it' '
	mini-git init r1 >out &&
	echo "Initialized empty Git repository in $TRASH/r1/.git/" >expect &&
	test_cmp expect out &&
	git -C r1 status &&
	git -C r1 fsck
'

test_expect_success 'same message and files as git' '
	git init g >expect.out 2>expect.err &&
	mini-git init m >actual.out 2>actual.err &&
	sed "s|/g/|/m/|" expect.out >expect.fixed &&
	test_cmp expect.fixed actual.out &&
	test_cmp expect.err actual.err &&
	test_cmp g/.git/HEAD m/.git/HEAD &&
	test_cmp g/.git/config m/.git/config
'

test_expect_success 'init --bare' '
	mini-git init --bare b.git >out &&
	echo "Initialized empty Git repository in $TRASH/b.git/" >expect &&
	test_cmp expect out &&
	test "$(git -C b.git rev-parse --is-bare-repository)" = true
'

test_expect_success 're-init says Reinitialized' '
	mini-git init r1 >out &&
	echo "Reinitialized existing Git repository in $TRASH/r1/.git/" >expect &&
	test_cmp expect out
'

test_expect_success 'init -q is quiet; -b names the branch' '
	mini-git init -q -b trunk q >out 2>err &&
	test ! -s out && test ! -s err &&
	echo "ref: refs/heads/trunk" >expect &&
	test_cmp expect q/.git/HEAD
'

test_done
