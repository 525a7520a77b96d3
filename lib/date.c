/* date.c: the date formats of date.h. */
#include "lib/util.h"
#include "lib/date.h"
#include "lib/config.h"
#include <time.h>

static const char *const weekdays[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
				      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

/* In git's order: a longer name before its prefix. */
static const struct { const char *name; enum date_type type; } types[] = {
	{ "relative", DATE_RELATIVE }, { "iso8601-strict", DATE_ISO8601_STRICT },
	{ "iso-strict", DATE_ISO8601_STRICT }, { "iso8601", DATE_ISO8601 },
	{ "iso", DATE_ISO8601 }, { "rfc2822", DATE_RFC2822 }, { "rfc", DATE_RFC2822 },
	{ "short", DATE_SHORT }, { "default", DATE_NORMAL }, { "human", DATE_HUMAN },
	{ "raw", DATE_RAW }, { "unix", DATE_UNIX }, { "format", DATE_STRFTIME },
};

void date_mode_parse(const char *name, struct date_mode *m)
{
	const char *p = NULL;
	size_t i;

	/* "auto:x" is x on a terminal (or under a pager git started) and
	 * the default elsewhere. */
	if (skip_prefix(name, "auto:", &p))
		name = isatty(1) || env_bool("GIT_PAGER_IN_USE", 0) ? p : "default";
	if (!strcmp(name, "local"))
		name = "default-local";
	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (skip_prefix(name, types[i].name, &p))
			break;
	if (i == ARRAY_SIZE(types))
		die("unknown date format %s", name);
	m->type = types[i].type;
	m->local = skip_prefix(p, "-local", &p);
	m->strftime_fmt = NULL;
	if (m->type == DATE_STRFTIME) {
		if (*p != ':')
			die("date format missing colon separator: %s", name);
		m->strftime_fmt = p + 1;
	} else if (*p) {
		die("unknown date format %s", name);
	}
}

uint64_t date_now(void)
{
	const char *e = getenv("GIT_TEST_DATE_NOW");
	return e ? strtoull(e, NULL, 10) : (uint64_t)time(NULL);
}

/* The local zone's offset at t, as +hhmm, and t in it. */
static int local_zone(uint64_t t, struct tm *tm)
{
	time_t tt = (time_t)t;
	long off, min;

	if (!localtime_r(&tt, tm)) {
		tt = 0;
		gmtime_r(&tt, tm);
		return 0;
	}
	off = tm->tm_gmtoff;
	min = (off < 0 ? -off : off) / 60;
	return (int)((off < 0 ? -1 : 1) * (min / 60 * 100 + min % 60));
}

/* t in the zone tz; the epoch in UTC for a t gmtime() cannot take. */
static int zone_time(uint64_t t, int *tz, struct tm *tm)
{
	int a = *tz < 0 ? -*tz : *tz;
	long off = (long)(a / 100 * 60 + a % 100) * 60 * (*tz < 0 ? -1 : 1);
	time_t tt = (time_t)t + off;

	if (t > (uint64_t)INT64_MAX / 2 || !gmtime_r(&tt, tm)) {
		tt = 0;
		*tz = 0;
		gmtime_r(&tt, tm);
		return -1;
	}
	return 0;
}

#define PLURAL(n, one, many) ((n) == 1 ? (one) : (many))

static void relative(struct strbuf *out, uint64_t t)
{
	uint64_t now = date_now(), d;

	if (now < t) {
		strbuf_addstr(out, "in the future");
		return;
	}
	d = now - t;
	if (d < 90) {
		strbuf_addf(out, PLURAL(d, "%llu second ago", "%llu seconds ago"), (unsigned long long)d);
		return;
	}
	d = (d + 30) / 60;      /* minutes */
	if (d < 90) {
		strbuf_addf(out, PLURAL(d, "%llu minute ago", "%llu minutes ago"), (unsigned long long)d);
		return;
	}
	d = (d + 30) / 60;      /* hours */
	if (d < 36) {
		strbuf_addf(out, PLURAL(d, "%llu hour ago", "%llu hours ago"), (unsigned long long)d);
		return;
	}
	d = (d + 12) / 24;      /* days from here on */
	if (d < 14) {
		strbuf_addf(out, PLURAL(d, "%llu day ago", "%llu days ago"), (unsigned long long)d);
		return;
	}
	if (d < 70) {
		uint64_t w = (d + 3) / 7;
		strbuf_addf(out, PLURAL(w, "%llu week ago", "%llu weeks ago"), (unsigned long long)w);
		return;
	}
	if (d < 365) {
		uint64_t mo = (d + 15) / 30;
		strbuf_addf(out, PLURAL(mo, "%llu month ago", "%llu months ago"), (unsigned long long)mo);
		return;
	}
	if (d < 1825) {
		uint64_t all = (d * 12 * 2 + 365) / (365 * 2), y = all / 12, mo = all % 12;
		strbuf_addf(out, PLURAL(y, "%llu year", "%llu years"), (unsigned long long)y);
		if (mo)
			strbuf_addf(out, PLURAL(mo, ", %llu month ago", ", %llu months ago"),
				    (unsigned long long)mo);
		else
			strbuf_addstr(out, " ago");
		return;
	}
	d = (d + 183) / 365;
	strbuf_addf(out, PLURAL(d, "%llu year ago", "%llu years ago"), (unsigned long long)d);
}

/*
 * The default format, and "human": against now (its year, month, day and
 * zone), parts that say nothing new are left out: the year this year,
 * the date today (then the relative form), the seconds always, and the
 * zone when the date is shown or when it is the local one.
 */
static void normal(struct strbuf *out, uint64_t t, const struct tm *tm, int tz, int local,
		   const struct tm *now_tm, int now_tz)
{
	int hide_year = 0, hide_date = 0, hide_wday = 0, hide_time = 0, hide_sec = 0;
	/* now_tz is -1 without a "now": a zone of -0001 is then left out
	 * too, as git leaves it out. */
	int hide_tz = local || tz == now_tz;

	if (now_tm && tm->tm_year == now_tm->tm_year) {
		hide_year = 1;
		if (tm->tm_mon == now_tm->tm_mon) {
			if (tm->tm_mday == now_tm->tm_mday)
				hide_date = hide_wday = 1;
			else if (tm->tm_mday < now_tm->tm_mday && tm->tm_mday + 5 > now_tm->tm_mday)
				hide_date = 1;
		}
	}
	if (hide_wday) {
		relative(out, t);
		return;
	}
	if (now_tm) {
		hide_sec = 1;
		hide_tz |= !hide_date;
		hide_wday = hide_time = !hide_year;
	}
	if (!hide_wday)
		strbuf_addf(out, "%s ", weekdays[tm->tm_wday]);
	if (!hide_date)
		strbuf_addf(out, "%s %d ", months[tm->tm_mon], tm->tm_mday);
	if (!hide_time) {
		strbuf_addf(out, "%02d:%02d", tm->tm_hour, tm->tm_min);
		if (!hide_sec)
			strbuf_addf(out, ":%02d", tm->tm_sec);
	} else if (out->len && out->buf[out->len - 1] == ' ') {
		strbuf_setlen(out, out->len - 1);
	}
	if (!hide_year)
		strbuf_addf(out, " %d", tm->tm_year + 1900);
	if (!hide_tz)
		strbuf_addf(out, " %+05d", tz);
}

/* strftime() with %z as tz, %s as the time t itself (as git writes it,
 * where strftime would read tm as local time), and %Z left out unless the
 * zone is local (strftime knows only the local zone's name). */
static void add_strftime(struct strbuf *out, const char *fmt, const struct tm *tm, uint64_t t,
			 int tz, int local)
{
	struct strbuf f = STRBUF_INIT;
	size_t room = 128, n;

	if (!*fmt)
		return;
	for (;;) {
		const char *pc = strchrnul(fmt, '%');
		strbuf_add(&f, fmt, (size_t)(pc - fmt));
		if (!*pc)
			break;
		fmt = pc + 1;
		if (*fmt == '%') {
			strbuf_addstr(&f, "%%");
			fmt++;
		} else if (*fmt == 'z') {
			strbuf_addf(&f, "%+05d", tz);
			fmt++;
		} else if (*fmt == 's') {
			strbuf_addf(&f, "%llu", (unsigned long long)t);
			fmt++;
		} else if (*fmt == 'Z' && !local) {
			fmt++;
		} else if (*fmt == 'Y' || *fmt == 'F') {
			/* the year as glibc's strftime (git's, here) writes it:
			 * musl's writes a year past 9999 with a '+' */
			strbuf_addf(&f, "%d%s", tm->tm_year + 1900, *fmt == 'F' ? "-%m-%d" : "");
			fmt++;
		} else {
			strbuf_addch(&f, '%');
		}
	}
	/* A trailing space tells an empty result from one that did not
	 * fit: strftime() returns 0 for both. */
	strbuf_addch(&f, ' ');
	for (;;) {
		strbuf_grow(out, room);
		n = strftime(out->buf + out->len, room, f.buf, tm);
		if (n)
			break;
		room *= 2;
	}
	strbuf_setlen(out, out->len + n - 1);
	strbuf_release(&f);
}

void date_format(struct strbuf *out, uint64_t t, int tz, const struct date_mode *m)
{
	struct tm tm, now_tm;
	int now_tz = -1, have_now = 0;

	if (m->type == DATE_UNIX) {
		strbuf_addf(out, "%llu", (unsigned long long)t);
		return;
	}
	if (m->local)
		tz = local_zone(t, &tm);
	if (m->type == DATE_RAW) {
		strbuf_addf(out, "%llu %+05d", (unsigned long long)t, tz);
		return;
	}
	if (m->type == DATE_RELATIVE) {
		relative(out, t);
		return;
	}
	if (m->type == DATE_HUMAN) {
		now_tz = local_zone(date_now(), &now_tm);
		have_now = 1;
	}
	if (!m->local)
		zone_time(t, &tz, &tm);
	switch (m->type) {
	case DATE_SHORT:
		strbuf_addf(out, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
		break;
	case DATE_ISO8601:
		strbuf_addf(out, "%04d-%02d-%02d %02d:%02d:%02d %+05d", tm.tm_year + 1900,
			    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tz);
		break;
	case DATE_ISO8601_STRICT:
		strbuf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
			    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
		/* git 2.39 writes UTC as +00:00, not Z */
		strbuf_addf(out, "%c%02d:%02d", tz < 0 ? '-' : '+', abs(tz) / 100, abs(tz) % 100);
		break;
	case DATE_RFC2822:
		strbuf_addf(out, "%s, %d %s %d %02d:%02d:%02d %+05d", weekdays[tm.tm_wday], tm.tm_mday,
			    months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec, tz);
		break;
	case DATE_STRFTIME:
		add_strftime(out, m->strftime_fmt, &tm, t, tz, m->local);
		break;
	default:
		normal(out, t, &tm, tz, m->local, have_now ? &now_tm : NULL, now_tz);
		break;
	}
}
