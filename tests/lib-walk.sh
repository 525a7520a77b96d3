# lib-walk.sh: what the commit-walk tests share (after test-lib.sh).
#
#   DRIVER          the walk driver, tests/unit/bin/t-commit-walk; the
#                   whole test file is skipped when it is not built
#
#   long_history N SKEW_EVERY SKEW_AT SKEW MERGE_EVERY MERGE_BACK BRANCH_EVERY TAG_EVERY
#       a git fast-import stream on stdout: N commits on main, oldest
#       first, a minute apart, except that commit i with
#       i % SKEW_EVERY == SKEW_AT is dated SKEW seconds earlier (clock
#       skew); after commit 100, every MERGE_EVERY-th commit also merges
#       the commit MERGE_BACK before it; every BRANCH_EVERY-th commit gets
#       a branch b<i> and every TAG_EVERY-th a tag t<i>.
long_history() {
	awk -v n="$1" -v skew_every="$2" -v skew_at="$3" -v skew="$4" \
		-v merge_every="$5" -v merge_back="$6" -v branch_every="$7" -v tag_every="$8" '
	BEGIN {
		for (i = 1; i <= n; i++) {
			printf "commit refs/heads/main\nmark :%d\n", i
			printf "committer C <c@x> %d +0000\n", 1500000000 + i * 60 - (i % skew_every == skew_at) * skew
			printf "data <<E\nc%d\nE\n", i
			if (i > 1) printf "from :%d\n", i - 1
			if (i % merge_every == 0 && i > 100) printf "merge :%d\n", i - merge_back
			printf "M 644 inline f%d\ndata <<E\n%d\nE\n", i % 10, i
			if (i % branch_every == 0) printf "reset refs/heads/b%d\nfrom :%d\n", i, i
			if (i % tag_every == 0) printf "reset refs/tags/t%d\nfrom :%d\n", i, i
		}
	}' </dev/null
}

DRIVER="$TEST_DIRECTORY/unit/bin/t-commit-walk"
if ! [ -x "$DRIVER" ]; then
	test_skip 'commit walks' 'tests/unit/bin/t-commit-walk not built'
	test_done
fi
