#!/bin/sh
# update-ref --stdin [-z] beside git: every command, their errors, quoted
# names, the explicit transaction (start, prepare, commit, abort), and
# all or nothing: a change that fails leaves every ref as it was.
. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIRECTORY/lib-ref-change.sh"

test_expect_success 'setup' '
	git init -q orig && cd orig &&
	test_commit one && test_commit two &&
	git branch side one && git branch packed-only one && git branch dir/leaf one &&
	git tag -a -m ann ann one &&
	git pack-refs --all && git branch loose two &&
	git symbolic-ref refs/heads/alias refs/heads/side
'

ONE=$(git -C orig rev-parse one) TWO=$(git -C orig rev-parse two)
Z=0000000000000000000000000000000000000000
TREE=$(git -C orig rev-parse one^{tree})
MISSING=1111111111111111111111111111111111111111

# stdin_case NAME OPTIONS INPUT: INPUT is a printf format (\n, \000).
# (The test body runs inside test_expect_success, whose own $1, $2 and $3
# are not ours: the case goes through globals.)
stdin_case() {
	case_opts=$2 case_input=$3
	test_expect_success "update-ref $2 --stdin: $1" '
		printf "$case_input" >"$TRASH/input" &&
		test -s "$TRASH/input" || test -z "$case_input" &&
		CHANGE_INPUT="$TRASH/input" compare_change update-ref $case_opts --stdin
	'
}

# lines
stdin_case 'update, create, delete, verify' "" \
	"update refs/heads/new $ONE\ncreate refs/heads/made $TWO\ndelete refs/heads/loose\nverify refs/heads/side $ONE\n"
stdin_case 'old values that hold' "" \
	"update refs/heads/side $TWO $ONE\ndelete refs/heads/packed-only $ONE\nverify refs/heads/nothere\nverify refs/heads/nothere2 $Z\nupdate refs/heads/new2 $ONE $Z\n"
stdin_case 'one old value wrong: nothing changes' "" \
	"update refs/heads/new $ONE\ndelete refs/heads/loose\nupdate refs/heads/side $TWO $TWO\n"
stdin_case 'create over a ref' "" "update refs/heads/new $ONE\ncreate refs/heads/side $TWO\n"
stdin_case 'verify fails' "" "delete refs/heads/loose\nverify refs/heads/side $TWO\n"
stdin_case 'verify a ref that is there, without a value' "" "verify refs/heads/side\n"
stdin_case 'verify, delete with an old value: ref missing' "" "verify refs/heads/nope $ONE\n"
stdin_case 'delete missing with an old value' "" "delete refs/heads/nope $ONE\n"
stdin_case 'delete missing' "" "delete refs/heads/nope\n"
stdin_case 'deleting packed and loose refs at once' "" \
	"delete refs/heads/packed-only\ndelete refs/heads/loose\ndelete refs/tags/ann\ndelete refs/heads/dir/leaf\n"
stdin_case 'values as revisions, empty as zero' "" \
	"update refs/heads/a HEAD~1\nupdate refs/heads/b two\nupdate refs/heads/loose \nupdate refs/heads/side  $ONE\n"
stdin_case 'through symrefs, and no-deref' "" \
	"update refs/heads/alias $TWO\noption no-deref\nupdate HEAD $ONE\n"
stdin_case 'no-deref lasts one command' "" \
	"option no-deref\nupdate refs/heads/alias $TWO\nupdate HEAD $ONE\n"
stdin_case 'a symref and its target at once' "" "update HEAD $ONE\nupdate refs/heads/main $TWO\n"
stdin_case 'HEAD unchanged through, and its branch' "" \
	"option no-deref\nupdate HEAD $ONE\nupdate refs/heads/main $TWO\n"
