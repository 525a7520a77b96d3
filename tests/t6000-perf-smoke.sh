#!/bin/sh
# perf tools: they build, measure, evict, generate the same repository
# twice, print tables and write a report. No timing is asserted.
# They do not depend on how mini-git is built, so they are checked with
# the default build only (`make test` names the variant).
if [ "${MINI_GIT_VARIANT:-default}" != default ]; then
	echo "1..0 # SKIP perf tools are checked with the default build"
	exit 0
fi
. "$(dirname "$0")/test-lib.sh"

PERF="$SRC_ROOT/perf"
export PERF_OUT="$TRASH/pout" PERF_REPOS="$TRASH/repos"
mkdir -p "$PERF_OUT"

test_expect_success 'evict and measure compile without warnings' '
	cc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$PERF_OUT/evict" "$PERF/evict.c" &&
	cc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$PERF_OUT/measure" "$PERF/measure.c"
'

test_expect_success 'measure reports every field, N runs, exit codes and signals' '
	"$PERF_OUT/measure" -n 3 true >out &&
	test $(wc -l <out) = 3 &&
	grep -Eq "^wall_us=[0-9]+ minflt=[0-9]+ majflt=[0-9]+ rss_kb=[1-9][0-9]* read_bytes=-?[0-9]+ status=0$" out &&
	"$PERF_OUT/measure" sh -c "exit 3" >out &&
	grep -q " status=3$" out &&
	"$PERF_OUT/measure" sh -c "kill -9 \$\$" >out &&
	grep -q " status=137$" out &&
	"$PERF_OUT/measure" ./no-such-program >out 2>err &&
	grep -q " status=127$" out &&
	grep -q "no-such-program" err &&
	test_expect_code 129 "$PERF_OUT/measure"
'

test_expect_success 'measure -k keeps the output; -C changes directory' '
	mkdir -p sub && echo hello >sub/f &&
	"$PERF_OUT/measure" -k -C sub cat f >out &&
	head -n 1 out >first && echo hello >expect && test_cmp expect first
'

test_expect_success 'evict -c counts pages; evict leaves none of a file' '
	head -c 65536 /dev/zero | tr "\0" x >big &&
	cat big >/dev/null &&
	"$PERF_OUT/evict" -c big >out &&
	pages=$((65536 / $(getconf PAGESIZE))) &&
	test "$(cut -d" " -f2 out)" = "$pages" &&
	"$PERF_OUT/evict" -v big sub >out &&
	grep -q "^evicted 2 " out &&
	"$PERF_OUT/evict" -c big >out &&
	if [ "$(cut -d" " -f1 out)" = 0 ]; then
		# read back from the disk: read_bytes counts it (0 when the
		# kernel has no I/O accounting)
		"$PERF_OUT/measure" cat big >m &&
		sed -n "s/.*read_bytes=\([-0-9]*\).*/\1/p" m >rb &&
		{ test "$(cat rb)" -ge 65536 || test "$(cat rb)" -le 0; }
	else
		echo "# this file system keeps clean pages: $(cat out)"
	fi &&
	test_expect_code 129 "$PERF_OUT/evict"
'

test_expect_success 'gen-repo tiny: git fsck accepts it, loose and packed objects, packed refs' '
	"$PERF/gen-repo" tiny >path 2>err &&
	repo=$(cat path) &&
	test "$repo" = "$PERF_REPOS/tiny.git" &&
	git -C "$repo" fsck --strict &&
	git -C "$repo" count-objects -v >counts &&
	grep -q "^count: [1-9]" counts &&
	grep -q "^in-pack: [1-9]" counts &&
	test -s "$repo/packed-refs" &&
	test "$(git -C "$repo" rev-list --count main)" = 12 &&
	test "$(git -C "$repo" for-each-ref refs/tags | grep -c " tag	")" = 4
'

test_expect_success 'gen-repo is deterministic and cached' '
	git -C "$PERF_REPOS/tiny.git" show-ref >one &&
	PERF_REPOS="$TRASH/repos2" "$PERF/gen-repo" tiny >/dev/null 2>&1 &&
	git -C "$TRASH/repos2/tiny.git" show-ref >two &&
	test_cmp one two &&
	"$PERF/gen-repo" tiny >/dev/null 2>err &&
	! grep -q making err &&
	test_expect_code 129 "$PERF/gen-repo" --commits x tiny
'

test_expect_success 'the table printer: columns, n/a, both ratios' '
	cat >t.csv <<-\EOF &&
	v,branch,mini-git,syscalls,50
	v,branch,git,syscalls,200
	v,branch,mini-git-static,syscalls,40
	v,fsck,mini-git,syscalls,n/a
	v,fsck,git,syscalls,900
	v,sha1,mini-git,MBps,2000
	v,sha1,git,MBps,500
	w,other,-,x,1
	EOF
	cat >expect <<-\EOF &&
	row     metric    mini-git  mini-git-static  git  git/mini-git  git/static
	branch  syscalls        50               40  200          4.00        5.00
	fsck    syscalls       n/a                   900             -           -
	sha1    MBps          2000                   500          4.00           -
	EOF
	bash -c ". \"$PERF/lib/common.sh\" && . \"$PERF/lib/table.sh\" && table_print v text t.csv" >actual &&
	test_cmp expect actual
'

test_expect_success 'perf/run on the tiny repository prints tables; perf/report writes report.md' '
	PERF_QUICK=1 PERF_RUNS=2 PERF_STATIC=0 PERF_EVICT=fadvise PERF_PRESETS= \
		PERF_SKIP="sha1 lookup branch fsck contains clone" \
		"$PERF/run" >out 2>err &&
	grep -q "^== Start-up" out &&
	grep -q "^== Cold cache" out &&
	grep -Eq "^--version +syscalls +([0-9]+|n/a) +[0-9]+ " out &&
	grep -Eq "^--version +wall_ms +[0-9.]+ +[0-9.]+ " out &&
	grep -q "^perf \[ *[0-9]*s\] start-up:" err &&
	test -s "$PERF_OUT/startup.csv" &&
	test -s "$PERF_OUT/cold.csv" &&
	grep -q "^## Start-up" "$PERF_OUT/report.md" &&
	grep -q "^## Cold cache" "$PERF_OUT/report.md" &&
	grep -q "^| --version " "$PERF_OUT/report.md" &&
	grep -q "^sha_ni: " "$PERF_OUT/machine.txt"
'

test_done
