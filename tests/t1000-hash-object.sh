#!/bin/sh
# hash-object: ids identical to git's at the SHA-1 block edges, from files
# and stdin; -w writes objects git reads and fsck --strict accepts.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: files of edge sizes' '
	git init -q repo &&
	for n in 0 1 55 56 63 64 65 119 120 128; do
		head -c $n /dev/zero | tr "\\000" x >repo/f$n || return 1
	done &&
	awk "BEGIN { for (i = 0; i < 30000; i++) printf \"%07d a line of text for a 1 MB file\\n\", i }" \
		| head -c 1048576 >repo/f1m &&
	test $(wc -c <repo/f1m) = 1048576
'

test_expect_success 'ids from files and stdin equal git (no repository needed)' '
	mkdir outside && cd outside &&
	for f in ../repo/f*; do
		compare_git hash-object $f &&
		compare_git_stdin $f hash-object --stdin || return 1
	done &&
	compare_git hash-object ../repo/f0 ../repo/f55 ../repo/f1m &&
	compare_git_stdin ../repo/f64 hash-object --stdin ../repo/f1 ../repo/f65
'

test_expect_success '-t and --literally' '
	cd repo &&
	compare_git hash-object -t blob f1 &&
	compare_git hash-object -t foo f1 &&
	compare_git hash-object -t foo --literally f1 &&
	compare_git hash-object -t commit f1 &&
	compare_git hash-object -t tree f1 &&
	compare_git hash-object -t tag f1 &&
	compare_git hash-object -t tree f0 &&
	printf "tree %s\\nauthor A <a@b> 1 +0000\\ncommitter A <a@b> 1 +0000\\n\\nm\\n" \
		$(git hash-object -t tree /dev/null 2>/dev/null || echo 4b825dc642cb6eb9a060e54bf8d69288fbee4904) >c &&
	compare_git hash-object -t commit c
'

test_expect_success 'errors: missing file, directory, option conflicts' '
	cd repo &&
	compare_git hash-object nope &&
	compare_git hash-object . &&
	compare_git hash-object --stdin --stdin-paths &&
	compare_git hash-object --stdin-paths f1 &&
	compare_git hash-object -h &&
	compare_git hash-object
'

test_expect_success '--stdin-paths' '
	cd repo &&
	ls f* >paths &&
	compare_git_stdin paths hash-object --stdin-paths &&
	printf "f1\\nnope\\n" >bad &&
	compare_git_stdin bad hash-object --stdin-paths
'

test_expect_success 'file names are relative to the current directory' '
	mkdir -p repo/sub && cp repo/f63 repo/sub/g &&
	cd repo/sub &&
	compare_git hash-object g ../f1
'

test_expect_success '-w: git reads every object and fsck --strict accepts them' '
	git init -q w && cd w &&
	for f in ../repo/f*; do
		id=$(mini-git hash-object -w $f) &&
		test "$id" = "$(git hash-object $f)" &&
		git cat-file -p $id >out &&
		cmp out $f || return 1
	done &&
	id=$(mini-git hash-object -w --stdin <../repo/f56) &&
	test "$id" = "$(git hash-object ../repo/f56)" &&
	git fsck --strict >fsck.out 2>fsck.err &&
	! grep -v "^dangling blob" fsck.out &&
	! grep -v "^notice:" fsck.err &&
	git count-objects | grep "^11 objects" &&
	p=$(echo $id | sed "s|^..|.git/objects/&/|") &&
	test "$(stat -c %a $p)" = 444 &&
	test -z "$(find .git/objects -name "tmp_obj_*")"
'

test_expect_success '-w of an existing object does not rewrite it' '
	cd w &&
	id=$(git hash-object ../repo/f1) &&
	p=$(echo $id | sed "s|^..|.git/objects/&/|") &&
	ino=$(stat -c %i $p) &&
	mini-git hash-object -w ../repo/f1 &&
	test "$(stat -c %i $p)" = "$ino"
'

test_expect_success '-w of an object that is packed writes nothing' '
	cd w &&
	git cat-file --batch-all-objects --batch-check="%(objectname)" |
		git pack-objects -q .git/objects/pack/pack &&
	git prune-packed &&
	test -z "$(find .git/objects -path "*/objects/??/*" -type f)" &&
	mini-git hash-object -w ../repo/f55 &&
	test -z "$(find .git/objects -path "*/objects/??/*" -type f)"
'

test_expect_success '-w needs a repository' '
	cd outside &&
	GIT_CEILING_DIRECTORIES=$TRASH compare_git hash-object -w ../repo/f1
'

test_expect_success 'core.compression is honoured for loose objects' '
	git init -q comp && cd comp &&
	git config core.compression 0 &&
	id=$(mini-git hash-object -w ../repo/f1m) &&
	p=$(echo $id | sed "s|^..|.git/objects/&/|") &&
	test $(wc -c <$p) -gt 1048576 &&
	git cat-file -p $id | cmp - ../repo/f1m
'

test_done
