/* approxidate.c: the time a date string means, as git's approxidate reads
 * it.
 *
 * Two readers take the string in turn. The strict one knows the forms
 * dates are written in (RFC 2822, ISO 8601, git's "<seconds> <zone>"): it
 * needs a year, a month and a time of day, and gives up without them. The
 * loose one reads the string again against "now" in the local zone:
 * numbers placed by their size, month and weekday names, "3 days ago",
 * "last friday", "noon", "never". Both walk the string a token at a time:
 * a run of letters, a number (with what a separator joins to it), or any
 * other byte, which means nothing.
 *
 * git's arithmetic is kept where it is odd, since what a string means is
 * what git makes of it: an unset day (-1) counts back into the month
 * before, int products wrap, a year before 1900 is an unset one, and the
 * strict reader judges "the future" by the clock, not by
 * GIT_TEST_DATE_NOW.
 */
#include "lib/util.h"
#include "lib/approxidate.h"
#include "lib/date.h"
#include <inttypes.h>
#include <time.h>

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* ASCII only, whatever the locale, as git's ctype */
static int is_alpha(int c)
{
	c |= 0x20;
	return c >= 'a' && c <= 'z';
}

/* int sums and products wrap, as git's do where it runs */
static int wrap_add(int a, int b)
{
	return (int)((unsigned)a + (unsigned)b);
}

static int wrap_sub(int a, int b)
{
	return (int)((unsigned)a - (unsigned)b);
}

static int wrap_mul(int a, int b)
{
	return (int)((unsigned)a * (unsigned)b);
}

typedef char name11[11];
static const name11 month_names[12] = {
	"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"
};
/* plural, so that "2 fridays" is a weekday too */
static const name11 weekday_names[7] = {
	"sundays", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays"
};

/* The zone names git knows, in its order (a word takes the first name it
 * is the start of), and their offsets in hours east of UTC, a summer
 * zone's extra hour included. */
static const struct { char name[5]; signed char hours; } zones[] = {
	{ "idlw", -12 }, { "nt", -11 }, { "cat", -10 }, { "hst", -10 }, { "hdt", -9 },
	{ "yst", -9 }, { "ydt", -8 }, { "pst", -8 }, { "pdt", -7 }, { "mst", -7 },
	{ "mdt", -6 }, { "cst", -6 }, { "cdt", -5 }, { "est", -5 }, { "edt", -4 },
	{ "ast", -3 }, { "adt", -2 }, { "wat", -1 }, { "gmt", 0 }, { "utc", 0 },
	{ "z", 0 }, { "wet", 0 }, { "bst", 1 }, { "cet", 1 }, { "met", 1 },
	{ "mewt", 1 }, { "mest", 2 }, { "cest", 2 }, { "mesz", 2 }, { "fwt", 1 },
	{ "fst", 2 }, { "eet", 2 }, { "eest", 3 }, { "wast", 7 }, { "wadt", 8 },
	{ "cct", 8 }, { "jst", 9 }, { "east", 10 }, { "eadt", 11 }, { "gst", 10 },
	{ "nzt", 12 }, { "nzst", 12 }, { "nzdt", 13 }, { "idle", 12 },
};

/* How much of the word at s spells the start of name (lower case),
 * ignoring case: the whole word or nothing, for a letter or digit after
 * the part that matches spoils it. */
static int name_match(const char *s, const char *name)
{
	int i = 0, c;

	for (; name[i]; i++) {
		c = (unsigned char)s[i];
		if ((is_alpha(c) ? c | 0x20 : c) != name[i])
			break;
	}
	c = (unsigned char)s[i];
	return is_alpha(c) || is_digit(c) ? 0 : i;
}

/* The first of the names that the word at s spells 3 letters of or more;
 * -1 for none. */
static int find_name(const char *s, const name11 *names, int nr)
{
	for (int i = 0; i < nr; i++)
		if (name_match(s, names[i]) >= 3)
			return i;
	return -1;
}

/* tm read as UTC, in seconds from the epoch; -1 without a year from 1970
 * to 2099, a month or a time of day. The day is not checked: 0 and -1
 * count back into the month before, as with mktime(). */
