#!/bin/sh
# fetch over smart HTTP beside git's fetch: the same summary, FETCH_HEAD,
# refs and reflogs; tag following; fast-forward checks; v2 and v0.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-httpd.sh"
start_httpd

# fetch_both ARGS...: "git fetch ARGS" in g/, "mini-git fetch ARGS" in m/,
# then compare what they printed and wrote.
fetch_both() {
	(cd g && git fetch "$@" >../out.g 2>../err.g; echo "exit=$?" >>../out.g)
	(cd m && "$MINI_GIT" fetch "$@" >../out.m 2>../err.m; echo "exit=$?" >>../out.m)
	mini_to_git err.m
	test_cmp out.g out.m &&
	test_cmp err.g err.m &&
	test_cmp g/.git/FETCH_HEAD m/.git/FETCH_HEAD &&
	git -C g for-each-ref --format="%(refname) %(objectname)" >refs.g &&
	git -C m for-each-ref --format="%(refname) %(objectname)" >refs.m &&
	test_cmp refs.g refs.m &&
	(cd g/.git/logs && find . -type f | sort | xargs cat) >logs.g &&
	(cd m/.git/logs && find . -type f | sort | xargs cat) >logs.m &&
	test_cmp logs.g logs.m &&
	git -C m fsck --strict --no-dangling
}

