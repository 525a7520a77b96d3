/* config.c: reading git config files. Everything is lazy: the files of a
 * scope are parsed the first time a value from that scope is wanted. */
#include "lib/config.h"
#include "lib/repo.h"
#include "lib/hex.h"
#include <ctype.h>
#include <limits.h>

struct parser {
	const char *p, *end, *name;
	int line;
	int eof;
	struct strbuf section; /* "section" or "section.subsection" */
};

static int peekc(struct parser *ps)
{
	return ps->p < ps->end ? (unsigned char)*ps->p : EOF;
}

/*
 * The end of the file reads as a newline that ends the last line (and
 * counts as one, as in git's line numbers), with ps->eof set. An error
 * found on reading a newline inside an unfinished construct is reported
 * on the line that newline ends: see incomplete_line().
 */
static int getc_cfg(struct parser *ps)
{
	int c = peekc(ps);
	if (c == EOF) {
		ps->eof = 1;
		ps->line++;
		return '\n';
	}
	ps->p++;
	if (c == '\r' && peekc(ps) == '\n') {
		ps->p++;
		c = '\n';
	}
	if (c == '\n')
		ps->line++;
	return c;
}

static NORETURN void bad_line(struct parser *ps)
{
	die("bad config line %d in file %s", ps->line, ps->name);
}

static NORETURN void incomplete_line(struct parser *ps)
{
	ps->line--;
	bad_line(ps);
}

static void parse_section(struct parser *ps)
{
	int c;
	strbuf_reset(&ps->section);
	for (;;) {
		c = getc_cfg(ps);
		if (ps->eof)
			bad_line(ps);
		if (c == ']') {
			if (!ps->section.len)  /* "[]" */
				bad_line(ps);
			return;
		}
		if (git_isspace(c)) {
			/* [section "subsection"] */
			while (git_isspace(c)) {
				if (c == '\n')
					incomplete_line(ps);
				c = getc_cfg(ps);
			}
			if (c != '"')
				bad_line(ps);
			strbuf_addch(&ps->section, '.');
			for (;;) {
				c = getc_cfg(ps);
				if (c == '\n')
					incomplete_line(ps);
				if (c == '"')
					break;
				if (c == '\\') {
					c = getc_cfg(ps);
					if (c == '\n')
						incomplete_line(ps);
				}
				strbuf_addch(&ps->section, c);
			}
			if (getc_cfg(ps) != ']')
				bad_line(ps);
			return;
		}
		if (!isalnum(c) && c != '-' && c != '.')
			bad_line(ps);
		strbuf_addch(&ps->section, tolower(c));
	}
}

/* Value after '=': quotes, escapes, comments, continuation lines. */
static void parse_value(struct parser *ps, struct strbuf *val)
{
	int quoted = 0, c;
	size_t trim = 0; /* length without trailing unquoted spaces */
	strbuf_reset(val);
	while ((c = peekc(ps)) == ' ' || c == '\t')
		getc_cfg(ps);
	for (;;) {
		c = getc_cfg(ps);
		if (c == '\n') {
			if (quoted)
				incomplete_line(ps);
			break;
		}
		if (!quoted && (c == ';' || c == '#')) {
			while ((c = getc_cfg(ps)) != '\n')
				;
			break;
		}
		if (c == '\\') {
			c = getc_cfg(ps);
			switch (c) {
			case '\n':
				/* a continuation, at the end of the file too
				 * (an open quote is then unfinished) */
				continue;
			case 't': c = '\t'; break;
			case 'b': c = '\b'; break;
			case 'n': c = '\n'; break;
			case '\\': case '"': break;
			default: bad_line(ps);
			}
			strbuf_addch(val, c);
			trim = val->len;
			continue;
		}
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		/* git keeps a run of blanks inside a value as spaces, one a
		 * blank (a tab after a continuation line too) */
		if (!quoted && git_isspace(c)) {
			if (val->len)
				strbuf_addch(val, ' ');
			continue;
		}
		strbuf_addch(val, c);
		trim = val->len;
	}
	strbuf_setlen(val, trim);
}

/* Where the variable being handed to a callback was read: collect()
 * keeps it for config_die_bad_variable(). */
static struct {
	int line;
} parse_at;

