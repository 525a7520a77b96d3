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

# The libraries the loader is asked for (none in the static build): libc,
# by soname (glibc's libc.so.6, musl's libc.so) or by path
# (LIBC_BY_PATH=1), and libz only when ZLIB_SHARED=1.
readelf -d "$MINI_GIT" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' >needed
if grep -q 'libasan\|libubsan' needed; then
	test_skip 'mini-git links only libc and zlib' 'sanitizer build'
else
	test_expect_success 'mini-git links only libc and zlib' '
		readelf -h "$MINI_GIT" >/dev/null &&
		! grep -v -E "^(libc\.so(\.6)?|/.*/libc\.so\.6|libz\.so\.1)$" needed &&
		if readelf -l "$MINI_GIT" | grep -q "program interpreter"; then
			grep -E "libc\.so" needed
		else
			test_must_fail test -s needed
		fi
	'
fi

test_done
