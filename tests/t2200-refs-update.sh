#!/bin/sh
# update-ref and symbolic-ref beside git: values, old-value checks,
# reflogs, packed refs, symrefs, bad names and stale locks.
. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIRECTORY/lib-ref-change.sh"
change() { compare_change "$@"; }

test_expect_success 'setup' '
	git init -q orig && cd orig &&
	test_commit one && test_commit two &&
	git branch side one && git branch packed-only one &&
	git tag -a -m ann ann one &&
	git pack-refs --all && git branch loose two &&
	git symbolic-ref refs/heads/alias refs/heads/side &&
	git update-ref --create-reflog refs/deep/a/b one &&
	git update-ref refs/heads/nest/a/b one
'

ONE=$(git -C orig rev-parse one) TWO=$(git -C orig rev-parse two)
Z=0000000000000000000000000000000000000000
TREE=$(git -C orig rev-parse one^{tree}) ANN=$(git -C orig rev-parse ann)
MISSING=1111111111111111111111111111111111111111

for args in "refs/heads/new $TWO" "refs/heads/new two" "-m msg refs/heads/new one" \
	"refs/heads/side $TWO $ONE" "refs/heads/side $TWO $TWO" "refs/heads/side $TWO $Z" \
	"refs/heads/new $TWO $ONE" "refs/heads/new $TWO $Z" "refs/heads/new $TWO ''" \
	"HEAD $ONE" "--no-deref HEAD $ONE" "-m moved HEAD $ONE" "refs/heads/alias $ONE" \
	"--no-deref refs/heads/alias $ONE" "refs/heads/loose $ONE" "refs/heads/packed-only $TWO" \
	"--create-reflog refs/tags/t $ONE" "refs/heads/side/sub $ONE" "refs/heads $ONE" \
	"refs/heads/bad..name $ONE" "refs/heads/x nothex" "refs/heads/x $ONE nothex" \
	"-m '' refs/heads/x $ONE" "refs/heads/x" "-d refs/heads/side" "-d refs/heads/packed-only" \
	"-d refs/heads/loose" "-d refs/heads/side $TWO" "-d refs/heads/side $ONE" \
	"-d refs/heads/nothere" "-d refs/heads/alias" "--no-deref -d refs/heads/alias" \
	"-d HEAD" "-d refs/tags/ann" "FETCH_HEAD $ONE" "-z refs/heads/x $ONE" \
	"refs/heads/side $Z" "refs/heads/packed-only $Z" "refs/heads/nothere $Z" \
	"refs/heads/side $Z $ONE" "refs/heads/side $Z $TWO" "HEAD $Z" "--no-deref refs/heads/alias $Z" \
	"refs/heads/x $MISSING" "refs/tags/x $MISSING" "refs/heads/x $TREE" "refs/heads/x $ANN" \
	"refs/tags/x $TREE" "--no-deref HEAD $TREE" "HEAD $TREE" "refs/heads/alias $TREE" \
	"refs/heads/side $ONE $ONE" "-d refs/deep/a/b" "-d refs/heads/nest/a/b" \
	"-d -m bye refs/heads/master" "-m bye -d HEAD" "--no-deref -d refs/heads/master" \
	"-m bye -d refs/heads/alias" "--no-deref master $TWO $ONE" "master $TWO" "-d master" \
	"--no-deref -d refs/heads/alias" "-d master $ONE" "FOO $ONE" "-d FOO" "FOO $Z" \
	"-d refs/heads/nest" "-d refs/heads/nest/a/b/c" "-d refs/heads/x/y/z" "-d refs/deep/a" \
	"--create-reflog refs/heads/nest $Z" "refs/heads/side $Z $Z" "refs/heads/nothere $Z ''" \
	"--no-deref refs/heads/alias $Z $Z" "refs/heads/master $TWO" "--no-deref refs/heads/master $TWO"
do
	test_expect_success "update-ref $args" 'eval "change update-ref $args"'
done

for args in "HEAD" "--short HEAD" "-q HEAD" "refs/heads/alias" "--short refs/heads/alias" \
	"--no-recurse refs/heads/alias" "refs/heads/side" "-q refs/heads/side" "refs/heads/nothere" \
	"HEAD refs/heads/side" "-m msg HEAD refs/heads/side" "HEAD refs/heads/unborn" "HEAD side" \
	"HEAD refs/heads/a..b" "refs/heads/link refs/heads/loose" "-m '' HEAD refs/heads/side" \
	"-d refs/heads/alias" "-d HEAD" "-d refs/heads/side" "-d" "a b c" \
	"--short refs/heads/a..b" "-q refs/heads/a..b" "-d refs/heads/@{x}" \
	"refs/heads/nest/a/b/c refs/heads/side" "--no-recurse refs/heads/nest/a refs/heads/side" \
	"refs/heads/side/x refs/heads/side" "refs/heads/x/ refs/heads/side" "FOO/ refs/heads/side"
do
	test_expect_success "symbolic-ref $args" 'eval "change symbolic-ref $args"'
