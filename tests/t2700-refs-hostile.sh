#!/bin/sh
# Bad input: git's message and exit code, never a crash, and the
# repository left as it was.
. "$(dirname "$0")/test-lib.sh"

snapshot() { (cd "$1" && find .git/refs .git/packed-refs .git/HEAD .git/config -type f 2>/dev/null | sort | xargs cat); }

test_expect_success 'setup' '
	git init -q r && cd r && test_commit one && test_commit two &&
	git branch side one && git tag -a -m a ann one &&
	git pack-refs --all && git branch loose &&
	cp .git/packed-refs ../packed.good
'

all_readers() {
	compare_git branch && compare_git branch -a -v &&
	compare_git show-ref && compare_git show-ref --verify refs/heads/side &&
	compare_git for-each-ref --format="%(refname)" &&
	compare_git symbolic-ref HEAD
}

test_expect_success 'packed-refs: a bad line at the end' '
	cd r && cp ../packed.good .git/packed-refs && echo "zzz" >>.git/packed-refs &&
	snapshot . >before && all_readers && snapshot . >after && test_cmp before after
'

test_expect_success 'packed-refs: unterminated last line' '
	cd r && cp ../packed.good .git/packed-refs && printf "abc" >>.git/packed-refs &&
	compare_git branch && compare_git show-ref && compare_git branch -d side
'

test_expect_success 'packed-refs: garbage in the middle of an unsorted file' '
	cd r && (echo "garbage line"; grep -v "^#" ../packed.good) >.git/packed-refs &&
	compare_git branch && compare_git show-ref
'

test_expect_success 'packed-refs: a bad peeled line, a short record, long lines' '
	cd r &&
	sed "s/^\^.*/^zz/" ../packed.good >.git/packed-refs && compare_git branch &&
	(cat ../packed.good; echo "0123 refs/heads/zz") >.git/packed-refs && compare_git show-ref &&
	(cat ../packed.good; printf "%0200d\n" 0) >.git/packed-refs && compare_git branch &&
	cp ../packed.good .git/packed-refs
'

test_expect_success 'packed-refs: empty file, header only, no newline at the end of the header' '
	cd r && : >.git/packed-refs && compare_git show-ref &&
	echo "# pack-refs with: peeled fully-peeled sorted " >.git/packed-refs && compare_git branch &&
	printf "# pack-refs with: peeled" >.git/packed-refs && compare_git branch &&
	cp ../packed.good .git/packed-refs
'

test_expect_success 'HEAD that is not a ref, garbage HEAD' '
	cd r && cp .git/HEAD saved &&
	echo "ref: refs/heads/../../x" >.git/HEAD && compare_git branch && compare_git symbolic-ref HEAD &&
	echo "ref: refs/heads/nothere" >.git/HEAD && compare_git branch && compare_git branch -v &&
	cp saved .git/HEAD
'

test_expect_success 'a ref file with garbage, an empty ref file, a dangling symref' '
	cd r &&
	echo garbage >.git/refs/heads/garbage && : >.git/refs/heads/empty &&
	git symbolic-ref refs/heads/dangling refs/heads/nothing &&
	all_readers &&
	compare_git update-ref refs/heads/garbage HEAD &&
	rm -f .git/refs/heads/garbage .git/refs/heads/empty .git/refs/heads/dangling
'

test_expect_success 'a symref loop' '
	cd r && git symbolic-ref refs/heads/l1 refs/heads/l2 && git symbolic-ref refs/heads/l2 refs/heads/l1 &&
	compare_git branch && compare_git show-ref && compare_git symbolic-ref refs/heads/l1 &&
	rm .git/refs/heads/l1 .git/refs/heads/l2
'

test_expect_success 'names check-ref-format rejects' '
	cd r &&
	for n in "a..b" "a.lock" ".hidden" "a/" "a//b" "x@{y" "sp ace" "ti~lde" "ca^ret" "co:lon" \
		"q?" "st*ar" "br[acket" "back\\slash" "a/.b" "end." "-dash" "HEAD"; do
		compare_git branch "$n" || exit 1
		case "$n" in -dash|HEAD) continue;; esac
		compare_git update-ref "refs/heads/$n" HEAD || exit 1
	done
'

test_expect_success 'a stale lock left by a crashed writer' '
	cd r && snapshot . >before &&
	touch .git/refs/heads/side.lock .git/packed-refs.lock &&
	compare_git branch -f side two && compare_git update-ref refs/heads/side HEAD &&
	compare_git branch -D side && compare_git branch -m side other &&
	rm .git/refs/heads/side.lock .git/packed-refs.lock &&
	snapshot . >after && test_cmp before after
'

