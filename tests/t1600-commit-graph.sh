#!/bin/sh
# Commit-graph reading and ancestry walks (odb/commit-graph.c,
# odb/commit-walk.c) through the t-commit-walk driver, against git's own
# answers, without a graph, with one, with a split chain, with a graph that
# covers part of the history, and with broken graph files; packed commits
# of every shape read by their start alone, against the whole-object reader.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-walk.sh"

walk() { "$DRIVER" "$@"; }

# Commits with skewed and equal dates: the walks must not trust dates.
at() { GIT_COMMITTER_DATE="$((1112900000 + $1)) +0000" GIT_AUTHOR_DATE="$((1112900000 + $1)) +0000" git commit -q --allow-empty -m "$2"; }

test_expect_success 'setup: merges, an octopus, two roots, skewed and equal dates' '
	git init -q r && cd r &&
	at 1000 a1 && at 2000 a2 && git tag a2 &&
	git checkout -q -b b1 && at 3000 b1-1 && at 1500 b1-2-skewed && git tag skew &&
	git checkout -q -b b2 a2 && at 4000 b2-1 && at 4000 b2-2-same && at 4000 b2-3-same &&
	git checkout -q -b b3 a2 && at 2500 b3-1 &&
	git checkout -q master && at 5000 a3 &&
	git merge -q --no-ff -m "octopus" b1 b2 b3 && git tag octo &&
	at 6000 a4 &&
	git checkout -q --orphan other && at 500 o1 && at 7000 o2 &&
	git checkout -q master &&
	GIT_COMMITTER_DATE="1112908000 +0000" git merge -q --allow-unrelated-histories -m "join" other &&
	at 9000 a5 &&
	git checkout -q -b late b2 && at 100 late-1-skewed && at 9500 late-2 &&
	git checkout -q master &&
	git rev-list --all >../commits &&
	test $(wc -l <../commits) -ge 17
'

cd r 2>/dev/null

