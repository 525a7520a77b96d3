#!/bin/sh
# fsck --connectivity-only beside git 2.39: git takes every id the loose
# directories and pack indexes list as stored without reading it, reads
# and hashes ref tips, reads commits, trees and tags as its walk reaches
# them and never reads a blob. So a damaged blob, a bad CRC or a damaged
# pack trailer go unsaid, a corrupt reachable commit or tree is fatal,
# and objects only unreachable ones name are not dangling. Stdout comes
# out of git in hash-table order and is compared sorted; where git repeats
# one complaint at each lookup of a damaged pack, stderr is compared as a
# set of distinct lines (cmp_fsck -u).
. "$(dirname "$0")/test-lib.sh"

. "$TEST_DIRECTORY/lib-fsck.sh"

# The usual option sets.
cmp_all() {
	cmp_fsck "$@" --connectivity-only &&
	cmp_fsck "$@" --connectivity-only --unreachable &&
	cmp_fsck "$@" --connectivity-only --no-dangling &&
	cmp_fsck "$@" --connectivity-only --unreachable --no-dangling
}

# Offset of the first pack entry of type $1.
first_entry() {
	p=$(ls .git/objects/pack/*.pack) &&
	git verify-pack -v "${p%.pack}.idx" | awk -v t="$1" '$2 == t { print $5; exit }'
}

test_expect_success 'setup: loose and packed objects, tags, unreachable history' '
	git init -q clean && cd clean &&
	for i in 1 2 3 4; do test_commit c$i || return 1; done &&
	git tag -a -m "annotated" ann c2 &&
	git repack -q -ad &&
	test_commit c5 && test_commit c6 &&
	echo dangling-blob | git hash-object -w --stdin &&
	mkdir d && echo lost >d/f && git add d && tree=$(git write-tree) &&
	git reset -q --hard &&
	lost=$(echo lost | git commit-tree $tree -p HEAD) &&
	echo $lost >../lost && git fsck
'

test_expect_success 'clean: git'"'"'s lines; only the tip of unreachable history dangles' '
	cd clean && cmp_fsck --connectivity-only &&
	grep "^dangling commit $(cat ../lost)" "$TRASH/m.out" &&
	! grep "dangling tree" "$TRASH/m.out" && cmp_all &&
	cmp_fsck --connectivity-only --root --tags &&
	! grep -e "^root" -e "^tagged" "$TRASH/m.out" &&
	cmp_fsck --connectivity-only --no-reflogs &&
	cmp_fsck --connectivity-only --progress &&
	cmp_fsck -v --connectivity-only --verbose
'

test_expect_success 'several packs, a side branch, a detached HEAD' '
	git clone -q clean multi && cd multi &&
	for i in 1 2 3; do test_commit m$i && git repack -q -d || return 1; done &&
	git checkout -q -b side c2 && test_commit s1 && git repack -q -d &&
	git checkout -q --detach m2 && test_commit det &&
	test $(ls .git/objects/pack/*.pack | wc -l) -ge 4 &&
	cmp_all && cmp_fsck -v --connectivity-only --verbose
'

test_expect_success 'an alternate: its objects count as stored' '
	git clone -q -s clean alt && cd alt &&
	test_commit in-alt && git repack -q -d -l && cmp_all
'

test_expect_success 'a blob damaged in the pack, and loose: not read, nothing said' '
	fresh && off=$(first_entry blob) && poke .git/objects/pack/*.pack $((off + 6)) 125 &&
	poke "$(loose_path $(git rev-parse c6:c6.t))" 4 377 &&
	cmp_all && grep "^exit=0" "$TRASH/m.out" &&
	test_must_fail git fsck >/dev/null 2>&1
'

test_expect_success 'every blob damaged: still nothing said' '
	fresh && p=$(ls .git/objects/pack/*.pack) &&
	git verify-pack -v "${p%.pack}.idx" | awk "\$2 == \"blob\" { print \$5 }" >offs &&
	test $(wc -l <offs) -ge 4 &&
	while read off; do poke "$p" $((off + 4)) 125 || return 1; done <offs &&
	cmp_fsck --connectivity-only && grep "^exit=0" "$TRASH/m.out" && test ! -s "$TRASH/m.err"
'

test_expect_success 'a wrong CRC in the index, a damaged index or pack checksum: unsaid' '
	fresh && i=$(ls .git/objects/pack/*.idx) && n=$(git show-index <"$i" | wc -l) &&
	poke "$i" $((8 + 1024 + n * 20 + 2)) 1 && cmp_all &&
	fresh && i=$(ls .git/objects/pack/*.idx) && size=$(wc -c <"$i") &&
	poke "$i" $((size - 3)) 0 && cmp_all
'

test_expect_success 'missing blob, tree and commit' '
	fresh && rm -f "$(loose_path $(git rev-parse c6:c6.t))" && cmp_all &&
	grep "^missing blob" "$TRASH/m.out" &&
	fresh && rm -f "$(loose_path $(git rev-parse c6^{tree}))" && cmp_all &&
	grep "^exit=10" "$TRASH/m.out" &&
	fresh && rm -f "$(loose_path $(git rev-parse c6))" && cmp_all
'

test_expect_success 'a corrupt reachable commit or tree: git dies reading it' '
	fresh && poke "$(loose_path $(git rev-parse HEAD))" 10 130 && cmp_fsck --connectivity-only &&
	grep "^exit=128" "$TRASH/m.out" &&
	fresh && f=$(loose_path $(git rev-parse HEAD)) && chmod u+w "$f" && truncate -s 8 "$f" &&
	cmp_fsck --connectivity-only &&
	fresh && off=$(first_entry commit) && poke .git/objects/pack/*.pack $((off + 8)) 125 &&
	cmp_fsck --connectivity-only && grep "^exit=128" "$TRASH/m.out" &&
	fresh && off=$(first_entry tree) && poke .git/objects/pack/*.pack $((off + 8)) 125 &&
	cmp_fsck --connectivity-only && grep "^exit=128" "$TRASH/m.out"
'

test_expect_success 'a ref tip stored under another id: hash mismatch' '
	fresh && chmod u+w "$(loose_path $(git rev-parse c6))" &&
	cp "$(loose_path $(git rev-parse c5))" "$(loose_path $(git rev-parse c6))" && cmp_all &&
	grep "hash mismatch" "$TRASH/m.err"
'

test_expect_success 'a truncated pack, a pack trailer that does not match, an index too small' '
	fresh && p=$(ls .git/objects/pack/*.pack) && chmod u+w "$p" && truncate -s 300 "$p" &&
	cmp_fsck -u --connectivity-only && cmp_fsck -u --connectivity-only --no-dangling &&
	fresh && p=$(ls .git/objects/pack/*.pack) && size=$(wc -c <"$p") &&
	poke "$p" $((size - 3)) 0 && cmp_fsck -u --connectivity-only &&
	cmp_fsck -u --connectivity-only --unreachable &&
	fresh && i=$(ls .git/objects/pack/*.idx) && chmod u+w "$i" && truncate -s 100 "$i" &&
	cmp_fsck -u --connectivity-only && cmp_fsck -u --connectivity-only --unreachable
'

tree_of() {
	while [ $# -gt 0 ]; do
		printf "%s %s\\0" "$1" "$2" && printf "%s" "$3" | xxd -r -p || return 1
		shift 3
	done
}

test_expect_success 'links git'"'"'s lookups refuse, and links to missing ids' '
	command -v xxd && cd clean &&
	T=$(git rev-parse c1^{tree}) B=$(git rev-parse c1:c1.t) C=$(git rev-parse c1) &&
	fresh && t=$(tree_of 40000 d $B 100644 f $T | git hash-object -t tree --literally -w --stdin) &&
	git update-ref refs/heads/lie $(git commit-tree $t -m x) && cmp_all &&
	fresh && t=$(tree_of 100644 a 1111111111111111111111111111111111111111 \
		40000 d 2222222222222222222222222222222222222222 \
		160000 s 3333333333333333333333333333333333333333 |
		git hash-object -t tree --literally -w --stdin) &&
	git update-ref refs/heads/miss $(git commit-tree $t -m x) && cmp_all &&
	grep "^missing tree 2222" "$TRASH/m.out" && ! grep 3333 "$TRASH/m.out" &&
	fresh && t=$(printf "object %s\ntype tree\ntag v\ntagger T <t@t> 1 +0000\n\nm\n" $C |
		git hash-object -t tag --literally -w --stdin) &&
	git update-ref refs/tags/tw $t && cmp_all &&
	fresh && c=$(printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> 1 +0000\n\nm\n" $T $T |
		git hash-object -t commit --literally -w --stdin) &&
	echo $c >.git/refs/heads/bp && cmp_all &&
	fresh && c=$(printf "tree %s\nparent xyz\nauthor A <a@b> 1 +0000\n\nm\n" $T |
		git hash-object -t commit --literally -w --stdin) &&
	echo $c >.git/refs/heads/bog && cmp_all &&
	fresh && c=$(printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\n\nm\n" $T \
		zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz | git hash-object -t commit --literally -w --stdin) &&
	echo $c >.git/refs/heads/b1 && echo $c >.git/refs/heads/b2 &&
	k=$(printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> 1 +0000\n\nm\n" $T $c |
		git hash-object -t commit --literally -w --stdin) && echo $k >.git/refs/heads/k &&
	printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> 2 +0000\n\nm\n" $T $c |
		git hash-object -t commit --literally -w --stdin && cmp_all &&
	test $(grep -c "bad parents" "$TRASH/m.err") = 3
'

test_expect_success 'unreachable objects: what they name is used, never read for itself' '
	fresh && B=$(git rev-parse c1:c1.t) &&
	t=$(tree_of 100644 a 1111111111111111111111111111111111111111 100644 b $B |
		git hash-object -t tree --literally -w --stdin) &&
	git commit-tree $t -m x -p HEAD >/dev/null && cmp_all &&
	fresh && git update-ref refs/tags/t $(git rev-parse c1^{tree}) &&
	git update-ref refs/tags/b $(git rev-parse c1:c1.t) &&
	git rev-parse c1:c1.t >.git/refs/heads/b && cmp_all
'

test_expect_success 'damaged unreachable objects stored loose and packed: said once per copy' '
	fresh &&
	t=$(printf "100644 x" | git hash-object -t tree --literally -w --stdin) &&
	u=$(printf "100644 y" | git hash-object -t tree --literally -w --stdin) &&
	c=$(printf "garbage\n" | git hash-object -t commit --literally -w --stdin) &&
	printf "%s\n%s\n" $t $c | git pack-objects -q .git/objects/pack/pack >/dev/null &&
	test -f "$(loose_path $t)" && cmp_all && cmp_fsck --connectivity-only &&
	test $(grep -c "too-short tree object" "$TRASH/m.err") = 3 &&
	test $(grep -c "bogus commit object $c" "$TRASH/m.err") = 2
'

test_done
