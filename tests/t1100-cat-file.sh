#!/bin/sh
# cat-file over every storage form git makes: loose objects, gc'd packs,
# deep delta chains, several packs plus loose, alternates, .idx with a
# 64-bit offset table, .idx v1. Every object is compared with git's output.
. "$(dirname "$0")/test-lib.sh"

make_source_repo() {
	git init -q "$1" &&
	awk 'BEGIN {
		for (i = 1; i <= 70; i++) {
			printf "commit refs/heads/master\n"
			printf "mark :%d\n", i
			printf "committer C O Mitter <c@example.com> %d +0000\n", 1112912000 + i * 60
			msg = "commit " i
			printf "data %d\n%s\n", length(msg), msg
			if (i > 1) printf "from :%d\n", i - 1
			body = ""
			# A fifth of the lines change each time: each version is
			# closest to its neighbours, so repack chains them deeply.
			for (j = 1; j <= 100; j++)
				body = body "line " j " of a file that changes, revision " int((i + j % 5) / 5) "\n"
			printf "M 100644 inline file.txt\ndata %d\n%s\n", length(body), body
			sf = "sub file version " i "\n"
			printf "M 100755 inline dir/sub/deep/x.sh\ndata %d\n%s\n", length(sf), sf
			if (i % 10 == 0) {
				big = ""
				for (j = 0; j < 4000; j++)
					big = big sprintf("%08d big blob line with a bit of text %d\n", j * i, j)
				printf "M 100644 inline big.bin\ndata %d\n%s\n", length(big), big
			}
			if (i == 1) {
				printf "M 120000 inline link\ndata 8\nfile.txt\n"
				printf "M 100644 inline empty\ndata 0\n\n"
				printf "M 160000 1234567890123456789012345678901234567890 gitlink\n"
			}
			if (i % 20 == 0) {
				t = "release " i
				printf "tag v%d\nfrom :%d\ntagger T Agger <t@example.com> %d +0000\ndata %d\n%s\n",
					i, i, 1112912000 + i * 60, length(t), t
			}
		}
	}' </dev/null | git -C "$1" fast-import --quiet &&
	git -C "$1" tag -a -m "tag of tag" v40-again v40 &&
	git -C "$1" rev-parse -q --verify v60 >/dev/null
}

# Every object id of the repository in the current directory.
all_ids() {
	git cat-file --batch-all-objects --batch-check='%(objectname)'
}

# Every object through --batch and --batch-check, listed and all-objects,
# compared with git.
check_every_object() {
	all_ids >ids &&
	test -s ids &&
	compare_git_stdin ids cat-file --batch &&
	compare_git_stdin ids cat-file --batch-check &&
	compare_git cat-file --batch-all-objects --batch-check &&
	compare_git cat-file --batch-all-objects --batch &&
	compare_git cat-file --batch-all-objects --batch-check="%(objecttype) %(objectname) %(objectsize)x"
}

test_expect_success 'setup: source history by fast-import' '
	make_source_repo src &&
	git -C src pack-objects --all --stdout </dev/null >all.pack 2>/dev/null &&
	test -s all.pack
'

