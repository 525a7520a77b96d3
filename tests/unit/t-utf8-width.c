/* t-utf8-width: utf8_width() and utf8_char_width() (lib/utf8-width.h).
 * Every answer here is git 2.39.5's, read from for-each-ref's %(align) on
 * refs or format text of these bytes, and from branch --column for the
 * colour sequences; but for those with a NUL, which git's callers never
 * pass on (it ends their C strings). */
#include "lib/util.h"
#include "lib/utf8-width.h"
#include "tests/unit/tap.h"

#define A UTF8_WIDTH_SKIP_ANSI
/* A string literal with its length: NULs inside count. */
#define S(lit) lit, sizeof(lit) - 1

static const struct {
	const char *s;
	size_t n;
	unsigned flags;
	size_t want;
	const char *what;
} cases[] = {
	{ S(""), 0, 0, "empty" },
	{ S("master"), 0, 6, "ASCII" },
	{ S("a b~c"), 0, 5, "ASCII punctuation" },
	{ S("\xc3\xa9t\xc3\xa9"), 0, 3, "2-byte (e acute)" },
	{ S("\xc2\xa0"), 0, 1, "U+00A0, first after the C1 controls" },
	{ S("\xe4\xb8\xad\xe6\x96\x87"), 0, 4, "wide CJK" },
	{ S("\xef\xbc\xa1"), 0, 2, "fullwidth A (U+FF21)" },
	{ S("\xf0\x9f\x98\x80"), 0, 2, "emoji U+1F600, wide" },
	{ S("\xf0\xa0\x80\x80"), 0, 2, "U+20000, wide (plane 2)" },
	{ S("e\xcc\x81"), 0, 1, "e and combining acute (Mn)" },
	{ S("\xd2\x88"), 0, 0, "U+0488, enclosing (Me)" },
	{ S("\xe2\x80\x8b"), 0, 0, "U+200B zero width space" },
	{ S("\xef\xbb\xbf"), 0, 0, "U+FEFF (Cf)" },
	{ S("\xc2\xad"), 0, 1, "U+00AD soft hyphen: one, though Cf" },
	{ S("\xe1\x85\xa0"), 0, 0, "U+1160, Hangul jungseong" },
	{ S("\xe1\x87\xbf"), 0, 0, "U+11FF, Hangul jongseong" },
	{ S("\xe1\x84\x80"), 0, 2, "U+1100, Hangul choseong: wide" },
	{ S("\xe3\x80\xaa"), 0, 0, "U+302A, wide and Mn: no width" },
	{ S("\xf3\xa0\x84\x80"), 0, 0, "U+E0100 variation selector" },
	{ S("a\x01z"), 0, 2, "C0 control" },
	{ S("a\x7fz"), 0, 2, "DEL" },
	{ S("\xc2\x80\xc2\x9f"), 0, 0, "C1 controls U+0080, U+009F" },
	{ S("\xf0\x9f\xab\xa8"), 0, 1, "U+1FAE8 (Unicode 15.0): one, as in git 2.39" },
	{ S("\xf0\xb1\x8d\x90"), 0, 2, "U+31350 (Unicode 15.0): wide, reserved CJK" },
	{ S("\xef\xa9\xae"), 0, 2, "U+FA6E, unassigned but W" },
	{ S("\xe0\xb8\xbb"), 0, 1, "U+0E3B, unassigned: one" },
	{ S("\xf0\xaf\xbf\xbe"), 0, 1, "U+2FFFE, noncharacter: one" },
	{ S("\xef\xb7\x90"), 0, 1, "U+FDD0, noncharacter but valid" },
	{ S("\xf4\x8f\xbf\xbf"), 0, 1, "U+10FFFF, valid" },
	/* not UTF-8: every byte a column */
	{ S("ab\x80"), 0, 3, "stray continuation" },
	{ S("\xc3\xa9\xbf"), 0, 3, "continuation after a whole character" },
	{ S("\xe4\xb8\xad\xff"), 0, 4, "0xFF after a wide character" },
	{ S("\xc0\xaf"), 0, 2, "overlong 2-byte (C0)" },
	{ S("\xc1\xbf"), 0, 2, "overlong 2-byte (C1)" },
	{ S("\xe0\x80\xaf"), 0, 3, "overlong 3-byte" },
	{ S("\xe0\x9f\xbf"), 0, 3, "overlong 3-byte, highest" },
	{ S("\xf0\x80\x80\xaf"), 0, 4, "overlong 4-byte" },
	{ S("\xf0\x8f\xbf\xbf"), 0, 4, "overlong 4-byte, highest" },
	{ S("\xed\xa0\x80"), 0, 3, "surrogate U+D800" },
	{ S("\xed\xbf\xbf"), 0, 3, "surrogate U+DFFF" },
	{ S("\xed\x9f\xbf"), 0, 1, "U+D7FF, below the surrogates" },
	{ S("\xf4\x90\x80\x80"), 0, 4, "U+110000" },
	{ S("\xf5\x80\x80\x80"), 0, 4, "lead byte F5" },
	{ S("\xf8\x88\x80\x80\x80"), 0, 5, "5-byte form" },
	{ S("\xfe"), 0, 1, "0xFE" },
	{ S("\xef\xbf\xbe"), 0, 3, "U+FFFE" },
	{ S("\xef\xbf\xbf"), 0, 3, "U+FFFF" },
	{ S("\xef\xbf\xbd"), 0, 1, "U+FFFD, valid" },
	{ S("ab\xc3"), 0, 3, "truncated 2-byte at the end" },
	{ S("\xe4\xb8"), 0, 2, "truncated 3-byte at the end" },
	{ S("\xf0\x9f\x98"), 0, 3, "truncated 4-byte at the end" },
	{ S("\xe4\xb8z"), 0, 3, "3-byte cut by ASCII" },
	/* colour sequences */
	{ S("\033[31mred\033[m"), A, 3, "colour sequences skipped" },
	{ S("\033[1;31;mx"), A, 1, "digits and semicolons" },
	{ S("\033[31mred\033[m"), 0, 9, "colour sequences counted without the flag" },
	{ S("\033[1xa"), A, 4, "ESC [ 1 x: not a colour sequence" },
	{ S("\033(Ba"), A, 3, "ESC ( B: the ESC alone has no width" },
	{ S("a\033["), A, 2, "unfinished at the end" },
	{ S("a\033[12"), A, 4, "unfinished digits at the end" },
	{ S("\033\033[mx"), A, 1, "ESC, then a sequence" },
	{ S("\033[m\xe4\xb8\xad"), A, 2, "sequence before a wide character" },
	{ S("\033[m\xff"), A, 4, "not UTF-8: all bytes count, the sequence's too" },
	/* Not seen from git, whose callers stop at a NUL: inside the
	 * length, a NUL is a character of no width. */
	{ S("a\0b"), 0, 2, "NUL inside" },
	{ S("\xc3\0"), 0, 2, "2-byte cut by NUL" },
};