for proto in smart v0; do
	test_expect_success "setup ($proto): a served repository, two clones by git" "
		rm -rf src g m \"\$HTTPD_ROOT/repo.git\" &&
		git init -q src &&
		(cd src && test_commit one && test_commit two && git branch keep) &&
		git clone -q --bare src \"\$HTTPD_ROOT/repo.git\" &&
		git clone -q $HTTPD_URL/$proto/repo.git g &&
		git clone -q $HTTPD_URL/$proto/repo.git m
	"

	test_expect_success "fetch with nothing new ($proto)" '
		fetch_both
	'

	test_expect_success "fetch after the server gains commits, a branch and tags ($proto)" '
		(cd src && test_commit three && git checkout -q -b newb && test_commit four &&
		 git checkout -q master && test_tick && git tag -a -m "annotated" ann three &&
		 git tag light four &&
		 git push -q "$HTTPD_ROOT/repo.git" master newb ann light) &&
		fetch_both
	'

	test_expect_success "fetch -q, and a tag on an old commit is followed ($proto)" '
		(cd src && git tag old one && git push -q "$HTTPD_ROOT/repo.git" old &&
		 test_commit five && git push -q "$HTTPD_ROOT/repo.git" master) &&
		fetch_both -q
	'

	test_expect_success "a rewritten branch: forced by the + refspec ($proto)" '
		(cd src && git reset -q --hard HEAD~2 && test_commit six &&
		 git push -q -f "$HTTPD_ROOT/repo.git" master) &&
		fetch_both origin
	'

	test_expect_success "a rewritten branch without +: rejected, exit 1 ($proto)" '
		(cd src && git reset -q --hard HEAD~1 && test_commit seven &&
		 git push -q -f "$HTTPD_ROOT/repo.git" master) &&
		fetch_both origin master:refs/remotes/origin/master &&
		test "$(tail -1 out.m)" = exit=1
	'

	test_expect_success "explicit refspecs and short names ($proto)" '
		fetch_both origin newb:refs/heads/local-newb &&
		fetch_both origin keep &&
		fetch_both origin refs/tags/ann &&
		fetch_both origin +master:refs/remotes/origin/master
	'

	test_expect_success "fetch from a URL: HEAD into FETCH_HEAD ($proto)" '
		fetch_both "$HTTPD_URL/'$proto'/repo.git"
	'

	# fewer than 100 objects go to git's unpack-objects (silent without a
	# terminal), 100 or more to index-pack with its meters; a thin pack is
	# completed from our objects ("completed with N local objects")
	test_expect_success "fetch --progress: git's meters ($proto)" '
		for n in 3 150; do
			(cd src && for i in $(seq 1 $n); do echo $n.$i >p$i; done &&
			 git add . && test_commit p$n &&
			 git push -q "$HTTPD_ROOT/repo.git" master) &&
			(cd g && git fetch --progress 2>../err.g) &&
			(cd m && "$MINI_GIT" fetch --progress 2>../err.m) &&
			mini_to_git err.m &&
			progress_lines err.g && progress_lines err.m &&
			test_cmp err.g.local err.m.local &&
			test_cmp err.g.remote err.m.remote || return 1
		done &&
		grep "^Receiving objects: 100% (.*), N, done\.$" err.m.local
	'

	test_expect_success "a thin pack is completed from our objects ($proto)" '
		(cd src && seq 1 3000 >big.t && git add big.t && test_commit thin1 &&
		 git push -q "$HTTPD_ROOT/repo.git" master) &&
		fetch_both &&
		(cd src && sed -i "s/^1500\$/x/" big.t && git commit -q -am thin2 &&
		 git push -q "$HTTPD_ROOT/repo.git" master) &&
		(cd g && git fetch --progress 2>../err.g) &&
		(cd m && "$MINI_GIT" fetch --progress 2>../err.m) &&
		progress_lines err.g && progress_lines err.m &&
		test_cmp err.g.local err.m.local &&
		test_cmp err.g.remote err.m.remote &&
		git -C m fsck --strict &&
		for p in m/.git/objects/pack/*.pack; do git verify-pack "$p" || return 1; done
	'
done

test_expect_success 'errors: missing ref, missing remote, missing repository' '
	fetch_both origin no-such-branch &&
	fetch_both no-such-remote &&
	(cd m && git remote add gone "$HTTPD_URL/smart/gone.git") &&
	(cd g && git remote add gone "$HTTPD_URL/smart/gone.git") &&
	fetch_both gone
'

test_expect_success 'setup: the broken server' '
	(cd src && for i in $(seq 1 30); do seq 1 $((i * 40)) >f$i; done &&
	 git add . && test_commit big && git push -q "$HTTPD_ROOT/repo.git" master) &&
	git -C m remote add broken "$HTTPD_URL/broken/repo.git"
'

for mode in "truncate 2000" "truncate 30" "garbage"; do
	test_expect_success "a damaged pack ($mode): error, no ref changes, no files left" "
		git -C m for-each-ref >before &&
		ls m/.git/objects/pack >packs.before &&
		echo '$mode' >\"\$HTTPD_DIR/broken-mode\" &&
		test_expect_code 128 mini-git -C m fetch broken 2>err &&
		echo ok >\"\$HTTPD_DIR/broken-mode\" &&
		test -s err &&
		git -C m for-each-ref >after &&
		test_cmp before after &&
		ls m/.git/objects/pack >packs.after &&
		test_cmp packs.before packs.after
	"
done

# A server that leaves out an object the new commits need: no ref moves.
# (The crafted reply answers mini-git's one-round request; git's client
# negotiates first and would stop at the missing acknowledgments.)
test_expect_success 'a pack missing an object: error, no ref changes' '
	(cd src && echo lie >lie.t && git add lie.t && git commit -q -m lying &&
	 git push -q "$HTTPD_ROOT/repo.git" master) &&
	r="$HTTPD_ROOT/repo.git" &&
	git -C "$r" rev-list --objects master --not $(git -C m rev-parse origin/master) |
		cut -d" " -f1 | grep -v "^$(git -C "$r" rev-parse master:lie.t)\$" |
		git -C "$r" pack-objects --stdout >lying.pack &&
	v2_pack_reply lying.pack lying.reply &&
	git -C m for-each-ref >before &&
	echo "reply $TRASH/lying.reply" >"$HTTPD_DIR/broken-mode" &&
	test_expect_code 128 mini-git -C m fetch broken 2>err &&
	echo ok >"$HTTPD_DIR/broken-mode" &&
	grep "^fatal: did not receive expected object $(git -C "$r" rev-parse master:lie.t)\$" err &&
	git -C m for-each-ref >after &&
	test_cmp before after
'

test_done
