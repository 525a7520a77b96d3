/* color.c: colour specifications (lib/color.h).
 *
 * A specification is words: at most two colours (foreground, then
 * background), attributes in any place, and "reset". The escape lists
 * "reset" as an empty first field, then the attributes in the order of
 * their codes, then the colours. */
#include "lib/util.h"
#include "lib/color.h"
#include <ctype.h>
#include <strings.h>

enum color_kind { C_NONE, C_NORMAL, C_DEFAULT, C_ANSI, C_256, C_RGB };

struct color {
	enum color_kind kind;
	unsigned value;           /* ANSI 0-15, 256-colour index, or 0xRRGGBB */
};

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int parse_color_word(const char *w, size_t n, struct color *c)
{
	static const char *const names[] = { "black", "red", "green", "yellow", "blue",
					     "magenta", "cyan", "white" };
	unsigned bright = 0;
	char num[16];
	char *end;
	long v;

	if (n == 6 && !strncasecmp(w, "normal", 6)) {
		c->kind = C_NORMAL;
		return 0;
	}
	if (n == 7 && !strncasecmp(w, "default", 7)) {
		c->kind = C_DEFAULT;
		return 0;
	}
	if (n == 7 && w[0] == '#') {
		unsigned rgb = 0;
		for (size_t i = 1; i < 7; i++) {
			int d = hex_digit((unsigned char)w[i]);
			if (d < 0)
				return -1;
			rgb = rgb << 4 | (unsigned)d;
		}
		c->kind = C_RGB;
		c->value = rgb;
		return 0;
	}
	if (n > 6 && !strncasecmp(w, "bright", 6)) {
		bright = 8;
		w += 6;
		n -= 6;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !strncasecmp(w, names[i], n)) {
			c->kind = C_ANSI;
			c->value = (unsigned)i + bright;
			return 0;
		}
	if (bright || !n || n >= sizeof(num))
		return -1;
	/* a number: -1 is "normal", 0-15 the ANSI colours, up to 255 the
	 * 256-colour palette */
	memcpy(num, w, n);
	num[n] = 0;
	errno = 0;
	v = strtol(num, &end, 10);
	if (*end || errno || v < -1 || v > 255)
		return -1;
	if (v < 0)
		c->kind = C_NORMAL;
	else {
		c->kind = v < 16 ? C_ANSI : C_256;
		c->value = (unsigned)v;
	}
	return 0;
}

/* The SGR code an attribute word sets (or, prefixed "no"/"no-", clears). */
static int attr_code(const char *w, size_t n)
{
	static const struct { const char *name; int on, off; } attrs[] = {
		{ "bold", 1, 22 }, { "dim", 2, 22 }, { "italic", 3, 23 }, { "ul", 4, 24 },
		{ "blink", 5, 25 }, { "reverse", 7, 27 }, { "strike", 9, 29 },
	};
	int neg = 0;
	if (n > 2 && !strncmp(w, "no", 2)) {
		neg = 1;
		w += 2;
		n -= 2;
		if (n > 1 && *w == '-') {
			w++;
			n--;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++)
		if (strlen(attrs[i].name) == n && !strncmp(w, attrs[i].name, n))
			return neg ? attrs[i].off : attrs[i].on;
	return -1;
}

static void add_color(struct strbuf *out, const struct color *c, int background)
{
	unsigned base = background ? 40 : 30;
	switch (c->kind) {
	case C_NONE: case C_NORMAL:
		return;
	case C_DEFAULT:
		strbuf_addf(out, ";%u", base + 9);
		return;
	case C_ANSI:
		strbuf_addf(out, ";%u", c->value < 8 ? base + c->value : base + 60 + c->value - 8);
		return;
	case C_256:
		strbuf_addf(out, ";%u;5;%u", base + 8, c->value);
		return;
	case C_RGB:
		strbuf_addf(out, ";%u;2;%u;%u;%u", base + 8, c->value >> 16, (c->value >> 8) & 0xff,
			    c->value & 0xff);
		return;
	}
}

int color_parse(const char *spec, struct strbuf *out)
{
	struct color fg = { C_NONE, 0 }, bg = { C_NONE, 0 };
	uint32_t codes = 0;    /* bit n: SGR code n (1-9) or 20 + n (22-29) */
	int reset = 0;
	const char *p = spec;
	struct strbuf sgr = STRBUF_INIT;

	for (;;) {
		const char *w;
		size_t n;
		struct color c;
		int code;
		while (git_isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && !git_isspace((unsigned char)*p))
			p++;
		n = p - w;
		if (n == 5 && !strncmp(w, "reset", 5))
			reset = 1;
		else if (!parse_color_word(w, n, &c)) {
			if (fg.kind == C_NONE)
				fg = c;
			else if (bg.kind == C_NONE)
				bg = c;
			else
				goto bad;
		} else if ((code = attr_code(w, n)) >= 0)
			codes |= 1u << (code < 20 ? code : code - 10);
		else
			goto bad;
	}
	for (int b = 0; b < 20; b++)
		if (codes & (1u << b))
			strbuf_addf(&sgr, ";%d", b < 10 ? b : b + 10);
	add_color(&sgr, &fg, 0);
	add_color(&sgr, &bg, 1);
	/* "reset" is an empty first field; otherwise drop the first ';' */
	if (reset || sgr.len)
		strbuf_addf(out, "\033[%sm", reset ? sgr.buf : sgr.buf + 1);
	strbuf_release(&sgr);
	return 0;
bad:
	strbuf_release(&sgr);
	return error("invalid color value: %s", spec);
}
