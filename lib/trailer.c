/* trailer.c: the trailer block of a message, by git's rules. */
#include "lib/util.h"
#include "lib/trailer.h"
#include "lib/config.h"
#include "lib/hex.h"
#include <ctype.h>
#include <strings.h>

/* The lines git itself writes, which make a block count as trailers
 * even among other lines. */
static const char *const generated[] = { "Signed-off-by: ", "(cherry picked from commit " };

/*
 * The trailer config, read once before the first message is looked at,
 * as git reads it: trailer.separators (the characters that may end a
 * token, ":" by default), and the tokens of trailer.<name>.* in config
 * order. A line starting with such a token counts as git's own lines do
 * when the block is judged, and one that has trailer.<name>.key is
 * printed (and filtered) under that key.
 */
struct trailer_token {
	char *name, *key;
};

static struct {
	int loaded;
	const char *separators;
	struct trailer_token *tokens;
	size_t nr, alloc;
} conf = { 0, ":", NULL, 0, 0 };

static void warn_unknown(const char *key, const char *value, const char *const *known)
{
	for (size_t i = 0; value && known[i]; i++)
		if (!strcasecmp(value, known[i]))
			return;
	if (value)
		warning("unknown value '%s' for key '%s'", value, key);
}

static int trailer_config(const char *key, const char *value, void *data)
{
	static const char *const where[] = { "after", "before", "end", "start", NULL };
	static const char *const ifexists[] = { "addIfDifferentNeighbor", "addIfDifferent", "add",
						"replace", "doNothing", NULL };
	static const char *const ifmissing[] = { "doNothing", "add", NULL };
	const char *rest, *var;
	struct trailer_token *t = NULL;
	(void)data;

	if (!skip_prefix(key, "trailer.", &rest))
		return 0;
	if (!(var = strrchr(rest, '.'))) {
		if (!strcmp(rest, "separators")) {
			if (!value)
				config_die_missing_value(key);
			static char *owned;
			free(owned);
			conf.separators = owned = xstrdup(value);
		} else if (!strcmp(rest, "where")) {
			warn_unknown(key, value, where);
		} else if (!strcmp(rest, "ifexists")) {
			warn_unknown(key, value, ifexists);
		} else if (!strcmp(rest, "ifmissing")) {
			warn_unknown(key, value, ifmissing);
		}
		return 0;
	}
	var++;
	if (strcmp(var, "key") && strcmp(var, "command") && strcmp(var, "cmd") &&
	    strcmp(var, "where") && strcmp(var, "ifexists") && strcmp(var, "ifmissing"))
		return 0;
	for (size_t i = 0; i < conf.nr; i++)
		if (strlen(conf.tokens[i].name) == (size_t)(var - 1 - rest) &&
		    !strncasecmp(conf.tokens[i].name, rest, (size_t)(var - 1 - rest)))
			t = &conf.tokens[i];
	if (!t) {
		ALLOC_GROW(conf.tokens, conf.nr + 1, conf.alloc);
		t = &conf.tokens[conf.nr++];
		t->name = xstrndup(rest, (size_t)(var - 1 - rest));
		t->key = NULL;
	}
	if (!strcmp(var, "where")) {
		warn_unknown(key, value, where);
	} else if (!strcmp(var, "ifexists")) {
		warn_unknown(key, value, ifexists);
	} else if (!strcmp(var, "ifmissing")) {
		warn_unknown(key, value, ifmissing);
	} else {
		if (!strcmp(var, "key") && t->key)
			warning("more than one %s", key);
		if (!value)
			config_die_missing_value(key);
		if (!strcmp(var, "key")) {
			free(t->key);
			t->key = xstrdup(value);
		}
	}
	return 0;
}

static void load_config(void)
{
	if (conf.loaded)
		return;
	conf.loaded = 1;
	config_for_each(CONFIG_ALL, trailer_config, NULL);
}

/* The configured token tok[0..n) starts, by git's rule: the first n
 * characters of its name or of its key, in any case. */
