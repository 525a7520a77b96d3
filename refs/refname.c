/* refname.c: git's rules for ref names (check-ref-format), the short-name
 * lookup rules (dwim) and their inverse (shortening). */
#include "refs/refs-internal.h"
#include "odb/oid-name.h"
#include <ctype.h>

/* 0 ordinary, 1 ends a component, 2 '.', 3 '{', 4 never allowed, 5 '*' */
static unsigned char disposition(unsigned char c)
{
	if (c < 0x20 || c == 0x7f)
		return c ? 4 : 1;
	switch (c) {
	case '/': return 1;
	case '.': return 2;
	case '{': return 3;
	case ' ': case '~': case '^': case ':': case '?': case '[': case '\\':
		return 4;
	case '*': return 5;
	}
	return 0;
}

/* Length of the component at s, 0 if empty, -1 if invalid. */
static int component_len(const char *s, unsigned *flags)
{
	const char *p;
	char last = 0;
	for (p = s; ; p++) {
		unsigned char c = *p;
		switch (disposition(c)) {
		case 1:
			goto end;
		case 2:
			if (last == '.')
				return -1;
			break;
		case 3:
			if (last == '@')
				return -1;
			break;
		case 4:
			return -1;
		case 5:
			if (!(*flags & REFNAME_REFSPEC_PATTERN))
				return -1;
			*flags &= ~REFNAME_REFSPEC_PATTERN;
			break;
		}
		last = c;
	}
end:
	if (p == s)
		return 0;
	if (s[0] == '.')
		return -1;
	if (p - s >= 5 && !memcmp(p - 5, ".lock", 5))
		return -1;
	return p - s;
}

int check_refname_format(const char *name, unsigned flags)
{
	int n, components = 0;
	const char *s = name;
	if (!strcmp(name, "@"))
		return -1;
	for (;;) {
		n = component_len(s, &flags);
		if (n <= 0)
			return -1;
		components++;
		if (!s[n])
			break;
		s += n + 1;
	}
	if (s[n - 1] == '.')
		return -1;
	if (!(flags & REFNAME_ALLOW_ONELEVEL) && components < 2)
		return -1;
	return 0;
}

/* A name safe to use as a path: no "..", nothing outside refs/ but
 * all-caps top-level names. */
int refname_is_safe(const char *name)
{
	const char *rest;
	if (skip_prefix(name, "refs/", &rest)) {
		const char *p = rest;
		if (!*rest)
			return 0;
		for (;;) {
			const char *slash = strchrnul(p, '/');
			size_t n = slash - p;
			if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
				return 0;
			if (!*slash)
				break;
			p = slash + 1;
		}
		return 1;
	}
	for (const char *p = name; *p; p++)
		if (!(*p >= 'A' && *p <= 'Z') && *p != '_')
			return 0;
	return *name != 0;
}

static const char *const rev_parse_rules[] = {
	"%.*s",
	"refs/%.*s",
	"refs/tags/%.*s",
	"refs/heads/%.*s",
	"refs/remotes/%.*s",
	"refs/remotes/%.*s/HEAD",
};

/* Rule i's candidate for name in try: 0, or -1 when no ref could have
 * that name (it is then not looked up, nor warned about). */
static int rule_candidate(struct strbuf *try, size_t i, const char *name, size_t len)
{
	strbuf_reset(try);
	strbuf_addf(try, rev_parse_rules[i], (int)len, name);
	return check_refname_format(try->buf, REFNAME_ALLOW_ONELEVEL) ? -1 : 0;
}

/*
 * The name a short name stands for, as in git: "@{-N}" is the branch
 * checked out N switches ago, "@" is HEAD, and "<branch>@{upstream}" or
 * "@{push}" the ref they name; *name and *len are moved to it (kept in
 * buf). -1 when a mark names nothing.
 */
static int substitute_name(const char **name, size_t *len, struct strbuf *buf)
{
	int mark;
	if (*len > 3 && !memcmp(*name, "@{-", 3) &&
	    interpret_nth_prior_checkout(*name, *len, buf) == (int)*len) {
		*name = buf->buf;
		*len = buf->len;
	} else if (*len == 1 && **name == '@') {
		*name = "HEAD";
		*len = 4;
	} else if ((mark = interpret_branch_mark(*name, *len, buf))) {
		if (mark < 0)
			return -1;
		*name = buf->buf;
		*len = buf->len;
	}
	return 0;
}

