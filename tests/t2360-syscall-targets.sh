#!/bin/sh
# The system calls of `branch` and `branch -v` on the repository of
# perf/branch (ten branches, 5,000 packed tags, a global config, a
# terminal type set), counted as strace -c counts them, which perf/branch
# quotes and git's ~177 was measured by: every call but exit_group. The
# builds that can are held to the project's targets: 30 and 60 static
# (make STATIC=1), 45 and 60 dynamic with musl (make MUSL=1) or with glibc
# named by its path (make LIBC_BY_PATH=1). The default glibc build cannot
# reach 45. Naming libc as libc.so.6, glibc's loader makes 28 calls before
# main(), and perf/branch's floor, which reads HEAD, refs/heads/ and
# packed-refs in the fewest calls and prints, makes 38. git's rules add 11
# to that: three to find and check the repository (.git, objects, refs),
# one for the ownership of the work tree, five for the repository's and
# the user's config files, one to ask whether stdout is a terminal
# (TERM is set) and one to look for linked worktrees (their branches are
# marked "+"). One more, madvise(MADV_RANDOM) on packed-refs, keeps a cold
# binary search from reading the whole file. The default build is held
# to what it makes now, 50 and 63, so that any new call fails this test
# too.
. ./test-lib.sh

if ! have_strace; then
	test_skip 'system call targets' 'no strace'
	test_done
fi
if ldd "$MINI_GIT" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	test_skip 'system call targets' 'sanitizer build'
	test_done
fi
if ! readelf -d "$MINI_GIT" 2>/dev/null | grep -q NEEDED; then
	build=static branch_max=30 verbose_max=60
elif readelf -l "$MINI_GIT" 2>/dev/null | grep -q 'interpreter: .*ld-musl'; then
	build='dynamic, musl' branch_max=45 verbose_max=60
elif readelf -d "$MINI_GIT" 2>/dev/null | grep -q 'NEEDED.*\[/.*libc\.so'; then
	build='dynamic, glibc by path' branch_max=45 verbose_max=60
else
	build='dynamic, glibc' branch_max=50 verbose_max=63
fi

# calls FILE: the system calls strace wrote to FILE (not exit_group, exits
# or signals).
calls() {
	grep -Evc '^[0-9]+ +(\+\+\+|---|exit_group\()' "$1"
}

# at_most N ARGS...: mini-git ARGS makes at most N system calls.
at_most() {
	max=$1
	shift
	TERM=xterm strace -f -o t.out "$MINI_GIT" "$@" >/dev/null &&
	n=$(calls t.out) &&
	echo "# $build: mini-git $* made $n system calls (at most $max)" &&
	{ [ "$n" -le "$max" ] || { cat t.out; return 1; }; }
}

test_expect_success 'setup: ten branches, 5,000 packed tags, a global config' '
	git init -q repo && cd repo &&
	for i in $(seq 1 20); do
		test_tick && git commit -q --allow-empty -m "c$i" || return 1
	done &&
	for i in $(seq 1 10); do git branch "branch-$i" "HEAD~$i" || return 1; done &&
	oid=$(git rev-parse HEAD~5) &&
	for i in $(seq 1 5000); do echo "$oid refs/tags/v$i"; done >>.git/packed-refs &&
	git pack-refs --all && git repack -q -a -d && git prune-packed &&
	printf "[user]\n\tname = U\n\temail = u@example.com\n" >"$HOME/.gitconfig"
'

test_expect_success "branch: at most $branch_max system calls ($build)" '
	cd repo &&
	compare_git branch &&
	at_most $branch_max branch
'

test_expect_success "branch -v: at most $verbose_max system calls ($build)" '
	cd repo &&
	compare_git branch -v &&
	at_most $verbose_max branch -v
'

test_done
