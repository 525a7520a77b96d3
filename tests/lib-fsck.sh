# lib-fsck.sh: what the fsck tests share (after test-lib.sh).
#
#   cmp_fsck [-u] [-z] [-v] ARGS...  git fsck and mini-git fsck on the
#       repository here: the same stdout (sorted: git prints it in
#       hash-table order), stderr and exit code. -u: stderr compared as a
#       set of distinct lines (git repeats a complaint at each lookup of a
#       damaged pack); -z: a clean result is allowed (else git must find
#       something, so that the fault was really made); -v: "Checking <id>"
#       lines, which come in hash-table order, compared sorted apart.
#   fresh           a fresh copy of ./clean in ./r (under $TRASH), cwd there
#   loose_path ID   the loose file of ID
#   poke FILE OFFSET OCTAL   overwrite one byte

cmp_fsck() {
	uniq_err= may_pass= verbose=
	while :; do
		case $1 in
		-u) uniq_err=1 ;;
		-z) may_pass=1 ;;
		-v) verbose=1 ;;
		*) break ;;
		esac
		shift
	done
	git fsck "$@" >"$TRASH/g.out" 2>"$TRASH/g.err"
	echo "exit=$?" >>"$TRASH/g.out"
	"$MINI_GIT" fsck "$@" >"$TRASH/m.out" 2>"$TRASH/m.err"
	echo "exit=$?" >>"$TRASH/m.out"
	mini_to_git "$TRASH/m.err"
	for w in g m; do
		sort -o "$TRASH/$w.out" "$TRASH/$w.out"
		if [ -n "$uniq_err" ]; then
			sort -u -o "$TRASH/$w.err" "$TRASH/$w.err"
		elif [ -n "$verbose" ]; then
			{ grep -v '^Checking [0-9a-f]\{40\}$' "$TRASH/$w.err"
			  grep '^Checking [0-9a-f]\{40\}$' "$TRASH/$w.err" | sort; } >"$TRASH/$w.err.v"
			mv "$TRASH/$w.err.v" "$TRASH/$w.err"
		fi
	done
	test_cmp "$TRASH/g.out" "$TRASH/m.out" &&
	test_cmp "$TRASH/g.err" "$TRASH/m.err"
}

fresh() {
	cd "$TRASH" && rm -rf r && cp -R clean r && cd r
}

loose_path() {
	echo .git/objects/$(echo "$1" | sed 's/^../&\//')
}

poke() {
	chmod u+w "$1" && printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
