#!/bin/sh
# <ref>@{N} and <ref>@{<date>} beside git on reflogs made to be awkward:
# entries out of time order, gaps (an entry's old value is not the new
# value of the one before), null old values in the middle, several zones,
# and lines git skips (a time of 0, a short zone, no final newline). Each
# log is read by counts, by times around every entry's, quietly and not,
# through the branch's name, HEAD and "@", and as a start point of branch.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: four commits' '
	git init -q r && cd r &&
	for i in 1 2 3 4; do test_commit c$i || return 1; done &&
	git rev-parse c1 c2 c3 c4 >../ids &&
	git rev-parse c4 >.git/refs/heads/master
'
cd r 2>/dev/null || exit 1
Z=0000000000000000000000000000000000000000
export GIT_TEST_DATE_NOW=1000400000

# make_log SEED: a random log of one to six entries (awk's generator,
# seeded, so the same logs every run), written to master's log and
# HEAD's; the times it uses, one per line, to ../times.
make_log() {
	awk -v seed="$1" -v z=$Z '
	NR <= 4 { id[NR] = $1; next }
	END {
		srand(seed)
		n = 1 + int(rand() * 6)
		split("+0000 -0130 +0530 -0800", zone, " ")
		for (i = 1; i <= n; i++) {
			t = 1000086400 + int(rand() * 5) * 86400
			o = rand() < 0.25 ? z : id[1 + int(rand() * 4)]
			v = id[1 + int(rand() * 4)]
			tz = zone[1 + int(rand() * 4)]
			r = rand()
			line = o " " v " C <c@x> " t " " tz "\tmsg " i
			if (r < 0.06)
				line = o " " v " C <c@x> 0 " tz "\tzero time"
			else if (r < 0.12)
				line = o " " v " C <c@x> " t " +00\tshort zone"
			nl = (i == n && rand() < 0.1) ? "" : "\n"
			printf "%s%s", line, nl >"log"
			print t >"times"
		}
	}' ../ids </dev/null &&
	cp log .git/logs/refs/heads/master &&
	cp log .git/logs/HEAD &&
	sort -u times >../times && rm -f log times
}

for seed in $(seq 1 12); do
	test_expect_success "log $seed: counts and times" '
		make_log '"$seed"' &&
		for n in 0 1 2 3 4 5 6 7; do
			compare_git rev-parse master@{$n} &&
			compare_git rev-parse -q --verify @{$n} || return 1
		done &&
		for t in 999999999 $(cat ../times) 1000999999; do
			compare_git rev-parse master@{$t} &&
			compare_git rev-parse @{$((t - 1))} &&
			compare_git rev-parse HEAD@{$((t + 1))} &&
			compare_git rev-parse -q --verify master@{$t} || return 1
		done
	'
done

test_expect_success 'nine digits or more are a time, eight or fewer a count' '
	make_log 7 &&
	compare_git rev-parse master@{99999999} &&
	compare_git rev-parse master@{100000000} &&
	compare_git rev-parse master@{0000000001} &&
	compare_git rev-parse master@{00000000000000000002}
'

test_expect_success 'an empty log, and no log' '
	: >.git/logs/refs/heads/master &&
	compare_git rev-parse master@{0} &&
	compare_git rev-parse master@{1} &&
	compare_git rev-parse master@{1000000000} &&
	compare_git rev-parse -q --verify master@{1000000000} &&
	git branch nolog c1 && rm .git/logs/refs/heads/nolog &&
	compare_git rev-parse nolog@{1000000000}
'

test_expect_success 'dates as approxidate reads them, and strings that are none' '
	make_log 5 &&
	for d in yesterday 1.day.ago "3 days ago" "2 weeks ago" now never noon \
		"2001-09-11 12:00:00 +0200" "Sep 11 2001" "last friday" 1000259200 \
		garbage tomorrow ""; do
		compare_git rev-parse "master@{$d}" &&
		compare_git rev-parse -q --verify "@{$d}" || return 1
	done
'

test_expect_success 'names around a reflog: @ and marks before @{...}, marks on marks, empty braces' '
	make_log 9 &&
	git branch -f side c2 && git checkout -q side && git checkout -q master &&
	git update-ref refs/remotes/origin/master c3 &&
	git config branch.master.remote origin &&
	git config branch.master.merge refs/heads/master &&
	git config remote.origin.url nowhere &&
	git config remote.origin.fetch "+refs/heads/*:refs/remotes/origin/*" &&
	for n in @@{u} @@{push} @@{1} @@{yesterday} master@{1}@{} master@{} \
		master@{u}@{U} master@{push}@{u} side@{u}@{u} @{-1}@{u} master@{u}@{1} \
		x@{-1} @{-1}} master@{1}:c1.t master@{never}:c1.t; do
		compare_git rev-parse "$n" &&
		compare_git rev-parse -q --verify "$n" || return 1
	done
'

test_expect_success 'a start point at a time, as git takes it' '
	make_log 3 &&
	git branch -f at-git "master@{2 days ago}" 2>../expect &&
	git rev-parse at-git >>../expect &&
	mini-git branch -f at-mini "master@{2 days ago}" 2>../actual &&
	git rev-parse at-mini >>../actual &&
	test_cmp ../expect ../actual
'

test_expect_success 'a branch named HEAD beside HEAD, both with logs: HEAD@{N} and @{N} warn that the name is ambiguous' '
	cd .. && rm -rf amb && git init -q amb && cd amb &&
	test_commit one && test_commit two && git update-ref refs/heads/HEAD HEAD &&
	git branch abcd && git update-ref refs/heads/$(git rev-parse --short=4 HEAD) HEAD &&
	for n in HEAD@{0} HEAD@{1} HEAD@{5} HEAD@{1.year.ago} @{0} @{1} master@{1} abcd@{0} \
		$(git rev-parse --short=4 HEAD)@{0}; do
		compare_git rev-parse $n && compare_git rev-parse --verify -q $n || return 1
	done &&
	compare_git update-ref refs/heads/x HEAD@{1} &&
	git checkout -q --detach && compare_git rev-parse @{1} && compare_git rev-parse @{0}
'

test_done
