/* config-write.c: line-oriented edits of the repository config. Only the
 * lines of the variable or section concerned change; comments, order and
 * spacing of everything else are kept byte for byte. */
#include "lib/config-write.h"
#include "lib/config.h"
#include "lib/lockfile.h"
#include "lib/repo.h"
#include <ctype.h>

/* A section header line: fills name (lower-cased) and sub; 1 if it is one. */
static int parse_header(const char *p, const char *end, struct strbuf *name, struct strbuf *sub)
{
	while (p < end && (*p == ' ' || *p == '\t'))
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
		return 1;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '"')
		return 0;
	for (p++; p < end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		strbuf_addch(sub, *p);
	}
	return 1;
}

/* A variable line: its lower-cased name; 1 if it is one. */
static int parse_var(const char *p, const char *end, struct strbuf *name)
{
	while (p < end && (*p == ' ' || *p == '\t'))
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

/* Length of the line at p, the newline included. Continuation lines
 * (a value ending in a backslash) belong to the same line. */
static size_t line_len(const char *p, const char *end)
{
	const char *q = p;
	for (;;) {
		const char *nl = memchr(q, '\n', end - q);
		if (!nl)
			return end - p;
		if (nl > q && nl[-1] == '\\') {
			q = nl + 1;
			continue;
		}
		return nl + 1 - p;
	}
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

/* mode 0: set (replace last), 1: add, 2: unset all */
static int edit_key(const char *key, const char *value, int mode)
{
	struct key k;
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT, sname = STRBUF_INIT, ssub = STRBUF_INIT,
		      vname = STRBUF_INIT;
	const char *path, *p, *end;
	size_t last_match_start = 0, last_match_len = 0, insert_at = 0;
	int in_section = 0, found = 0, has_section = 0, ret;
	char *pathdup;

	if (split_key(key, &k) < 0)
		return -1;
	path = common_path("config");
	pathdup = xstrdup(path);
	if (strbuf_read_file(&in, pathdup, 0) < 0 && errno != ENOENT) {
		ret = error("could not read config file %s: %s", pathdup, strerror(errno));
		goto out;
	}
	p = in.buf;
	end = in.buf + in.len;
	while (p < end) {
		size_t n = line_len(p, end);
		if (parse_header(p, p + n, &sname, &ssub)) {
			int has_sub = ssub.len || memchr(p, '"', n) || strchr(sname.buf, '.');
			in_section = section_matches(&sname, &ssub, has_sub, k.section, k.sub);
			if (in_section) {
				has_section = 1;
				insert_at = p + n - in.buf;
			}
		} else if (in_section) {
			if (parse_var(p, p + n, &vname) && !strcmp(vname.buf, k.name)) {
				found++;
				last_match_start = p - in.buf;
				last_match_len = n;
			}
			if (parse_var(p, p + n, &vname))
				insert_at = p + n - in.buf;
		}
		p += n;
	}

	if (mode == 2) {
		if (!found) {
			ret = 5; /* git's "nothing to unset" */
			goto out;
		}
		/* drop every matching line, and a section left empty by that */
		struct strbuf sec = STRBUF_INIT;
		int dropped = 0, kept = 0;
		p = in.buf;
		in_section = 0;
		while (p < end) {
			size_t n = line_len(p, end);
			if (parse_header(p, p + n, &sname, &ssub)) {
				int has_sub = ssub.len || memchr(p, '"', n) || strchr(sname.buf, '.');
				if (in_section && (kept || !dropped))
					strbuf_addbuf(&out, &sec);
				strbuf_reset(&sec);
				dropped = kept = 0;
				in_section = section_matches(&sname, &ssub, has_sub, k.section, k.sub);
				strbuf_add(in_section ? &sec : &out, p, n);
			} else if (in_section) {
				if (parse_var(p, p + n, &vname) && !strcmp(vname.buf, k.name))
					dropped = 1;
				else {
					strbuf_add(&sec, p, n);
					for (size_t i = 0; i < n; i++)
						if (!isspace((unsigned char)p[i]))
							kept = 1;
				}
			} else
				strbuf_add(&out, p, n);
			p += n;
		}
		if (in_section && (kept || !dropped))
			strbuf_addbuf(&out, &sec);
		strbuf_release(&sec);
	} else if (found && mode == 0) {
		strbuf_add(&out, in.buf, last_match_start);
		add_value_line(&out, k.orig_name, value);
		strbuf_add(&out, in.buf + last_match_start + last_match_len,
			   in.len - last_match_start - last_match_len);
	} else if (has_section) {
		strbuf_add(&out, in.buf, insert_at);
		if (insert_at && in.buf[insert_at - 1] != '\n')
			strbuf_addch(&out, '\n');
		add_value_line(&out, k.orig_name, value);
		strbuf_add(&out, in.buf + insert_at, in.len - insert_at);
	} else {
		strbuf_addbuf(&out, &in);
		if (out.len && out.buf[out.len - 1] != '\n')
			strbuf_addch(&out, '\n');
		add_header(&out, k.section, k.sub);
		add_value_line(&out, k.orig_name, value);
	}
	ret = write_config(pathdup, &out);
out:
	free_key(&k);
	free(pathdup);
	strbuf_release(&in);
	strbuf_release(&out);
	strbuf_release(&sname);
	strbuf_release(&ssub);
	strbuf_release(&vname);
	return ret;
}

int config_set(const char *key, const char *value)
{
	int r = edit_key(key, value, value ? 0 : 2);
	return r == 5 ? 0 : r;
}

int config_add(const char *key, const char *value)
{
	return edit_key(key, value, 1);
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
		if (!quoted && isspace((unsigned char)*p)) {
			quoted = 1;
			if (*name++ != '.')
				return 0;
			while (++p < end && isspace((unsigned char)*p))
				;
			if (p >= end || *p != '"')
				return 0;
			continue;
		}
		if (quoted && *p == '\\' && p + 1 < end) {
			p++;
		} else if (quoted && *p == '"') {
			while (++p < end && isspace((unsigned char)*p))
				;
			break;
		}
		if (*p != *name++)
			return 0;
	}
	if (p >= end || *p != ']' || *name)
		return 0;
	for (p++; p < end && isspace((unsigned char)*p); p++)
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

		while (h < next && isspace((unsigned char)*h))
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
