/* progress.c: git's progress meter (see progress.h). */
#include "lib/progress.h"
#include "lib/strbuf.h"
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>

#define NS_PER_SEC 1000000000ull
#define TP_WINDOW 8
/* progress_add(): updates between two looks at the clock. */
#define CHECK_EVERY 64

struct throughput {
	uint64_t prev_total, curr_total, prev_ns;
	uint64_t avg_bytes, last_bytes[TP_WINDOW];
	unsigned avg_misecs, last_misecs[TP_WINDOW], idx;
	struct strbuf display;
};

struct progress {
	const char *title;
	size_t title_len;
	uint64_t total;
	uint64_t last_value;
	int have_value;
	unsigned last_percent;
	unsigned delay;
	int split;
	int update;              /* a second went by: print the next update */
	uint64_t start_ns, next_tick_ns;
	struct strbuf counters;
	struct throughput *tp;
	/* progress_add() */
	uint64_t count;          /* atomic */
	uint64_t next_check;     /* atomic: an add reaching it takes the lock */
	uint64_t shown;          /* under lock: the last value passed to show() */
	pthread_mutex_t lock;
};

uint64_t progress_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* git raises its flag from a one-second interval timer; reading the clock
 * at updates gives the same lines without a signal interrupting the
 * threads' system calls. */
static void clock_check(struct progress *p, uint64_t now)
{
	if (now < p->next_tick_ns)
		return;
	p->update = 1;
	p->next_tick_ns += ((now - p->next_tick_ns) / NS_PER_SEC + 1) * NS_PER_SEC;
}

static int term_columns(void)
{
	static int cols;
	const char *s;

	if (cols)
		return cols;
	cols = 80;
	s = getenv("COLUMNS");
	if (s && atoi(s) > 0) {
		cols = atoi(s);
	} else {
		struct winsize ws;
		if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col)
			cols = ws.ws_col;
	}
	return cols;
}

/* A background job keeps quiet on its terminal; not a terminal counts as
 * foreground. */
static int stderr_in_foreground(void)
{
	static int not_tty;
	pid_t pg;

	/* stderr does not become a terminal: ask once, not for every line */
	if (not_tty)
		return 1;
	pg = tcgetpgrp(2);
	if (pg < 0 && errno == ENOTTY)
		not_tty = 1;
	return pg < 0 || pg == getpgid(0);
}

static void show(struct progress *p, uint64_t n, const char *done)
{
	size_t old_len = p->counters.len, clear, line;
	const char *tp, *eol;

	/* The delay counts updates seen after the first tick, as git's does. */
	if (p->delay && (!p->update || --p->delay))
		return;
	p->last_value = n;
	p->have_value = 1;
	tp = p->tp ? p->tp->display.buf : "";
	if (p->total) {
		unsigned percent = (unsigned)(n * 100 / p->total);
		if (percent == p->last_percent && !p->update)
			return;
		p->last_percent = percent;
		strbuf_reset(&p->counters);
		strbuf_addf(&p->counters, "%3u%% (%" PRIu64 "/%" PRIu64 ")%s",
			    percent, n, p->total, tp);
	} else {
		if (!p->update)
			return;
		strbuf_reset(&p->counters);
		strbuf_addf(&p->counters, "%" PRIu64 "%s", n, tp);
	}
	p->update = 0;
	if (!done && !stderr_in_foreground())
		return;
	eol = done ? done : "\r";
	/* Spaces over what a longer previous line left, before eol. */
	clear = p->counters.len < old_len ? old_len - p->counters.len + 1 : 0;
	line = p->title_len + p->counters.len + 2;
	if (p->split) {
		fprintf(stderr, "  %s%*s", p->counters.buf, (int)clear, eol);
	} else if (!done && (size_t)term_columns() < line) {
		int cols = term_columns();
		clear = p->title_len + 1 < (size_t)cols ? (size_t)cols - p->title_len - 1 : 0;
		fprintf(stderr, "%s:%*s\n  %s%s", p->title, (int)clear, "", p->counters.buf, eol);
		p->split = 1;
	} else {
		fprintf(stderr, "%s: %s%*s", p->title, p->counters.buf, (int)clear, eol);
	}
	fflush(stderr);
}

static struct progress *start(const char *title, uint64_t total, unsigned delay)
{
	struct progress *p = xcalloc(1, sizeof(*p));

	p->title = title;
	p->title_len = strlen(title);
	p->total = total;
	p->last_percent = UINT_MAX;
	p->delay = delay;
	p->start_ns = progress_now_ns();
	p->next_tick_ns = p->start_ns + NS_PER_SEC;
	strbuf_init(&p->counters, 0);
	pthread_mutex_init(&p->lock, NULL);
	return p;
}

struct progress *start_progress(const char *title, uint64_t total)
{
	return start(title, total, 0);
}

struct progress *start_delayed_progress(const char *title, uint64_t total)
{
	const char *s = getenv("GIT_PROGRESS_DELAY");
	unsigned long delay = 2;
	if (s && *s) {
		char *end;
		delay = strtoul(s, &end, 10);
		if (*end)
			delay = 2;
	}
	return start(title, total, (unsigned)delay);
}

void progress_set_start(struct progress *p, uint64_t start_ns)
{
	if (!p)
		return;
	p->start_ns = start_ns;
	p->next_tick_ns = start_ns + NS_PER_SEC;
}

void display_progress(struct progress *p, uint64_t n)
{
	if (!p)
		return;
	clock_check(p, progress_now_ns());
	show(p, n, NULL);
	p->shown = n;
	__atomic_store_n(&p->count, n, __ATOMIC_RELAXED);
}

