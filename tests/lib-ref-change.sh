# lib-ref-change.sh: run a ref-changing command with git and with mini-git
# on two fresh copies of the repository "orig" and compare output, exit
# code and the resulting ref state (t2200, t2400). Source after test-lib.sh.

# Refs, HEAD, packed-refs, config, reflogs, stray locks, and the
# directories under logs/ and refs/ (a deletion removes those it leaves
# empty) of a repository. Those under refs/ only with "all" for $2: where a
# lock fails after git made its directory, git leaves that directory
# behind, empty, and mini-git, which checks before it locks, never makes it.
ref_state() {
	(cd "$1" &&
	 git for-each-ref --format="%(refname) %(objectname) %(symref)" &&
	 echo "HEAD: $(cat .git/HEAD)" &&
	 echo "packed:" && cat .git/packed-refs 2>/dev/null
	 echo "config:" && cat .git/config &&
	 find .git/logs -type f 2>/dev/null | sort | while read f; do echo "== $f"; cat "$f"; done
	 find .git/refs -name "*.lock"
	 echo "directories:" && find .git/logs -type d 2>/dev/null | sort
	 if [ "$2" = all ]; then find .git/refs -type d | sort; fi)
}

# compare_change CMD ARGS... (standard input from $CHANGE_INPUT, if set)
compare_change() {
	for tool in git "$MINI_GIT"; do
		rm -rf work && cp -a orig work &&
		(cd work && "$tool" "$@" <"${CHANGE_INPUT:-/dev/null}" >"$TRASH/out.$(basename $tool)" \
			2>"$TRASH/err.$(basename $tool)"
		 echo "exit=$?" >>"$TRASH/out.$(basename $tool)") &&
		# directories under refs/ when git succeeded (see ref_state)
		dirs=$(grep -q "^exit=0$" "$TRASH/out.git" && echo all) &&
		ref_state work $dirs >"$TRASH/state.$(basename $tool)"
	done
	sed -i "s/mini-git/git/g" "$TRASH/err.mini-git"
	test_cmp "$TRASH/out.git" "$TRASH/out.mini-git" &&
	test_cmp "$TRASH/err.git" "$TRASH/err.mini-git" &&
	test_cmp "$TRASH/state.git" "$TRASH/state.mini-git"
}