static time_t utc_seconds(const struct tm *tm)
{
	static const short before[12] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	time_t y = tm->tm_year - (time_t)70, m = tm->tm_mon, days;

	if (y < 0 || y > 129 || m < 0 || m > 11 || tm->tm_hour < 0 || tm->tm_min < 0 ||
	    tm->tm_sec < 0)
		return -1;
	/* the leap days of the years before, and this year's once it is past */
	days = 365 * y + (y + 1) / 4 + before[m] + (m > 1 && y % 4 == 2) + tm->tm_mday - 1;
	return ((days * 24 + tm->tm_hour) * 60 + tm->tm_min) * 60 + tm->tm_sec;
}

/*
 * Month and day, and the year unless it is -1, into tm if they make a
 * date: 0, else -1. A year is taken as 1970 to 2099, 71 to 99 for 19xx or
 * below 38 for 20xx. With now_tm (now in UTC), a missing year is now's,
 * a date more than ten days after now is refused and tm changes only on
 * success; without it, a missing year fails, and the month and day stay
 * in tm even when the year is refused, as git leaves them.
 */
static int try_date(int year, int month, int day, const struct tm *now_tm, time_t now,
		    struct tm *tm)
{
	struct tm copy = *tm, *r = now_tm ? &copy : tm;
	time_t t;

	if (month < 1 || month > 12 || day < 1 || day > 31)
		return -1;
	r->tm_mon = month - 1;
	r->tm_mday = day;
	if (year == -1 && now_tm)
		r->tm_year = now_tm->tm_year;
	else if (year >= 1970 && year < 2100)
		r->tm_year = year - 1900;
	else if (year > 70 && year < 100)
		r->tm_year = year;
	else if (year < 38 && year != -1)
		r->tm_year = year + 100;
	else
		return -1;
	if (!now_tm)
		return 0;
	/* by UTC's calendar, and not at all while the time is unset */
	t = utc_seconds(r);
	if (t != -1 && t > now && (uint64_t)t - (uint64_t)now > 10 * 86400)
		return -1;
	tm->tm_mon = r->tm_mon;
	tm->tm_mday = r->tm_mday;
	if (year != -1)
		tm->tm_year = r->tm_year;
	return 0;
}

/*
 * A number a joined to more by the separator at end: "10:30[:45]" is a
 * time, "a-b[-c]", "a/b[/c]" and "a.b[.c]" a date in the first order that
 * fits: y-m-d and y-d-m when a is past 70, then m/d/y (not with dots),
 * d/m/y, then m.d.y with dots. The numbers go in as git's int arguments
 * take them, cut to 32 bits. Returns the length read, 0 for neither.
 */
static int read_joined(const char *s, uint64_t a, const char *end, struct tm *tm, time_t now)
{
	char sep = *end, *p;
	long b, c = -1;
	int x, y, z, len;
	struct tm now_utc, *refuse;

	b = strtol(end + 1, &p, 10);
	if (*p == sep && is_digit(p[1]))
		c = strtol(p + 1, &p, 10);
	len = (int)(p - s);
	if (sep == ':') {
		if (c < 0)
			c = 0;
		if (a >= 25 || b >= 60 || c > 60)
			return 0;
		tm->tm_hour = (int)a;
		tm->tm_min = (int)b;
		tm->tm_sec = (int)c;
		/* a fraction of a second goes, once the date is known */
		if (*p == '.' && is_digit(p[1]) && tm->tm_year != -1 && tm->tm_mon != -1 &&
		    tm->tm_mday != -1)
			while (is_digit(*++p))
				;
		return (int)(p - s);
	}
	if (!now)
		now = time(NULL);
	refuse = gmtime_r(&now, &now_utc);
	x = (int)a;
	y = (int)b;
	z = (int)c;
	if (a > 70 && (!try_date(x, y, z, NULL, now, tm) || !try_date(x, z, y, NULL, now, tm)))
		return len;
	if (sep != '.' && !try_date(z, x, y, refuse, now, tm))
		return len;
	if (!try_date(z, y, x, refuse, now, tm))
		return len;
	if (sep == '.' && !try_date(z, x, y, refuse, now, tm))
		return len;
	return 0;
}