stdin_case 'one ref twice' "" "update refs/heads/y $ONE\nupdate refs/heads/y $TWO\n"
stdin_case 'a ref below another of the transaction' "" "update refs/heads/q/r $ONE\nupdate refs/heads/q $ONE\n"
stdin_case 'a ref above another of the transaction' "" "delete refs/heads/nope\nupdate refs/heads/nope/r $ONE\n"
stdin_case 'a ref below an existing one' "" "update refs/heads/side/x $ONE\n"
stdin_case 'an existing ref, and one below it' "" "update refs/heads/side $TWO\nupdate refs/heads/side/x $ONE\n"
stdin_case 'deleting a ref and making one below it' "" "delete refs/heads/loose\nupdate refs/heads/loose/x $ONE\n"
stdin_case 'verify below an existing ref' "" "verify refs/heads/side/x\n"
stdin_case 'verify with a value, below an existing ref' "" "verify refs/heads/side/x $ONE\ndelete refs/heads/side\n"
stdin_case 'delete below an existing ref' "" "delete refs/heads/side/x\n"
stdin_case 'an old value for a ref below an existing one' "" "update refs/heads/side/x $ONE $ONE\n"
stdin_case 'verify a directory of refs' "" "verify refs/heads\n"
stdin_case 'delete a directory of refs' "" "delete refs/heads\n"
stdin_case 'a symref is checked after the rest' "" "verify HEAD\nverify refs/heads/side/x\n"
stdin_case 'a tree into a branch' "" "update refs/heads/n $TREE\n"
stdin_case 'a missing object' "" "update refs/tags/n $MISSING\n"
stdin_case 'quoted names' "" \
	"update \"refs/heads/a\\\\142c\" $ONE\nupdate \"refs/heads/q\" \"$TWO\"\nupdate \"refs/heads/w\\\\\"\" $ONE\n"
stdin_case 'a bad escape' "" "update \"refs/heads/q\\\\x\" $ONE\n"
stdin_case 'no closing quote' "" "update \"refs/heads/q $ONE\n"
stdin_case 'text after a quote' "" "update \"refs/heads/ab\"x $ONE\n"
stdin_case 'text after a quoted value' "" "update refs/heads/ab \"$ONE\"x\n"
stdin_case 'a quoted tab: a bad name' "" "update \"refs/heads/a\\\\tb\" $ONE\n"
stdin_case '-m and --create-reflog' "-m why --create-reflog" "update refs/tags/t $ONE\nupdate refs/heads/side $TWO\n"
stdin_case '--no-deref for all' "--no-deref" "update refs/heads/alias $TWO\nupdate HEAD $ONE\n"

# errors of the input
for input in "foo\n" "update\n" "update \n" "update  refs/heads/x $ONE\n" "update refs/heads/x\n" \
	"update refs/heads/x zz\n" "update refs/heads/x $ONE zz\n" "update refs/heads/x $ONE $TWO extra\n" \
	"update refs/heads/x $ONE  \n" "update refs/heads/x\t$ONE\n" "update refs/heads/x $ONE" \
	"update refs/heads/x" "create refs/heads/x\n" "create refs/heads/x $Z\n" "create refs/heads/x \n" \
	"create refs/heads/x $ONE $TWO\n" "delete refs/heads/side $Z\n" "delete refs/heads/side $ONE $TWO\n" \
	"delete refs/heads/side \n" "delete\n" "delete \n" "verify refs/heads/side $ONE $TWO\n" "verify\n" \
	"option foo\n" "option no-deref extra\n" "option\n" "option \n" "option no-deref" \
	"update refs/heads/bad..name $ONE\n" "delete foo\n" "update foo $Z\n" " update refs/heads/x $ONE\n" \
	"\n" "start \n" "commit x\n" "update refs/heads/x $ONE\n\n"
do
	stdin_case "bad input '$input'" "" "$input"
done