int config_parse_buf(const char *buf, size_t len, const char *name, config_fn fn, void *data)
{
	struct parser ps = { buf, buf + len, name, 1, 0, STRBUF_INIT };
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	int ret = 0;

	/* UTF-8 byte order mark */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		ps.p += 3;
	for (;;) {
		int c = getc_cfg(&ps);
		size_t base;
		if (ps.eof)
			break;
		parse_at.line = ps.line;
		if (c == '\n' || git_isspace(c))
			continue;
		if (c == '#' || c == ';') {
			while ((c = getc_cfg(&ps)) != '\n')
				;
			continue;
		}
		if (c == '[') {
			parse_section(&ps);
			continue;
		}
		if (!isalpha(c) || !ps.section.len)
			bad_line(&ps);
		strbuf_reset(&key);
		strbuf_addbuf(&key, &ps.section);
		strbuf_addch(&key, '.');
		base = key.len;
		strbuf_addch(&key, tolower(c));
		while ((c = peekc(&ps)) != EOF && (isalnum(c) || c == '-')) {
			strbuf_addch(&key, tolower(c));
			getc_cfg(&ps);
		}
		while ((c = peekc(&ps)) == ' ' || c == '\t')
			getc_cfg(&ps);
		(void)base;
		if (c == '=') {
			getc_cfg(&ps);
			parse_value(&ps, &val);
			ret = fn(key.buf, val.buf, data);
		} else if (c == EOF || c == '\n' ||
			   (c == '\r' && ps.p + 1 < ps.end && ps.p[1] == '\n')) {
			/* a name alone on its line (git allows no comment
			 * after it) */
			getc_cfg(&ps);
			ret = fn(key.buf, NULL, data);
		} else {
			bad_line(&ps);
		}
		if (ret < 0)
			break;
	}
	strbuf_release(&key);
	strbuf_release(&val);
	strbuf_release(&ps.section);
	return ret < 0 ? ret : 0;
}

int config_parse_file(const char *path, config_fn fn, void *data)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;
	if (strbuf_read_file(&sb, path, 0) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	ret = config_parse_buf(sb.buf, sb.len, path, fn, data);
	strbuf_release(&sb);
	return ret;
}

/* --- the cache of parsed scopes --- */

struct kv {
	char *key, *value; /* value NULL: implicit true */
	const char *file;  /* NULL: the command line (-c) */
	int line;
};

struct scope_cache {
	int loaded;
	struct kv *items;
	size_t nr, alloc;
	char **files;      /* the names items point to */
	size_t files_nr, files_alloc;
};

static struct scope_cache caches[3]; /* system, global, repo */
static struct strbuf params = STRBUF_INIT; /* -c key=value, one per line */

static int collect(const char *key, const char *value, void *data)
{
	struct scope_cache *c = data;
	ALLOC_GROW(c->items, c->nr + 1, c->alloc);
	c->items[c->nr].key = xstrdup(key);
	c->items[c->nr].value = value ? xstrdup(value) : NULL;
	c->items[c->nr].file = c->files ? c->files[c->files_nr - 1] : NULL;
	c->items[c->nr].line = parse_at.line;
	c->nr++;
	return 0;
}

/* collect() for the files of a scope: each file's name is kept once. */
static void parse_into(struct scope_cache *c, const char *path)
{
	ALLOC_GROW(c->files, c->files_nr + 1, c->files_alloc);
	c->files[c->files_nr++] = xstrdup(path);
	config_parse_file(path, collect, c);
}

static void load_global(struct scope_cache *c)
{
	const char *env = getenv("GIT_CONFIG_GLOBAL"), *home, *xdg;
	if (env) {
		if (*env)
			parse_into(c, env);
		return;
	}
	home = getenv("HOME");
	xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg) {
		char *p = xstrfmt("%s/git/config", xdg);
		parse_into(c, p);
		free(p);
	} else if (home) {
		char *p = xstrfmt("%s/.config/git/config", home);
		parse_into(c, p);
		free(p);
	}
	if (home) {
		char *p = xstrfmt("%s/.gitconfig", home);
		parse_into(c, p);
		free(p);
	}
}

static struct scope_cache *scope(int i)
{
	struct scope_cache *c = &caches[i];
	if (c->loaded)
		return c;
	c->loaded = 1;
	if (i == 0) {
		const char *sys = getenv("GIT_CONFIG_SYSTEM");
		if (!env_bool("GIT_CONFIG_NOSYSTEM", 0))
			parse_into(c, sys ? sys : "/etc/gitconfig");
	} else if (i == 1) {
		load_global(c);
	} else if (repo_found) {
		parse_into(c, common_path("config"));
	} else {
		c->loaded = 0; /* try again once a repository is set up */
	}
	return c;
}