/* Under the lock: every value up to the shared count goes through show(),
 * in order, so the lines are those of a single thread counting one by one. */
static void catch_up(struct progress *p)
{
	uint64_t n = __atomic_load_n(&p->count, __ATOMIC_RELAXED), next;

	clock_check(p, progress_now_ns());
	while (p->shown < n)
		show(p, ++p->shown, NULL);
	next = n + CHECK_EVERY;
	if (p->total && !p->delay) {
		/* The first value of the next percentage. */
		uint64_t pct = n * 100 / p->total + 1;
		uint64_t b = (pct * p->total + 99) / 100;
		if (b > n && b < next)
			next = b;
	}
	__atomic_store_n(&p->next_check, next, __ATOMIC_RELAXED);
}

void progress_add(struct progress *p, uint64_t k)
{
	uint64_t n;

	if (!p)
		return;
	n = __atomic_add_fetch(&p->count, k, __ATOMIC_RELAXED);
	if (n < __atomic_load_n(&p->next_check, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&p->lock);
	catch_up(p);
	pthread_mutex_unlock(&p->lock);
}

/* ", <bytes> | <rate>/s" in git's units: two decimals, rounded as git
 * rounds them, the 1 GiB step truncated. */
static void humanise(struct strbuf *sb, uint64_t bytes, int rate)
{
	if (bytes > (1u << 30)) {
		strbuf_addf(sb, "%u.%2.2u GiB%s", (unsigned)(bytes >> 30),
			    (unsigned)(bytes & ((1u << 30) - 1)) / 10737419, rate ? "/s" : "");
	} else if (bytes > (1u << 20)) {
		unsigned x = (unsigned)bytes + 5243;
		strbuf_addf(sb, "%u.%2.2u MiB%s", x >> 20, ((x & ((1u << 20) - 1)) * 100) >> 20,
			    rate ? "/s" : "");
	} else if (bytes > (1u << 10)) {
		unsigned x = (unsigned)bytes + 5;
		strbuf_addf(sb, "%u.%2.2u KiB%s", x >> 10, ((x & ((1u << 10) - 1)) * 100) >> 10,
			    rate ? "/s" : "");
	} else {
		strbuf_addf(sb, "%u %s%s", (unsigned)bytes, bytes == 1 ? "byte" : "bytes",
			    rate ? "/s" : "");
	}
}

static void throughput_string(struct throughput *tp, uint64_t total, unsigned rate_kib)
{
	strbuf_reset(&tp->display);
	strbuf_addstr(&tp->display, ", ");
	humanise(&tp->display, total, 0);
	strbuf_addstr(&tp->display, " | ");
	/* git multiplies in unsigned int: above 4 GiB/s the figure wraps. */
	humanise(&tp->display, (uint32_t)(rate_kib * 1024u), 1);
}

/* Time in 1/1024 s: ns * 1024 / 10^9 without a division. */
static unsigned misecs_of(uint64_t ns)
{
	return (unsigned)((ns * 4398) >> 32);
}

void display_throughput(struct progress *p, uint64_t total)
{
	struct throughput *tp;
	uint64_t now, count;
	unsigned misecs, rate;

	if (!p)
		return;
	now = progress_now_ns();
	clock_check(p, now);
	tp = p->tp;
	if (!tp) {
		tp = p->tp = xcalloc(1, sizeof(*tp));
		tp->prev_total = tp->curr_total = total;
		tp->prev_ns = now;
		strbuf_init(&tp->display, 0);
		return;
	}
	tp->curr_total = total;
	if (now - tp->prev_ns <= NS_PER_SEC / 2)
		return;
	/* The rate over the last TP_WINDOW half-second steps. */
	misecs = misecs_of(now - tp->prev_ns);
	count = total - tp->prev_total;
	tp->prev_total = total;
	tp->prev_ns = now;
	tp->avg_bytes += count;
	tp->avg_misecs += misecs;
	rate = (unsigned)(tp->avg_bytes / tp->avg_misecs);
	tp->avg_bytes -= tp->last_bytes[tp->idx];
	tp->avg_misecs -= tp->last_misecs[tp->idx];
	tp->last_bytes[tp->idx] = count;
	tp->last_misecs[tp->idx] = misecs;
	tp->idx = (tp->idx + 1) % TP_WINDOW;
	throughput_string(tp, total, rate);
	if (p->have_value && p->update)
		show(p, p->last_value, NULL);
}

static void progress_free(struct progress *p)
{
	if (p->tp) {
		strbuf_release(&p->tp->display);
		free(p->tp);
	}
	strbuf_release(&p->counters);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

void progress_abandon(struct progress **pp)
{
	struct progress *p = pp ? *pp : NULL;

	if (!p)
		return;
	*pp = NULL;
	if (__atomic_load_n(&p->count, __ATOMIC_RELAXED) > p->shown)
		catch_up(p);
	progress_free(p);
}

void stop_progress_msg(struct progress **pp, const char *msg)
{
	struct progress *p = pp ? *pp : NULL;

	if (!p)
		return;
	*pp = NULL;
	if (__atomic_load_n(&p->count, __ATOMIC_RELAXED) > p->shown)
		catch_up(p);
	if (p->have_value) {
		char *buf;
		if (p->tp) {
			unsigned misecs = misecs_of(progress_now_ns() - p->start_ns);
			throughput_string(p->tp, p->tp->curr_total,
					  (unsigned)(p->tp->curr_total / (misecs ? misecs : 1)));
		}
		p->update = 1;
		buf = xstrfmt(", %s.\n", msg);
		show(p, p->last_value, buf);
		free(buf);
	}
	progress_free(p);
}

void stop_progress(struct progress **pp)
{
	stop_progress_msg(pp, "done");
}