done

# Files and directories in a ref's way: a directory of empty directories
# gives way (the walk stops at the first entry that stays), one that holds
# a ref file, even a broken or dangling one, is in the way of a name above
# it; a file that is no ref where a directory should be is git's
# "non-directory in the way"; a dangling symref above blocks as a ref.
# Where a check fails after git made the lock's directories, they stay.
test_expect_success 'setup: directories and files in the way' '
	cp -a orig inway && cd inway &&
	mkdir -p .git/refs/heads/e/f/g .git/refs/heads/h/i && touch .git/refs/heads/h/.keep &&
	mkdir -p .git/refs/heads/bd && echo garbage >.git/refs/heads/bd/g &&
	mkdir -p .git/refs/heads/dd && echo "ref: refs/heads/nowhere" >.git/refs/heads/dd/s &&
	echo garbage >.git/refs/heads/garb &&
	echo "ref: refs/heads/nowhere" >.git/refs/heads/dang &&
	git update-ref refs/heads/pk/a one && git pack-refs --all
'

for args in "refs/heads/e $ONE" "-d refs/heads/e" "refs/heads/e/f $ONE $Z" "refs/heads/e $ONE $ONE" \
	"refs/heads/h $ONE" "refs/heads/bd $ONE" "-d refs/heads/bd" "refs/heads/dd $ONE" \
	"refs/heads/garb/x $ONE" "-d refs/heads/garb/x/y" "refs/heads/garb/x $ONE $ONE" \
	"refs/heads/dang/x $ONE" "refs/heads/pk $ONE" "refs/heads/pk/a/b $ONE" \
	"refs/heads/q/r/s $ONE $ONE" "-d refs/heads/q/r/s $ONE"
do
	test_expect_success "in the way: update-ref $args" 'CHANGE_REPO=inway eval "change update-ref $args"'
done

for input in "create refs/heads/z/y one|create refs/heads/z/y/x one" \
	"create refs/heads/z/y/x one|create refs/heads/z/y one" "verify refs/heads/e" \
	"create refs/heads/e one|create refs/heads/e/f/g/h one"
do
	test_expect_success "in the way: update-ref --stdin $input" '
		echo "$input" | tr "|" "\n" >"$TRASH/input" &&
		CHANGE_REPO=inway CHANGE_INPUT="$TRASH/input" change update-ref --stdin
	'
done

test_expect_success 'in the way: branch and symbolic-ref' '
	CHANGE_REPO=inway change branch e/f &&
	CHANGE_REPO=inway change branch bd &&
	CHANGE_REPO=inway change branch garb/x &&
	CHANGE_REPO=inway change branch pk &&
	CHANGE_REPO=inway change symbolic-ref refs/heads/e refs/heads/side &&
	CHANGE_REPO=inway change symbolic-ref refs/heads/bd refs/heads/side
'

# A ref file of garbage is refused whatever the change (a deletion, a
# verify, with or without --no-deref), and so is a change through a
# symref that leads to one: HEAD itself is never what goes.
test_expect_success 'setup: HEAD on a broken ref' '
	cp -a orig onbroken && cd onbroken &&
	echo garbage >.git/refs/heads/broken && git symbolic-ref HEAD refs/heads/broken &&
	git symbolic-ref refs/heads/tobroken refs/heads/broken
'

for args in "-d HEAD" "-d HEAD $Z" "HEAD $ONE" "-d refs/heads/broken" "--no-deref -d refs/heads/broken" \
	"-d refs/heads/broken $Z" "-d refs/heads/tobroken" "refs/heads/tobroken $ONE" "--no-deref -d HEAD"
do
	test_expect_success "broken: update-ref $args" 'CHANGE_REPO=onbroken eval "change update-ref $args"'
done

for input in "delete HEAD" "verify HEAD" "update HEAD $Z $Z" "option no-deref|delete refs/heads/broken"
do
	test_expect_success "broken: update-ref --stdin $input" '
		echo "$input" | tr "|" "\n" >"$TRASH/input" &&
		CHANGE_REPO=onbroken CHANGE_INPUT="$TRASH/input" change update-ref --stdin
	'
done

test_expect_success 'a stale lock: git message and exit code, nothing changed' '
	(cd orig && touch .git/refs/heads/side.lock) &&
	change update-ref refs/heads/side $TWO &&
	change update-ref -d refs/heads/side &&
	(cd orig && rm .git/refs/heads/side.lock)
'

test_expect_success 'a stale lock: its path as git spells the git dir it found or was given' '
	rm -rf locked && cp -a orig locked &&
	touch locked/.git/refs/heads/side.lock locked/.git/packed-refs.lock &&
	CHANGE_REPO=locked change -C .git update-ref refs/heads/side $TWO &&
	CHANGE_REPO=locked change -C .git branch -d side &&
	CHANGE_REPO=locked change -C .git/refs update-ref -d refs/heads/side &&
	CHANGE_REPO=locked change --git-dir=.git/ update-ref -d refs/heads/side &&
	CHANGE_REPO=locked change --git-dir=./.git branch -D side
