/* wildmatch.c: git's wildcard matching (lib/wildmatch.h).
 *
 * A backtracking match, pruned by two facts that make it linear in
 * practice: once the text runs out under some pattern position, giving
 * an earlier '*' more of the text cannot help (NO_TEXT); and once a
 * '*' that may not cross '/' reaches one, neither can any earlier such
 * '*' (only a '**' may go on: NO_SLASH). Without WM_PATHNAME every '*'
 * crosses '/', and '**' is nothing more.
 *
 * Under WM_CASEFOLD the text is compared in lower case: so are the
 * pattern's plain characters, but not those in brackets, where a range
 * also takes the upper case of a lower-case letter and [:upper:] takes
 * lower-case letters too (which is what git does). */
#include "lib/wildmatch.h"
#include <ctype.h>
#include <string.h>

enum { NO, YES, NO_TEXT, NO_SLASH };

static int fold(int c, unsigned flags)
{
	return (flags & WM_CASEFOLD) ? tolower(c) : c;
}

/* Whether c is of the class named by name[0..len); -1 for no such class. */
static int in_class(const char *name, size_t len, int c, unsigned flags)
{
	static const struct {
		const char *name;
		int (*is)(int);
	} classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank },
		{ "cntrl", iscntrl }, { "digit", isdigit }, { "graph", isgraph },
		{ "lower", islower }, { "print", isprint }, { "punct", ispunct },
		{ "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
	};
	for (size_t i = 0; i < sizeof(classes) / sizeof(*classes); i++) {
		if (strlen(classes[i].name) != len || memcmp(classes[i].name, name, len))
			continue;
		if (classes[i].is == isupper && (flags & WM_CASEFOLD) && islower(c))
			return 1;
		return !!classes[i].is(c);
	}
	return -1;
}

/*
 * The bracket expression after *pp's '[' against the (folded) text
 * character c: 1 or 0, with *pp moved past its ']'; -1 if it never ends
 * or names no known class (then nothing matches at all).
 */
static int bracket(const unsigned char **pp, int c, unsigned flags)
{
	const unsigned char *p = *pp;
	int negated = 0, hit = 0, prev = -1;

	if (*p == '!' || *p == '^') {
		negated = 1;
		p++;
	}
	for (int first = 1;; first = 0) {
		int pc = *p;
		if (!pc)
			return -1;
		if (pc == ']' && !first)
			break;
		if (pc == '\\') {
			if (!(pc = *++p))
				return -1;
		} else if (pc == '-' && prev >= 0 && p[1] && p[1] != ']') {
			int hi = *++p;
			if (hi == '\\' && !(hi = *++p))
				return -1;
			if ((c >= prev && c <= hi) ||
			    ((flags & WM_CASEFOLD) && islower(c) && toupper(c) >= prev && toupper(c) <= hi))
				hit = 1;
			prev = -1;
			p++;
			continue;
		} else if (pc == '[' && p[1] == ':') {
			const unsigned char *end = (const unsigned char *)strchr((const char *)p + 2, ']');
			if (!end)
				return -1;
			if (end > p + 3 && end[-1] == ':') {
				int in = in_class((const char *)p + 2, (size_t)(end - 1 - (p + 2)), c, flags);
				if (in < 0)
					return -1;
				hit |= in;
				prev = -1;
				p = end + 1;
				continue;
			}
		}
		if (c == pc)
			hit = 1;
		prev = pc;
		p++;
	}
	*pp = p + 1;
	return hit != negated;
}

static int match(const unsigned char *start, const unsigned char *p, const unsigned char *t,
		 unsigned flags)
{
	for (; *p; p++, t++) {
		int pc = *p, tc = fold(*t, flags), cross, r;
		const unsigned char *run;

		if (!*t && pc != '*')
			return NO_TEXT;
		switch (pc) {
		case '?':
			if ((flags & WM_PATHNAME) && tc == '/')
				return NO;
			continue;
		case '[':
			p++;
			r = bracket(&p, tc, flags);
			if (r < 0)
				return NO_TEXT;
			if (!r || ((flags & WM_PATHNAME) && tc == '/'))
				return NO;
			p--;   /* the loop steps past the ']' */
			continue;
		case '\\':
			if (!(pc = *++p))
				return NO;
			break;
		case '*':
			run = p;
			while (p[1] == '*')
				p++;
			cross = !(flags & WM_PATHNAME);
			if (!cross && p > run && (run == start || run[-1] == '/') &&
			    (!p[1] || p[1] == '/')) {
				/* a whole part "**": "x/" + "**" + "/y" also
				 * matches "x/y". If that runs out of text, so
				 * would every longer match of the stars (which
				 * keeps many of them from doubling the work). */
				if (p[1] == '/') {
					r = match(start, p + 2, t, flags);
					if (r == YES || r == NO_TEXT)
						return r;
				}
				cross = 1;
			}
			p++;
			if (!*p)
				return cross || !strchr((const char *)t, '/') ? YES : NO_SLASH;
			for (;; t++) {
				r = match(start, p, t, flags);
				if (r != NO && (r != NO_SLASH || !cross))
					return r;
				if (!*t)
					return NO_TEXT;
				if (!cross && *t == '/')
					return NO_SLASH;
			}
		default:
			break;
		}
		if (tc != fold(pc, flags))
			return NO;
	}
	return *t ? NO : YES;
}

int wildmatch(const char *pattern, const char *text, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)pattern;
	return match(p, p, (const unsigned char *)text, flags) == YES;
}
