#!/bin/sh
# clone over smart HTTP beside git's own clone: refs, config, reflogs,
# work tree and index; failures leave nothing behind.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-httpd.sh"
start_httpd

test_expect_success 'setup: a repository served by git http-backend' '
	git init -q src &&
	(cd src && test_commit one && test_commit two &&
	 git checkout -q -b side && test_commit three &&
	 git checkout -q master && test_tick && git tag -a -m "annotated" ann one &&
	 mkdir -p dir/sub && echo x >dir/sub/file && echo y >dir/exec &&
	 chmod +x dir/exec && ln -s one.t link && echo z >dir.t &&
	 git add . && test_commit four) &&
	git clone -q --bare src "$HTTPD_ROOT/repo.git" &&
	git init -q --bare "$HTTPD_ROOT/empty.git" &&
	git init -q --bare "$HTTPD_ROOT/empty-main.git" &&
	git -C "$HTTPD_ROOT/empty-main.git" symbolic-ref HEAD refs/heads/main &&
	echo "not a repository" >"$HTTPD_ROOT/garbage"
'

test_must_be_empty() {
	if [ -s "$1" ]; then echo "$1 is not empty:"; cat "$1"; return 1; fi
}

# same_clone GITDIR MINIDIR: what a clone writes matches git's
same_clone() {
	for f in HEAD packed-refs config; do
		test_cmp "$1/$f" "$2/$f" || return 1
	done &&
	git -C "$1" for-each-ref --format="%(refname) %(objectname) %(symref)" >refs.expect &&
	git -C "$2" for-each-ref --format="%(refname) %(objectname) %(symref)" >refs.actual &&
	test_cmp refs.expect refs.actual &&
	if [ -d "$1/logs" ]; then
		(cd "$1/logs" && find . -type f | sort | xargs cat) >logs.expect &&
		(cd "$2/logs" && find . -type f | sort | xargs cat) >logs.actual &&
		test_cmp logs.expect logs.actual
	else
		! test -d "$2/logs"
	fi &&
	git -C "$2" fsck --strict --no-dangling
}

for proto in smart v0; do
	test_expect_success "clone ($proto): same as git's clone, status clean" "
		git clone $HTTPD_URL/$proto/repo.git g-$proto 2>expect &&
		mini-git clone $HTTPD_URL/$proto/repo.git m-$proto 2>actual &&
		sed s/g-$proto/m-$proto/ expect >expect.fixed &&
		test_cmp expect.fixed actual &&
		same_clone g-$proto/.git m-$proto/.git &&
		git -C m-$proto status --porcelain >status &&
		test_must_be_empty status &&
		git -C g-$proto ls-files -s >ls.expect &&
		git -C m-$proto ls-files -s >ls.actual &&
		test_cmp ls.expect ls.actual &&
		diff -r --exclude=.git g-$proto m-$proto &&
		test -x m-$proto/dir/exec && test -h m-$proto/link
	"

	test_expect_success "clone --bare ($proto): same as git's" "
		git clone --bare $HTTPD_URL/$proto/repo.git g-$proto.git 2>expect &&
		mini-git clone --bare $HTTPD_URL/$proto/repo.git m-$proto.git 2>actual &&
		sed s/g-$proto/m-$proto/ expect >expect.fixed &&
		test_cmp expect.fixed actual &&
		same_clone g-$proto.git m-$proto.git
	"
done

test_expect_success 'the index is one git reads without rewriting' '
	(cd m-smart && git update-index --refresh && git diff-index --quiet HEAD &&
	 cp .git/index ../index.before && git status -s >/dev/null) &&
	git -C m-smart ls-files --debug >debug &&
	grep -q "mtime: [1-9]" debug
'

test_expect_success 'clone -b branch, -b tag, -n, -q' '
	git clone -q -b side "$HTTPD_URL/smart/repo.git" g-side &&
	mini-git clone -q -b side "$HTTPD_URL/smart/repo.git" m-side >out 2>err &&
	test_must_be_empty out && test_must_be_empty err &&
	same_clone g-side/.git m-side/.git &&
	git clone -q -b two "$HTTPD_URL/smart/repo.git" g-tag &&
	mini-git clone -q -b two "$HTTPD_URL/smart/repo.git" m-tag &&
	same_clone g-tag/.git m-tag/.git &&
	test "$(git -C m-tag rev-parse HEAD)" = "$(git -C src rev-parse two)" &&
	git clone -q -n "$HTTPD_URL/smart/repo.git" g-n &&
	mini-git clone -q -n "$HTTPD_URL/smart/repo.git" m-n &&
	same_clone g-n/.git m-n/.git &&
	! test -e m-n/.git/index && ! test -e m-n/one.t