test_expect_success 'loose objects only' '
	cp -R src loose &&
	rm -f loose/.git/objects/pack/* &&
	git -C loose unpack-objects -q <all.pack &&
	test -z "$(ls loose/.git/objects/pack)" &&
	(cd loose && check_every_object)
'

test_expect_success 'modes: -t -s -p -e and <type> <object>, full and abbreviated ids' '
	cd loose &&
	for id in $(head -n 12 ids) $(tail -n 12 ids); do
		short=$(echo $id | cut -c1-9) &&
		for m in -t -s -p -e; do
			compare_git cat-file $m $id || return 1
		done &&
		compare_git cat-file -p $short &&
		compare_git cat-file blob $id &&
		compare_git cat-file tree $id &&
		compare_git cat-file commit $id || return 1
	done
'

test_expect_success 'revision names: refs, peeling, paths' '
	cd loose &&
	for n in HEAD v40 v40-again HEAD~3 "v40^{tree}" "v40-again^{}" HEAD:file.txt \
		"HEAD^{tree}:dir/sub" HEAD:gitlink master; do
		compare_git cat-file -t "$n" &&
		compare_git cat-file -s "$n" &&
		compare_git cat-file -p "$n" || return 1
	done &&
	compare_git cat-file commit v40-again &&
	compare_git cat-file tree v40 &&
	compare_git cat-file tag v40-again &&
	compare_git cat-file blob HEAD &&
	printf "%s\n" HEAD v40 "v40^{tree}" HEAD:file.txt HEAD:nope nope >in &&
	compare_git_stdin in cat-file --batch &&
	compare_git_stdin in cat-file --batch-check
'

test_expect_success 'ambiguous short ids' '
	git init -q amb && cd amb &&
	awk "BEGIN { for (i = 0; i < 1500; i++) printf \"blob\\ndata %d\\n%d\\n\", length(i \"\"), i }" |
		git fast-import --quiet &&
	p=$(git cat-file --batch-all-objects --batch-check="%(objectname)" | cut -c1-4 | uniq -d | head -n 1) &&
	test -n "$p" &&
	compare_git cat-file -t $p &&
	compare_git cat-file -e $p &&
	printf "%s\n" $p >in &&
	compare_git_stdin in cat-file --batch-check
'

test_expect_success 'missing objects and bad names' '
	cd loose &&
	z=0123456789012345678901234567890123456789 &&
	compare_git cat-file -t $z &&
	compare_git cat-file -s $z &&
	compare_git cat-file -p $z &&
	compare_git cat-file -e $z &&
	compare_git cat-file blob $z &&
	compare_git cat-file -p 0123456 &&
	compare_git cat-file -p xyz &&
	compare_git cat-file foo $z &&
	printf "%s\n" $z 0123 "" "$(head -n1 ids) trailing" >in &&
	compare_git_stdin in cat-file --batch &&
	compare_git_stdin in cat-file --batch-check &&
	compare_git_stdin in cat-file --batch-check="%(objectname) %(rest)|" &&
	for n in HEAD:nothere :nothere :0:nothere HEAD~999:x HEAD: ":/" ":/a"; do
		for m in -t -e commit; do
			compare_git cat-file $m "$n" || return 1
		done
	done &&
	printf "%s\n" ":/a" ":nothere" >in &&
	compare_git_stdin in cat-file --batch-check
'

# git 2.39 prints "--mailmap ..." in the usage that follows an error but
# "--mailmap" for -h; we print the -h form, so after errors only the
# message, the usage line and the exit code are compared.
usage_error_like_git() {
	git "$@" >/dev/null 2>expect.err; echo $? >expect.code
	mini-git "$@" >/dev/null 2>actual.err; echo $? >actual.code
	test_cmp expect.code actual.code &&
	head -n 4 expect.err >expect.head && head -n 4 actual.err >actual.head &&
	test_cmp expect.head actual.head
}

test_expect_success 'usage errors' '
	cd loose &&
	compare_git cat-file -h &&
	usage_error_like_git cat-file -p &&
	usage_error_like_git cat-file -t a b &&
	usage_error_like_git cat-file -p -t HEAD &&
	usage_error_like_git cat-file --batch --batch-check &&
	usage_error_like_git cat-file --batch-check -e &&
	usage_error_like_git cat-file --batch-check extra &&
	usage_error_like_git cat-file --batch-all-objects &&
	usage_error_like_git cat-file blob &&
	compare_git cat-file --batch-check="%(objectname) %(nosuchatom)" </dev/null
'

test_expect_success 'after git gc' '
	cp -R loose gc &&
	git -C gc gc -q &&
	test -z "$(find gc/.git/objects -type f -path "*/objects/??/*")" &&
	(cd gc && check_every_object)
'

test_expect_success 'deep delta chains (repack -adf --depth=50 --window=250)' '
	cp -R loose deep &&
	git -C deep repack -q -adf --depth=50 --window=250 &&
	git verify-pack -v deep/.git/objects/pack/*.idx | grep "^chain length = 2[0-9]:" &&
	(cd deep && check_every_object)
'

test_expect_success 'several packs plus loose objects (and duplicates)' '
	cp -R loose multi &&
	(cd multi &&
	 git rev-list --objects v20 | git pack-objects -q .git/objects/pack/pack &&
	 git rev-list --objects v40 ^v20 | git pack-objects -q .git/objects/pack/pack &&
	 git rev-list --objects v60 | git pack-objects -q .git/objects/pack/pack &&
	 test $(ls .git/objects/pack/*.idx | wc -l) = 3 &&
	 check_every_object)
'

test_expect_success 'alternates: clone --shared, a chain of them, relative path' '
	git clone -q --shared gc alt &&
	(cd alt && echo new >new && git add new && git commit -q -m new &&
	 check_every_object) &&
	git clone -q --shared alt alt2 &&
	(cd alt2 && echo newer >newer && git add newer && git commit -q -m newer &&
	 check_every_object) &&
	git init -q rel &&
	echo "../../../gc/.git/objects" >rel/.git/objects/info/alternates &&
	(cd rel && check_every_object &&
	 compare_git cat-file -p $(git -C ../gc rev-parse HEAD))
'

test_expect_success 'alternates cycle is ignored' '
	git init -q cyc1 && git init -q cyc2 &&
	echo "$TRASH/cyc2/.git/objects" >cyc1/.git/objects/info/alternates &&
	echo "$TRASH/cyc1/.git/objects" >cyc2/.git/objects/info/alternates &&
	echo "$TRASH/gc/.git/objects" >>cyc2/.git/objects/info/alternates &&
	(cd cyc1 && compare_git cat-file -t $(git -C ../gc rev-parse HEAD))
'

test_expect_success 'idx with a 64-bit offset table' '
	cp -R gc big &&
	(cd big/.git/objects/pack &&
	 p=$(ls *.pack) &&
	 rm -f *.idx && git index-pack --index-version=2,0x40 $p >/dev/null &&
	 test $(wc -c <${p%.pack}.idx) -gt $(( 8 + 1024 + $(git -C ../../.. count-objects -v | sed -n "s/in-pack: //p") * 28 + 40 ))) &&
	(cd big && check_every_object)
'

test_expect_success 'idx version 1' '
	cp -R gc v1 &&
	(cd v1/.git/objects/pack &&
	 p=$(ls *.pack) &&
	 rm -f *.idx && git index-pack --index-version=1 $p >/dev/null &&
	 test "$(head -c 4 ${p%.pack}.idx | od -An -tx1 | tr -d " ")" != ff744f63) &&
	(cd v1 && check_every_object)
'

test_expect_success 'pack version 3 header is read' '
	cp -R gc v3 &&
	(cd v3/.git/objects/pack &&
	 p=$(ls *.pack) && chmod u+w $p && rm -f *.idx &&
	 head -c 4 $p >new && printf "\000\000\000\003" >>new &&
	 tail -c +9 $p | head -c -20 >>new &&
	 sha1sum new | cut -c1-40 | perl -ne "chomp; print pack(q(H*), \$_)" >>new &&
	 mv -f new $p && git index-pack $p >/dev/null &&
	 test "$(head -c 8 $p | od -An -tx1 | tr -d " \n")" = 5041434b00000003) &&
	(cd v3 && check_every_object)
'

test_expect_success 'lookup probes: interpolation makes few' '
	cd deep &&
	all_ids | head -n 200 >some &&
	MINI_GIT_DEBUG_LOOKUP=1 MINI_GIT_LOOKUP=interp mini-git cat-file --batch-check <some >/dev/null 2>interp &&
	MINI_GIT_DEBUG_LOOKUP=1 MINI_GIT_LOOKUP=bsearch mini-git cat-file --batch-check <some >/dev/null 2>bs &&
	grep -c "^lookup: pack-[0-9a-f]*\.idx pos=[0-9]* lo=[0-9]* hi=[0-9]*$" interp >ni &&
	grep -c "^lookup: " bs >nb &&
	echo "interp $(cat ni) bsearch $(cat nb)" &&
	test $(cat ni) -lt $(cat nb) &&
	test $(cat ni) -ge 200
'

test_done