# the explicit transaction
for input in "start\nupdate refs/heads/x $ONE\nprepare\ncommit\n" "start\nupdate refs/heads/x $ONE\n" \
	"start\nupdate refs/heads/x $ONE\nprepare\n" "start\nupdate refs/heads/x $ONE\nabort\n" \
	"start\nstart\n" "commit\n" "abort\n" "prepare\n" "abort\nabort\n" "prepare\nprepare\n" \
	"prepare\nstart\n" "prepare\nupdate refs/heads/p $ONE\n" "start\ncommit\ncommit\n" \
	"update refs/heads/s3 $ONE\ncommit\nupdate refs/heads/s4 $ONE\n" \
	"start\nupdate refs/heads/s5 $ONE\ncommit\nstart\nupdate refs/heads/s6 $ONE\nabort\n" \
	"update refs/heads/s7 $ONE\nstart\n" "start\nupdate refs/heads/side $TWO $TWO\nprepare\n" \
	"start\nupdate refs/heads/side $TWO $TWO\ncommit\n" "commit\nstart\nupdate refs/heads/s10 $ONE\ncommit\n" \
	"start\nabort\nupdate refs/heads/s9 $ONE\n"
do
	stdin_case "transaction '$input'" "" "$input"
done

# -z
for input in "update refs/heads/x\000$ONE\000\000" "update refs/heads/x\000$ONE\000" \
	"update refs/heads/x\000$ONE" "update refs/heads/side\000$TWO\000$ONE\000" \
	"update refs/heads/side\000\000\000" "update refs/heads/x\000$ONE\000$Z\000" \
	"create refs/heads/zz\000$ONE\000" "create refs/heads/zz\000$ONE\000extra" \
	"create refs/heads/zz\000\000" "verify refs/heads/side\000\000" "verify refs/heads/side\000$ONE\000" \
	"delete refs/heads/side\000\000" "delete refs/heads/side\000" "delete refs/heads/side\000$ONE\000" \
	"update refs/heads/q\000zz\000\000" "update \000$ONE\000\000" \
	"option no-deref\000update HEAD\000$ONE\000\000" "option no-deref" "option no-deref\000" \
	"start\000update refs/heads/x\000$ONE\000\000commit\000" "start\000commit" \
	"update refs/heads/x\n$ONE\n\n" "\000" "update \"refs/heads/q\"\000$ONE\000\000"
do
	stdin_case "'$input'" "-z" "$input"
done

# A change through the symref HEAD points to: git checks HEAD (its log
# is changed too) before the symref's target; a symref changed itself
# (no-deref) is checked by what it resolves to. Each refusal beside git,
# in repositories where HEAD -> a -> master, a dangles, loops, or ends at
# a file of garbage.
test_expect_success 'old values through the symref HEAD points to, refused as git refuses them' '
	for end in master none loop garbage; do
		rm -rf "s-$end" && cp -a orig "s-$end" &&
		(cd "s-$end" &&
		 case $end in
		 loop) git symbolic-ref refs/heads/b refs/heads/a && end=b ;;
		 garbage) echo garbage >.git/refs/heads/g && end=g ;;
		 esac &&
		 git symbolic-ref refs/heads/a refs/heads/$end &&
		 git symbolic-ref HEAD refs/heads/a) || return 1
	done &&
	for end in master none loop garbage; do
		for input in "verify refs/heads/a $MISSING" "verify refs/heads/a" "verify refs/heads/a $ONE" \
			"update refs/heads/a $ONE $MISSING" "delete refs/heads/a $MISSING" \
			"option no-deref\nverify refs/heads/a $MISSING" "option no-deref\nverify refs/heads/a $TWO" \
			"option no-deref\nverify HEAD $MISSING" "option no-deref\nupdate HEAD $ONE $MISSING" \
			"verify refs/heads/a $MISSING\nupdate refs/heads/zz $MISSING" \
			"update HEAD $ONE\nupdate refs/heads/a $ONE" "update refs/heads/a $ONE\nupdate HEAD $ONE"; do
			printf "$input\n" >"$TRASH/input" &&
			# only refusals: a verify that holds writes log lines in git 2.39
			if ! (cd "s-$end" && git update-ref --stdin <"$TRASH/input" >/dev/null 2>&1); then
				CHANGE_REPO="s-$end" CHANGE_INPUT="$TRASH/input" compare_change update-ref --stdin ||
					{ echo "in s-$end: $input"; return 1; }
			fi
		done
	done
'

