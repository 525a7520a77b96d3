# lib-hostile.sh: running git and mini-git on damaged data (t7000, t7100).
# Source after test-lib.sh.

# Bounds for every command run here: CPU seconds, and address space in KiB
# (left out under ASan, which reserves terabytes of address space up front).
LIMIT_CPU=20
LIMIT_VMEM=2097152
if grep -q __asan_init "$MINI_GIT" 2>/dev/null; then LIMIT_VMEM=; fi

bounded() {
	(
		ulimit -t $LIMIT_CPU
		[ -z "$LIMIT_VMEM" ] || ulimit -v $LIMIT_VMEM
		exec "$@"
	)
}

# Everything under the current directory: names, kinds, sizes, times and
# the contents of all but huge (sparse) files.
snapshot() {
	{ find . -printf '%y %m %s %T@ %p -> %l\n' | sort
	  find . -type f -size -1024k -print0 | sort -z | xargs -0 -r sha1sum; } >"$1" 2>&1
}

has_cmd() { "$MINI_GIT" help 2>/dev/null | grep -q "^   $1\$"; }

# same [-c] ARGS...: run git and mini-git on the repository in the current
# directory. Same exit code as git, and unless -c (codes only) the same
# stdout and stderr; mini-git must not die by a signal and must leave the
# repository as it found it.
same() {
	codes_only=
	if [ "$1" = "-c" ]; then codes_only=1; shift; fi
	bounded git "$@" >"$TRASH/.expect.out" 2>"$TRASH/.expect.err"
	echo "exit=$?" >"$TRASH/.expect.code"
	snapshot "$TRASH/.before"
	bounded "$MINI_GIT" "$@" >"$TRASH/.actual.out" 2>"$TRASH/.actual.err"
	ret=$?
	echo "exit=$ret" >"$TRASH/.actual.code"
	snapshot "$TRASH/.after"
	mini_to_git "$TRASH/.actual.err"
	test_cmp "$TRASH/.before" "$TRASH/.after" || { echo "mini-git $* wrote to the repository"; return 1; }
	if [ $ret -gt 128 ] && [ $ret -ne 129 ]; then
		echo "mini-git $* died by signal $((ret - 128))"; cat "$TRASH/.actual.err"; return 1
	fi
	test_cmp "$TRASH/.expect.code" "$TRASH/.actual.code" || {
		cat "$TRASH/.expect.err" "$TRASH/.actual.err"; return 1; }
	[ -n "$codes_only" ] ||
	{ test_cmp "$TRASH/.expect.out" "$TRASH/.actual.out" &&
	  test_cmp "$TRASH/.expect.err" "$TRASH/.actual.err"; }
}