'

for proto in smart v0; do
	test_expect_success "clone of an empty repository ($proto)" "
		git clone $HTTPD_URL/$proto/empty.git g-empty-$proto 2>expect &&
		mini-git clone $HTTPD_URL/$proto/empty.git m-empty-$proto 2>actual &&
		sed s/g-empty/m-empty/ expect >expect.fixed &&
		test_cmp expect.fixed actual &&
		test_cmp g-empty-$proto/.git/HEAD m-empty-$proto/.git/HEAD &&
		test_cmp g-empty-$proto/.git/config m-empty-$proto/.git/config
	"
done

test_expect_success 'clone of an empty repository whose HEAD is main (v2 unborn)' '
	git clone -q "$HTTPD_URL/smart/empty-main.git" g-empty-main &&
	mini-git clone -q "$HTTPD_URL/smart/empty-main.git" m-empty-main &&
	test_cmp g-empty-main/.git/HEAD m-empty-main/.git/HEAD &&
	test_cmp g-empty-main/.git/config m-empty-main/.git/config
'

# --progress with stderr not a terminal: the server's lines and git's
# meters, compared by progress_lines (tests/lib-httpd.sh).
test_expect_success 'setup: a repository of 150 objects' '
	git init -q many && (cd many && for i in $(seq 1 149); do echo $i >f$i; done &&
	 git add . && test_commit many) && git clone -q --bare many "$HTTPD_ROOT/many.git"
'
# git keeps a clone's pack whole over v2; over v0 (and in fetches) a pack
# of fewer than 100 objects goes to unpack-objects, silent without a
# terminal.
for proto in smart v0; do
	test_expect_success "clone --progress ($proto): git's meters" "
		mkdir -p pg.$proto pm.$proto &&
		for r in repo many; do
			(cd pg.$proto && git clone --progress $HTTPD_URL/$proto/\$r.git \$r 2>../err.git) &&
			(cd pm.$proto && mini-git clone --progress $HTTPD_URL/$proto/\$r.git \$r 2>../err.mini) &&
			progress_lines err.git && progress_lines err.mini &&
			test_cmp err.git.local err.mini.local &&
			test_cmp err.git.remote err.mini.remote &&
			{ test \$r = repo || grep -q '^Receiving objects: 100%' err.mini.local; } &&
			(cd pg.$proto && git clone -q --progress $HTTPD_URL/$proto/\$r.git q\$r 2>../err.git) &&
			(cd pm.$proto && mini-git clone -q --progress $HTTPD_URL/$proto/\$r.git q\$r 2>../err.mini) &&
			progress_lines err.git && progress_lines err.mini &&
			test_cmp err.git.local err.mini.local &&
			test_cmp err.git.remote err.mini.remote || return 1
		done
	"
done

test_expect_success 'credentials: kept in the config as given, never printed' '
	url=$(echo "$HTTPD_URL" | sed "s|://|://user:s3cret@|") &&
	mini-git clone "$url/smart/repo.git" m-cred >out 2>err &&
	! grep s3cret out err m-cred/.git/logs/HEAD &&
	grep -q "url = $url/smart/repo.git" m-cred/.git/config &&
	test_must_fail mini-git clone "$url/smart/missing.git" m-cred2 2>err &&
	! grep s3cret err
'

test_expect_success 'destination exists and is not empty' '
	mkdir full && echo x >full/file &&
	compare_git clone "$HTTPD_URL/smart/repo.git" full
'

test_expect_success 'an existing empty directory is used, and kept on failure' '
	mkdir emptydir &&
	mini-git clone -q "$HTTPD_URL/smart/repo.git" emptydir &&
	git -C emptydir fsck --strict &&
	mkdir emptydir2 &&
	test_must_fail mini-git clone -q "$HTTPD_URL/smart/missing.git" emptydir2 &&
	test -d emptydir2 && test -z "$(ls -A emptydir2)"
'

for what in "smart/missing.git" "garbage" "static.git"; do
	test_expect_success "clone $what fails like git and leaves no directory" "
		compare_git clone $HTTPD_URL/$what dest &&
		! test -e dest
	"
done

