# test-lib.sh: a small TAP harness in git's style.
#
#   . ./test-lib.sh
#   test_expect_success 'description' 'commands'
#   test_done
#
# Each test file runs in its own trash directory (tests/trash.<name>), with
# a fixed identity and dates so that git makes the same objects every run.
# compare_git ARGS... runs "git ARGS" and "mini-git ARGS" in the current
# directory and compares stdout, stderr (with "mini-git" read as "git") and
# the exit code.

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
SRC_ROOT=$(cd "$TEST_DIRECTORY/.." && pwd)
MINI_GIT="$SRC_ROOT/mini-git"
test_name=$(basename "$0" .sh)
# MINI_GIT_TEST_ROOT: where the trash directories go (tests/ by default),
# say a tmpfs, where fsync and syncfs cost nothing.
TEST_ROOT=${MINI_GIT_TEST_ROOT:-$TEST_DIRECTORY}
TRASH="$TEST_ROOT/trash.$test_name"

export LC_ALL=C LANG=C TZ=UTC
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.com'
export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL='committer@example.com'
export GIT_AUTHOR_DATE='1112911993 -0700' GIT_COMMITTER_DATE='1112911993 -0700'
export HOME="$TRASH/.home" XDG_CONFIG_HOME="$TRASH/.home/.config"
export GIT_CONFIG_NOSYSTEM=1 GIT_PAGER=cat PAGER=cat
unset GIT_DIR GIT_WORK_TREE GIT_CEILING_DIRECTORIES GIT_OBJECT_DIRECTORY \
	GIT_INDEX_FILE GIT_CONFIG_PARAMETERS MINI_GIT_SHA1 MINI_GIT_LOOKUP
PATH="$SRC_ROOT:$PATH"
# Discovery stops below tests/ (or the root above): a command run outside a test's repository
# (a failed cd, a setup that did not finish) finds none, instead of the
# source tree's own repository. Tests about ceilings set their own.
export GIT_CEILING_DIRECTORIES="$TEST_ROOT"

rm -rf "$TRASH"
mkdir -p "$TRASH/.home" || exit 1
git config --global init.defaultBranch master
git config --global advice.detachedHead false
cd "$TRASH" || exit 1

test_count=0
test_failed=0

say() { printf '%s\n' "$*"; }

test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out.$test_count" 2>&1; then
		say "ok $test_count - $1"
		rm -f "$TRASH/.out.$test_count"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		sed 's/^/#	/' "$TRASH/.out.$test_count"
		# stderr too: prove shows it without -v, so a CI log has it
		sed "s/^/# $test_name $test_count: /" "$TRASH/.out.$test_count" >&2
	fi
}

test_expect_failure() {
	test_count=$((test_count + 1))
	if (eval "$2") >/dev/null 2>&1; then
		say "ok $test_count - $1 # TODO known breakage vanished"
	else
		say "not ok $test_count - $1 # TODO known breakage"
	fi
}

test_skip() {
	test_count=$((test_count + 1))
	say "ok $test_count # skip $1 ($2)"
}

test_done() {
	say "1..$test_count"
	if [ "$test_failed" = 0 ] && [ -z "$KEEP_TRASH" ]; then
		cd "$TEST_DIRECTORY" && rm -rf "$TRASH"
	fi
	[ "$test_failed" = 0 ]
	exit $?
}

test_cmp() {
	diff -u "$1" "$2"
}

# Expect a command to fail (not crash: a signal is a failure of the test).
test_must_fail() {
	"$@"
	ret=$?
	if [ $ret = 0 ]; then
		echo >&2 "test_must_fail: command succeeded: $*"
		return 1
	elif [ $ret -gt 128 ] && [ $ret -ne 129 ]; then
		echo >&2 "test_must_fail: died by signal $ret: $*"
		return 1
	fi
	return 0
}

test_expect_code() {
	want=$1; shift
	"$@"
	ret=$?
	[ $ret = "$want" ] || { echo >&2 "expected exit $want, got $ret: $*"; return 1; }
}

# mini_to_git FILE...: "mini-git" read as "git" in FILE, as a program's
# name in its messages, but not where it is part of the directories the
# tests run in (a checkout in ~/src/mini-git, say).
mini_to_git() {
	sed -i -e "s|$TEST_ROOT|\x01|g; s|$SRC_ROOT|\x02|g; s/mini-git/git/g" \
		-e "s|\x01|$TEST_ROOT|g; s|\x02|$SRC_ROOT|g" "$@"
}

# compare_git [-s] ARGS...: same stdout, stderr and exit code as git.
# With -s the output lines are sorted first (for output whose order git
# takes from a hash table).
compare_git() {
	sort_out=
	if [ "$1" = "-s" ]; then sort_out=1; shift; fi
	git "$@" >"$TRASH/.expect.out" 2>"$TRASH/.expect.err"
	echo "exit=$?" >>"$TRASH/.expect.out"
	"$MINI_GIT" "$@" >"$TRASH/.actual.out" 2>"$TRASH/.actual.err"
	echo "exit=$?" >>"$TRASH/.actual.out"
	mini_to_git "$TRASH/.actual.err"
	if [ -n "$sort_out" ]; then
		sort -o "$TRASH/.expect.out" "$TRASH/.expect.out"
		sort -o "$TRASH/.actual.out" "$TRASH/.actual.out"
	fi
	test_cmp "$TRASH/.expect.out" "$TRASH/.actual.out" &&
	test_cmp "$TRASH/.expect.err" "$TRASH/.actual.err"
}

# Same, with stdin from a file.
compare_git_stdin() {
	input=$1; shift
	git "$@" <"$input" >"$TRASH/.expect.out" 2>"$TRASH/.expect.err"
	echo "exit=$?" >>"$TRASH/.expect.out"
	"$MINI_GIT" "$@" <"$input" >"$TRASH/.actual.out" 2>"$TRASH/.actual.err"
	echo "exit=$?" >>"$TRASH/.actual.out"
	mini_to_git "$TRASH/.actual.err"
	test_cmp "$TRASH/.expect.out" "$TRASH/.actual.out" &&
	test_cmp "$TRASH/.expect.err" "$TRASH/.actual.err"
}

# test_commit NAME: a file NAME.t, a commit "NAME" and a tag NAME, with a
# date that advances one minute per call.
test_tick() {
	test_tick_n=$(( ${test_tick_n:-1112911993} + 60 ))
	export GIT_AUTHOR_DATE="$test_tick_n -0700" GIT_COMMITTER_DATE="$test_tick_n -0700"
}
test_commit() {
	test_tick
	echo "$1" >"$1.t" && git add "$1.t" && git commit -q -m "$1" && git tag "$1"
}

have_strace() { command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; }