test_expect_success 'expected answers from git' '
	for a in $(cat ../commits); do
		for b in $(cat ../commits); do
			echo "$a $b"
		done
	done >../pairs &&
	head -n 7 ../commits >../some &&
	for a in $(cat ../some); do
		for b in $(cat ../some); do
			echo "$a $b"
		done
	done >../some-pairs &&
	for c in $(cat ../commits); do
		git rev-list $c | sed "s/^/$c /" || return 1
	done >../ancestry &&
	awk "
		NR == FNR { anc[\$1 \" \" \$2] = 1; n[\$1]++; next }
		{
			a = \$1; b = \$2; common = 0
			for (k in anc) {
				split(k, f, \" \")
				if (f[1] == a && ((b \" \" f[2]) in anc)) common++
			}
			print a, b, ((b \" \" a) in anc) ? \"yes\" : \"no\"
			printf \"ab %s %s %d\\t%d\\n\", a, b, n[a] - common, n[b] - common
		}" ../ancestry ../pairs >../expect-pairs &&
	while read a b; do
		echo "mb $a $b $(git merge-base --all $a $b | sort | tr "\n" " ")"
	done <../some-pairs >../expect-bases &&
	grep -c yes ../expect-pairs >/dev/null
'

check_all() {
	walk pairs <../pairs >../actual-pairs &&
	test_cmp ../expect-pairs ../actual-pairs &&
	walk bases <../some-pairs >../actual-bases &&
	test_cmp ../expect-bases ../actual-bases &&
	for x in $(cat ../commits); do
		grep "^$x [0-9a-f]* yes" ../expect-pairs | cut -d" " -f2 >../expect-contains &&
		walk contains $x $(cat ../commits) >../actual-contains &&
		sort ../expect-contains >../e && sort ../actual-contains >../a &&
		test_cmp ../e ../a &&
		grep "^[0-9a-f]* $x yes" ../expect-pairs | cut -d" " -f1 >../expect-merged &&
		walk merged $x $(cat ../commits) >../actual-merged &&
		sort ../expect-merged >../e && sort ../actual-merged >../a &&
		test_cmp ../e ../a || return 1
	done
}

test_expect_success 'no commit-graph: every pair as git answers' '
	test "$(walk graph)" = 0 &&
	check_all
'

test_expect_success 'tags and names are peeled to commits' '
	walk contains a2 octo master late other >out &&
	printf "octo\nmaster\nlate\n" >expect && test_cmp expect out &&
	walk merged master a2 octo late skew >out &&
	printf "a2\nocto\nskew\n" >expect && test_cmp expect out
'

test_expect_success 'full commit-graph: entries match the objects, walks unchanged' '
	git commit-graph write --reachable 2>/dev/null &&
	test "$(walk graph)" = $(wc -l <../commits) &&
	walk graph-check &&
	check_all
'

test_expect_success 'core.commitGraph=false ignores the graph' '
	test "$(git -c core.commitGraph=false rev-parse HEAD >/dev/null && walk graph)" -gt 0 &&
	git config core.commitGraph false &&
	test "$(walk graph)" = 0 &&
	git config --unset core.commitGraph
'

test_expect_success 'graph covering only part of the history' '
	git checkout -q -b newer master &&
	at 9900 n1 && at 50 n2-skewed && at 9990 n3 &&
	git checkout -q master &&
	git rev-list --all >../commits2 &&
	test "$(walk graph)" -lt $(wc -l <../commits2) &&
	for a in $(cat ../commits2); do
		for b in $(git rev-list newer -3) ; do
			if git merge-base --is-ancestor $a $b; then e=0; else e=1; fi &&
			walk is-ancestor $a $b; test $? = $e &&
			walk contains $a $b >o1 &&
			if [ $e = 0 ]; then echo $b >o2; else : >o2; fi &&
			test_cmp o2 o1 &&
			test "$(git rev-list --left-right --count $a...$b)" = \
			     "$(walk ahead-behind $a $b)" || return 1
		done
	done
'

test_expect_success 'split commit-graph chain' '
	rm -f .git/objects/info/commit-graph &&
	git rev-parse b1 | git commit-graph write --split --stdin-commits 2>/dev/null &&
	git rev-parse b2 | git commit-graph write --split=no-merge --stdin-commits 2>/dev/null &&
	git commit-graph write --split=no-merge --reachable 2>/dev/null &&
	test $(wc -l <.git/objects/info/commit-graphs/commit-graph-chain) = 3 &&
	test "$(walk graph)" = $(wc -l <../commits2) &&
	walk graph-check &&
	check_all
'

test_expect_success 'broken chain: git warning, then the layers that load' '
	cp .git/objects/info/commit-graphs/commit-graph-chain chain.bak &&
	echo nothex >>.git/objects/info/commit-graphs/commit-graph-chain &&
	git merge-base --is-ancestor a2 master 2>expect.err &&
	walk is-ancestor a2 master 2>actual.err &&
	test_cmp expect.err actual.err &&
	cp chain.bak .git/objects/info/commit-graphs/commit-graph-chain &&
	echo 0123456789012345678901234567890123456789nothex >>.git/objects/info/commit-graphs/commit-graph-chain &&
	git merge-base --is-ancestor a2 master 2>expect.err &&
	walk is-ancestor a2 master 2>actual.err &&
	test_cmp expect.err actual.err &&
	cp chain.bak .git/objects/info/commit-graphs/commit-graph-chain &&
	echo 0123456789012345678901234567890123456789 >>.git/objects/info/commit-graphs/commit-graph-chain &&
	git merge-base --is-ancestor a2 master 2>expect.err &&
	walk is-ancestor a2 master 2>actual.err &&
	test_cmp expect.err actual.err &&
	cp chain.bak .git/objects/info/commit-graphs/commit-graph-chain &&
	check_all
'

corrupt() {
	cp graph.good .git/objects/info/commit-graph &&
	chmod u+w .git/objects/info/commit-graph &&
	printf "$2" | dd of=.git/objects/info/commit-graph bs=1 seek=$1 conv=notrunc 2>/dev/null
}

test_expect_success 'broken graph files: git errors, answers from the objects' '
	rm -rf .git/objects/info/commit-graphs &&
	git commit-graph write --reachable 2>/dev/null &&
	cp .git/objects/info/commit-graph graph.good &&
	for damage in "0 XXXX" "4 \\002" "5 \\002" "6 \\377" "20 \\377" "8 OIDX" "12 \\377" \
		"1100 \\377\\377\\377\\377" "120 \\377" "1080 \\000\\000\\000\\000"; do
		corrupt $damage &&
		git merge-base --is-ancestor a2 master 2>expect.err &&
		walk is-ancestor a2 master 2>actual.err &&
		test_cmp expect.err actual.err || return 1
	done &&
	cp graph.good .git/objects/info/commit-graph &&
	truncate -s 1000 .git/objects/info/commit-graph &&
	git merge-base --is-ancestor a2 master 2>expect.err &&
	walk is-ancestor a2 master 2>actual.err &&
	test_cmp expect.err actual.err &&
	truncate -s 0 .git/objects/info/commit-graph &&
	walk is-ancestor a2 master &&
	cp graph.good .git/objects/info/commit-graph
'

test_expect_success 'a parent position out of range dies as in git' '
	cdat=$(perl -e '"'"'
		open F, "<", $ARGV[0]; binmode F; local $/; $d = <F>;
		for ($i = 0; $i < ord(substr($d, 6, 1)); $i++) {
			($id, $hi, $lo) = unpack("a4 N N", substr($d, 8 + 12 * $i, 12));
			print $lo if $id eq "CDAT";
		}'"'"' graph.good) &&
	test -n "$cdat" &&
	first=$(git rev-list --all | sort | head -n 1) &&
	corrupt $((cdat + 20)) "\\177\\377\\377\\377" &&
	test_expect_code 128 git rev-list $first >/dev/null 2>expect.err &&
	test_expect_code 128 walk contains $first $first~0 master 2>actual.err &&
	test_cmp expect.err actual.err &&
	cp graph.good .git/objects/info/commit-graph
'

# Commits whose headers end past the part read, or have more parents than
# the short path takes, or odd headers: the walk's reading of each packed
# commit (its start only) must be the one of the same commit loose (read
# whole), and git's.
test_expect_success 'packed commits read by their start: setup' '
	cd "$TRASH" && git init -q h && cd h &&
	at 100 base && git tag base &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		git checkout -q -b o$i master && at $((100 + i)) o$i || return 1
	done &&
	git checkout -q master &&
	at 200 "pre-octopus" &&
	git merge -q --no-ff -m "ten parents" o1 o2 o3 o4 o5 o6 o7 o8 o9 o10 &&
	long=$(printf "%0600d" 0) &&
	GIT_AUTHOR_NAME="$long" GIT_COMMITTER_NAME="$long" at 300 "long idents" &&
	tree=$(git rev-parse HEAD^{tree}) && head=$(git rev-parse HEAD) &&
	odd=$(printf "tree %s\nparent %s\nauthor A <a@b> 400 +0000\ncommitter C <c@d> 401 +0000\nencoding ISO-8859-1\ngpgsig -----BEGIN-----\n line\n -----END-----\n\nmessage\ncommitter X <x@y> 999 +0000\n" $tree $head |
		git hash-object -t commit -w --stdin) &&
	nocommitter=$(printf "tree %s\nparent %s\nauthor A <a@b> 500 +0000\n\ncommitter X <x@y> 998 +0000\n" $tree $odd |
		git hash-object --literally -t commit -w --stdin) &&
	nodate=$(printf "tree %s\nparent %s\ncommitter C <c@d>\n" $tree $nocommitter |
		git hash-object --literally -t commit -w --stdin) &&
	gtname=$(printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter A>B <a@b>  701 +0000\n\nm\n" $tree $nodate |
		git hash-object --literally -t commit -w --stdin) &&
	huge=$(printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> 99999999999999999999999 +0000\n\nm\n" $tree $gtname |
		git hash-object --literally -t commit -w --stdin) &&
	git update-ref refs/heads/odd $huge &&
	body=$(printf "%02000d" 0) &&
	at 600 "$body" && git branch bigmsg &&
	git rev-list --all >../hcommits &&
	git init -q --bare ../h-loose.git &&
	git repack -adq &&
	git cat-file --batch-all-objects --batch-check="%(objectname)" >../hobjects &&
	git pack-objects -q --stdout --all </dev/null | git -C ../h-loose.git unpack-objects -q &&
	test $(ls .git/objects/pack/*.pack | wc -l) = 1 &&
	test $(wc -l <../hcommits) -ge 16
'

test_expect_success 'packed commits read by their start: as loose, as git' '
	cd "$TRASH/h" &&
	(cd ../h-loose.git && walk parse $(cat ../hcommits)) >../loose.out &&
	walk parse $(cat ../hcommits) >../packed.out &&
	test_cmp ../loose.out ../packed.out &&
	git clone -q --bare --no-local . ../h-whole.git &&
	git -C ../h-whole.git repack -adfq --window=0 &&
	(cd ../h-whole.git && walk parse $(cat ../hcommits)) >../whole.out &&
	test_cmp ../loose.out ../whole.out &&
	git log --no-walk=unsorted --format="%H %ct %P" $(cat ../hcommits) >../git.all &&
	grep -v -e "^[0-9a-f]*  " -e "^[0-9a-f]* [0-9]\{20\}" ../git.all >../git.out &&
	test $(wc -l <../git.out) -ge 14 &&
	grep -F -f ../git.out ../packed.out >../both &&
	test_cmp ../git.out ../both &&
	walk contains base $(cat ../hcommits) >../contains.out &&
	test_cmp ../hcommits ../contains.out
'

test_expect_success 'odb_read_object_head: the first bytes of whole packed objects' '
	cd "$TRASH/h" &&
	git verify-pack -v .git/objects/pack/*.idx |
		awk "NF >= 7 && \$2 != \"chain\" { print \$1 }" >../deltas &&
	test -s ../deltas &&
	for c in $(cat ../hcommits) $(git rev-parse HEAD^{tree}); do
		t=$(git cat-file -t $c) && s=$(git cat-file -s $c) &&
		for n in 0 1 45 200 100000; do
			if [ $n -gt $s ]; then g=$s; else g=$n; fi &&
			if grep -q $c ../deltas; then
				echo none
			else
				echo "$t $s $g" && git cat-file $t $c | head -c $n
			fi >expect &&
			walk head $c $n >actual &&
			test_cmp expect actual || return 1
		done
	done &&
	echo none >expect &&
	MINI_GIT_INFLATE=zlib walk head HEAD 100 >actual &&
	test_cmp expect actual &&
	head=$(git rev-parse HEAD) &&
	(cd ../h-loose.git && walk head $head 100) >actual &&
	test_cmp expect actual
'

# Walks long enough for a second thread to read ahead (odb/commit-walk.c
# starts it after 256 commits): a fast-import pack (oldest first) and the
# same history repacked by git (newest first), answers as git's.
test_expect_success 'long walks read ahead: as git, in both pack orders' '
	cd "$TRASH" && git init -q --bare long.git && cd long.git &&
	long_history 1500 7 3 500 50 75 300 250 | git fast-import --quiet &&
	for order in fast-import git; do
		for t in t250 t1250 b300~20 main~10 main; do
			git branch --contains $t --format="%(refname:short)" >expect &&
			MINI_GIT_THREADS=2 walk contains $t $(git for-each-ref --format="%(refname:short)" refs/heads) >actual &&
			test_cmp expect actual &&
			MINI_GIT_THREADS=2 MINI_GIT_READ_AHEAD=wait walk contains $t \
				$(git for-each-ref --format="%(refname:short)" refs/heads) >actual &&
			test_cmp expect actual &&
			MINI_GIT_THREADS=2 MINI_GIT_READ_AHEAD=wait walk ahead $t \
				$(git for-each-ref --format="%(refname:short)" refs/heads) >n &&
			test $(cat n) -gt 200 &&
			MINI_GIT_THREADS=2 MINI_GIT_READ_AHEAD=claim walk contains $t \
				$(git for-each-ref --format="%(refname:short)" refs/heads) >actual &&
			test_cmp expect actual &&
			MINI_GIT_THREADS=1 walk contains $t $(git for-each-ref --format="%(refname:short)" refs/heads) >actual &&
			test_cmp expect actual &&
			MINI_GIT_THREADS=1 MINI_GIT_READ_AHEAD=wait walk ahead $t \
				$(git for-each-ref --format="%(refname:short)" refs/heads) >n &&
			test $(cat n) = 0 || return 1
		done &&
		git repack -adfq || return 1
	done
'

test_done