static const struct trailer_token *token_of(const char *tok, size_t n)
{
	for (size_t i = 0; i < conf.nr; i++) {
		const struct trailer_token *t = &conf.tokens[i];
		if (!strncasecmp(tok, t->name, n) || (t->key && !strncasecmp(tok, t->key, n)))
			return t;
	}
	return NULL;
}

/* Where "token:" ends (the separator, one of trailer.separators), or
 * -1: the token is letters, digits and '-', and may be followed by
 * blanks before the separator. */
static ssize_t separator_at(const char *p, const char *end)
{
	int blank = 0;
	for (const char *c = p; c < end && *c != '\n'; c++) {
		if (*c && strchr(conf.separators, *c))
			return c - p;
		if (!blank && (isalnum((unsigned char)*c) || *c == '-'))
			continue;
		if (c != p && (*c == ' ' || *c == '\t')) {
			blank = 1;
			continue;
		}
		break;
	}
	return -1;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl + 1 : end;
}

static int blank_line(const char *p, const char *end)
{
	for (; p < end && *p != '\n'; p++)
		if (!git_isspace((unsigned char)*p))
			return 0;
	return 1;
}

/* The message as far as trailers go: before the scissors line, and
 * any comment or blank lines (and an old "Conflicts:" block) at its end. */
static size_t message_end(const char *msg, size_t len)
{
	static const char scissors[] = "# ------------------------ >8 ------------------------\n";
	size_t cut = len, bol, boc = 0;
	int conflicts = 0;

	/* (git's ref-filter reads trailers with no "---" divider) */
	for (const char *p = msg; p < msg + len; p = line_end(p, msg + len))
		if ((p == msg || p[-1] == '\n') && (size_t)(msg + len - p) >= sizeof(scissors) - 1 &&
		    !memcmp(p, scissors, sizeof(scissors) - 1)) {
			cut = (size_t)(p - msg);
			break;
		}
	for (bol = 0; bol < cut; bol = (size_t)(line_end(msg + bol, msg + len) - msg)) {
		const char *p = msg + bol;
		if (*p == '#' || *p == '\n') {
			if (!boc)
				boc = bol;
		} else if ((size_t)(msg + len - p) >= 11 && !memcmp(p, "Conflicts:\n", 11)) {
			conflicts = 1;
			if (!boc)
				boc = bol;
		} else if (conflicts && *p == '\t') {
			;
		} else if (boc) {
			boc = 0;
			conflicts = 0;
		}
	}
	return boc ? boc : cut;
}

/* The start of the last line before position at (which starts a line). */
static size_t line_before(const char *msg, size_t at)
{
	size_t i = at ? at - 1 : 0;
	while (i > 0 && msg[i - 1] != '\n')
		i--;
	return i;
}

/*
 * Where the trailer block starts, or len when there is none: the last
 * paragraph after the title, if all its lines are trailers, or if one
 * is a line git writes and at least a quarter are trailers (continuation
 * lines counting with the line they continue).
 */
static size_t block_start(const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;
	size_t title_end, l;
	int only_blank = 1, git_line = 0, trailers = 0, others = 0, cont = 0;

	while (p < end && (*p == '#' || !blank_line(p, end)))
		p = line_end(p, end);
	title_end = (size_t)(p - msg);
	if (!len)
		return len;
	for (l = line_before(msg, len); ; l = line_before(msg, l)) {
		const char *bol = msg + l;
		int is_generated = 0;
		ssize_t sep;
		if (l < title_end)
			break;
		if (*bol == '#') {
			others += cont;
			cont = 0;
		} else if (blank_line(bol, end)) {
			if (!only_blank) {
				others += cont;
				if ((git_line && trailers * 3 >= others) || (trailers && !others))
					return (size_t)(line_end(bol, end) - msg);
				return len;
			}
		} else {
			only_blank = 0;
			for (size_t i = 0; i < ARRAY_SIZE(generated); i++)
				if (!strncmp(bol, generated[i], strlen(generated[i])))
					is_generated = 1;
			if (is_generated) {
				trailers++;
				cont = 0;
				git_line = 1;
			} else if ((sep = separator_at(bol, end)) >= 1 && !git_isspace((unsigned char)*bol)) {
				trailers++;
				cont = 0;
				if (token_of(bol, (size_t)sep))
					git_line = 1;
			} else if (git_isspace((unsigned char)*bol)) {
				cont++;
			} else {
				others += 1 + cont;
				cont = 0;
			}
		}
		if (!l)
			break;
	}
	return len;
}