'

test_expect_success 'a stale packed-refs.lock refuses every deletion, of a loose ref or of none' '
	rm -rf locked && cp -a orig locked && touch locked/.git/packed-refs.lock &&
	echo "delete refs/heads/loose" >"$TRASH/input" &&
	CHANGE_REPO=locked change update-ref -d refs/heads/loose &&
	CHANGE_REPO=locked change update-ref -d refs/heads/nothere &&
	CHANGE_REPO=locked change update-ref -d refs/heads/alias &&
	CHANGE_REPO=locked change update-ref -d --no-deref refs/heads/alias &&
	CHANGE_REPO=locked change symbolic-ref -d refs/heads/alias &&
	CHANGE_REPO=locked CHANGE_INPUT="$TRASH/input" change update-ref --stdin &&
	CHANGE_REPO=locked change branch -m loose moved &&
	CHANGE_REPO=locked change branch -d loose &&
	rm locked/.git/packed-refs.lock &&
	CHANGE_REPO=locked change update-ref -d refs/heads/nothere &&
	CHANGE_REPO=locked change update-ref -d refs/heads/loose
'

test_expect_success 'reflogs: HEAD follows its branch; git reads what we wrote' '
	rm -rf work && cp -a orig work && cd work &&
	"$MINI_GIT" update-ref -m "first move" refs/heads/master $ONE &&
	"$MINI_GIT" update-ref -m "second move" HEAD $TWO &&
	git reflog show master >actual &&
	git reflog show HEAD >>actual &&
	git fsck &&
	grep "first move" actual && grep "second move" actual
'

# Without user.name, user.email or GIT_COMMITTER_*, the reflog names the
# user as git does: GECOS name, user@host with git's domain rule, an
# empty EMAIL ignored.
test_expect_success 'reflogs: the default identity is git'"'"'s' '
	for email in unset "" "e@example.org"; do
		for tool in git "$MINI_GIT"; do
			rm -rf "$TRASH/id" && cp -a "$TRASH/orig" "$TRASH/id" &&
			(cd "$TRASH/id" && rm -f .git/logs/refs/heads/master &&
			 unset GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL &&
			 if test "$email" = unset; then unset EMAIL; else EMAIL=$email && export EMAIL; fi &&
			 GIT_CONFIG_NOSYSTEM=1 && export GIT_CONFIG_NOSYSTEM &&
			 "$tool" update-ref -m moved refs/heads/master $ONE &&
			 cut -d" " -f3- .git/logs/refs/heads/master >"$TRASH/id.$(basename "$tool")") || return 1
		done &&
		test_cmp "$TRASH/id.git" "$TRASH/id.mini-git" || return 1
	done
'

# Symref chains are followed to their end however long (every symref on
# the way logged, and HEAD's log when HEAD points into the chain); a chain
# that comes back on itself, or reaches a ref another change of the same
# transaction names, is refused with git's message.
test_expect_success 'setup: symref chains and a loop' '
	rm -rf chain && cp -a orig chain && (cd chain &&
		git symbolic-ref refs/heads/l1 refs/heads/l2 &&
		git symbolic-ref refs/heads/l2 refs/heads/l1 &&
		for i in 1 2 3 4 5 6 7; do
			git symbolic-ref refs/heads/s$i refs/heads/s$((i + 1)) || return 1
		done) &&
	for h in s3; do
		rm -rf chain-$h && cp -a chain chain-$h && git -C chain-$h symbolic-ref HEAD refs/heads/$h ||
			return 1
	done
'

for repo in chain chain-s3; do
	for args in "refs/heads/s1 $ONE" "refs/heads/s3 $TWO" "-d refs/heads/s2" "-d refs/heads/l1" \
		"refs/heads/l2 $ONE" "--no-deref refs/heads/s1 $ONE" "-m msg refs/heads/s6 $ONE"; do
		test_expect_success "$repo: update-ref $args" 'CHANGE_REPO=$repo eval "change update-ref $args"'
	done
done

test_expect_success 'chains in one transaction: a ref reached twice is refused' '
	for input in "update refs/heads/s1 $ONE" "update refs/heads/s1 $ONE|update refs/heads/s8 $ONE" \
		"update refs/heads/s2 $ONE|update refs/heads/s5 $ONE" \
		"update refs/heads/s5 $ONE|update refs/heads/s2 $ONE" "delete refs/heads/l1" \
		"update refs/heads/l1 $ONE"; do
		echo "$input" | tr "|" "\n" >"$TRASH/input" &&
		CHANGE_REPO=chain-s3 CHANGE_INPUT="$TRASH/input" change update-ref --stdin || return 1
	done
'

test_expect_success 'branch through symref chains' '
	CHANGE_REPO=chain change branch -f s1 $ONE &&
	CHANGE_REPO=chain-s3 change branch -f s2 $ONE &&
	CHANGE_REPO=chain change branch -D l1
'

test_done
