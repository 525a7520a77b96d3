#!/bin/sh
# show-ref: every option beside git.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q r && cd r &&
	test_commit one && test_commit two &&
	git tag -a -m "annotated" ann one &&
	git branch side one && git branch deep/name/b &&
	git pack-refs --all && git tag loose-tag two && git branch loose-branch
'

for args in "" "--heads" "--tags" "--heads --tags" "-d" "--dereference --tags" \
	"-s" "--hash" "--hash=7" "--hash=1" "--abbrev" "--abbrev=10" "-d --abbrev=5" \
	"-s=4" "-s4" "--hash=x" "--hash=0" "--hash=-1" "--hash=99" "--hash=" "--no-hash" "-s=" \
	"-q" "--head" "--head --tags" "one" "b" "name/b" "ann two" "nomatch" \
	"--verify refs/heads/side" "--verify HEAD" "--verify side" \
	"--verify refs/heads/nope" "-q --verify refs/heads/nope" "--verify -d refs/tags/ann" \
	"--verify" "--verify refs/tags/one refs/heads/side" "-s --verify refs/heads/side" \
	"--bogus" "-h"
do
	test_expect_success "show-ref $args" "cd r && compare_git show-ref $args"
done

test_expect_success 'show-ref --exclude-existing' '
	cd r &&
	printf "%s\n" refs/heads/side refs/heads/other "x refs/tags/new^{}" "bad..name" >in &&
	compare_git_stdin in show-ref --exclude-existing &&
	compare_git_stdin in show-ref --exclude-existing=refs/heads/ &&
	printf "refs/heads/new\nbad..name\nrefs/tags/x^{}\n" >in2 &&
	git show-ref --exclude-existing <in2 >expect.both 2>&1 &&
	"$MINI_GIT" show-ref --exclude-existing <in2 >actual.both 2>&1 &&
	test_cmp expect.both actual.both
'

test_expect_success 'show-ref: ref to a missing object' '
	cd r &&
	echo 1234567890123456789012345678901234567890 >.git/refs/heads/broken &&
	compare_git show-ref &&
	compare_git show-ref --verify refs/heads/broken &&
	rm .git/refs/heads/broken
'

test_done
