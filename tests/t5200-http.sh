#!/bin/sh
# ls-remote, clone and fetch over smart HTTP against git http-backend,
# protocol v2 and v0, and what happens when the server misbehaves.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-httpd.sh"
start_httpd

test_expect_success 'setup: repositories served by git http-backend' '
	git init -q src &&
	(cd src && test_commit one && test_commit two &&
	 git checkout -q -b side && test_commit three &&
	 git checkout -q master && test_tick && git tag -a -m "annotated" ann one &&
	 mkdir -p dir/sub && echo x >dir/sub/file && chmod +x dir/sub/file &&
	 ln -s one.t link && git add . && git commit -q -m tree) &&
	git clone -q --bare src "$HTTPD_ROOT/repo.git" &&
	git init -q --bare "$HTTPD_ROOT/empty.git" &&
	echo "not a repository" >"$HTTPD_ROOT/garbage" &&
	mkdir -p "$HTTPD_ROOT/static.git/info" &&
	echo "hello" >"$HTTPD_ROOT/static.git/info/refs"
'

for proto in smart v0; do
	for opts in "" "--symref" "--refs" "--tags" "--heads" "--symref --heads" "--exit-code"; do
		test_expect_success "ls-remote $opts ($proto) equals git's" "
			compare_git ls-remote $opts $HTTPD_URL/$proto/repo.git &&
			compare_git ls-remote $opts $HTTPD_URL/$proto/repo.git 'o*' side &&
			compare_git ls-remote $opts $HTTPD_URL/$proto/empty.git
		"
	done
done

test_expect_success 'ls-remote through a configured remote name' '
	git init -q local &&
	git -C local remote add origin "$HTTPD_URL/smart/repo.git" &&
	git -C local remote add other "$HTTPD_URL/v0/repo.git" &&
	(cd local && compare_git ls-remote && compare_git ls-remote other &&
	 compare_git ls-remote --get-url other)
'

test_expect_success 'ls-remote: missing repository, garbage, unreachable' '
	compare_git ls-remote "$HTTPD_URL/smart/missing.git" &&
	compare_git ls-remote "$HTTPD_URL/garbage" &&
	compare_git ls-remote "$HTTPD_URL/static.git" &&
	compare_git ls-remote no-such-remote &&
	mini-git ls-remote http://127.0.0.1:1/x.git 2>err;
	test $? = 128 && grep "^fatal: unable to access .http://127.0.0.1:1/x.git/.: " err
'

test_expect_success 'credentials in the URL are never printed' '
	url=$(echo "$HTTPD_URL" | sed "s|://|://user:s3cret@|") &&
	test_must_fail mini-git ls-remote "$url/smart/missing.git" 2>err &&
	! grep s3cret err &&
	grep "repository .$HTTPD_URL/smart/missing.git/. not found" err
'

test_expect_success 'the helper is the only program linked with libcurl' '
	! ldd "$SRC_ROOT/mini-git" 2>/dev/null | grep -q curl &&
	ldd "$SRC_ROOT/mini-git-remote-http" | grep -q libcurl
'

if have_strace; then
	test_expect_success 'the helper is exec'\''d for http URLs only' '
		export ASAN_OPTIONS=detect_leaks=0 &&
		strace -f -e trace=execve -o trace.ls mini-git ls-remote "$HTTPD_URL/smart/repo.git" >/dev/null &&
		grep -c "execve(\"[^\"]*mini-git-remote-http\"" trace.ls >count &&
		echo 1 >expect && test_cmp expect count &&
		(cd src && strace -f -e trace=execve,openat -o ../trace.local "$MINI_GIT" branch >/dev/null) &&
		test $(grep -c execve trace.local) = 1 &&
		! grep -q "remote-http\|libcurl" trace.local
	'
else
	test_skip 'the helper is exec'\''d for http URLs only' 'strace missing'
fi

test_done
