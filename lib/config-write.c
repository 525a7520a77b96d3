/* config-write.c: line-oriented edits of the repository config. Only the
 * lines of the variable or section concerned change; comments, order and
 * spacing of everything else are kept byte for byte. */
#include "lib/config-write.h"
#include "lib/config.h"
#include "lib/lockfile.h"
#include "lib/repo.h"
#include <ctype.h>

/* White space within a line, as git's parser takes it. */
static int is_blank(char c)
{
	return c != '\n' && git_isspace(c);
}

/* A section header line: fills name (lower-cased) and sub, and *after
 * with where the header ends (after its ']'); 1 if it is one. */
static int parse_header(const char *p, const char *end, struct strbuf *name, struct strbuf *sub,
			const char **after)
{
	while (p < end && is_blank(*p))
		p++;
	if (p >= end || *p != '[')
		return 0;
	p++;
	strbuf_reset(name);
	strbuf_reset(sub);
	while (p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == '.')) {
		strbuf_addch(name, tolower((unsigned char)*p));
		p++;
	}
	if (p < end && *p == ']') {
		/* old style [section.sub]: the subsection is lower-cased too */
		char *dot = strchr(name->buf, '.');
		if (dot) {
			strbuf_addstr(sub, dot + 1);
			strbuf_setlen(name, dot - name->buf);
		}
		*after = p + 1;
		return 1;
	}
	while (p < end && is_blank(*p))
		p++;
	if (p >= end || *p != '"')
		return 0;
	for (p++; p < end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		strbuf_addch(sub, *p);
	}
	p = memchr(p, ']', end - p);
	*after = p ? p + 1 : end;
	return 1;
}

/* A variable line: its lower-cased name; 1 if it is one. */
static int parse_var(const char *p, const char *end, struct strbuf *name)
{
	while (p < end && is_blank(*p))
		p++;
	if (p >= end || !isalpha((unsigned char)*p))
		return 0;
	strbuf_reset(name);
	while (p < end && (isalnum((unsigned char)*p) || *p == '-'))
		strbuf_addch(name, tolower((unsigned char)*p++));
	return 1;
}

struct key {
	char *section, *sub, *name; /* section and name lower-cased */
	const char *orig_name;      /* the name as the caller wrote it */
};

static int split_key(const char *key, struct key *k)
{
	const char *first = strchr(key, '.'), *last = strrchr(key, '.');
	if (!first || !last[1]) {
		error("key does not contain a section: %s", key);
		return -1;
	}
	k->section = xstrndup(key, first - key);
	for (char *c = k->section; *c; c++)
		*c = tolower((unsigned char)*c);
	k->sub = first == last ? NULL : xstrndup(first + 1, last - first - 1);
	k->name = xstrdup(last + 1);
	for (char *c = k->name; *c; c++)
		*c = tolower((unsigned char)*c);
	k->orig_name = last + 1;
	return 0;
}

static void free_key(struct key *k)
{
	free(k->section);
	free(k->sub);
	free(k->name);
}

