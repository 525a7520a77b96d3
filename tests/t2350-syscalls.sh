#!/bin/sh
# System calls of the everyday commands, as upper bounds that do not
# depend on the build (dynamic, static, sanitizers): which files are
# opened, how often, and how a small loose object is read. Each command's
# output is also compared with git's.
. ./test-lib.sh

if ! have_strace; then
	test_skip 'system call bounds' 'no strace'
	test_done
fi
# LeakSanitizer cannot run under ptrace
ASAN_OPTIONS=detect_leaks=0 && export ASAN_OPTIONS

# trace FILE ARGS...: mini-git ARGS under strace, file descriptors shown
# with their paths (-y), into FILE.
trace() {
	out=$1
	shift
	strace -f -y -o "$out" "$MINI_GIT" "$@" >/dev/null
}

# count PATTERN FILE: lines of FILE matching the extended regex.
count() {
	grep -Ec "$1" "$2"
}

# at_most N PATTERN FILE
at_most() {
	n=$(count "$2" "$3")
	[ "$n" -le "$1" ] || { echo "$n lines match '$2' (at most $1 wanted):"; grep -E "$2" "$3"; return 1; }
}

# A glibc build made with LIBC_BY_PATH=1 names libc by its path; the
# default, static, musl and sanitizer builds name it by soname.
if readelf -d "$MINI_GIT" 2>/dev/null | grep -q 'NEEDED.*\[/.*libc\.so'; then
	test_expect_success 'libc named by its path: the loader reads no ld.so.cache' '
		trace t.out --version &&
		! grep "ld\.so\.cache" t.out &&
		grep -E "openat\(.*/libc\.so\.6\", .* = [0-9]" t.out
	'
else
	test_skip 'libc named by its path' 'libc named by soname in this build'
fi

test_expect_success 'setup: branches sharing one loose commit' '
	git init -q shared && cd shared &&
	git commit -q --allow-empty -m one &&
	git branch a && git branch b && git branch c/d
'

test_expect_success 'branch -v opens and reads a shared loose commit once' '
	cd shared &&
	compare_git branch -v &&
	oid=$(git rev-parse HEAD) &&
	path="objects/$(echo $oid | cut -c1-2)/$(echo $oid | cut -c3-)" &&
	trace t.out branch -v &&
	at_most 1 "openat\(.*$path\"" t.out &&
	at_most 1 "openat\(.*objects/[0-9a-f]{2}\"" t.out
'

