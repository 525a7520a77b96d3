# strace.sh: deterministic counts from strace.

# strace_syscalls DIR CMD...: total system calls of the command and its
# children (strace -f -c), or "n/a" without strace.
strace_syscalls() {
	local dir=$1 f
	shift
	command -v strace >/dev/null 2>&1 || { echo n/a; return; }
	f=$(mktemp "${TMPDIR:-/tmp}/perf-st.XXXXXX")
	(cd "$dir" && strace -f -c -o "$f" -- "$@" >/dev/null 2>&1 </dev/null)
	# "100.00 secs usecs/call CALLS [errors] total"
	awk '$NF == "total" { print $4; found = 1 } END { if (!found) print "n/a" }' "$f"
	rm -f "$f"
}

# strace_libs DIR CMD...: shared libraries the process opened (a
# successful open of a *.so file); without strace, those ldd lists for
# the binary (the same count when nothing is dlopen()ed).
strace_libs() {
	local dir=$1 f
	shift
	if ! command -v strace >/dev/null 2>&1; then
		ldd "$1" 2>/dev/null | grep -c '=> /' || true
		return
	fi
	f=$(mktemp "${TMPDIR:-/tmp}/perf-st.XXXXXX")
	(cd "$dir" && strace -f -e trace=open,openat -o "$f" -- "$@" >/dev/null 2>&1 </dev/null)
	grep -E '\.so(\.[0-9]+)*", ' "$f" | grep -vc '= -1 ' || true
	rm -f "$f"
}

# have_strace: strace is installed and allowed to trace here.
have_strace() {
	command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null
}