test_expect_success 'a directory where a ref should be, a ref where a directory should be' '
	cd r &&
	compare_git branch side/sub && compare_git update-ref refs/heads/loose/x HEAD &&
	mkdir -p .git/refs/heads/dir/inner && git rev-parse HEAD >.git/refs/heads/dir/inner/ref &&
	compare_git update-ref refs/heads/dir HEAD && compare_git branch &&
	rm -r .git/refs/heads/dir
'

# No object has the null id: a loose ref that holds it is broken, with
# git's warning where refs are listed (a symref to it is left out without
# one); a branch at a missing object is no commit for branch -d, unnamed.
test_expect_success 'a ref that holds the null id, a branch at a missing object' '
	cd r &&
	echo 0000000000000000000000000000000000000000 >.git/refs/heads/null &&
	git symbolic-ref refs/heads/tonull refs/heads/null &&
	compare_git for-each-ref && compare_git branch && compare_git branch -a -vv &&
	compare_git show-ref && compare_git branch --merged &&
	compare_git for-each-ref --format="%(refname) %(symref)" refs/heads/t &&
	compare_git branch -d null &&
	echo 1111111111111111111111111111111111111111 >.git/refs/heads/gone &&
	compare_git branch -d gone &&
	for tool in git "$MINI_GIT"; do
		rm -rf ../copy && cp -a . ../copy &&
		(cd ../copy && "$tool" branch -D null gone; echo "exit=$?" && ls .git/refs/heads) \
			>"$TRASH/D.$(basename "$tool")" 2>&1 || return 1
	done &&
	mini_to_git "$TRASH/D.mini-git" && test_cmp "$TRASH/D.git" "$TRASH/D.mini-git" &&
	rm .git/refs/heads/null .git/refs/heads/tonull .git/refs/heads/gone
'

# git reads every ref's object as its sort first looks at the ref, when
# the format or a sort key needs one: a missing object stops it before
# any output, and the one named is the first its merge sort compares.
test_expect_success 'refs at missing objects: nothing printed, the first the sort looks at named' '
	cd r &&
	echo 1111111111111111111111111111111111111111 >.git/refs/heads/zz-gone &&
	echo 1111111111111111111111111111111111111112 >.git/refs/heads/a0-gone &&
	blob=$(echo "to be lost" | git hash-object -w --stdin) &&
	git tag -a -m "of a blob to be lost" lost $blob &&
	for c in "for-each-ref" "for-each-ref --sort=-refname" "for-each-ref --count=1 --sort=-refname" \
		"for-each-ref --format=%(refname) --sort=-objecttype" "for-each-ref refs/heads/master refs/heads/zz-gone" \
		"branch --format=%(objecttype) --sort=-refname" "branch -v --sort=-refname" "branch" \
		"for-each-ref --format=%(refname)"; do
		compare_git $c || return 1
	done &&
	rm .git/refs/heads/zz-gone .git/refs/heads/a0-gone &&
	lost=.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	mv $lost ../lost.obj &&
	compare_git for-each-ref --format="%(*objecttype) %(refname)" --sort=-refname &&
	compare_git for-each-ref --format="%(objecttype) %(refname)" &&
	mv ../lost.obj $lost && git tag -d lost >/dev/null
'

test_expect_success 'of two refs at missing objects, the one the sort looks at first is named' '
	rm -rf two && git init -q two && cd two && test_commit one &&
	for b in a b c d e f; do git branch $b || return 1; done &&
	echo 1111111111111111111111111111111111111111 >.git/refs/heads/a &&
	echo 2222222222222222222222222222222222222222 >.git/refs/heads/b &&
	for c in "for-each-ref" "for-each-ref --sort=-refname" "branch -v" "for-each-ref refs/heads/a" \
		"for-each-ref refs/heads/a refs/heads/b refs/heads/c" "for-each-ref --format=%(*push)" \
		"for-each-ref --format=%(refname) --sort=*push"; do
		compare_git $c || return 1
	done
'

test_expect_success 'a branch named HEAD: a name given to update-ref, --merged, --points-at warns that it is ambiguous' '
	rm -rf amb && git init -q amb && cd amb && test_commit one && test_commit two &&
	git update-ref refs/heads/HEAD HEAD &&
	compare_git update-ref refs/heads/x HEAD &&
	compare_git update-ref refs/heads/x HEAD~0 HEAD &&
	compare_git update-ref -d refs/heads/nope HEAD &&
	printf "update refs/heads/x HEAD~1 HEAD\ncreate refs/heads/x HEAD\n" >../in &&
	compare_git_stdin ../in update-ref --stdin &&
	compare_git for-each-ref --points-at=HEAD && compare_git for-each-ref --merged=HEAD &&
	compare_git for-each-ref --no-merged=HEAD && compare_git for-each-ref --contains=HEAD &&
	compare_git branch --points-at=HEAD && compare_git branch --no-contains HEAD
'

test_done