static int is_joiner(char c)
{
	return c == ':' || c == '.' || c == '/' || c == '-';
}

struct strict {
	struct tm tm;   /* -1: not given */
	int offset;     /* minutes east of UTC; -1: none given */
	int utc;        /* tm came from seconds since the epoch */
};

/*
 * A number in a strict date: seconds since the epoch (from 100000000,
 * while nothing else is set), a joined date or time, yyyymmdd, hhmmss[.frac],
 * a zone up to 1400 or a year of four digits, or else a day, a two-digit
 * year or a month by its size and what is still unset. Returns the length
 * read.
 */
static int strict_number(struct strict *st, const char *s)
{
	struct tm *tm = &st->tm;
	char *end;
	uint64_t v = strtoumax(s, &end, 10);
	int len = (int)(end - s);

	if (v >= 100000000 &&
	    (tm->tm_year & tm->tm_mon & tm->tm_mday & tm->tm_hour & tm->tm_min & tm->tm_sec) < 0) {
		time_t t = (time_t)v;
		if (gmtime_r(&t, tm)) {
			st->utc = 1;
			return len;
		}
	}
	if (is_joiner(*end) && is_digit(end[1])) {
		int n = read_joined(s, v, end, tm, 0);
		if (n)
			return n;
	}
	if (len == 8) {
		try_date(v / 10000, v / 100 % 100, v % 100, NULL, 0, tm);
	} else if (len == 6) {
		if (v / 10000 <= 24 && v / 100 % 100 < 60 && v % 100 <= 60) {
			tm->tm_hour = v / 10000;
			tm->tm_min = v / 100 % 100;
			tm->tm_sec = v % 100;
			if (*end == '.' && is_digit(end[1]))
				while (is_digit(*++end))
					;
		}
	} else if (len == 4) {
		if (v <= 1400 && st->offset == -1)
			st->offset = v / 100 * 60 + v % 100;
		else if (v > 1900 && v < 2100)
			tm->tm_year = v - 1900;
	} else if (len <= 2) {
		if (v > 0 && v < 32 && tm->tm_mday < 0)
			tm->tm_mday = v;
		else if (len == 2 && tm->tm_year < 0 && v < 10 && tm->tm_mday >= 0)
			tm->tm_year = v + 100;
		else if (len == 2 && tm->tm_year < 0 && v >= 70)
			tm->tm_year = v;
		else if (v > 0 && v < 13 && tm->tm_mon < 0)
			tm->tm_mon = v - 1;
	}
	return (int)(end - s);
}

/* A word in a strict date: a month, a zone name (when no offset came
 * before), am or pm, or nothing (weekdays and the "T" of ISO 8601 among
 * them). Returns its length. */
static int strict_word(struct strict *st, const char *s)
{
	int len = 0, i, m;

	while (is_alpha((unsigned char)s[len]))
		len++;
	if ((i = find_name(s, month_names, 12)) >= 0) {
		st->tm.tm_mon = i;
		return len;
	}
	for (i = 0; i < (int)ARRAY_SIZE(zones); i++) {
		m = name_match(s, zones[i].name);
		if (m && (m >= 3 || !zones[i].name[m])) {
			if (st->offset == -1)
				st->offset = 60 * zones[i].hours;
			return len;
		}
	}
	if (name_match(s, "pm") == 2)
		st->tm.tm_hour = st->tm.tm_hour % 12 + 12;
	else if (name_match(s, "am") == 2)
		st->tm.tm_hour %= 12;
	return len;
}

/* +hhmm, +hh:mm or +hh (or -): the offset, unless the hours pass 23 or the
 * minutes 59 (other lengths always do). Returns the length read. */
static int strict_zone(struct strict *st, const char *s)
{
	char *end;
	int h = strtoul(s + 1, &end, 10), m = 0;
	long n = end - (s + 1);

	if (n == 4) {
		m = h % 100;
		h /= 100;
	} else if (n != 2) {
		m = 99;
	} else if (*end == ':') {
		m = strtoul(end + 1, &end, 10);
		if (end - (s + 1) != 5)
			m = 99;
	}
	if (m < 60 && h < 24)
		st->offset = (*s == '-' ? -1 : 1) * (h * 60 + m);
	return (int)(end - s);
}

