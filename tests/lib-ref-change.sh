# lib-ref-change.sh: run a ref-changing command with git and with mini-git
# on two fresh copies of the repository "orig" and compare output, exit
# code and the resulting ref state (t2200, t2400). Source after test-lib.sh.

# Refs, HEAD, packed-refs, config, reflogs, stray locks, and the
# directories under logs/ and refs/ of a repository: a deletion removes
# those it leaves empty, and where a change fails after git made the
# directories for its lock, git leaves them behind, empty.
ref_state() {
	(cd "$1" &&
	 git for-each-ref --format="%(refname) %(objectname) %(symref)" &&
	 echo "HEAD: $(cat .git/HEAD)" &&
	 echo "packed:" && cat .git/packed-refs 2>/dev/null
	 echo "config:" && cat .git/config &&
	 find .git/logs -type f 2>/dev/null | sort | while read f; do echo "== $f"; cat "$f"; done
	 find .git/refs -name "*.lock"
	 echo "directories:" && find .git/logs -type d 2>/dev/null | sort
	 find .git/refs -type d | sort)
}

# compare_change CMD ARGS... (standard input from $CHANGE_INPUT, if set)
# on copies of the repository "orig", or of $CHANGE_REPO if set
compare_change() {
	for tool in git "$MINI_GIT"; do
		rm -rf work && cp -a "${CHANGE_REPO:-orig}" work &&
		(cd work && "$tool" "$@" <"${CHANGE_INPUT:-/dev/null}" >"$TRASH/out.$(basename $tool)" \
			2>"$TRASH/err.$(basename $tool)"
		 echo "exit=$?" >>"$TRASH/out.$(basename $tool)") &&
		ref_state work >"$TRASH/state.$(basename $tool)"
	done
	mini_to_git "$TRASH/err.mini-git"
	test_cmp "$TRASH/out.git" "$TRASH/out.mini-git" &&
	test_cmp "$TRASH/err.git" "$TRASH/err.mini-git" &&
	test_cmp "$TRASH/state.git" "$TRASH/state.mini-git"
}