int refs_dwim_log(const char *name, size_t len, struct strbuf *log)
{
	struct strbuf try = STRBUF_INIT, sub = STRBUF_INIT;
	int found = 0;
	if (substitute_name(&name, &len, &sub) < 0) {
		strbuf_release(&sub);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rev_parse_rules); i++) {
		struct object_id oid;
		unsigned flags = 0;
		const char *r;
		if (rule_candidate(&try, i, name, len) < 0 ||
		    !(r = refs_resolve_reading(try.buf, &oid, &flags)))
			continue;
		if (refs_reflog_exists(try.buf))
			r = try.buf;
		else if (strcmp(r, try.buf) && refs_reflog_exists(r))
			;
		else
			continue;
		if (!found++) {
			strbuf_reset(log);
			strbuf_addstr(log, r);
		}
	}
	strbuf_release(&try);
	strbuf_release(&sub);
	return found;
}

int refs_dwim(const char *name, size_t len, struct strbuf *full, struct object_id *oid)
{
	struct strbuf try = STRBUF_INIT, prior = STRBUF_INIT;
	struct object_id tmp;
	int found = 0;
	if (substitute_name(&name, &len, &prior) < 0) {
		strbuf_release(&prior);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rev_parse_rules); i++) {
		unsigned flags = 0;
		const char *r;
		if (rule_candidate(&try, i, name, len) < 0)
			continue;
		r = refs_resolve_reading(try.buf, found ? &tmp : oid, &flags);
		if (r) {
			if (!found++ && full) {
				strbuf_reset(full);
				strbuf_addstr(full, r);
			}
		} else if ((flags & REF_ISSYMREF) && strcmp(try.buf, "HEAD")) {
			warning("ignoring dangling symref %s", try.buf);
		} else if ((flags & REF_ISBROKEN) && strchr(try.buf, '/')) {
			warning("ignoring broken ref %s", try.buf);
		}
	}
	strbuf_release(&try);
	strbuf_release(&prior);
	return found;
}

/* Does full match rule; if so, set *s, *n to the short part. */
static int match_rule(const char *rule, const char *full, const char **s, size_t *n)
{
	const char *pct = strstr(rule, "%.*s"), *p, *e;
	size_t pre = pct - rule, post = strlen(pct + 4), flen = strlen(full);
	if (strncmp(full, rule, pre))
		return 0;
	/* git reads the name with sscanf's %s: past the rule's prefix,
	 * blanks are skipped and the name ends at the next one, whatever
	 * follows (a name with blanks can only come from the config) */
	for (p = full + pre; *p && !git_isspace((unsigned char)*p); p++)
		;
	if (*p) {
		for (p = full + pre; git_isspace((unsigned char)*p); p++)
			;
		for (e = p; *e && !git_isspace((unsigned char)*e); e++)
			;
		*s = p;
		*n = e - p;
		return e > p;
	}
	if (flen <= pre + post || strcmp(full + flen - post, pct + 4))
		return 0;
	*s = full + pre;
	*n = flen - pre - post;
	return 1;
}

const char *refs_shorten(const char *full_, int strict)
{
	static struct strbuf out = STRBUF_INIT;
	struct strbuf try = STRBUF_INIT;
	/* full may be resolve()'s buffer, which the lookups below reuse */
	static char *full;
	free(full);
	full = xstrdup(full_);
	/* git 2.39 matches the rules with sscanf, under which the last one
	 * ("refs/remotes/%s/HEAD") never matches: origin/HEAD stays so */
	size_t nr = ARRAY_SIZE(rev_parse_rules) - 1;
	for (size_t i = nr - 1; i > 0; i--) {
		const char *s;
		size_t n, j, to_fail = strict ? nr : i;
		if (!match_rule(rev_parse_rules[i], full, &s, &n))
			continue;
		for (j = 0; j < to_fail; j++) {
			struct object_id oid;
			if (i == j)
				continue;
			strbuf_reset(&try);
			strbuf_addf(&try, rev_parse_rules[j], (int)n, s);
			if (!refs_read(try.buf, &oid))
				break;
		}
		if (j == to_fail) {
			strbuf_release(&try);
			strbuf_reset(&out);
			strbuf_add(&out, s, n);
			return out.buf;
		}
	}
	strbuf_release(&try);
	return full;
}