test_expect_success 'clone -b of a missing branch fails like git' '
	compare_git clone -b nope "$HTTPD_URL/smart/repo.git" dest &&
	! test -e dest
'

test_expect_success 'setup: the broken server' '
	git clone -q --bare src "$HTTPD_ROOT/big.git" &&
	(cd src && for i in $(seq 1 40); do seq 1 $((i * 50)) >f$i; done && git add . &&
	 test_commit big && git push -q "$HTTPD_ROOT/big.git" master) &&
	mini-git ls-remote "$HTTPD_URL/broken/big.git" >/dev/null
'

for mode in "truncate 3000" "truncate 40" "garbage"; do
	test_expect_success "a server sending a bad pack ($mode): error, nothing left" "
		echo '$mode' >\"\$HTTPD_DIR/broken-mode\" &&
		test_expect_code 128 mini-git clone -q $HTTPD_URL/broken/big.git bad 2>err &&
		cat err && test -s err &&
		! test -e bad &&
		echo ok >\"\$HTTPD_DIR/broken-mode\"
	"
done

# A server that leaves an object out of the pack (its commit and tree
# name a blob it never sends): the clone fails and leaves nothing.
test_expect_success 'a pack missing an object: git'"'"'s message, no directory left' '
	r="$HTTPD_ROOT/repo.git" &&
	git -C "$r" rev-list --objects --all | cut -d" " -f1 |
		grep -v "^$(git -C "$r" rev-parse HEAD:one.t)\$" |
		git -C "$r" pack-objects --stdout >lying.pack &&
	v2_pack_reply lying.pack lying.reply &&
	echo "reply $TRASH/lying.reply" >"$HTTPD_DIR/broken-mode" &&
	test_expect_code 128 mini-git clone -q "$HTTPD_URL/broken/repo.git" lying 2>err &&
	echo ok >"$HTTPD_DIR/broken-mode" &&
	grep "^fatal: did not receive expected object $(git -C "$r" rev-parse HEAD:one.t)\$" err &&
	! test -e lying
'

test_expect_success 'SIGTERM during the transfer removes the new directory' '
	mkfifo "$HTTPD_DIR/stalled" "$HTTPD_DIR/release" &&
	echo stall >"$HTTPD_DIR/broken-mode" &&
	{ mini-git clone -q "$HTTPD_URL/broken/big.git" killed & } &&
	pid=$! &&
	# Wait until the server holds the request: the clone is under way.
	# The timeouts only keep a broken clone from hanging the suite.
	timeout 60 sh -c "read x <\"\$1\"" - "$HTTPD_DIR/stalled"; started=$?
	test -d killed/.git; present=$?
	kill -TERM $pid
	wait $pid; code=$?
	timeout 60 sh -c "echo >\"\$1\"" - "$HTTPD_DIR/release"
	echo ok >"$HTTPD_DIR/broken-mode" &&
	test $started = 0 && test $present = 0 &&
	test $code = 143 &&
	! test -e killed
'

for bad in .git .GIT ..; do
	test_expect_success "a tree holding '$bad' is refused; nothing is written" "
		rm -rf evil \"\$HTTPD_ROOT/evil.git\" &&
		git init -q --bare \"\$HTTPD_ROOT/evil.git\" &&
		b=\$(echo evil | git -C \"\$HTTPD_ROOT/evil.git\" hash-object -w --stdin) &&
		sub=\$(printf '100644 blob %s\\tconfig\\n' \$b | git -C \"\$HTTPD_ROOT/evil.git\" mktree) &&
		top=\$(printf '040000 tree %s\\t%s\\n100644 blob %s\\tok\\n' \$sub '$bad' \$b |
			git -C \"\$HTTPD_ROOT/evil.git\" mktree) &&
		c=\$(git -C \"\$HTTPD_ROOT/evil.git\" commit-tree -m evil \$top) &&
		git -C \"\$HTTPD_ROOT/evil.git\" update-ref refs/heads/master \$c &&
		test_expect_code 128 mini-git clone -q $HTTPD_URL/smart/evil.git evil 2>err &&
		grep \"invalid path\" err &&
		! test -e evil && ! test -e config
	"
done

test_expect_success 'usage errors like git' '
	compare_git clone 2>/dev/null; test $(tail -1 .actual.out) = exit=129 &&
	mini-git clone a b c 2>err; test $? = 129 && grep "^fatal: Too many arguments." err
'

test_done