static int params_collect(const char *key, const char *value, void *data)
{
	return collect(key, value, data);
}

static struct scope_cache param_cache;

void config_push_parameter(const char *kv)
{
	strbuf_addstr(&params, kv);
	strbuf_addch(&params, '\n');
	param_cache.loaded = 0;
}

/* A key as git takes one from the command line: a section and a name. */
static void param_key(struct strbuf *k)
{
	const char *first = strchr(k->buf, '.'), *last = strrchr(k->buf, '.');
	if (!first || first == k->buf) {
		error("key does not contain a section: %s", k->buf);
		die("unable to parse command-line config");
	}
	if (!last[1]) {
		error("key does not contain variable name: %s", k->buf);
		die("unable to parse command-line config");
	}
	/* lower-case section and name; keep a subsection's case */
	for (char *q = k->buf; *q; q++)
		if (q < first || q > last)
			*q = tolower((unsigned char)*q);
}

/* GIT_CONFIG_COUNT=n and GIT_CONFIG_KEY_<i>, GIT_CONFIG_VALUE_<i>: read
 * before the -c options, which thus win. */
static void env_params(void)
{
	const char *env = getenv("GIT_CONFIG_COUNT");
	struct strbuf name = STRBUF_INIT, k = STRBUF_INIT;
	unsigned long n;
	char *end;

	if (!env || !*env)
		return;
	errno = 0;
	n = strtoul(env, &end, 10);
	if (errno || *end) {
		error("bogus count in GIT_CONFIG_COUNT");
		die("unable to parse command-line config");
	}
	if (n > INT_MAX) {
		error("too many entries in GIT_CONFIG_COUNT");
		die("unable to parse command-line config");
	}
	for (unsigned long i = 0; i < n; i++) {
		const char *key, *value;
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_KEY_%lu", i);
		if (!(key = getenv(name.buf))) {
			error("missing config key %s", name.buf);
			die("unable to parse command-line config");
		}
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_VALUE_%lu", i);
		if (!(value = getenv(name.buf))) {
			error("missing config value %s", name.buf);
			die("unable to parse command-line config");
		}
		strbuf_reset(&k);
		strbuf_addstr(&k, key);
		param_key(&k);
		params_collect(k.buf, value, &param_cache);
	}
	strbuf_release(&name);
	strbuf_release(&k);
}

static int have_params(void)
{
	const char *env = getenv("GIT_CONFIG_COUNT");
	return params.len || (env && *env);
}

static struct scope_cache *param_scope(void)
{
	if (!param_cache.loaded) {
		const char *s = params.buf;
		param_cache.loaded = 1;
		param_cache.nr = 0;
		env_params();
		while (*s) {
			const char *nl = strchrnul(s, '\n'), *eq = memchr(s, '=', nl - s);
			struct strbuf k = STRBUF_INIT;
			char *v = eq ? xstrndup(eq + 1, nl - eq - 1) : NULL;
			strbuf_add(&k, s, (eq ? eq : nl) - s);
			param_key(&k);
			params_collect(k.buf, v, &param_cache);
			strbuf_release(&k);
			free(v);
			s = *nl ? nl + 1 : nl;
		}
	}
	return &param_cache;
}

/* The variable config_for_each() is handing to its callback. */
static const struct kv *current;

static int each_item(struct scope_cache *c, config_fn fn, void *data)
{
	for (size_t j = 0; j < c->nr; j++) {
		int r;
		current = &c->items[j];
		r = fn(c->items[j].key, c->items[j].value, data);
		current = NULL;
		if (r < 0)
			return -1;
	}
	return 0;
}

void config_for_each(unsigned scopes, config_fn fn, void *data)
{
	for (int i = 0; i < 3; i++)
		if ((scopes & (1u << i)) && each_item(scope(i), fn, data) < 0)
			return;
	if (have_params())
		each_item(param_scope(), fn, data);
}

void config_die_missing_value(const char *key)
{
	error("missing value for '%s'", key);
	config_die_bad_variable();
}

void config_die_bad_variable(void)
{
	if (!current)
		BUG("config_die_bad_variable() outside config_for_each()");
	if (!current->file)
		die("unable to parse '%s' from command-line config", current->key);
	die("bad config variable '%s' in file '%s' at line %d", current->key, current->file,
	    current->line);
}

