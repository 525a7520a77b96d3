/* usage.c: git's message conventions: "fatal: " + exit 128, "error: ". */
#include "lib/util.h"

const char *prog_name = "git";

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* One write, so concurrent writers do not interleave lines. */
	fflush(stdout);
	fprintf(stderr, "%s%s\n", prefix, msg);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(128);
}

static void vreport_errno(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096];
	int e = errno;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s%s: %s\n", prefix, buf, strerror(e));
}

void die_errno(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport_errno("fatal: ", fmt, ap);
	va_end(ap);
	exit(128);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport_errno("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void BUG(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("BUG: ", fmt, ap);
	va_end(ap);
	abort();
}