static void quoted(char *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			*out++ = c;
		else
			out += sprintf(out, "\\x%02x", c);
	}
	*out = 0;
}

static const struct {
	uint32_t cp;
	int want;
} chars[] = {
	{ 0, 0 }, { 0x1f, 0 }, { 0x20, 1 }, { 0x7e, 1 }, { 0x7f, 0 }, { 0x9f, 0 }, { 0xa0, 1 },
	{ 0x2ff, 1 }, { 0x300, 0 }, { 0x36f, 0 }, { 0x370, 1 },
	{ 0x10ff, 1 }, { 0x1100, 2 }, { 0x115f, 2 }, { 0x1160, 0 }, { 0x11ff, 0 }, { 0x1200, 1 },
	{ 0x200a, 1 }, { 0x200b, 0 }, { 0x200f, 0 }, { 0x2010, 1 },
	{ 0x2e7f, 1 }, { 0x2e80, 2 }, { 0x3029, 2 }, { 0x302a, 0 }, { 0x302d, 0 }, { 0x302e, 2 },
	{ 0x303e, 2 }, { 0x303f, 1 }, { 0x3040, 1 }, { 0x3041, 2 },
	{ 0x4dbf, 2 }, { 0x4dc0, 1 }, { 0x4e00, 2 }, { 0x9fff, 2 },
	{ 0xabff, 1 }, { 0xac00, 2 }, { 0xd7a3, 2 }, { 0xd7a4, 1 },
	{ 0xfe0f, 0 }, { 0xff00, 1 }, { 0xff01, 2 }, { 0xff60, 2 }, { 0xff61, 1 },
	{ 0xffe0, 2 }, { 0xffe6, 2 }, { 0xffe7, 1 },
	{ 0x1f5ff, 2 }, { 0x1fae7, 2 }, { 0x1fae8, 1 },
	{ 0x1fffd, 1 }, { 0x20000, 2 }, { 0x2fffd, 2 }, { 0x2fffe, 1 },
	{ 0x30000, 2 }, { 0x3fffd, 2 }, { 0x3fffe, 1 },
	{ 0xe0000, 1 }, { 0xe0001, 0 }, { 0xe01ef, 0 }, { 0xe01f0, 1 }, { 0x10ffff, 1 },
};

int main(void)
{
	char buf[256];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t got = utf8_width(cases[i].s, cases[i].n, cases[i].flags);
		quoted(buf, cases[i].s, cases[i].n);
		check(got == cases[i].want, "%s: \"%s\"%s is %zu wide (got %zu)", cases[i].what, buf,
		      cases[i].flags ? " skipping colours" : "", cases[i].want, got);
	}
	for (size_t i = 0; i < ARRAY_SIZE(chars); i++) {
		int got = utf8_char_width(chars[i].cp);
		check(got == chars[i].want, "U+%04X is %d wide (got %d)", (unsigned)chars[i].cp,
		      chars[i].want, got);
	}
	return tap_done();
}
