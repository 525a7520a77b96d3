#!/bin/sh
# Many writers at once: every creation and deletion lands, old-value
# checks let exactly one of several racing writers win, and git reads
# the result.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q r && cd r && test_commit one && test_commit two &&
	for i in $(seq 1 20); do git branch del$i one; done &&
	git pack-refs --all
'

test_expect_success '40 parallel creators lose nothing' '
	cd r &&
	for i in $(seq 1 40); do "$MINI_GIT" branch new$i two & done; wait &&
	git for-each-ref --format="%(refname)" refs/heads/new* | wc -l >count &&
	test "$(cat count)" = 40 &&
	for i in $(seq 1 40); do
		test "$(git rev-parse new$i)" = "$(git rev-parse two)" || exit 1
	done &&
	test -z "$(find .git/refs -name "*.lock")" &&
	git fsck
'

# Each deleter rewrites packed-refs under its lock in turn; the wait for
# the lock is git's (core.packedRefsTimeout), made long here so that a
# slow build on a loaded machine still gets its turn.
test_expect_success '20 parallel deleters of packed refs lose nothing' '
	cd r &&
	for i in $(seq 1 20); do
		"$MINI_GIT" -c core.packedRefsTimeout=600000 branch -D -q del$i &
	done; wait &&
	test -z "$(git for-each-ref refs/heads/del*)" &&
	! grep del .git/packed-refs &&
	test -f .git/refs/heads/new1 && test ! -f .git/packed-refs.lock &&
	git for-each-ref --format="%(refname)" refs/heads/new* | wc -l >count &&
	test "$(cat count)" = 40 &&
	git fsck
'

test_expect_success 'racing updates with the same old value: exactly one wins' '
	cd r && ONE=$(git rev-parse one) && TWO=$(git rev-parse two) &&
	git update-ref refs/heads/race $ONE &&
	for i in $(seq 1 10); do
		("$MINI_GIT" update-ref refs/heads/race $TWO $ONE 2>/dev/null && echo won >>wins) &
	done; wait &&
	test "$(wc -l <wins)" = 1 &&
	test "$(git rev-parse race)" = $TWO
'

test_expect_success 'parallel creators and deleters mixed with git itself' '
	cd r &&
	for i in $(seq 1 10); do
		"$MINI_GIT" branch mix$i one & git branch gmix$i one &
		"$MINI_GIT" -c core.packedRefsTimeout=600000 update-ref -d refs/heads/new$i &
	done; wait &&
	test "$(git for-each-ref refs/heads/mix* refs/heads/gmix* | wc -l)" = 20 &&
	test -z "$(git for-each-ref refs/heads/new1 refs/heads/new10)" &&
	git fsck
'

test_done
