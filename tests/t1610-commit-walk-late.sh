#!/bin/sh
# Long walks whose pack is still being listed when they need commits
# (odb/commit-walk.c): MINI_GIT_READ_AHEAD=late makes the walk read 300
# commits the way it does meanwhile (by their index position, kept for
# filing) before it takes the list, so that this path and the filing of
# its nodes are always taken. Histories with merges in both pack orders,
# with loose commits on top (not in the pack being listed), against git.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-walk.sh"

walk() { MINI_GIT_THREADS=2 MINI_GIT_READ_AHEAD=late "$DRIVER" "$@"; }

test_expect_success 'setup: 2,000 commits with merges and skewed dates, oldest first' '
	git init -q --bare long.git && cd long.git &&
	long_history 2000 11 5 900 40 65 350 300 | git fast-import --quiet &&
	git for-each-ref --format="%(refname:short)" refs/heads >../heads &&
	test $(wc -l <../heads) -ge 5
'

cd "$TRASH/long.git" 2>/dev/null

# contains and merge bases for a few commits, as git answers them.
check_walks() {
	for t in t300 t1200 b700~30 main~1500; do
		git branch --contains $t --format="%(refname:short)" >expect &&
		walk contains $t $(cat ../heads) >actual &&
		test_cmp expect actual || return 1
	done &&
	for pair in "b350 main" "b1050~5 b1750" "t600 b1400"; do
		set -- $pair &&
		git merge-base --all $1 $2 | sort >expect &&
		walk merge-base $1 $2 >actual &&
		test_cmp expect actual || return 1
	done
}

test_expect_success 'fast-import pack (oldest first): as git' '
	check_walks
'

test_expect_success 'repacked by git (newest first): as git' '
	git repack -adfq &&
	check_walks
'

test_expect_success 'loose commits on top of the pack: as git' '
	main=$(git rev-parse main) &&
	for i in 1 2 3 4 5 6 7 8; do
		main=$(echo "top $i" | git commit-tree -p $main "$main^{tree}") || return 1
	done &&
	git update-ref refs/heads/main $main &&
	test -f objects/$(echo $main | cut -c1-2)/$(echo $main | cut -c3-) &&
	check_walks
'

test_expect_success 'the same walks with the read-ahead off and waited for: as git' '
	for mode in 0 wait claim; do
		for t in t300 b700~30; do
			git branch --contains $t --format="%(refname:short)" >expect &&
			MINI_GIT_THREADS=2 MINI_GIT_READ_AHEAD=$mode "$DRIVER" contains $t $(cat ../heads) >actual &&
			test_cmp expect actual || return 1
		done
	done
'

test_done
