/* approxidate.h: the time a date string means, as git's approxidate reads
 * it ("2005-04-07 22:13:13 +0200", "3 days ago", "last friday noon"). */
#ifndef LIB_APPROXIDATE_H
#define LIB_APPROXIDATE_H

#include <stdint.h>

/* The time (seconds since the epoch) a date string means, as git's
 * approxidate reads it; "now" is GIT_TEST_DATE_NOW when set, else the clock.
 * approxidate_careful() adds 1 to *errors when nothing in the string was
 * understood (git then treats the string as not a date); approxidate()
 * ignores that. */
uint64_t approxidate_careful(const char *date, int *errors);
uint64_t approxidate(const char *date);

#endif