/* git's "<seconds> +hhmm" after an '@', and nothing more: 0 and the
 * seconds, else -1. */
static int header_date(const char *s, uint64_t *t)
{
	char *end;

	if (!is_digit(*s))
		return -1;
	*t = strtoumax(s, &end, 10);
	if (*end != ' ' || *t == UINTMAX_MAX || (end[1] != '+' && end[1] != '-'))
		return -1;
	s = end + 2;
	strtol(s, &end, 10);
	return (*end && *end != '\n') || end != s + 4 ? -1 : 0;
}

/* The strict reader: 0 and the time, or -1. It stops at a newline. */
static int strict_date(const char *s, uint64_t *out)
{
	struct strict st = { .offset = -1 };
	time_t t;

	st.tm.tm_year = st.tm.tm_mon = st.tm.tm_mday = -1;
	st.tm.tm_hour = st.tm.tm_min = st.tm.tm_sec = st.tm.tm_isdst = -1;
	if (*s == '@' && !header_date(s + 1, out))
		return 0;
	while (*s && *s != '\n') {
		unsigned char c = *s;
		if (is_alpha(c))
			s += strict_word(&st, s);
		else if (is_digit(c))
			s += strict_number(&st, s);
		else if ((c == '-' || c == '+') && is_digit(s[1]))
			s += strict_zone(&st, s);
		else
			s++;
	}
	t = utc_seconds(&st.tm);
	if (t == -1)
		return -1;
	if (st.offset == -1) {
		/* the local zone's offset at that time */
		time_t local;
		st.tm.tm_isdst = -1;
		local = mktime(&st.tm);
		st.offset = t > local ? (int)((t - local) / 60) : -(int)((local - t) / 60);
	}
	*out = (uint64_t)t;
	if (!st.utc)
		*out -= st.offset * 60;
	return 0;
}

struct loose {
	struct tm tm;   /* the date so far; year, month and day -1 until set */
	struct tm now;
	int num;        /* a number whose meaning the next word may give; 0: none */
	int touched;    /* something in the string was understood */
};

/*
 * mktime() as git gets it from glibc, whatever the C library: a time of
 * day whose tm_isdst (carried from now) is not the zone's at that date
 * takes the offset of the nearest time that has it, probed a week apart
 * up to some eight years either way, else an hour's shift. (musl shifts
 * by the zone's present difference, or not at all.)
 */
static time_t mktime_as_git(struct tm *tm)
{
	const long stride = 601200, bound = 536454000 / 2 + 601200;
	struct tm got = *tm, probe;
	int want = tm->tm_isdst;
	time_t t, o;

	got.tm_isdst = -1;
	t = mktime(&got);
	if (t == (time_t)-1 || want < 0 || !want == !got.tm_isdst) {
		*tm = got;
		return t;
	}
	for (long d = stride; d < bound; d += stride)
		for (int dir = -1; dir <= 1; dir += 2) {
			o = t + dir * d;
			if (!localtime_r(&o, &probe) || !want != !probe.tm_isdst)
				continue;
			/* the wall clock of got, read with the probe's offset */
			t = o + (timegm(&got) - timegm(&probe));
			localtime_r(&t, tm);
			return t;
		}
	t += 3600 * (!want - !got.tm_isdst);
	localtime_r(&t, tm);
	return t;
}

/* The unset year, month and day from now (a month after now's is last
 * year's, a year before 1900 counts as unset), then back seconds earlier,
 * as mktime() and localtime() take it: the time. */
static time_t loose_settle(struct loose *l, time_t back)
{
	struct tm *tm = &l->tm;
	time_t t;

	if (tm->tm_mday < 0)
		tm->tm_mday = l->now.tm_mday;
	if (tm->tm_mon < 0)
		tm->tm_mon = l->now.tm_mon;
	if (tm->tm_year < 0) {
		tm->tm_year = l->now.tm_year;
		if (tm->tm_mon > l->now.tm_mon)
			tm->tm_year--;
	}
	t = mktime_as_git(tm) - back;
	localtime_r(&t, tm);
	return t;
}