test_expect_success 'a small loose object costs an open and a read, and exit closes it' '
	cd shared &&
	compare_git cat-file -p HEAD &&
	oid=$(git rev-parse HEAD) &&
	path="objects/$(echo $oid | cut -c1-2)/$(echo $oid | cut -c3-)" &&
	trace t.out cat-file -p $oid &&
	test "$(count "$path" t.out)" = 2 &&
	test "$(count "^[0-9]+ +(openat|read)\(.*$path" t.out)" = 2
'

test_expect_success 'setup: twelve branches on twelve loose commits' '
	git init -q many && cd many &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		test_tick && git commit -q --allow-empty -m "c$i" && git branch "b$i" || return 1
	done
'

test_expect_success 'branch -v lists no objects/xx directory twice' '
	cd many &&
	compare_git branch -v &&
	compare_git branch -v --abbrev=4 &&
	trace t.out branch -v &&
	grep -Eo "openat\(.*objects/[0-9a-f]{2}\"" t.out | sort | uniq -d >dups &&
	test_must_fail test -s dups
'

test_expect_success 'branch -v opens each loose commit once' '
	cd many &&
	trace t.out branch -v &&
	grep -Eo "openat\(.*objects/[0-9a-f]{2}/[0-9a-f]{38}\"" t.out | sort | uniq -d >dups &&
	test_must_fail test -s dups &&
	at_most 13 "openat\(.*objects/[0-9a-f]{2}/[0-9a-f]{38}\"" t.out
'

test_expect_success 'loose refs: read in open and read, none closed one by one' '
	cd many &&
	compare_git branch &&
	compare_git show-ref &&
	trace t.out show-ref &&
	test "$(count "openat\(.*refs/heads/b[0-9]+\", O_RDONLY" t.out)" = 12 &&
	! grep -E "^[0-9]+ +close\(-?[0-9]+<.*/refs/heads/b" t.out
'

test_expect_success 'loose refs: 200 of them closed in batches, and under a limit of 20 descriptors' '
	cd many &&
	for i in $(seq 1 200); do echo "$(git rev-parse HEAD)" >.git/refs/tags/l$i || return 1; done &&
	trace t.out show-ref --tags &&
	at_most 12 "^[0-9]+ +(close_range\(|close\([0-9]+<[^>]*\/\.git\/)" t.out &&
	grep -E "^[0-9]+ +close_range\(" t.out &&
	(ulimit -n 20 && compare_git show-ref --tags && compare_git for-each-ref refs/tags) &&
	rm -f .git/refs/tags/l*
'

test_expect_success 'X~N with a commit-graph: parents come from the graph, as in git' '
	git clone -q --no-local many graph && cd graph &&
	git repack -q -d && git prune-packed &&
	for i in 1 2 3 4 5; do
		test_tick && git commit -q --allow-empty -m "loose $i" || return 1
	done &&
	git commit-graph write --reachable &&
	compare_git rev-parse HEAD~16 HEAD~3 HEAD^ HEAD~4^1 "HEAD~2^{tree}" &&
	trace t.out rev-parse HEAD~16 &&
	at_most 1 "openat\(.*objects/[0-9a-f]{2}/[0-9a-f]{38}\"" t.out
'

test_expect_success 'setup: the same, packed, with tags' '
	git clone -q --no-local many packed && cd packed &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do git branch "b$i" "origin/b$i" || return 1; done &&
	for i in $(seq 1 1000); do echo "$(git rev-parse HEAD) refs/tags/t$i"; done >>.git/packed-refs &&
	git pack-refs --all && git repack -q -a -d && git prune-packed &&
	test -z "$(find .git/objects -name "??" -type d)"
'

test_expect_success 'packed: twelve ids to abbreviate list objects/ once and probe no objects/xx' '
	cd packed &&
	compare_git branch -v &&
	compare_git for-each-ref --format="%(objectname:short) %(refname)" refs/heads &&
	trace t.out branch -v &&
	! grep -E "openat\(.*objects/[0-9a-f]{2}\", " t.out &&
	at_most 1 "openat\(.*objects\", " t.out &&
	at_most 1 "openat\(.*objects/pack\", " t.out &&
	! grep -E "fstat\(.*objects/pack>" t.out
'

test_expect_success 'packed: one id to abbreviate probes its objects/xx, lists no objects/' '
	cd packed &&
	compare_git branch -v --list b1 &&
	trace t.out branch -v --list b1 &&
	test "$(count "openat\(.*objects/[0-9a-f]{2}\", .*ENOENT" t.out)" = 1 &&
	! grep -E "openat\(.*objects\", " t.out
'

test_expect_success 'no getcwd() beyond discovery when reading objects' '
	cd packed &&
	compare_git cat-file -t HEAD &&
	trace t.out cat-file -t HEAD &&
	at_most 1 "getcwd\(" t.out &&
	trace t.out branch -v &&
	at_most 1 "getcwd\(" t.out
'

test_expect_success 'at the top of the work tree, listing asks no getcwd(); rev-parse still names the top' '
	cd packed &&
	trace t.out branch &&
	! grep "getcwd(" t.out &&
	trace t.out show-ref --heads &&
	! grep "getcwd(" t.out &&
	compare_git rev-parse --show-toplevel &&
	mkdir -p sub && (cd sub && compare_git rev-parse --show-toplevel --show-prefix)
'

test_expect_success 'rev-parse HEAD: no lookup below a directory known absent' '
	cd packed &&
	compare_git rev-parse HEAD &&
	trace t.out rev-parse HEAD &&
	grep "refs/remotes/HEAD\"" t.out &&
	! grep "refs/remotes/HEAD/HEAD" t.out
'

test_expect_success 'rev-parse: a ref under remotes/<name>/HEAD is still found' '
	cd packed &&
	git update-ref refs/remotes/x/HEAD HEAD~1 &&
	compare_git rev-parse x &&
	git update-ref -d refs/remotes/x/HEAD
'

test_expect_success 'show-ref writes its listing in large blocks' '
	cd packed &&
	compare_git show-ref &&
	compare_git show-ref --heads &&
	compare_git show-ref --tags &&
	compare_git show-ref --heads --tags &&
	size=$("$MINI_GIT" show-ref | wc -c) &&
	test "$size" -gt 20000 &&
	trace t.out show-ref &&
	at_most $((size / 65536 + 1)) "^[0-9]+ +write\(1" t.out
'

test_expect_success 'show-ref --heads does not read refs/tags/' '
	cd packed &&
	mkdir -p .git/refs/tags/sub &&
	git tag sub/loose &&
	trace t.out show-ref --heads &&
	! grep "refs/tags" t.out
'

test_expect_success 'a lone pack is not stat()ed before use; an index without its pack counts for nothing' '
	cd packed &&
	trace t.out cat-file -t HEAD &&
	! grep -E "stat\(.*\.pack\"" t.out &&
	git clone -q --no-local . ../orphan && cd ../orphan &&
	git repack -q -a -d && mkdir ../save && mv .git/objects/pack/pack-* ../save/ &&
	cat ../save/pack-*.pack | git unpack-objects -q &&
	cp ../save/pack-*.idx .git/objects/pack/ &&
	compare_git cat-file -t HEAD &&
	compare_git rev-parse --short HEAD &&
	compare_git branch -v &&
	compare_git cat-file --batch-all-objects --batch-check
'

test_expect_success 'colour auto: TERM unset or dumb asks nothing of the terminal' '
	cd shared &&
	(unset TERM && trace t.out branch) &&
	! grep TCGETS t.out &&
	TERM=dumb trace t.out branch &&
	! grep TCGETS t.out
'

test_expect_success 'colour auto under a pager git started, as git' '
	cd shared &&
	TERM=xterm GIT_PAGER_IN_USE=1 compare_git branch &&
	TERM=dumb GIT_PAGER_IN_USE=1 compare_git branch &&
	TERM=xterm GIT_PAGER_IN_USE=1 compare_git -c color.pager=false branch &&
	TERM=xterm GIT_PAGER_IN_USE=1 compare_git branch --color=auto
'

test_done