static int find_last(struct scope_cache *c, const char *key, const char **value)
{
	for (size_t j = c->nr; j-- > 0;)
		if (!strcmp(c->items[j].key, key)) {
			*value = c->items[j].value;
			return 1;
		}
	return 0;
}

int config_get(const char *key, const char **value)
{
	if (have_params() && find_last(param_scope(), key, value))
		return 1;
	for (int i = 2; i >= 0; i--)
		if (find_last(scope(i), key, value))
			return 1;
	return 0;
}

int config_get_repo(const char *key, const char **value)
{
	return find_last(scope(2), key, value);
}

size_t config_get_all(const char *key, const char ***values)
{
	size_t n = 0, alloc = 0;
	*values = NULL;
	for (int i = 0; i < 4; i++) {
		struct scope_cache *c = i < 3 ? scope(i) : (have_params() ? param_scope() : NULL);
		if (!c)
			continue;
		for (size_t j = 0; j < c->nr; j++)
			if (!strcmp(c->items[j].key, key)) {
				ALLOC_GROW(*values, n + 1, alloc);
				(*values)[n++] = c->items[j].value;
			}
	}
	return n;
}

int config_maybe_bool(const char *value)
{
	if (!value)
		return 1;
	if (!*value)
		return 0;
	if (!strcasecmp(value, "true") || !strcasecmp(value, "yes") || !strcasecmp(value, "on"))
		return 1;
	if (!strcasecmp(value, "false") || !strcasecmp(value, "no") || !strcasecmp(value, "off"))
		return 0;
	return -1;
}

static int parse_int_value(const char *value, long *out)
{
	char *end;
	long v;
	if (!value || !*value)
		return -1;
	errno = 0;
	v = strtol(value, &end, 0);
	if (errno == ERANGE)
		return -2;
	if (end == value)
		return -1;   /* no digits: "k" alone is no number */
	switch (*end) {
	case 'k': case 'K': v *= 1024; end++; break;
	case 'm': case 'M': v *= 1024 * 1024; end++; break;
	case 'g': case 'G': v *= 1024L * 1024 * 1024; end++; break;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int config_maybe_bool_int(const char *value)
{
	int b = config_maybe_bool(value);
	long n;
	if (b >= 0)
		return b;
	if (parse_int_value(value, &n) || n < INT_MIN || n > INT_MAX)
		return -1;
	return n != 0;
}

int env_bool(const char *name, int def)
{
	const char *v = getenv(name);
	int b = v ? config_maybe_bool_int(v) : -1;
	return b >= 0 ? b : def;
}

long config_parse_long(const char *key, const char *value)
{
	long v;
	int r = parse_int_value(value, &v);
	if (r == -2)
		die("bad numeric config value '%s' for '%s': out of range", value, key);
	if (r < 0)
		die("bad numeric config value '%s' for '%s': invalid unit", value ? value : "", key);
	return v;
}

long config_parse_int(const char *key, const char *value)
{
	long v = config_parse_long(key, value);
	if (v < INT_MIN || v > INT_MAX)
		die("bad numeric config value '%s' for '%s': out of range", value, key);
	return v;
}

int config_parse_bool(const char *key, const char *value)
{
	int b = config_maybe_bool(value);
	long v;
	if (b >= 0)
		return b;
	if (!parse_int_value(value, &v))
		return v != 0;
	die("bad boolean config value '%s' for '%s'", value, key);
}

int config_parse_colorbool(const char *key, const char *value)
{
	if (value && !strcasecmp(value, "never"))
		return COLORBOOL_NEVER;
	if (value && !strcasecmp(value, "always"))
		return COLORBOOL_ALWAYS;
	if (value && !strcasecmp(value, "auto"))
		return COLORBOOL_AUTO;
	return config_parse_bool(key, value) ? COLORBOOL_AUTO : COLORBOOL_NEVER;
}

int config_get_bool(const char *key, int def)
{
	const char *v;
	return config_get(key, &v) ? config_parse_bool(key, v) : def;
}

long config_get_int(const char *key, long def)
{
	const char *v;
	return config_get(key, &v) ? config_parse_int(key, v) : def;
}

void config_invalidate(void)
{
	for (int i = 0; i < 3; i++) {
		for (size_t j = 0; j < caches[i].nr; j++) {
			free(caches[i].items[j].key);
			free(caches[i].items[j].value);
		}
		for (size_t j = 0; j < caches[i].files_nr; j++)
			free(caches[i].files[j]);
		caches[i].nr = 0;
		caches[i].files_nr = 0;
		caches[i].loaded = 0;
	}
}