/* A number no word claimed: the day while that is unset and it fits, else
 * the month, else the year (1970-2099, 70-99 for 19xx, below 38 for
 * 20xx). */
static void loose_place_number(struct loose *l)
{
	int n = l->num;

	if (!n)
		return;
	l->num = 0;
	if (l->tm.tm_mday < 0 && n < 32)
		l->tm.tm_mday = n;
	else if (l->tm.tm_mon < 0 && n < 13)
		l->tm.tm_mon = wrap_sub(n, 1);
	else if (l->tm.tm_year >= 0)
		return;
	else if (n > 1969 && n < 2100)
		l->tm.tm_year = n - 1900;
	else if (n > 69 && n < 100)
		l->tm.tm_year = n;
	else if (n < 38)
		l->tm.tm_year = n + 100;
}

/* The loose reader's numbers: a joined date or time, else a number kept
 * for the next word (zeros before one are allowed in two digits only:
 * "Dec 02", never "Dec 0002"). Returns the end of what was read. */
static const char *loose_number(struct loose *l, const char *s, time_t now)
{
	char *end;
	uint64_t v = strtoumax(s, &end, 10);

	if (is_joiner(*end) && is_digit(end[1])) {
		int n = read_joined(s, v, end, &l->tm, now);
		if (n)
			return s + n;
	}
	if (s[0] != '0' || end - s <= 2)
		l->num = (int)v;
	return end;
}

enum { ANY, NO_NUMBER, AFTER_NUMBER };
enum { W_YESTERDAY, W_CLOCK, W_HALF, W_NEVER, W_NOW, W_COUNT, W_UNIT, W_MONTHS, W_YEARS };

/* The loose reader's words after the months, in order; min is how many
 * letters must match (0: all), when whether a number must come before. */
static const struct loose_word {
	char name[10];
	unsigned char min, when, kind;
	int arg;
} loose_words[] = {
	{ "yesterday", 0, ANY, W_YESTERDAY, 0 },
	{ "noon", 0, ANY, W_CLOCK, 12 }, { "midnight", 0, ANY, W_CLOCK, 0 },
	{ "tea", 0, ANY, W_CLOCK, 17 },
	{ "pm", 0, ANY, W_HALF, 12 }, { "am", 0, ANY, W_HALF, 0 },
	{ "never", 0, ANY, W_NEVER, 0 }, { "now", 0, ANY, W_NOW, 0 },
	{ "one", 0, NO_NUMBER, W_COUNT, 1 }, { "two", 0, NO_NUMBER, W_COUNT, 2 },
	{ "three", 0, NO_NUMBER, W_COUNT, 3 }, { "four", 0, NO_NUMBER, W_COUNT, 4 },
	{ "five", 0, NO_NUMBER, W_COUNT, 5 }, { "six", 0, NO_NUMBER, W_COUNT, 6 },
	{ "seven", 0, NO_NUMBER, W_COUNT, 7 }, { "eight", 0, NO_NUMBER, W_COUNT, 8 },
	{ "nine", 0, NO_NUMBER, W_COUNT, 9 }, { "ten", 0, NO_NUMBER, W_COUNT, 10 },
	{ "last", 0, NO_NUMBER, W_COUNT, 1 },
	{ "seconds", 6, AFTER_NUMBER, W_UNIT, 1 }, { "minutes", 6, AFTER_NUMBER, W_UNIT, 60 },
	{ "hours", 4, AFTER_NUMBER, W_UNIT, 3600 }, { "days", 3, AFTER_NUMBER, W_UNIT, 86400 },
	{ "weeks", 4, AFTER_NUMBER, W_UNIT, 7 * 86400 },
	{ "months", 5, AFTER_NUMBER, W_MONTHS, 0 }, { "years", 4, AFTER_NUMBER, W_YEARS, 0 },
};

