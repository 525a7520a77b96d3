#!/bin/sh
# The multicall binary: command table, global options, errors.
. "$(dirname "$0")/test-lib.sh"

test_expect_success '--version names mini-git' '
	mini-git --version >out &&
	grep "^mini-git version [0-9][0-9.]*\$" out
'

test_expect_success 'unknown command: message and exit 1' '
	test_expect_code 1 mini-git nosuch 2>err &&
	echo "mini-git: '"'"'nosuch'"'"' is not a mini-git command. See '"'"'mini-git --help'"'"'." >expect &&
	test_cmp expect err
'

test_expect_success '--help and help list commands' '
	mini-git --help >out1 &&
	mini-git help >out2 &&
	test_cmp out1 out2 &&
	grep "^   init\$" out1
'

test_expect_success 'mini-git-<cmd> link dispatches on argv[0]' '
	ln -s "$MINI_GIT" mini-git-init &&
	./mini-git-init -q linked &&
	test -f linked/.git/HEAD &&
	ln -s "$MINI_GIT" mini-git-nosuch &&
	test_expect_code 1 ./mini-git-nosuch 2>err &&
	grep "'"'"'nosuch'"'"' is not a mini-git command" err
'

test_expect_success '<cmd> -h prints usage and exits 129' '
	test_expect_code 129 mini-git init -h >out &&
	grep "^usage: git init" out
'

test_expect_success 'unknown option gives git error and 129' '
	test_expect_code 129 mini-git init --nosuch 2>err &&
	grep "^error: unknown option \`nosuch'"'"'\$" err
'

test_expect_success '-C changes directory, repeatable' '
	mkdir -p a/b &&
	mini-git -C a -C b init -q &&
	test -d a/b/.git
'

test_expect_success 'unknown global option exits 129' '
	test_expect_code 129 mini-git --bogus 2>err &&
	grep "unknown option: --bogus" err
'

if ldd "$MINI_GIT" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	test_skip 'mini-git links only libc and zlib' 'sanitizer build'
else
	# glibc's ldd says "not a dynamic executable" (and exits 1) for the
	# static build, which is linked with musl.
	test_expect_success 'mini-git links only libc and zlib' '
		{ ldd "$MINI_GIT" >libs 2>&1 || grep -q "not a dynamic executable" libs; } &&
		! grep -v -E "linux-vdso|libc\.so|libz\.so|ld-linux|statically linked|not a dynamic executable" libs
	'
fi

test_done