/* %xNN and %n in a separator, as git expands them. */
static void expand_literal(struct strbuf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%' || i + 1 >= n) {
			strbuf_addch(out, s[i]);
			continue;
		}
		if (s[i + 1] == '%') {
			strbuf_addch(out, '%');
			i++;
		} else if (s[i + 1] == 'n') {
			strbuf_addch(out, '\n');
			i++;
		} else if (s[i + 1] == 'x' && i + 3 < n && isxdigit((unsigned char)s[i + 2]) &&
			   isxdigit((unsigned char)s[i + 3])) {
			strbuf_addch(out, hexval(s[i + 2]) << 4 | hexval(s[i + 3]));
			i += 3;
		} else {
			strbuf_addch(out, '%');
		}
	}
}

/* One option word at *p: name, with "=value" when value is wanted
 * (or allowed). 1 when it matched (*p then past it), else 0. */
static int option(const char **p, const char *name, const char **val, size_t *vlen)
{
	const char *q;
	if (!skip_prefix(*p, name, &q))
		return 0;
	if (val) {
		*val = NULL;
		*vlen = 0;
		if (*q == '=') {
			*val = q + 1;
			*vlen = strcspn(*val, ",");
			q = *val + *vlen;
		}
	}
	if (*q && *q != ',')
		return 0;
	*p = *q ? q + 1 : q;
	return 1;
}

/* A word that is not a boolean is consumed all the same, as git
 * consumes it: what follows is then tried as the next boolean only. */
static int bool_option(const char **p, const char *name, int *flag)
{
	const char *val;
	size_t n;
	char *v;
	int b;
	if (!option(p, name, &val, &n))
		return 0;
	if (!val) {
		*flag = 1;
		return 1;
	}
	v = xstrndup(val, n);
	b = config_maybe_bool_int(v);
	free(v);
	if (b < 0)
		return 0;
	*flag = b;
	return 1;
}

int trailer_opts_parse(struct trailer_opts *o, const char *opts, struct strbuf *err)
{
	const char *p = opts ? opts : "";

	memset(o, 0, sizeof(*o));
	strbuf_init(&o->sep_buf, 0);
	strbuf_init(&o->kv_buf, 0);
	/* as git: the valued options first, then the booleans */
	while (*p) {
		const char *val;
		size_t n;
		if (option(&p, "key", &val, &n)) {
			if (!val) {
				strbuf_addstr(err, "expected %(trailers:key=<value>)");
				return -1;
			}
			if (n && val[n - 1] == ':')
				n--;
			o->keys = xrealloc(o->keys, (o->nkeys + 1) * sizeof(*o->keys));
			o->keys[o->nkeys++] = xstrndup(val, n);
			o->only = 1;
		} else if (option(&p, "separator", &val, &n)) {
			strbuf_reset(&o->sep_buf);
			expand_literal(&o->sep_buf, val ? val : "", n);
			o->separator = &o->sep_buf;
		} else if (option(&p, "key_value_separator", &val, &n)) {
			strbuf_reset(&o->kv_buf);
			expand_literal(&o->kv_buf, val ? val : "", n);
			o->kv_separator = &o->kv_buf;
		} else if (!bool_option(&p, "only", &o->only) && !bool_option(&p, "unfold", &o->unfold) &&
			   !bool_option(&p, "keyonly", &o->key_only) &&
			   !bool_option(&p, "valueonly", &o->value_only)) {
			strbuf_addf(err, "unknown %%(trailers) argument: %.*s", (int)strcspn(p, ","), p);
			return -1;
		}
	}
	return 0;
}