/* What a word of the table does to the date and the number before it. */
static void loose_apply(struct loose *l, const struct loose_word *w)
{
	struct tm *tm = &l->tm;
	int n = l->num;

	switch (w->kind) {
	case W_YESTERDAY:
		l->num = 0;
		loose_settle(l, 86400);
		break;
	case W_CLOCK:
		/* the last such hour: today's, or yesterday's if it is to come */
		loose_place_number(l);
		if (tm->tm_hour < w->arg)
			loose_settle(l, 86400);
		tm->tm_hour = w->arg;
		tm->tm_min = tm->tm_sec = 0;
		break;
	case W_HALF:
		/* "5 pm" sets the hour; "pm" alone moves the one there is */
		l->num = 0;
		if (n) {
			tm->tm_min = tm->tm_sec = 0;
			tm->tm_hour = n % 12 + w->arg;
		} else {
			tm->tm_hour = tm->tm_hour % 12 + w->arg;
		}
		break;
	case W_NEVER: {
		time_t zero = 0;
		localtime_r(&zero, tm);
		l->num = 0;
		break;
	}
	case W_NOW:
		l->num = 0;
		loose_settle(l, 0);
		break;
	case W_COUNT:
		l->num = w->arg;
		break;
	case W_UNIT:
		l->num = 0;
		loose_settle(l, wrap_mul(w->arg, n));
		break;
	case W_MONTHS: {
		/* as many months back, the year going back with them */
		long long mon, back;
		loose_settle(l, 0);
		mon = wrap_sub(tm->tm_mon, n);
		back = mon < 0 ? (11 - mon) / 12 : 0;
		tm->tm_mon = (int)(mon + 12 * back);
		tm->tm_year = wrap_sub(tm->tm_year, (int)back);
		l->num = 0;
		break;
	}
	case W_YEARS:
		loose_settle(l, 0);
		tm->tm_year = wrap_sub(tm->tm_year, n);
		l->num = 0;
		break;
	}
}

/* The loose reader's words: a month, a word of the table, or after a
 * number a weekday ("last friday" or "1 friday" is the latest before
 * today, "2 friday" the one before that; alone it means nothing).
 * Returns the end of the word. */
static const char *loose_word(struct loose *l, const char *s)
{
	const char *end = s;
	int i;

	while (is_alpha((unsigned char)*end))
		end++;
	if ((i = find_name(s, month_names, 12)) >= 0) {
		l->tm.tm_mon = i;
		l->touched = 1;
		return end;
	}
	for (size_t k = 0; k < ARRAY_SIZE(loose_words); k++) {
		const struct loose_word *w = &loose_words[k];
		int m;
		if ((w->when == NO_NUMBER && l->num) || (w->when == AFTER_NUMBER && !l->num))
			continue;
		m = name_match(s, w->name);
		if (m && m >= (w->min ? w->min : (int)strlen(w->name))) {
			loose_apply(l, w);
			l->touched = 1;
			return end;
		}
	}
	if (l->num && (i = find_name(s, weekday_names, 7)) >= 0) {
		int weeks = wrap_sub(l->num, 1), days = l->tm.tm_wday - i;
		if (days <= 0)
			weeks = wrap_add(weeks, 1);
		days = wrap_add(days, wrap_mul(7, weeks));
		l->num = 0;
		loose_settle(l, wrap_mul(days, 86400));
		l->touched = 1;
	}
	return end;
}

uint64_t approxidate_careful(const char *date, int *errors)
{
	struct loose l = { .num = 0 };
	time_t now;
	uint64_t t;

	if (!strict_date(date, &t))
		return t;
	now = (time_t)date_now();
	localtime_r(&now, &l.tm);
	l.now = l.tm;
	l.tm.tm_year = l.tm.tm_mon = l.tm.tm_mday = -1;
	while (*date) {
		unsigned char c = *date;
		if (is_digit(c)) {
			loose_place_number(&l);
			date = loose_number(&l, date, now);
			l.touched = 1;
		} else if (is_alpha(c)) {
			date = loose_word(&l, date);
		} else {
			date++;
		}
	}
	loose_place_number(&l);
	if (!l.touched && errors)
		++*errors;
	return (uint64_t)loose_settle(&l, 0);
}

uint64_t approxidate(const char *date)
{
	return approxidate_careful(date, NULL);
}
