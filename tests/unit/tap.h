/* tap.h: the TAP output every unit test prints (prove reads it).
 * check() prints "ok N - ..." or "not ok N - ..." and returns cond;
 * tap_skip() prints a skipped test; tap_done() prints the plan and gives
 * main()'s exit code. Include it from exactly one file per test binary. */
#ifndef TESTS_UNIT_TAP_H
#define TESTS_UNIT_TAP_H

#include "lib/util.h"

static int tap_count, tap_failed;

FORMAT_PRINTF(2, 3)
static inline int check(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout); /* before any fork() a test makes */
	if (!cond)
		tap_failed++;
	return cond;
}

FORMAT_PRINTF(2, 3)
static inline void tap_skip(const char *why, const char *fmt, ...)
{
	va_list ap;
	printf("ok %d - ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # skip %s\n", why);
}

/* The plan at the end ("1..N"): tests need not count themselves. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	fflush(stdout);
	return tap_failed != 0;
}

#endif