test_expect_success 'a verify that holds writes no log line (git 2.39 writes HEAD one going to 0000)' '
	rm -rf vl && cp -a s-master vl && cd vl &&
	cat .git/logs/HEAD .git/logs/refs/heads/a >../logs.before &&
	for input in "verify HEAD $TWO" "verify refs/heads/a $TWO" "option no-deref\nverify refs/heads/a $TWO"; do
		printf "$input\n" | "$MINI_GIT" update-ref --stdin || return 1
	done &&
	cat .git/logs/HEAD .git/logs/refs/heads/a >../logs.after &&
	test_cmp ../logs.before ../logs.after
'

test_expect_success 'usage: --stdin takes no refs and no -d' '
	cd orig &&
	compare_git update-ref --stdin refs/heads/foo </dev/null &&
	compare_git update-ref --stdin -d </dev/null
'

test_expect_success 'a lock held on one ref: nothing changes, no lock is left' '
	(cd orig && touch .git/refs/heads/side.lock) &&
	printf "update refs/heads/new $ONE\ndelete refs/heads/packed-only\nupdate refs/heads/side $TWO\n" \
		>"$TRASH/input" &&
	CHANGE_INPUT="$TRASH/input" compare_change update-ref --stdin &&
	(cd orig && rm .git/refs/heads/side.lock)
'

test_expect_success 'thousands of changes at once: few descriptors, one sync, git reads the result' '
	rm -rf work && cp -a orig work && cd work &&
	i=0 && while [ $i -lt 3000 ]; do echo "create refs/heads/many/b$i $ONE"; i=$((i + 1)); done >create &&
	sed "s/^create \(.*\) .*/verify \1 $ONE/" create >verify &&
	sed "s/^create \(.*\) .*/delete \1/" create >delete &&
	(ulimit -n 64 && "$MINI_GIT" update-ref --stdin <create) &&
	test $(git for-each-ref refs/heads/many | wc -l) = 3000 &&
	git for-each-ref --format="%(objectname)" refs/heads/many | sort -u >ids &&
	echo $ONE >expect && test_cmp expect ids &&
	(ulimit -n 64 && "$MINI_GIT" update-ref --stdin <verify) &&
	(ulimit -n 64 && "$MINI_GIT" update-ref --stdin <delete) &&
	test $(git for-each-ref refs/heads/many | wc -l) = 0 &&
	! test -d .git/refs/heads/many && ! test -d .git/logs/refs/heads/many &&
	git fsck 2>&1 &&
	if have_strace; then
		# (LeakSanitizer cannot work under ptrace)
		ASAN_OPTIONS=detect_leaks=0 strace -f -o trace -e trace=fsync,fdatasync,syncfs \
			"$MINI_GIT" update-ref --stdin <create &&
		test $(grep -c "^[0-9]* *syncfs(" trace) = 1 &&
		test $(grep -c "^[0-9]* *f.*sync(" trace) = 0 &&
		# each ref file is opened twice: looked at, then read under its lock
		ASAN_OPTIONS=detect_leaks=0 strace -f -o trace -e trace=openat \
			"$MINI_GIT" update-ref --stdin <delete &&
		test $(grep -c "refs/heads/many/b[0-9]*\"" trace) = 6000 &&
		test $(grep -c "refs/heads/many/b[0-9]*\.lock\"" trace) = 3000
	fi
'

test_expect_success 'ok lines come as the commands are read' '
	rm -rf work && cp -a orig work && cd work &&
	mkfifo in out &&
	("$MINI_GIT" update-ref --stdin <in >out &) &&
	exec 8>in 9<out &&
	printf "start\n" >&8 && read -r reply <&9 && test "$reply" = "start: ok" &&
	printf "update refs/heads/live $ONE\nprepare\n" >&8 && read -r reply <&9 &&
	test "$reply" = "prepare: ok" && test -f .git/refs/heads/live.lock &&
	printf "commit\n" >&8 && read -r reply <&9 && test "$reply" = "commit: ok" &&
	exec 8>&- 9<&- &&
	test "$(git rev-parse refs/heads/live)" = $ONE && ! test -f .git/refs/heads/live.lock
'

test_done
