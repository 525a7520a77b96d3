# lib-ref-change.sh: run a ref-changing command with git and with mini-git
# on two fresh copies of the repository "orig" and compare output, exit
# code and the resulting ref state (t2200, t2400). Source after test-lib.sh.

# Refs, HEAD, packed-refs, config, reflogs and stray locks of a repository.
ref_state() {
	(cd "$1" &&
	 git for-each-ref --format="%(refname) %(objectname) %(symref)" &&
	 echo "HEAD: $(cat .git/HEAD)" &&
	 echo "packed:" && cat .git/packed-refs 2>/dev/null
	 echo "config:" && cat .git/config &&
	 find .git/logs -type f 2>/dev/null | sort | while read f; do echo "== $f"; cat "$f"; done
	 find .git/refs -name "*.lock")
}

# compare_change CMD ARGS... (standard input from $CHANGE_INPUT, if set)
compare_change() {
	for tool in git "$MINI_GIT"; do
		rm -rf work && cp -a orig work &&
		(cd work && "$tool" "$@" <"${CHANGE_INPUT:-/dev/null}" >"$TRASH/out.$(basename $tool)" \
			2>"$TRASH/err.$(basename $tool)"
		 echo "exit=$?" >>"$TRASH/out.$(basename $tool)") &&
		ref_state work >"$TRASH/state.$(basename $tool)"
	done
	sed -i "s/mini-git/git/g" "$TRASH/err.mini-git"
	test_cmp "$TRASH/out.git" "$TRASH/out.mini-git" &&
	test_cmp "$TRASH/err.git" "$TRASH/err.mini-git" &&
	test_cmp "$TRASH/state.git" "$TRASH/state.mini-git"
}
