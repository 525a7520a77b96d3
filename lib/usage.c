/* usage.c: git's message conventions: "fatal: " + exit 128, "error: ". */
#include "lib/util.h"
#include <ctype.h>

const char *prog_name = "git";

/* One line to stderr: prefix, message, and ": <strerror>" when err is
 * not 0. Control characters from data (a ref name with a CR, say) are
 * shown as '?', as git does, so they cannot reach the terminal. */
static void report(const char *prefix, int err, const char *fmt, va_list ap)
{
	char msg[4096];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	for (char *p = msg; *p; p++)
		if (iscntrl((unsigned char)*p) && *p != '\t' && *p != '\n')
			*p = '?';
	/* stdout is not flushed first, as git does not: with both streams
	 * in one file, buffered output comes after the message, as in git */
	if (err)
		fprintf(stderr, "%s%s: %s\n", prefix, msg, strerror(err));
	else
		fprintf(stderr, "%s%s\n", prefix, msg);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("fatal: ", 0, fmt, ap);
	va_end(ap);
	exit(128);
}

void die_errno(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("fatal: ", errno, fmt, ap);
	va_end(ap);
	exit(128);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("error: ", 0, fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("error: ", errno, fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("warning: ", 0, fmt, ap);
	va_end(ap);
}

void BUG(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("BUG: ", 0, fmt, ap);
	va_end(ap);
	abort();
}
