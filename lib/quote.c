/* quote.c: C-style quoted strings and shell words (lib/quote.h). */
#include "lib/util.h"
#include "lib/quote.h"

int unquote_c_style(struct strbuf *out, const char *in, const char **end)
{
	static const char from[] = "abfnrtv\\\"", to[] = "\a\b\f\n\r\t\v\\\"";
	const char *p = in;

	if (*p++ != '"')
		return -1;
	for (;;) {
		size_t run = strcspn(p, "\"\\");
		const char *e;
		strbuf_add(out, p, run);
		p += run;
		if (*p == '"') {
			*end = p + 1;
			return 0;
		}
		if (*p != '\\')
			return -1;          /* the string ended inside the quotes */
		p++;
		if (*p && (e = strchr(from, *p))) {
			strbuf_addch(out, to[e - from]);
			p++;
		} else if (*p >= '0' && *p <= '3' && p[1] >= '0' && p[1] <= '7' &&
			   p[2] >= '0' && p[2] <= '7') {
			strbuf_addch(out, (char)((p[0] - '0') << 6 | (p[1] - '0') << 3 | (p[2] - '0')));
			p += 3;
		} else
			return -1;
	}
}

void sq_quote_buf(struct strbuf *out, const char *s, size_t n)
{
	strbuf_addch(out, '\'');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\'' || s[i] == '!') {
			strbuf_addstr(out, "'\\");
			strbuf_addch(out, s[i]);
			strbuf_addch(out, '\'');
		} else {
			strbuf_addch(out, s[i]);
		}
	}
	strbuf_addch(out, '\'');
}
