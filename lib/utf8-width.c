/* utf8-width.c: the columns of lib/utf8-width.h. Printable ASCII is
 * counted first, before any other test, so that ASCII names cost one
 * comparison a byte; other characters are decoded and looked up in the
 * sorted range tables of utf8-width-table.h (tools/gen-utf8-width.py),
 * by binary search. */
#include "lib/utf8-width.h"

struct utf8_range {
	uint32_t first, last;
};

#include "lib/utf8-width-table.h"

static int in_table(uint32_t cp, const struct utf8_range *t, size_t nr)
{
	size_t lo = 0, hi = nr;

	if (cp < t[0].first || cp > t[nr - 1].last)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cp > t[mid].last)
			lo = mid + 1;
		else if (cp < t[mid].first)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

int utf8_char_width(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
		return 0;
	if (in_table(cp, zero_width, sizeof(zero_width) / sizeof(zero_width[0])))
		return 0;
	if (in_table(cp, double_width, sizeof(double_width) / sizeof(double_width[0])))
		return 2;
	return 1;
}

/* The length of the character at s (of n > 0 bytes, s[0] not ASCII), its
 * code point in *cp; 0 if it is not UTF-8. */
static size_t decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char min = 0x80, max = 0xbf;  /* the second byte's bounds */
	size_t len;
	uint32_t v;

	if (s[0] < 0xc2) {              /* continuation, or overlong C0/C1 */
		return 0;
	} else if (s[0] < 0xe0) {
		len = 2;
		v = s[0] & 0x1f;
	} else if (s[0] < 0xf0) {
		len = 3;
		v = s[0] & 0x0f;
		if (s[0] == 0xe0)
			min = 0xa0;     /* below U+0800: overlong */
		else if (s[0] == 0xed)
			max = 0x9f;     /* U+D800..U+DFFF: surrogates */
	} else if (s[0] < 0xf5) {
		len = 4;
		v = s[0] & 0x07;
		if (s[0] == 0xf0)
			min = 0x90;     /* below U+10000: overlong */
		else if (s[0] == 0xf4)
			max = 0x8f;     /* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < min || s[1] > max)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v == 0xfffe || v == 0xffff)
		return 0;
	*cp = v;
	return len;
}

/* The length of the colour sequence at s[0..n) (s[0] is ESC), or 0. */
static size_t ansi_len(const unsigned char *s, size_t n)
{
	size_t i = 1;

	if (i >= n || s[i++] != '[')
		return 0;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	return i < n && s[i] == 'm' ? i + 1 : 0;
}

size_t utf8_width(const char *str, size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;
	size_t width = 0;

	while (s < end) {
		uint32_t cp;
		size_t len;

		if (*s >= 0x20 && *s < 0x7f) {
			width++;
			s++;
			continue;
		}
		if (*s < 0x80) {        /* NUL, a control, DEL: no column */
			len = 0;
			if (*s == 0x1b && (flags & UTF8_WIDTH_SKIP_ANSI))
				len = ansi_len(s, end - s);
			s += len ? len : 1;
			continue;
		}
		len = decode(s, end - s, &cp);
		if (!len)
			return n;
		width += utf8_char_width(cp);
		s += len;
	}
	return width;
}