static void add_header(struct strbuf *out, const char *section, const char *sub)
{
	strbuf_addf(out, "[%s", section);
	if (sub) {
		strbuf_addstr(out, " \"");
		for (const char *p = sub; *p; p++) {
			if (*p == '"' || *p == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
		strbuf_addch(out, '"');
	}
	strbuf_addstr(out, "]\n");
}

static void add_value_line(struct strbuf *out, const char *name, const char *value)
{
	int quote = 0;
	size_t n = strlen(value);
	if (n && (value[0] == ' ' || value[n - 1] == ' '))
		quote = 1;
	for (const char *p = value; *p; p++)
		if (*p == ';' || *p == '#')
			quote = 1;
	strbuf_addf(out, "\t%s = %s", name, quote ? "\"" : "");
	for (const char *p = value; *p; p++) {
		switch (*p) {
		case '\n': strbuf_addstr(out, "\\n"); break;
		case '\t': strbuf_addstr(out, "\\t"); break;
		case '"': strbuf_addstr(out, "\\\""); break;
		case '\\': strbuf_addstr(out, "\\\\"); break;
		default: strbuf_addch(out, *p);
		}
	}
	strbuf_addf(out, "%s\n", quote ? "\"" : "");
}

static int section_matches(const struct strbuf *name, const struct strbuf *sub, int has_sub,
			   const char *section, const char *want_sub)
{
	if (strcmp(name->buf, section))
		return 0;
	if (!want_sub)
		return !has_sub;
	return has_sub && !strcmp(sub->buf, want_sub);
}

/* Length of the line at p, the newline included. A newline escaped by a
 * backslash continues the line, outside a comment ('#' or ';' not in
 * quotes), as git reads values. */
static size_t line_len(const char *p, const char *end)
{
	const char *q = p, *nl;
	int quoted = 0;

	while (q < end) {
		char c = *q++;
		if (c == '\n')
			return q - p;
		if (c == '\\' && q < end)
			q++;  /* an escaped byte, a newline too */
		else if (c == '"')
			quoted = !quoted;
		else if (!quoted && (c == '#' || c == ';'))
			return (nl = memchr(q, '\n', end - q)) ? (size_t)(nl + 1 - p) : (size_t)(end - p);
	}
	return end - p;
}

static int write_config(const char *path, struct strbuf *content)
{
	struct lock_file *lk = xcalloc(1, sizeof(*lk));
	lk->fd = -1;
	if (lock_file_acquire(lk, path, 0) < 0)
		return error("could not lock config file %s: %s", path, strerror(errno));
	if (write_in_full(lk->fd, content->buf, content->len) < 0 || lock_file_commit(lk) < 0) {
		int e = errno;
		lock_file_rollback(lk);
		return error("could not write config file %s: %s", path, strerror(e));
	}
	config_invalidate();
	return 0;
}

/*
 * The file as git's parser sees it, for edits of one key: section
 * headers (from '[' to ']', and a newline right after it), entries (a
 * whole line, or the rest of a header's line), comments, and blanks
 * between them.
 */
enum ev_type { EV_BLANK, EV_SECTION, EV_ENTRY, EV_COMMENT };

struct ev {
	enum ev_type type;
	size_t begin, end;
	int keys;   /* a header of the key's section, or an entry in one */
	int match;  /* an entry of the key */
};

struct evs {
	struct ev *v;
	size_t nr, alloc;
};

static void add_ev(struct evs *e, enum ev_type type, size_t begin, size_t end, int keys,
		   int match)
{
	if (begin >= end)
		return;
	ALLOC_GROW(e->v, e->nr + 1, e->alloc);
	e->v[e->nr++] = (struct ev){ type, begin, end, keys, match };
}

/* The rest of a line from p (a header's or a whole line): an entry, a
 * comment or blanks. */
static void add_line_ev(struct evs *e, const char *buf, const char *p, const char *end,
			int keys, const struct key *k, struct strbuf *vname)
{
	const char *q = p;
	while (q < end && git_isspace((unsigned char)*q))
		q++;
	if (q < end && (*q == '#' || *q == ';'))
		add_ev(e, EV_COMMENT, p - buf, end - buf, 0, 0);
	else if (parse_var(p, end, vname))
		add_ev(e, EV_ENTRY, p - buf, end - buf, keys, keys && !strcmp(vname->buf, k->name));
	else if (q < end)
		add_ev(e, EV_COMMENT, p - buf, end - buf, 0, 0);  /* what no key is */
	else
		add_ev(e, EV_BLANK, p - buf, end - buf, 0, 0);
}

static void parse_events(const struct strbuf *in, const struct key *k, struct evs *e)
{
	struct strbuf sname = STRBUF_INIT, ssub = STRBUF_INIT, vname = STRBUF_INIT;
	const char *p = in->buf, *end = in->buf + in->len, *after;
	int keys = 0;

	/* a byte order mark is no part of any event: it stays */
	if (in->len >= 3 && !memcmp(p, "\357\273\277", 3))
		p += 3;

	while (p < end) {
		const char *next = p + line_len(p, end);
		/* headers, as many as the line holds, then what follows them */
		while (parse_header(p, next, &sname, &ssub, &after)) {
			const char *h = memchr(p, '[', next - p);
			int has_sub = ssub.len || memchr(h, '"', after - h) || strchr(sname.buf, '.');
			keys = section_matches(&sname, &ssub, has_sub, k->section, k->sub);
			add_ev(e, EV_BLANK, p - in->buf, h - in->buf, 0, 0);
			/* a newline right after the ']' is the header's */
			if (after < next && *after == '\n')
				after++;
			add_ev(e, EV_SECTION, h - in->buf, after - in->buf, keys, 0);
			p = after;
		}
		add_line_ev(e, in->buf, p, next, keys, k, &vname);
		p = next;
	}
	strbuf_release(&sname);
	strbuf_release(&ssub);
	strbuf_release(&vname);
}

/*
 * Removing the entry e->v[i] empties its section when no other entry
 * (but the next ones to remove, counted in *skip) is in it and no comment
 * lies before it, back to the previous entry or other section, or after
 * it, up to the next other section; consecutive headers of the section
 * count as one. Then the span from the previous entry or other section to
 * the next other section goes, blanks and headers with it.
 */
static int section_span(const struct evs *e, size_t i, int all, size_t *begin, size_t *end,
			size_t *skip)
{
	size_t j, b = e->v[0].begin, n = 0;
	int header = 0;

	for (j = i; j > 0; j--) {
		const struct ev *p = &e->v[j - 1];
		if (p->type == EV_COMMENT || (p->type == EV_ENTRY && !header))
			return 0;
		if (p->type == EV_ENTRY || (p->type == EV_SECTION && !p->keys)) {
			b = p->end;
			break;
		}
		if (p->type == EV_SECTION)
			header = 1;
	}
	for (j = i + 1; j < e->nr; j++) {
		const struct ev *p = &e->v[j];
		if (p->type == EV_COMMENT || (p->type == EV_ENTRY && !(all && p->match)))
			return 0;
		if (p->type == EV_SECTION && !p->keys)
			break;
		if (p->type == EV_ENTRY)
			n++;
	}
	*begin = b;
	*end = j < e->nr ? e->v[j].begin : e->v[e->nr - 1].end;
	*skip = n;
	return 1;
}

/* Copies in[*from, to) to out, and a newline when that chunk does not end
 * a line (an entry on its header's line was cut off). */
static void copy_upto(struct strbuf *out, const struct strbuf *in, size_t *from, size_t to)
{
	if (to > *from) {
		strbuf_add(out, in->buf + *from, to - *from);
		if (in->buf[to - 1] != '\n')
			strbuf_addch(out, '\n');
	}
}

enum edit_mode { EDIT_SET, EDIT_ADD, EDIT_UNSET, EDIT_UNSET_ALL };

/*
 * Sets (a single value: replaced in place, or added after the section's
 * last entry), adds, or removes one or every value of key, as git does;
 * several values where one is expected is git's warning. 0, 5 when
 * nothing changed, or -1 after an error.
 */
static int edit_key(const char *key, const char *value, enum edit_mode mode)
{
	struct key k;
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	struct evs e = { 0 };
	size_t i, found = 0, last = 0, insert_at = 0, from = 0;
	int has_section = 0, ret;
	char *path;

	if (split_key(key, &k) < 0)
		return -1;
	path = xstrdup(common_path("config"));
	if (strbuf_read_file(&in, path, 0) < 0 && errno != ENOENT) {
		ret = error("could not read config file %s: %s", path, strerror(errno));
		goto out;
	}
	parse_events(&in, &k, &e);
	for (i = 0; i < e.nr; i++) {
		if (e.v[i].match) {
			found++;
			last = i;
		}
		if (e.v[i].keys) {
			has_section = 1;
			/* after the last header or entry of the section */
			insert_at = e.v[i].end;
		}
	}
	if (found > 1 && (mode == EDIT_SET || mode == EDIT_UNSET)) {
		warning("%s has multiple values", key);
		ret = 5;
		goto out;
	}
	if (mode == EDIT_UNSET || mode == EDIT_UNSET_ALL) {
		if (!found) {
			ret = 5;
			goto out;
		}
		for (i = 0; i < e.nr; i++) {
			size_t begin = e.v[i].begin, end = e.v[i].end, skip = 0;
			if (!e.v[i].match)
				continue;
			section_span(&e, i, mode == EDIT_UNSET_ALL, &begin, &end, &skip);
			copy_upto(&out, &in, &from, begin);
			from = end;
			while (skip && ++i < e.nr)
				skip -= e.v[i].match;
		}
		strbuf_add(&out, in.buf + from, in.len - from);
	} else if (found && mode == EDIT_SET) {
		copy_upto(&out, &in, &from, e.v[last].begin);
		add_value_line(&out, k.orig_name, value);
		strbuf_add(&out, in.buf + e.v[last].end, in.len - e.v[last].end);
	} else if (has_section) {
		copy_upto(&out, &in, &from, insert_at);
		add_value_line(&out, k.orig_name, value);
		strbuf_add(&out, in.buf + insert_at, in.len - insert_at);
	} else {
		strbuf_addbuf(&out, &in);
		if (out.len && out.buf[out.len - 1] != '\n')
			strbuf_addch(&out, '\n');
		add_header(&out, k.section, k.sub);
		add_value_line(&out, k.orig_name, value);
	}
	ret = write_config(path, &out);
out:
	free_key(&k);
	free(path);
	free(e.v);
	strbuf_release(&in);
	strbuf_release(&out);
	return ret;
}

int config_set(const char *key, const char *value)
{
	return edit_key(key, value, value ? EDIT_SET : EDIT_UNSET);
}

int config_unset_all(const char *key)
{
	return edit_key(key, NULL, EDIT_UNSET_ALL);
}

int config_add(const char *key, const char *value)
{
	return edit_key(key, value, EDIT_ADD);
}

/*
 * Whether the section header at h (its '[') names name ("branch.x"),
 * compared as git compares for a rename: byte for byte, the section name
 * too ("[BRANCH \"x\"]" is not "branch.x"), the subsection read through
 * its quotes and backslashes, or the old form "[branch.x]". Returns the
 * length of the header and the blanks after it (the newline too), or 0.
 */
static size_t header_names(const char *h, const char *end, const char *name)
{
	const char *p = h + 1;
	int quoted = 0;

	for (; p < end && *p != ']'; p++) {
		if (!quoted && git_isspace((unsigned char)*p)) {
			quoted = 1;
			if (*name++ != '.')
				return 0;
			while (++p < end && git_isspace((unsigned char)*p))
				;
			if (p >= end || *p != '"')
				return 0;
			continue;
		}
		if (quoted && *p == '\\' && p + 1 < end) {
			p++;
		} else if (quoted && *p == '"') {
			while (++p < end && git_isspace((unsigned char)*p))
				;
			break;
		}
		if (*p != *name++)
			return 0;
	}
	if (p >= end || *p != ']' || *name)
		return 0;
	for (p++; p < end && git_isspace((unsigned char)*p); p++)
		;
	return p - h;
}

/* "[section \"sub\"]\n" for "section.sub", as git writes a header */
static void add_section_header(struct strbuf *out, const char *name)
{
	const char *dot = strchr(name, '.');
	char *section = dot ? xstrndup(name, dot - name) : xstrdup(name);
	add_header(out, section, dot ? dot + 1 : NULL);
	free(section);
}

/*
 * Renames (new_name), copies (copy) or removes (no new_name) every section
 * named old_name, line by line as git does: a renamed header keeps what
 * followed it on its line, on a line of its own after a tab; a removed one
 * takes its whole line and the section's lines with it; a copy follows each
 * section copied, with the lines that section has after its header.
 */
static int edit_section(const char *old_name, const char *new_name, int copy)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT, copied = STRBUF_INIT;
	const char *p, *end;
	int count = 0, ret, removing = 0;
	char *pathdup = xstrdup(common_path("config"));

	if (strbuf_read_file(&in, pathdup, 0) < 0) {
		ret = errno == ENOENT ? 0 : error("could not read config file %s: %s", pathdup, strerror(errno));
		goto out;
	}
	for (p = in.buf, end = in.buf + in.len; p < end; ) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end, *h = p;
		size_t n;

		while (h < next && git_isspace((unsigned char)*h))
			h++;
		if (h < next && *h == '[') {
			strbuf_addbuf(&out, &copied);
			strbuf_reset(&copied);
			removing = 0;
			if ((n = header_names(h, next, old_name))) {
				count++;
				if (!new_name) {
					removing = 1;
					p = next;
					continue;
				}
				if (!copy) {
					add_section_header(&out, new_name);
					if (h + n < next) {
						strbuf_addch(&out, '\t');
						strbuf_add(&out, h + n, next - h - n);
					}
					p = next;
					continue;
				}
				add_section_header(&copied, new_name);
			}
		} else if (removing) {
			p = next;
			continue;
		} else if (copied.len) {
			strbuf_add(&copied, p, next - p);
		}
		strbuf_add(&out, p, next - p);
		p = next;
	}
	if (copied.len) {
		/* (git appends it to a last line without a newline) */
		if (out.len && out.buf[out.len - 1] != '\n')
			strbuf_addch(&out, '\n');
		strbuf_addbuf(&out, &copied);
	}
	ret = count ? write_config(pathdup, &out) : 0;
	if (!ret)
		ret = count;
out:
	free(pathdup);
	strbuf_release(&in);
	strbuf_release(&out);
	strbuf_release(&copied);
	return ret;
}

int config_rename_section(const char *old_name, const char *new_name)
{
	return edit_section(old_name, new_name, 0);
}

int config_copy_section(const char *old_name, const char *new_name)
{
	return edit_section(old_name, new_name, 1);
}
