/* date.h: git's date formats (--date, %(...date:<format>)). */
#ifndef LIB_DATE_H
#define LIB_DATE_H

#include "lib/strbuf.h"
#include <stdint.h>

enum date_type {
	DATE_NORMAL, DATE_HUMAN, DATE_RELATIVE, DATE_SHORT, DATE_ISO8601,
	DATE_ISO8601_STRICT, DATE_RFC2822, DATE_STRFTIME, DATE_RAW, DATE_UNIX
};

struct date_mode {
	enum date_type type;
	int local;                /* "-local": in the local time zone */
	const char *strftime_fmt; /* "format:...": points into the string parsed */
};

/* Parses a format name as git does ("relative", "iso-local",
 * "format:%Y", "auto:short" ...); dies with git's message on a name it
 * does not know. */
void date_mode_parse(const char *name, struct date_mode *m);

/* Now, in seconds since the epoch: GIT_TEST_DATE_NOW when set (read in
 * full, where git's atoi() takes values up to 2^31), else the clock. */
uint64_t date_now(void);

/* t seconds since the epoch, in the zone tz (+hhmm as a number: -130 is
 * -01:30), as m says. "Now", for relative and human dates, is
 * GIT_TEST_DATE_NOW when set, as in git. */
void date_format(struct strbuf *out, uint64_t t, int tz, const struct date_mode *m);

#endif
