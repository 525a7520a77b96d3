#!/bin/sh
# approxidate: rev-parse --since/--after/--until/--before beside git's, for
# some 680 date strings under five zones and four "now"s, and
# which of them git takes as no date at all.
. "$(dirname "$0")/test-lib.sh"

# The strings, one a line: fixed forms, then combinations of numbers,
# separators, names and units.
gen_dates() {
	# strict forms: RFC 2822, ISO 8601, ctime, git's own
	cat <<-\EOF
	Thu, 07 Apr 2005 22:13:13 +0200
	Thu, 7 Apr 2005 22:13:13 -0700
	thu, 07 apr 2005 22:13:13 GMT
	7 Apr 2005 22:13:13 +0000 (UTC)
	Thu Apr 7 22:13:13 2005
	Thu Apr 7 22:13:13 2005 -0700
	Thursday, April 7th, 2005, 10:13:13 pm
	2005-04-07T22:13:13
	2005-04-07T22:13:13Z
	2005-04-07t22:13:13z
	2005-04-07T22:13:13.123456+02:00
	2005-04-07T22:13:13,5-0230
	2005-04-07 22:13:13 +0200
	2005-04-07 22:13:13
	2005-04-07 22:13
	2005-04-07T22
	2005-04-07
	20050407T221313
	20050407 221313
	20050407 221313.25 +0100
	20050407T2213
	1112911993 +0200
	1112911993 -0700
	@1112911993 +0200
	@1112911993 +02000
	@1112911993  +0200
	@1112911993 +-200
	@1112911993
	1112911993
	@0 +0000
	@0
	4102444799
	4102444800
	Apr 2005 22:13:13
	Apr 2005 22:13:13.05
	Apr 2005 221313.05
	2005-04-07 22:13:13.5.2
	Apr 2005 22:13:13.5.2
	2005 22:13:13
	1969-12-31 22:13:13
	1970-01-01 00:00:00 +0200
	2099-12-31 23:59:59
	2100-01-01 00:00:00
	10:00 12/31/2030
	PM 2005-04-07 10:00
	2005-04-07 PM 10:00:00
	2005-04-07 T5 PM
	EOF
	# numbers joined by . / - in the orders git tries, with and without
	# a time; two-digit years on both sides of 38 and 70
	for t in "07 04 2005" "04 07 2005" "2005 04 07" "2005 07 04" "13 04 2005" \
		"04 13 2005" "2005 13 04" "31 12 05" "12 31 05" "05 12 31" "1 2 3" "7 4 99" \
		"7 4 37" "7 4 38" "7 4 70" "7 4 71" "12 31 2023" "12 1 2023" "11 20 2023" \
		"20 11 2023" "2 29 2024" "29 2 2023" "0 4 2005" "7 4 0005" "1969 12 31"
	do
		set -- $t
		for sep in . / -; do
			echo "$1$sep$2$sep$3"
			echo "$1$sep$2$sep$3 10:30"
		done
	done
	for t in "4 7" "7 4" "12 31" "31 12" "13 13" "2005 04" "04 2005" "11 20" "20 11"; do
		set -- $t
		for sep in . / -; do
			echo "$1$sep$2"
		done
	done
	# month names, full, short and in any case
	for m in Apr april APRIL Sept sep sEpTeMbEr Dec dEc. Ma Mayday Nov; do
		for form in "M" "M 7" "7 M" "M 7 2005" "7 M 05" "M 2005" "M 02" "M 0002" "M 7 10:30"; do
			printf '%s\n' "${form%%M*}$m${form#*M}"
		done
	done
	# weekdays, alone and counted
	for w in monday Tue wed thursday fri SAT sun Su fridays Wednesdays mondayss; do
		for form in "W" "last W" "2 W" "one W" "last W noon" "W 5pm" "3.W"; do
			printf '%s\n' "${form%%W*}$w${form#*W}"
		done
	done
	# relative: numbers (as figures or words) and units
	for n in 1 3 ten; do
		for u in second seconds sec minute minutes min mins hour hours hr day days da week \
			weeks wee month months mont year years yea; do
			echo "$n $u ago"
			echo "$n.$u.ago"
		done
	done
	cat <<-\EOF
	now
	never
	yesterday
	today
	tomorrow
	last week
	last month
	last year
	last 3 days
	3 last week
	last
	3 last
	one day ago
	two weeks ago
	ten days ago
	eleven days ago
	zero days ago
	a day ago
	3 days 2 hours ago
	3 days, 2 hours ago
	-3 days
	13 months ago
	100000 days ago
	4000 weeks ago
	30000 monday
	4294967295 years
	4294967301 years ago
	6442450944 years ago
	6442450944 months ago
	4292967296 years ago
	60 years ago
	99999999999999999999 days
	18446744073709551615 mon
	3 yesterday
	yesterday 3
	5 now
	2005-04-07 now
	Apr now 3
	5 never
	never 2005-04-07
	Apr never 3
	EOF
	# times of day
	cat <<-\EOF
	noon
	midnight
	tea
	teatime
	noon yesterday
	yesterday noon
	midnight last friday
	3 noon
	5pm
	5 pm
	5 P.M.
	pm
	am
	12am
	12pm
	0am
	13pm
	10:30
	10:30:45
	10:30:45.5
	10:30 pm
	12:30am
	24:00
	25:00
	10:60
	10:59:60
	10:59:61
	5pm yesterday
	yesterday at 5pm
	EOF
	# zone names and offsets after a date and time
	for z in IDLW NT CAT HST HDT YST YDT PST PDT MST MDT CST CDT EST EDT AST ADT WAT GMT \
		UTC Z z WET BST CET MET MEWT MEST CEST MESZ FWT FST EET EEST WAST WADT CCT JST \
		EAST EADT GST NZT NZST NZDT IDLE IST AEST UT IDL MES NZS EAS Zulu utc gmt+2 \
		+0200 -0700 +05:30 -02 +2 +02: +02:-3 +2400 -0001 0200 1400 1401 "GMT -0500" \
		"+0100 CET"
	do
		echo "2005-04-07 10:00:00 $z"
	done
	# nothing git understands
	cat <<-\EOF
	garbage
	friday
	x
	...
	days
	second ago
	the day after
	Sunday's child
	3 días ago
	Mär 2005
	Januarys
	3 Aprils
	EOF
}

