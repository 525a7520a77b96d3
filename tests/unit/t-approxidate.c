/* t-approxidate: approxidate() and approxidate_careful() at a fixed "now"
 * in UTC, and the careful flag's count.
 *
 * With "--careful <date>..." it prints, for each date, approxidate_careful()'s
 * time, or "error" when it counted one: t1520 compares that with what
 * git config --type=expiry-date makes of the same strings. */
#include "lib/util.h"
#include "lib/approxidate.h"
#include "tests/unit/tap.h"
#include <time.h>

#define NOW 1700000000   /* Tue 2023-11-14 22:13:20 UTC */

static void expect(const char *date, uint64_t want)
{
	uint64_t got = approxidate(date);
	check(got == want, "'%s' is %llu (got %llu)", date, (unsigned long long)want,
	      (unsigned long long)got);
}

static void expect_errors(const char *date, int before, int after)
{
	int errors = before;
	approxidate_careful(date, &errors);
	check(errors == after, "'%s' leaves the count of errors %d at %d (got %d)", date, before,
	      after, errors);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--careful")) {
		for (int i = 2; i < argc; i++) {
			int errors = 0;
			uint64_t t = approxidate_careful(argv[i], &errors);
			if (errors)
				puts("error");
			else
				printf("%llu\n", (unsigned long long)t);
		}
		return 0;
	}

	setenv("TZ", "UTC", 1);
	tzset();
	setenv("GIT_TEST_DATE_NOW", "1700000000", 1);

	expect("now", NOW);
	expect("2 days ago", NOW - 2 * 86400);
	expect("2.days.ago", NOW - 2 * 86400);
	expect("last friday", NOW - 4 * 86400);
	expect("noon yesterday", 1699876800);
	expect("5pm", 1699981200);
	expect("never", 0);
	expect("garbage", NOW);
	expect("Thu, 07 Apr 2005 22:13:13 +0200", 1112904793);
	expect("2005-04-07T22:13:13", 1112911993);
	expect("@1112911993 +0200", 1112911993);
	expect("1970-01-01 00:00:00 +0200", (uint64_t)-7200);
	/* int products wrap: 100000 days is 8640000000 seconds, less 2^33 */
	expect("100000 days ago", NOW - (8640000000ULL - 8589934592ULL));

	expect_errors("garbage", 0, 1);
	expect_errors("garbage", 1, 2);
	expect_errors("friday", 0, 1);
	expect_errors("3 days ago", 0, 0);
	expect_errors("3 days ago", 2, 2);
	expect_errors("2005-04-07 22:13:13", 1, 1);
	expect_errors("", 0, 1);
	return tap_done();
}