void trailer_opts_release(struct trailer_opts *o)
{
	for (size_t i = 0; i < o->nkeys; i++)
		free(o->keys[i]);
	free(o->keys);
	strbuf_release(&o->sep_buf);
	strbuf_release(&o->kv_buf);
}

static int wanted(const struct trailer_opts *o, const char *key, size_t n)
{
	if (!o->nkeys)
		return 1;
	for (size_t i = 0; i < o->nkeys; i++)
		if (strlen(o->keys[i]) == n && !strncasecmp(o->keys[i], key, n))
			return 1;
	return 0;
}

/* Leading and trailing white space off s[0..*n). */
static const char *trim(const char *s, size_t *n)
{
	while (*n && git_isspace((unsigned char)*s)) {
		s++;
		(*n)--;
	}
	while (*n && git_isspace((unsigned char)s[*n - 1]))
		(*n)--;
	return s;
}

static void one_trailer(struct strbuf *out, const char *t, size_t tn, const struct trailer_opts *o,
			size_t origin)
{
	ssize_t sep = separator_at(t, t + tn);
	struct strbuf val = STRBUF_INIT;
	size_t kn, vn;
	const char *k, *v;

	if (sep < 1) {
		if (o->only)
			return;
		if (o->separator && out->len != origin)
			strbuf_addbuf(out, o->separator);
		strbuf_add(out, t, tn);
		if (o->separator)
			strbuf_rtrim(out);
		return;
	}
	kn = (size_t)sep;
	k = trim(t, &kn);
	{
		/* a configured token is printed as its key; git matches it on
		 * the token without the non-alphanumerics it ends with */
		size_t n = kn;
		const struct trailer_token *ct;
		while (n && !isalnum((unsigned char)k[n - 1]))
			n--;
		if ((ct = token_of(k, n)) && ct->key) {
			k = ct->key;
			kn = strlen(k);
		}
	}
	vn = tn - (size_t)sep - 1;
	v = trim(t + sep + 1, &vn);
	if (!wanted(o, k, kn))
		return;
	if (o->unfold) {
		/* a line break and the blanks after it: one space */
		for (size_t i = 0; i < vn; i++) {
			if (v[i] == '\n') {
				while (i + 1 < vn && git_isspace((unsigned char)v[i + 1]))
					i++;
				strbuf_addch(&val, ' ');
			} else {
				strbuf_addch(&val, v[i]);
			}
		}
		strbuf_trim(&val);
	} else {
		strbuf_add(&val, v, vn);
	}
	if (o->separator && out->len != origin)
		strbuf_addbuf(out, o->separator);
	if (!o->value_only)
		strbuf_add(out, k, kn);
	if (!o->key_only && !o->value_only) {
		if (o->kv_separator)
			strbuf_addbuf(out, o->kv_separator);
		else
			strbuf_addstr(out, ": ");
	}
	if (!o->key_only)
		strbuf_addbuf(out, &val);
	if (!o->separator)
		strbuf_addch(out, '\n');
	strbuf_release(&val);
}

void trailer_format(struct strbuf *out, const char *msg, size_t len, const struct trailer_opts *o)
{
	size_t end, start, origin = out->len;
	load_config();
	end = message_end(msg, len);
	start = block_start(msg, end);
	const char *p = msg + start, *e = msg + end;

	if (!o->only && !o->unfold && !o->separator && !o->kv_separator && !o->key_only &&
	    !o->value_only && !o->nkeys) {
		strbuf_add(out, p, (size_t)(e - p));
		return;
	}
	/* a line starting with white space continues the trailer before it */
	while (p < e) {
		const char *q = line_end(p, e);
		if (separator_at(p, e) >= 1)
			while (q < e && git_isspace((unsigned char)*q) && *q != '\n')
				q = line_end(q, e);
		one_trailer(out, p, (size_t)(q - p), o, origin);
		p = q;
	}
}
