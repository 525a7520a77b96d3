#!/bin/sh
# fsck --verbose beside git's: every "Checking ..." line on stderr.
#
# git prints the connectivity pass ("Checking <id>", one per object) in
# the order of its object hash table, and dangling/unreachable lines on
# stdout in that order too: those are compared sorted. Every other stderr
# line (object directories, "Checking <type> <id>" in directory and pack
# order, HEAD link, reflog entries, cache-tree nodes, the object count,
# errors) is compared in order.
. "$(dirname "$0")/test-lib.sh"

# compare_verbose ARGS...: as compare_git, stderr split as said above.
compare_verbose() {
	git "$@" >"$TRASH/.g.out" 2>"$TRASH/.g.err"
	echo "exit=$?" >>"$TRASH/.g.out"
	"$MINI_GIT" "$@" >"$TRASH/.m.out" 2>"$TRASH/.m.err"
	echo "exit=$?" >>"$TRASH/.m.out"
	mini_to_git "$TRASH/.m.err"
	for w in g m; do
		sort "$TRASH/.$w.out" >"$TRASH/.$w.out.s"
		grep -v '^Checking [0-9a-f]\{40\}$' "$TRASH/.$w.err" >"$TRASH/.$w.err.o"
		grep '^Checking [0-9a-f]\{40\}$' "$TRASH/.$w.err" | sort >"$TRASH/.$w.err.h"
	done
	test_cmp "$TRASH/.g.out.s" "$TRASH/.m.out.s" &&
	test_cmp "$TRASH/.g.err.o" "$TRASH/.m.err.o" &&
	test_cmp "$TRASH/.g.err.h" "$TRASH/.m.err.h"
}

test_expect_success 'setup: loose objects, two packs, tags, reflogs, a cache tree with subtrees' '
	git init -q repo && cd repo &&
	for i in 1 2 3 4 5; do test_commit c$i || return 1; done &&
	git tag -a -m "annotated" ann c3 &&
	git repack -q -d &&
	git checkout -q -b side c2 &&
	mkdir -p d/e && echo deep >d/e/f && echo mid >d/g && git add d &&
	test_commit s6 &&
	git repack -q -d &&
	git checkout -q master &&
	test_commit c8 &&
	echo dangling-blob | git hash-object -w --stdin &&
	tree=$(git write-tree) &&
	echo dangling | git commit-tree $tree -p HEAD &&
	test $(ls .git/objects/pack/*.pack | wc -l) = 2
'

test_expect_success 'fsck --verbose' '
	cd repo && compare_verbose fsck --verbose &&
	grep "^Checking object directory$" "$TRASH/.m.err" &&
	grep "^Checking reflog " "$TRASH/.m.err" &&
	grep "^Checking cache tree$" "$TRASH/.m.err" &&
	grep "^Checking connectivity (64 objects)$" "$TRASH/.m.err" &&
	grep "^Checking tag " "$TRASH/.m.err"
'

test_expect_success 'fsck -v with --unreachable --root --tags' '
	cd repo && compare_verbose fsck -v --unreachable --root --tags
'

test_expect_success 'fsck --verbose --connectivity-only: no object lines' '
	cd repo && compare_verbose fsck --verbose --connectivity-only &&
	! grep "^Checking object directory" "$TRASH/.m.err"
'

test_expect_success 'fsck --verbose --no-full: packed objects are not had' '
	cd repo && compare_verbose fsck --verbose --no-full &&
	grep "invalid reflog entry" "$TRASH/.m.err"
'

test_expect_success 'fsck --verbose --no-reflogs --no-dangling --strict' '
	cd repo && compare_verbose fsck --verbose --no-reflogs --no-dangling --strict
'

test_expect_success 'a cache tree with invalidated nodes' '
	cd repo &&
	git checkout -q side &&
	echo changed >d/e/f && git add d/e/f &&
	compare_verbose fsck --verbose &&
	test $(grep -c "^Checking cache tree$" "$TRASH/.m.err") -ge 3 &&
	git checkout -q -f master
'

test_expect_success 'an object both loose and packed is checked twice' '
	cd repo &&
	git rev-parse HEAD | git pack-objects -q .git/objects/pack/dup &&
	compare_verbose fsck --verbose --root &&
	test $(grep -c "^Checking commit $(git rev-parse HEAD)\$" "$TRASH/.m.err") = 2 &&
	rm .git/objects/pack/dup-*
'

test_expect_success 'one pack of many objects on many threads: git pack order' '
	git init -q big && cd big &&
	for i in $(seq 1 40); do
		mkdir -p d$((i % 5)) && echo $i >d$((i % 5))/f$i && git add . &&
		git commit -q -m $i || return 1
	done &&
	git repack -q -a -d &&
	MINI_GIT_THREADS=4 compare_verbose fsck --verbose --root
'

test_expect_success 'an alternate: one "Checking object directory" each' '
	git clone -q -s repo alt && cd alt &&
	test_commit in-alt &&
	compare_verbose fsck --verbose &&
	test $(grep -c "^Checking object directory$" "$TRASH/.m.err") = 2
'

test_expect_success 'bare repository: no index, no cache tree' '
	git clone -q --bare repo bare.git && cd bare.git &&
	compare_verbose fsck --verbose &&
	! grep "cache tree" "$TRASH/.m.err"
'

test_expect_success 'detached HEAD and an empty repository' '
	cd repo && git checkout -q --detach HEAD~1 &&
	compare_verbose fsck --verbose && git checkout -q master &&
	cd .. && git init -q empty && cd empty &&
	compare_verbose fsck --verbose
'

test_expect_success 'linked work trees: each HEAD a root, its reflogs after it' '
	git clone -q repo wtrepo && cd wtrepo &&
	git worktree add -q ../wt-a -b wta &&
	git worktree add -q --detach ../wt-b HEAD~1 &&
	(cd ../wt-b && echo z >z && git add z && git commit -q -m only-here) &&
	compare_verbose fsck --verbose &&
	grep "^Checking worktrees/wt-a/HEAD link" "$TRASH/.m.err" &&
	grep "^Checking worktrees/wt-b/HEAD link" "$TRASH/.m.err" &&
	compare_verbose fsck --no-reflogs --unreachable &&
	! grep $(git -C ../wt-b rev-parse HEAD) "$TRASH/.m.out"
'

test_expect_success 'damaged objects: errors stay between the lines they belong to' '
	git init -q bad && cd bad &&
	test_commit one &&
	t=$(git mktree </dev/null) &&
	c=$(printf "tree %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> xx +0000\n\nm\n" $t |
		git hash-object -t commit -w --literally --stdin) &&
	echo $c | git pack-objects -q .git/objects/pack/p &&
	git update-ref refs/heads/bad $c &&
	blob=$(echo lost | git hash-object --stdin) &&
	printf "100644 blob %s\tlost\n" $blob | git mktree --missing >../tree &&
	git update-ref refs/heads/lost $(git commit-tree $(cat ../tree) -m lost) &&
	echo junk >.git/objects/ab/not-an-object 2>/dev/null ||
		{ mkdir .git/objects/ab && echo junk >.git/objects/ab/not-an-object; } &&
	compare_verbose fsck --verbose &&
	grep "badDate" "$TRASH/.m.err" &&
	grep "^broken link" "$TRASH/.m.out" &&
	grep "^bad sha1 file" "$TRASH/.m.err"
'

test_done