test_expect_success 'setup' '
	git init -q r && cd r && test_commit one &&
	gen_dates >../dates.list && test $(wc -l <../dates.list) -gt 600
'
cd r 2>/dev/null

# Every string as a --since, all in one rev-parse: one line each.
since_args() {
	set --
	while IFS= read -r d; do
		set -- "$@" "--since=$d"
	done <../dates.list
	compare_git rev-parse "$@" || {
		# which strings: each beside git's answer and ours
		paste ../dates.list "$TRASH/.expect.out" "$TRASH/.actual.out" |
			awk -F "\t" "\$2 != \$3"
		false
	}
}

# Zones with and without summer time (Lord Howe's is half an hour), at
# "now"s beside a change of it: Berlin's spring change (exactly),
# New York's on the morning of the day, and an hour after its fall one.
for tz in UTC America/New_York Europe/Berlin Asia/Kolkata Australia/Lord_Howe; do
	for now in 1700000000 1679792400 1678633200 1699167600; do
		test_expect_success "dates in $tz at $now" "
			export TZ=$tz GIT_TEST_DATE_NOW=$now && since_args
		"
	done
done

test_expect_success 'a "now" of 0 judges joined dates by the clock, as git does' '
	export TZ=Europe/Berlin GIT_TEST_DATE_NOW=0 && since_args
'

test_expect_success '--after, --until, --before; a newline ends the strict reader' '
	export GIT_TEST_DATE_NOW=1700000000 &&
	compare_git rev-parse --after="3 days ago" --until=yesterday --before=2005-04-07 &&
	compare_git rev-parse --since="$(printf "2005-04-07\n10:00:00")" \
		--since="$(printf "@1112911993 +0200\nx")" --since="$(printf "x\n@1112911993 +0200")" &&
	compare_git rev-parse --since= --since --sinc=1 --since=now HEAD
'

test_expect_success 'dates print only with both flags and revisions shown' '
	export GIT_TEST_DATE_NOW=1700000000 &&
	for opts in --revs-only --no-revs --flags --no-flags --symbolic; do
		compare_git rev-parse $opts --since=now HEAD --until=never || return 1
	done &&
	compare_git rev-parse --verify --since=now HEAD &&
	compare_git rev-parse --verify --since=now &&
	compare_git rev-parse --default HEAD --since=now &&
	compare_git rev-parse HEAD -- --since=now &&
	compare_git rev-parse --end-of-options --since=now
'

# approxidate_careful() counts a string in which nothing was understood.
# git reports that flag through parse_expiry_date(): git config
# --type=expiry-date prints the time, or fails with "'<date>' for '<key>'
# is not a valid timestamp" (as reflog expire and gc do for gc.reflogExpire).
# Its special words never, false, all and now skip approxidate, so they are
# left out. Our side is the unit test's --careful mode, which prints
# approxidate_careful()'s time or "error".
test_expect_success 'the strings git takes as no date at all' '
	export TZ=Europe/Berlin GIT_TEST_DATE_NOW=1700000000 &&
	grep -v -x -e never -e false -e all -e now ../dates.list >../careful.list &&
	while IFS= read -r d; do
		git -c "t.d=$d" config --type=expiry-date t.d 2>/dev/null || echo error
	done <../careful.list >../careful.expect &&
	set -- &&
	while IFS= read -r d; do
		set -- "$@" "$d"
	done <../careful.list &&
	"$SRC_ROOT/tests/unit/bin/t-approxidate" --careful "$@" >../careful.actual &&
	grep -q error ../careful.expect &&
	test_cmp ../careful.expect ../careful.actual
'

test_done
