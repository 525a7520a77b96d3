/* oid-name.c: revision names to object ids, following git's grammar
 * (gitrevisions(7)) and its messages. The suffix operators are parsed from
 * the right, so "A~2^2" is "(A~2)^2"; the ':' of <rev>:<path> is the first
 * one outside braces, so "HEAD^{/a:b}:x" works. */
#include "odb/oid-name.h"
#include "lib/index-file.h"
#include "odb/commit-walk.h"
#include "refs/refs.h"
#include "refs/ref-filter.h"
#include "lib/repo.h"
#include "lib/approxidate.h"
#include "lib/date.h"
#include "sha1/object-hash.h"
#include <ctype.h>
#include <regex.h>
#include <time.h>

#define MINIMUM_ABBREV 4

int peel_to_non_tag(const struct object_id *oid, struct object_id *out, enum object_type *type)
{
	struct object_id cur;
	enum object_type t;
	size_t size;
	int depth = 0;

	oidcpy(&cur, oid);
	for (;;) {
		struct tag_info ti;
		char *buf;
		if (odb_read_header(&cur, &t, &size) < 0)
			return -1;
		if (t != OBJ_TAG)
			break;
		buf = odb_read_object(&cur, &t, &size);
		if (!buf)
			return -1;
		if (parse_tag_buffer(buf, size, &ti) < 0) {
			free(buf);
			return -1;
		}
		oidcpy(&cur, &ti.object);
		free(buf);
		/* A cycle of tags needs a SHA-1 collision; bound the loop anyway. */
		if (++depth > 10000)
			return error("tag chain too deep at %s", oid_to_hex(oid));
	}
	oidcpy(out, &cur);
	if (type)
		*type = t;
	return 0;
}

/* The checks of git's commit parser that can fail: the tree line, then
 * each parent line. 0, or -1 after git's error. */
static int check_commit_header(const struct object_id *oid, const char *buf, size_t size)
{
	const char *p = buf + 46, *tail = buf + size;
	struct object_id x;

	if (size <= 46 || memcmp(buf, "tree ", 5) || buf[45] != '\n')
		return error("bogus commit object %s", oid_to_hex(oid));
	if (get_oid_hex(buf + 5, &x))
		return error("bad tree pointer in commit %s", oid_to_hex(oid));
	while (tail - p > 48 && !memcmp(p, "parent ", 7)) {
		if (tail - p <= 49 || get_oid_hex(p + 7, &x) || p[47] != '\n')
			return error("bad parents in commit %s", oid_to_hex(oid));
		p += 48;
	}
	return 0;
}

/*
 * What git's parse_object() does to an object a revision name reaches
 * (the object of X^{...}, of X^N and X~N, and the tags on the way): read
 * it whole, check its hash ("hash mismatch X"), and for a commit its
 * header. Other reads skip the hash, as git's do. 0 with *type set, or -1.
 */
static int parse_object_checked(const struct object_id *oid, enum object_type *type)
{
	struct object_id real;
	enum object_type t;
	size_t size;
	char *buf = odb_read_object(oid, &t, &size);
	int ret = 0;

	if (!buf)
		return -1;
	hash_object_buf(type_name(t), buf, size, &real);
	if (!oideq(&real, oid))
		ret = error("hash mismatch %s", oid_to_hex(oid));
	else if (t == OBJ_COMMIT)
		ret = check_commit_header(oid, buf, size);
	free(buf);
	if (type)
		*type = t;
	return ret;
}

/* The tree of a commit, the target of a tag: one step of peeling. */
static int deref_one(const struct object_id *oid, enum object_type type, struct object_id *out)
{
	enum object_type t;
	size_t size;
	char *buf = odb_read_object(oid, &t, &size);
	int ret = -1;

	if (!buf)
		return -1;
	if (type == OBJ_COMMIT && t == OBJ_COMMIT) {
		/* Only the tree line is needed. */
		if (size >= 46 && !memcmp(buf, "tree ", 5) && buf[45] == '\n' &&
		    !get_oid_hex(buf + 5, out))
			ret = 0;
	} else if (type == OBJ_TAG && t == OBJ_TAG) {
		struct tag_info ti;
		if (!parse_tag_buffer(buf, size, &ti)) {
			oidcpy(out, &ti.object);
			ret = 0;
		}
	}
	free(buf);
	return ret;
}

/* peel_to_type; with checked, each object on the way as parse_object_checked. */
static int peel_to_type_1(const struct object_id *oid, enum object_type want, const char *name,
			  struct object_id *out, int checked)
{
	struct object_id cur;
	enum object_type t;
	size_t size;
	int depth = 0;

	oidcpy(&cur, oid);
	for (;;) {
		if (checked ? parse_object_checked(&cur, &t) < 0 :
			      odb_read_header(&cur, &t, &size) < 0)
			return -1;
		if (t == want || (want == OBJ_NONE && t != OBJ_TAG))
			break;
		if ((t != OBJ_TAG && t != OBJ_COMMIT) || (t == OBJ_COMMIT && want == OBJ_NONE)) {
			if (name)
				error("%s: expected %s type, but the object dereferences to %s type",
				      name, type_name(want), type_name(t));
			return -1;
		}
		if (deref_one(&cur, t, &cur) < 0 || ++depth > 10000)
			return -1;
	}
	oidcpy(out, &cur);
	return 0;
}

int peel_to_type(const struct object_id *oid, enum object_type want, const char *name,
		 struct object_id *out)
{
	return peel_to_type_1(oid, want, name, out, 0);
}

/* git's deref_tag(parse_object(X)): tags followed, every object checked. */
static int checked_peel_to_non_tag(const struct object_id *oid, struct object_id *out,
				   enum object_type *type)
{
	struct object_id cur;
	enum object_type t;
	int depth = 0;

	oidcpy(&cur, oid);
	for (;;) {
		if (parse_object_checked(&cur, &t) < 0)
			return -1;
		if (t != OBJ_TAG)
			break;
		if (deref_one(&cur, t, &cur) < 0 || ++depth > 10000)
			return -1;
	}
	oidcpy(out, &cur);
	if (type)
		*type = t;
	return 0;
}

/* lookup_commit_reference in git's words: tags followed, then it must be a
 * commit ("error: object X is a tree, not a commit"). */
static int commit_reference(const struct object_id *oid, struct object_id *out)
{
	enum object_type t;
	if (checked_peel_to_non_tag(oid, out, &t) < 0)
		return -1;
	if (t != OBJ_COMMIT)
		return error("object %s is a %s, not a %s", oid_to_hex(out), type_name(t),
			     type_name(OBJ_COMMIT));
	return 0;
}

/* Parents of a commit, malloc'ed; -1 if it cannot be read. */
static int read_parents(const struct object_id *oid, struct commit_info *ci, char **buf)
{
	enum object_type t;
	size_t size;
	*buf = odb_read_object(oid, &t, &size);
	if (!*buf || t != OBJ_COMMIT || check_commit_header(oid, *buf, size) < 0 ||
	    parse_commit_buffer(*buf, size, ci) < 0) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

/* ---- abbreviated ids ---- */

struct candidates {
	struct object_id *oid;
	size_t nr, alloc;
};

static int collect_candidate(const struct object_id *oid, void *data)
{
	struct candidates *c = data;
	for (size_t i = 0; i < c->nr; i++)
		if (oideq(&c->oid[i], oid))
			return 0;   /* the same object in two packs */
	ALLOC_GROW(c->oid, c->nr + 1, c->alloc);
	oidcpy(&c->oid[c->nr++], oid);
	return 0;
}

static enum object_type object_type_of(const struct object_id *oid)
{
	enum object_type t;
	size_t size;
	if (odb_read_header(oid, &t, &size) < 0)
		return OBJ_BAD;
	return t;
}

/* Does the candidate satisfy the caller's hint (commit-ish, tree-ish)? */
static int fits_hint(const struct object_id *oid, unsigned flags)
{
	struct object_id peeled;
	enum object_type t;
	if (!(flags & (GET_OID_COMMITTISH | GET_OID_TREEISH)))
		return 1;
	if (peel_to_non_tag(oid, &peeled, &t) < 0)
		return 0;
	if (flags & GET_OID_COMMITTISH)
		return t == OBJ_COMMIT;
	return t == OBJ_COMMIT || t == OBJ_TREE;
}

/* git lists tags, then commits, trees and blobs, by id within a type. */
static int type_rank(enum object_type t)
{
	return t == OBJ_TAG ? 0 : (int)t;
}

struct ranked {
	struct object_id oid;
	enum object_type type;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->type != y->type)
		return type_rank(x->type) < type_rank(y->type) ? -1 : 1;
	return oidcmp(&x->oid, &y->oid);
}

static void append_short_date(struct strbuf *sb, timestamp_t date, const char *tz, size_t tz_len)
{
	long off = 0;
	struct tm tm;
	time_t t;
	char buf[32];

	if (tz && tz_len == 5 && (tz[0] == '+' || tz[0] == '-')) {
		int v = atoi(tz + 1);   /* digits only: the ident parser checked */
		off = (v / 100) * 3600 + (v % 100) * 60;
		if (tz[0] == '-')
			off = -off;
	}
	t = (time_t)date + off;
	if (!gmtime_r(&t, &tm))
		return;
	strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	strbuf_addstr(sb, buf);
}

static void describe_candidate(struct strbuf *sb, const struct ranked *r)
{
	const char *abbrev = odb_abbrev(&r->oid, 0);
	enum object_type t;
	size_t size;
	char *buf;

	strbuf_addf(sb, "  %s ", abbrev);
	switch (r->type) {
	case OBJ_COMMIT: {
		struct commit_info ci;
		struct ident id = { 0 };
		buf = odb_read_object(&r->oid, &t, &size);
		strbuf_addstr(sb, "commit ");
		if (buf && !parse_commit_buffer(buf, size, &ci)) {
			if (ci.author && !parse_ident(ci.author, ci.author_len, &id))
				append_short_date(sb, id.date, id.tz, id.tz_len);
			strbuf_addstr(sb, " - ");
			message_subject(ci.message, ci.message_len, sb);
			commit_info_release(&ci);
		} else
			strbuf_addstr(sb, " - ");
		free(buf);
		break;
	}
	case OBJ_TAG: {
		struct tag_info ti;
		buf = odb_read_object(&r->oid, &t, &size);
		strbuf_addstr(sb, "tag");
		if (buf && !parse_tag_buffer(buf, size, &ti) && ti.tag) {
			strbuf_addch(sb, ' ');
			append_short_date(sb, ti.tagger_date, NULL, 0);
			strbuf_addf(sb, " - %.*s", (int)ti.tag_len, ti.tag);
		}
		free(buf);
		break;
	}
	case OBJ_TREE:
	case OBJ_BLOB:
		strbuf_addstr(sb, type_name(r->type));
		break;
	default:
		strbuf_addstr(sb, "[bad object]");
	}
	strbuf_addch(sb, '\n');
}

static void report_ambiguous(const char *hex, const struct candidates *c, unsigned flags,
			     size_t nr_fit)
{
	struct ranked *r = xcalloc(c->nr ? c->nr : 1, sizeof(*r));
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	error("short object ID %s is ambiguous", hex);
	for (size_t i = 0; i < c->nr; i++) {
		/* With several objects fitting the hint, only those are listed. */
		if (nr_fit > 1 && !fits_hint(&c->oid[i], flags))
			continue;
		oidcpy(&r[n].oid, &c->oid[i]);
		r[n++].type = object_type_of(&c->oid[i]);
	}
	QSORT(r, n, cmp_ranked);
	for (size_t i = 0; i < n; i++)
		describe_candidate(&sb, &r[i]);
	fflush(stdout);
	fputs("hint: The candidates are:\n", stderr);
	for (const char *p = sb.buf; *p;) {
		const char *nl = strchrnul(p, '\n');
		fprintf(stderr, "hint: %.*s\n", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
	strbuf_release(&sb);
	free(r);
}

/* 0 found, -1 missing, -2 ambiguous. */
static int get_short_oid(const char *name, size_t len, unsigned flags, struct object_id *oid)
{
	char hex[HEX_SZ + 1];
	struct candidates c = { 0 };
	size_t nr_fit = 0, fit = 0;
	int r;

	if (len < MINIMUM_ABBREV || len > HEX_SZ)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!is_hex_digit(name[i]))
			return -1;
		hex[i] = tolower((unsigned char)name[i]);
	}
	hex[len] = 0;
	r = odb_find_prefix(hex, len, oid);
	if (r == 1)
		return 0;
	if (r == 0)
		return -1;
	odb_for_each_prefix_match(hex, len, collect_candidate, &c);
	if (c.nr == 1) {
		oidcpy(oid, &c.oid[0]);
		free(c.oid);
		return 0;
	}
	if (flags & (GET_OID_COMMITTISH | GET_OID_TREEISH)) {
		for (size_t i = 0; i < c.nr; i++)
			if (fits_hint(&c.oid[i], flags)) {
				nr_fit++;
				fit = i;
			}
		if (nr_fit == 1) {
			oidcpy(oid, &c.oid[fit]);
			free(c.oid);
			return 0;
		}
	}
	if (!(flags & GET_OID_QUIETLY))
		report_ambiguous(hex, &c, flags, nr_fit);
	free(c.oid);
	return -2;
}

/* ---- names ---- */

struct prior_checkout {
	struct strbuf *froms;   /* "from" of each "checkout: moving from A to B" */
	size_t nr, alloc;
};

static int grab_prior(const struct object_id *o, const struct object_id *n, const char *ident,
		      uint64_t when, int tz, const char *msg, void *data)
{
	struct prior_checkout *pc = data;
	const char *from, *to;
	(void)o; (void)n; (void)ident; (void)when; (void)tz;
	if (!skip_prefix(msg, "checkout: moving from ", &from) || !(to = strstr(from, " to ")))
		return 0;
	ALLOC_GROW(pc->froms, pc->nr + 1, pc->alloc);
	strbuf_init(&pc->froms[pc->nr], 0);
	strbuf_add(&pc->froms[pc->nr++], from, to - from);
	return 0;
}

int interpret_nth_prior_checkout(const char *name, size_t len, struct strbuf *buf)
{
	struct prior_checkout pc = { 0 };
	const char *brace;
	char *num, *end;
	long nth;
	int ret = 0;

	if (len < 4 || name[0] != '@' || name[1] != '{' || name[2] != '-' ||
	    !(brace = memchr(name, '}', len)))
		return -1;
	/* strtol as git parses it: blanks and a sign before the digits pass */
	num = xstrndup(name + 3, brace - name - 3);
	nth = strtol(num, &end, 10);
	if (*end || end == num || nth <= 0) {
		free(num);
		return -1;
	}
	free(num);
	refs_for_each_reflog_entry("HEAD", grab_prior, &pc);
	if ((size_t)nth <= pc.nr) {
		strbuf_reset(buf);
		strbuf_addbuf(buf, &pc.froms[pc.nr - nth]);
		ret = brace - name + 1;
	}
	for (size_t i = 0; i < pc.nr; i++)
		strbuf_release(&pc.froms[i]);
	free(pc.froms);
	return ret;
}

void expand_branch_name(struct strbuf *sb, const char *name)
{
	size_t len = strlen(name);
	int used = interpret_nth_prior_checkout(name, len, sb);
	if (used <= 0) {
		strbuf_reset(sb);
		used = 0;
	}
	strbuf_add(sb, name + used, len - used);
}


/* The branch a name before "@{u}" means: HEAD's when empty, "HEAD" or "@",
 * the Nth prior one for "@{-N}" (-1 if there is none), else the name
 * itself. */
static int upstream_branch(const char *name, size_t len, struct strbuf *b)
{
	struct object_id oid;
	strbuf_reset(b);
	if (!len || (len == 4 && !memcmp(name, "HEAD", 4)) || (len == 1 && *name == '@')) {
		unsigned fl;
		const char *head = refs_resolve("HEAD", &oid, &fl);
		if (!head || !skip_prefix(head, "refs/heads/", &head))
			die("HEAD does not point to a branch");
		strbuf_addstr(b, head);
		return 0;
	}
	if (len > 3 && !memcmp(name, "@{-", 3)) {
		if (interpret_nth_prior_checkout(name, len, b) != (int)len)
			return -1;
	} else {
		strbuf_add(b, name, len);
	}
	return 0;
}

struct reflog_entry {
	struct object_id old_oid, new_oid;
	uint64_t when;
	int tz;
};

struct reflog_entries {
	struct reflog_entry *e;
	size_t nr, alloc;
};

static int collect_entry(const struct object_id *o, const struct object_id *n, const char *ident,
			 uint64_t when, int tz, const char *msg, void *data)
{
	struct reflog_entries *v = data;
	(void)ident; (void)msg;
	ALLOC_GROW(v->e, v->nr + 1, v->alloc);
	v->e[v->nr++] = (struct reflog_entry){ *o, *n, when, tz };
	return 0;
}

static const char *reflog_date(const struct reflog_entry *e)
{
	static struct strbuf sb = STRBUF_INIT;
	static const struct date_mode rfc = { DATE_RFC2822, 0, NULL };
	strbuf_reset(&sb);
	date_format(&sb, e->when, e->tz, &rfc);
	return sb.buf;
}

/*
 * The value the reflog of log gave n changes back (n > 0), or at the time
 * at (n < 0; at is 0 otherwise), walking from the newest entry. *oid holds
 * the ref's value on entry. An entry is the answer when it is at or before
 * at, or when the count has run out and the entry says what came before
 * it. An entry whose new value is not the old value of the one after it is
 * a gap; an answer that does not join the entry after it leaves the ref's
 * value as it is. 1 when no entry answers: *oid is then what the oldest
 * entry started from.
 */
static int reflog_lookup(const char *log, const struct reflog_entries *v, long n, uint64_t at,
			 struct object_id *oid)
{
	const struct reflog_entry *after = NULL;
	for (size_t i = v->nr; i--; after = &v->e[i]) {
		const struct reflog_entry *e = &v->e[i];
		int counted, joined;
		if (n > 0)
			n--;
		counted = !n && !is_null_oid(&e->old_oid);
		if (e->when > at && !counted)
			continue;
		joined = after && !is_null_oid(&after->old_oid);
		if (joined && !oideq(&after->old_oid, &e->new_oid))
			warning("log for ref %s has gap after %s", log, reflog_date(e));
		if (counted)
			oidcpy(oid, &e->old_oid);
		else if (joined || e->when == at)
			oidcpy(oid, &e->new_oid);
		else if (!oideq(oid, &e->new_oid))
			warning("log for ref %s unexpectedly ended on %s", log, reflog_date(e));
		return 0;
	}
	oidcpy(oid, is_null_oid(&v->e[0].old_oid) ? &v->e[0].new_oid : &v->e[0].old_oid);
	return 1;
}

/*
 * name@{n} (n >= 0: the value n changes back, 0 the newest) or
 * name@{<date>} (n < 0: the value at the time at), from name's reflog;
 * an empty name is the current branch, or HEAD when detached.
 */
static int reflog_at(const char *name, size_t len, long n, uint64_t at, unsigned flags,
		     struct object_id *oid)
{
	struct strbuf log = STRBUF_INIT, shown = STRBUF_INIT;
	struct reflog_entries v = { 0 };
	int found;

	strbuf_add(&shown, name, len);
	if (!len) {
		struct object_id head;
		unsigned fl;
		const char *h = refs_resolve("HEAD", &head, &fl);
		strbuf_addstr(&shown, h && skip_prefix(h, "refs/heads/", &h) ? h : "HEAD");
	}
	found = refs_dwim_log(shown.buf, shown.len, &log);
	if (found <= 0 || refs_read(log.buf, oid))
		oidclr(oid);
	if (found <= 0) {
		strbuf_release(&shown);
		strbuf_release(&log);
		return -1;
	}
	if (!(flags & GET_OID_QUIETLY)) {
		/* as for a plain name: more than one rule with a log (a
		 * branch named HEAD has one beside HEAD's), or a name that is
		 * also a short id; "@{n}" counts the refs HEAD's name finds */
		struct object_id tmp;
		int count = found;
		if (!len) {
			struct strbuf full = STRBUF_INIT;
			count = refs_dwim("HEAD", 4, &full, &tmp);
			strbuf_release(&full);
		}
		if (count > 1 || (len && !get_short_oid(name, len, GET_OID_QUIETLY, &tmp)))
			warning("refname '%.*s' is ambiguous.", (int)len, name);
	}
	refs_for_each_reflog_entry(log.buf, collect_entry, &v);
	if (!v.nr && !n && !is_null_oid(oid))
		;  /* @{0} of an empty log is the ref's value */
	else if (!v.nr) {
		if (flags & GET_OID_DIE_QUIETLY)
			exit(128);
		die("log for %s is empty", log.buf);
	} else if (!n)
		oidcpy(oid, &v.e[v.nr - 1].new_oid);
	else if (reflog_lookup(log.buf, &v, n, at, oid)) {
		/* a time of 0 ("never") is reported as a count */
		if (!at) {
			if (flags & GET_OID_DIE_QUIETLY)
				exit(128);
			die("log for '%s' only has %zu entries", shown.buf, v.nr);
		}
		if (!(flags & GET_OID_QUIETLY))
			warning("log for '%s' only goes back to %s", shown.buf, reflog_date(&v.e[0]));
	}
	free(v.e);
	strbuf_release(&log);
	strbuf_release(&shown);
	return 0;
}

/* branch@{upstream} and branch@{push}: the ref where asks, resolved; -1
 * when it does not exist, or when "@{-N}" names no branch; git's reason
 * is fatal. */
/* Where a branch's mark points: the ref, or NULL with git's reason. */
typedef const char *mark_fn(const char *branch, struct strbuf *why);

static mark_fn *branch_mark(const char *str, size_t len, size_t *plen);

static const char *at_branch_mark(const char *name, size_t len, mark_fn *where)
{
	struct strbuf b = STRBUF_INIT, why = STRBUF_INIT;
	const char *ref = NULL;
	size_t plen;
	mark_fn *inner = branch_mark(name, len, &plen);
	if (inner) {
		/* a mark on a mark: git resolves the inner one, dying as it
		 * does, and finds no branch in the full ref that gives */
		at_branch_mark(name, plen, inner);
		return NULL;
	}
	if (upstream_branch(name, len, &b) >= 0 && !(ref = where(b.buf, &why)))
		die("%s", why.buf);
	strbuf_release(&b);
	strbuf_release(&why);
	return ref;
}

/* The mark a name ends with: upstream_or_why for @{u} and @{upstream},
 * branch_push_tracking for @{push}, NULL for none; *plen: the length of
 * the branch part. */
static const struct { const char *mark; mark_fn *where; } marks[] = {
	{ "@{u}", upstream_or_why }, { "@{upstream}", upstream_or_why },
	{ "@{push}", branch_push_tracking }
};

/* The mark the text at p (n bytes) starts with, in any case; NULL for none. */
static mark_fn *mark_at(const char *p, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		size_t ml = strlen(marks[i].mark);
		if (n >= ml && !strncasecmp(p, marks[i].mark, ml))
			return marks[i].where;
	}
	return NULL;
}

static mark_fn *branch_mark(const char *str, size_t len, size_t *plen)
{
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		size_t ml = strlen(marks[i].mark);
		if (len >= ml && !strncasecmp(str + len - ml, marks[i].mark, ml)) {
			*plen = len - ml;
			/* as git, no mark follows a ':' (<rev>:<path>) */
			return memchr(str, ':', *plen) ? NULL : marks[i].where;
		}
	}
	return NULL;
}

int interpret_branch_mark(const char *name, size_t len, struct strbuf *ref)
{
	size_t plen;
	mark_fn *where = branch_mark(name, len, &plen);
	const char *r;
	if (!where)
		return 0;
	if (!(r = at_branch_mark(name, plen, where)))
		return -1;
	strbuf_reset(ref);
	strbuf_addstr(ref, r);
	return 1;
}

/*
 * name@{...} at the end of str (at: where "@{" starts): "u" or "upstream"
 * (any case) for the branch's upstream, "push" for where it is pushed,
 * digits for a reflog entry (or a time, from 100000000 on), else a date
 * (-1 when it is none).
 */
static int get_oid_at_brace(const char *str, size_t len, const char *at, unsigned flags,
			    struct object_id *oid)
{
	const char *inner = at + 2;
	size_t ilen = str + len - 1 - inner, plen = at - str;
	struct strbuf ref = STRBUF_INIT;
	mark_fn *where;
	int r;

	if ((r = interpret_branch_mark(str, len, &ref))) {
		r = r > 0 && !refs_read(ref.buf, oid) ? 0 : -1;
		strbuf_release(&ref);
		return r;
	}
	if ((where = mark_at(at, str + len - at))) {
		/* a mark with more after it: git resolves the branch's
		 * (dying as it does) and finds no ref in what follows */
		if (!memchr(str, ':', plen))
			at_branch_mark(str, plen, where);
		return -1;
	}
	if (*inner == '-')
		return -1;  /* @{-N} is a name's whole start, never its end */
	if (ilen && strspn(inner, "0123456789") == ilen) {
		/* digits: the nth entry, or a time from 100000000 on */
		uint64_t v = strtoull(inner, NULL, 10);
		return v < 100000000 ? reflog_at(str, plen, (long)v, 0, flags, oid)
				     : reflog_at(str, plen, -1, v, flags, oid);
	}
	{
		char *date = xstrndup(inner, ilen);
		int errors = 0;
		uint64_t at = approxidate_careful(date, &errors);
		free(date);
		return errors ? -1 : reflog_at(str, plen, -1, at, flags, oid);
	}
}

/* git refuses ref names that are empty, end in '/' or contain "//". */
static int ambiguous_path(const char *p, size_t len)
{
	int slash = 1;
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '/') {
			if (slash)
				return 1;
			slash = 1;
		} else if (p[i] == '\0')
			return 1;
		else if (p[i] != '.')
			slash = 0;
	}
	return slash;
}

/* How many refs git's rules find for a name, the first one's value in
 * oid; names refs could not have are quietly none. */
static int dwim_name(const char *str, size_t len, struct object_id *oid)
{
	struct strbuf full = STRBUF_INIT;
	char *n = xstrndup(str, len);
	int found = check_refname_format(n, REFNAME_ALLOW_ONELEVEL) ? 0 :
		refs_dwim(str, len, &full, oid);
	free(n);
	strbuf_release(&full);
	return found;
}

/* A name found (found refs) that git warns is ambiguous: it names more
 * than one ref, or a ref and an object. */
static int ambiguous(const char *str, size_t len, int found)
{
	struct object_id tmp;
	return found > 1 || !get_short_oid(str, len, GET_OID_QUIETLY, &tmp);
}

static int get_oid_basic(const char *str, size_t len, unsigned flags, struct object_id *oid)
{
	struct strbuf full = STRBUF_INIT;
	struct object_id tmp;
	int found;

	if (len == HEX_SZ && !get_oid_hex(str, oid)) {
		if (!(flags & GET_OID_QUIETLY) && refs_dwim(str, len, &full, &tmp) > 0) {
			warning("refname '%.*s' is ambiguous.", (int)len, str);
			fputs("Git normally never creates a ref that ends with 40 hex characters\n"
			      "because it will be ignored when you just specify 40-hex. These refs\n"
			      "may be created by mistake. For example,\n"
			      "\n"
			      "  git switch -c $br $(git rev-parse ...)\n"
			      "\n"
			      "where \"$br\" is somehow empty and a 40-hex ref is created. Please\n"
			      "examine these refs and maybe delete them. Turn this message off by\n"
			      "running \"git config advice.objectNameWarning false\"\n", stderr);
		}
		strbuf_release(&full);
		return 0;
	}
	if (len > 3 && !memcmp(str, "@{-", 3) && str[len - 1] == '}' &&
	    memchr(str, '}', len) == str + len - 1) {
		/* @{-N}: a detached id is the answer; a branch name goes
		 * through the ref rules (refs_dwim expands @{-N} itself) */
		int used = interpret_nth_prior_checkout(str, len, &full);
		if (used > 0 && full.len == HEX_SZ && !get_oid_hex(full.buf, oid)) {
			strbuf_release(&full);
			return 0;
		}
		if (used <= 0 || check_refname_format(full.buf, REFNAME_ALLOW_ONELEVEL) ||
		    (found = refs_dwim(str, len, &full, oid)) <= 0) {
			strbuf_release(&full);
			return -1;
		}
		strbuf_release(&full);
		if (!(flags & GET_OID_QUIETLY) && found > 1)
			warning("refname '%.*s' is ambiguous.", (int)len, str);
		return 0;
	}
	if (len && str[len - 1] == '}') {
		/* the last "@{" with something before the closing brace opens
		 * what the name ends with ("x@{1}@{}" is x at the date "1}@{") */
		const char *at = NULL;
		for (const char *p = str; (p = memmem(p, len - (p - str), "@{", 2)) && p + 4 <= str + len;
		     p += 2)
			at = p;
		if (at) {
			strbuf_release(&full);
			return get_oid_at_brace(str, len, at, flags, oid);
		}
	}
	if (ambiguous_path(str, len))
		return -1;
	if (len == 1 && str[0] == '@') {
		str = "HEAD";
		len = 4;
	}
	strbuf_release(&full);
	found = dwim_name(str, len, oid);
	if (found <= 0)
		return -1;
	if (!(flags & GET_OID_QUIETLY) && ambiguous(str, len, found))
		warning("refname '%.*s' is ambiguous.", (int)len, str);
	return 0;
}

/* Whether looking name up as git's get_oid() does warns that it is
 * ambiguous (it names more than one ref, or a ref and an object). */
int refname_ambiguous(const char *name)
{
	struct object_id oid;
	size_t len = strlen(name);
	int found = dwim_name(name, len, &oid);
	return found > 0 && ambiguous(name, len, found);
}

static int get_oid_1(const char *name, size_t len, unsigned flags, struct object_id *oid);

/*
 * The idx-th parent (from 1) of commit c into *out: 1, or 0 when it has
 * fewer parents, or -1 (reported) when it cannot be read. The commit
 * cache answers first, from the commit-graph as git's parse_commit()
 * does or from the start of the object; what it cannot settle is read
 * whole, with git's messages for a damaged commit.
 */
static int nth_parent(const struct object_id *c, unsigned long idx, struct object_id *out)
{
	struct commit_node *node = commit_lookup(c);
	struct commit_info ci;
	char *buf;
	int ret = 0;

	if (!commit_parse_quiet(node)) {
		if (idx > node->nr_parents)
			return 0;
		oidcpy(out, &node->parents[idx - 1]->oid);
		return 1;
	}
	if (read_parents(c, &ci, &buf))
		return -1;
	if (idx <= ci.nr_parents) {
		oidcpy(out, &ci.parents[idx - 1]);
		ret = 1;
	}
	commit_info_release(&ci);
	free(buf);
	return ret;
}

static int get_parent(const char *name, size_t len, unsigned long idx, struct object_id *oid)
{
	struct object_id c;

	if (get_oid_1(name, len, GET_OID_COMMITTISH, &c) || commit_reference(&c, &c))
		return -1;
	if (!idx) {
		oidcpy(oid, &c);
		return 0;
	}
	return nth_parent(&c, idx, oid) == 1 ? 0 : -1;
}

static int get_nth_ancestor(const char *name, size_t len, unsigned long n, struct object_id *oid)
{
	struct object_id c;

	if (get_oid_1(name, len, GET_OID_COMMITTISH, &c) || commit_reference(&c, &c))
		return -1;
	while (n--)
		if (nth_parent(&c, 1, &c) != 1)
			return -1;
	oidcpy(oid, &c);
	return 0;
}

/* <commit>^{/regex} and :/regex: the youngest commit reachable from the
 * starts whose message matches, visiting in date order (equal dates in
 * the order found, as git's date-sorted list does). "!!" quotes a leading
 * '!', "!-" negates; other "!" forms are reserved and fail, as in git. */
#define ONELINE_SEEN (1u << 31)

struct dated {
	struct commit_node *c;
	uint64_t seq;
};

static int dated_before(const struct dated *a, const struct dated *b)
{
	if (a->c->date != b->c->date)
		return a->c->date > b->c->date;
	return a->seq < b->seq;
}

static void dated_push(struct dated **h, size_t *nr, size_t *alloc, struct commit_node *c,
		       uint64_t seq)
{
	size_t i;
	ALLOC_GROW(*h, *nr + 1, *alloc);
	i = (*nr)++;
	(*h)[i].c = c;
	(*h)[i].seq = seq;
	while (i && dated_before(&(*h)[i], &(*h)[(i - 1) / 2])) {
		struct dated t = (*h)[i];
		(*h)[i] = (*h)[(i - 1) / 2];
		(*h)[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static struct commit_node *dated_pop(struct dated *h, size_t *nr)
{
	struct commit_node *top = h[0].c;
	size_t i = 0;
	h[0] = h[--*nr];
	for (;;) {
		size_t l = 2 * i + 1, b = i;
		if (l < *nr && dated_before(&h[l], &h[b]))
			b = l;
		if (l + 1 < *nr && dated_before(&h[l + 1], &h[b]))
			b = l + 1;
		if (b == i)
			break;
		struct dated t = h[i];
		h[i] = h[b];
		h[b] = t;
		i = b;
	}
	return top;
}

static int find_by_message(const struct object_id *starts, size_t nr_starts,
			   const char *pattern, struct object_id *oid)
{
	struct dated *heap = NULL;
	struct commit_node **seen = NULL;
	size_t nr = 0, alloc = 0, nr_seen = 0, alloc_seen = 0;
	uint64_t seq = 0;
	int negate = 0, found = -1;
	regex_t re;

	if (pattern[0] == '!') {
		if (pattern[1] == '-') {
			negate = 1;
			pattern += 2;
		} else if (pattern[1] == '!')
			pattern++;
		else
			return -1;
	}
	if (regcomp(&re, pattern, REG_EXTENDED))
		return -1;
	for (size_t i = 0; i < nr_starts; i++) {
		struct commit_node *c = commit_lookup(&starts[i]);
		if ((c->flags & ONELINE_SEEN) || commit_parse(c))
			continue;
		c->flags |= ONELINE_SEEN;
		ALLOC_GROW(seen, nr_seen + 1, alloc_seen);
		seen[nr_seen++] = c;
		dated_push(&heap, &nr, &alloc, c, seq++);
	}
	while (nr && found) {
		struct commit_node *c = dated_pop(heap, &nr);
		enum object_type t;
		size_t size;
		char *buf = odb_read_object(&c->oid, &t, &size);
		const char *msg = buf ? strstr(buf, "\n\n") : NULL;
		if (negate ^ (msg && !regexec(&re, msg + 2, 0, NULL, 0))) {
			oidcpy(oid, &c->oid);
			found = 0;
		}
		free(buf);
		for (uint16_t i = 0; found && i < c->nr_parents; i++) {
			struct commit_node *p = c->parents[i];
			if ((p->flags & ONELINE_SEEN) || commit_parse(p))
				continue;
			p->flags |= ONELINE_SEEN;
			ALLOC_GROW(seen, nr_seen + 1, alloc_seen);
			seen[nr_seen++] = p;
			dated_push(&heap, &nr, &alloc, p, seq++);
		}
	}
	for (size_t i = 0; i < nr_seen; i++)
		seen[i]->flags &= ~ONELINE_SEEN;
	regfree(&re);
	free(heap);
	free(seen);
	return found;
}

static int peel_onion(const char *name, size_t len, unsigned flags, struct object_id *oid)
{
	const char *sp;
	enum object_type want;
	struct object_id outer;
	char *whole;
	int ret;

	if (len < 4 || name[len - 1] != '}')
		return -1;
	for (sp = name + len - 1; sp > name; sp--)
		if (*sp == '{' && sp[-1] == '^')
			break;
	if (sp <= name)
		return -1;
	sp++;
	if (!strncmp(sp, "commit}", 7))
		want = OBJ_COMMIT;
	else if (!strncmp(sp, "tag}", 4))
		want = OBJ_TAG;
	else if (!strncmp(sp, "tree}", 5))
		want = OBJ_TREE;
	else if (!strncmp(sp, "blob}", 5))
		want = OBJ_BLOB;
	else if (!strncmp(sp, "object}", 7))
		want = OBJ_BAD;
	else if (sp[0] == '}')
		want = OBJ_NONE;
	else if (sp[0] == '/')
		want = OBJ_COMMIT;
	else
		return -1;
	flags &= ~(GET_OID_COMMITTISH | GET_OID_TREEISH);
	if (want == OBJ_COMMIT)
		flags |= GET_OID_COMMITTISH;
	else if (want == OBJ_TREE)
		flags |= GET_OID_TREEISH;
	if (get_oid_1(name, sp - name - 2, flags, &outer))
		return -1;
	if (!odb_has_object(&outer))
		return -1;
	if (want == OBJ_BAD) {
		oidcpy(oid, &outer);
		return parse_object_checked(&outer, NULL);
	}
	if (want == OBJ_NONE)
		return checked_peel_to_non_tag(&outer, oid, NULL);
	whole = xstrndup(name, len);
	ret = peel_to_type_1(&outer, want, whole, oid, 1);
	free(whole);
	if (!ret && sp[0] == '/' && sp[1] != '}') {
		char *pattern = xstrndup(sp + 1, name + len - 1 - (sp + 1));
		struct object_id start;
		oidcpy(&start, oid);
		ret = find_by_message(&start, 1, pattern, oid);
		free(pattern);
	}
	return ret;
}

/* "SOMETHING-g<hex>", the output of git describe. */
static int get_describe_name(const char *name, size_t len, unsigned flags, struct object_id *oid)
{
	for (const char *cp = name + len - 1; cp >= name + 2; cp--) {
		if (!is_hex_digit(*cp)) {
			if (*cp == 'g' && cp[-1] == '-')
				return get_short_oid(cp + 1, name + len - cp - 1,
						     flags | GET_OID_COMMITTISH, oid) ? -1 : 0;
		}
	}
	return -1;
}

static int get_oid_1(const char *name, size_t len, unsigned flags, struct object_id *oid)
{
	const char *cp;
	int suffix = 0, r;

	for (cp = name + len; cp > name; cp--) {
		char ch = cp[-1];
		if (ch >= '0' && ch <= '9')
			continue;
		if (ch == '~' || ch == '^')
			suffix = ch;
		break;
	}
	if (suffix) {
		size_t base_len = cp - 1 - name;
		unsigned long n = 0;
		for (const char *d = cp; d < name + len; d++) {
			n = n * 10 + (*d - '0');
			if (n > INT32_MAX)
				return -1;
		}
		if (cp == name + len)
			n = 1;   /* "x^" is "x^1", "x~" is "x~1" */
		if (suffix == '^')
			return get_parent(name, base_len, n, oid);
		return get_nth_ancestor(name, base_len, n, oid);
	}
	if (!peel_onion(name, len, flags, oid))
		return 0;
	if (!get_oid_basic(name, len, flags, oid))
		return 0;
	if (!get_describe_name(name, len, flags, oid))
		return 0;
	r = get_short_oid(name, len, flags, oid);
	return r ? -1 : 0;
}

/* Look one path up in a tree: 0 and *oid, -1 if absent. */
static int tree_lookup_path(const struct object_id *tree, const char *path, struct object_id *oid)
{
	struct object_id cur;
	oidcpy(&cur, tree);
	while (*path == '/')
		return -1;
	while (*path) {
		const char *slash = strchrnul(path, '/');
		size_t n = slash - path;
		enum object_type t;
		size_t size;
		char *buf = odb_read_object(&cur, &t, &size);
		struct tree_iter it;
		struct tree_entry e;
		int found = 0;
		if (!buf)
			return -1;
		if (t != OBJ_TREE) {
			free(buf);
			return -1;
		}
		tree_iter_init(&it, buf, size);
		while (tree_iter_next(&it, &e) == 1)
			if (e.name_len == n && !memcmp(e.name, path, n)) {
				oidcpy(&cur, e.oid);
				found = 1;
				break;
			}
		free(buf);
		if (!found)
			return -1;
		path = slash;
		while (*path == '/')
			path++;
	}
	oidcpy(oid, &cur);
	return 0;
}

/* "./x" and "../x" are relative to the current directory in the work tree. */
static char *resolve_relative(const char *path)
{
	const char *prefix = the_repo.prefix ? the_repo.prefix : "";
	struct strbuf sb = STRBUF_INIT;
	if (!starts_with(path, "./") && !starts_with(path, "../"))
		return NULL;
	if (!repo_worktree())
		die("relative path syntax can't be used outside working tree");
	strbuf_addstr(&sb, prefix);
	while (*path) {
		if (starts_with(path, "./")) {
			path += 2;
		} else if (starts_with(path, "../")) {
			char *s;
			path += 3;
			if (sb.len)
				strbuf_setlen(&sb, sb.len - 1);
			s = memrchr(sb.buf, '/', sb.len);
			strbuf_setlen(&sb, s ? (size_t)(s - sb.buf) + 1 : 0);
		} else {
			strbuf_addstr(&sb, path);
			break;
		}
	}
	return strbuf_detach(&sb, NULL);
}

static NORETURN void die_path_in_tree(const struct object_id *tree, const char *path,
				      const char *rev, size_t rev_len)
{
	const char *prefix = the_repo.prefix ? the_repo.prefix : "";
	struct object_id tmp;
	if (!access(path, F_OK))
		die("path '%s' exists on disk, but not in '%.*s'", path, (int)rev_len, rev);
	if (*prefix) {
		char *full = xstrfmt("%s%s", prefix, path);
		if (!tree_lookup_path(tree, full, &tmp))
			die("path '%s' exists, but not '%s'\n"
			    "hint: Did you mean '%.*s:%s' aka '%.*s:./%s'?",
			    full, path, (int)rev_len, rev, full, (int)rev_len, rev, path);
	}
	die("path '%s' does not exist in '%.*s'", path, (int)rev_len, rev);
}

/* ---- :path, :N:path (the index) and :/regex ---- */

struct index_hit {
	struct object_id oid;
	int stage;     /* the stage found when the wanted one is absent */
	int found;     /* 1 wanted stage, 2 another stage only */
};

/* Scan the index (versions 2 to 4) for path at stage. 0 if the index was
 * read (see hit->found), -1 if there is none or it is not understood. */
static int index_find(const char *path, size_t len, int stage, struct index_hit *hit)
{
	const char *file = getenv("GIT_INDEX_FILE");
	struct strbuf sb = STRBUF_INIT;
	struct index_reader r;
	struct index_entry_ref e;
	int got = -1;

	memset(hit, 0, sizeof(*hit));
	if (strbuf_read_file(&sb, file ? file : git_path("index"), 4096) < 0)
		return -1;
	if (index_reader_init(&r, sb.buf, sb.len) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	while ((got = index_reader_next(&r, &e)) > 0) {
		if (e.path_len != len || memcmp(e.path, path, len))
			continue;
		if ((int)e.stage == stage) {
			oidcpy(&hit->oid, &e.oid);
			hit->found = 1;
			got = 0;
			break;
		}
		if (!hit->found) {
			hit->found = 2;
			hit->stage = e.stage;
		}
	}
	index_reader_release(&r);
	strbuf_release(&sb);
	return got < 0 ? -1 : 0;
}

static int collect_ref(const struct ref_entry *ref, void *data)
{
	struct candidates *c = data;
	ALLOC_GROW(c->oid, c->nr + 1, c->alloc);
	oidcpy(&c->oid[c->nr++], &ref->oid);
	return 0;
}

/* Stable sort of commits by date, newest first (insertion sort: the
 * list is the refs of one repository). */
static void sort_by_date(struct object_id *oids, size_t n)
{
	timestamp_t *d = xcalloc(n ? n : 1, sizeof(*d));
	for (size_t i = 0; i < n; i++) {
		struct commit_node *c = commit_lookup(&oids[i]);
		d[i] = commit_parse(c) ? 0 : c->date;
	}
	for (size_t i = 1; i < n; i++) {
		struct object_id o = oids[i];
		timestamp_t t = d[i];
		size_t j = i;
		while (j && d[j - 1] < t) {
			oids[j] = oids[j - 1];
			d[j] = d[j - 1];
			j--;
		}
		oids[j] = o;
		d[j] = t;
	}
	free(d);
}

static int get_oid_colon(const char *name, unsigned flags, struct object_id *oid)
{
	const char *prefix = the_repo.prefix ? the_repo.prefix : "";
	const char *path = name + 1;
	struct index_hit hit;
	char *rel;
	int stage = 0, ret = -1;

	if (name[1] == '/' && name[2] && !(flags & GET_OID_ONLY_TO_DIE)) {
		/* :/regex: the youngest commit reachable from any ref */
		struct candidates refs = { 0 };
		struct object_id head;
		size_t n = 0;
		refs_for_each("refs/", 0, collect_ref, &refs);
		if (!refs_read("HEAD", &head))
			collect_ref(&(struct ref_entry){ .oid = head }, &refs);
		/* Commits (tags peeled) start the search, in git's order: it
		 * prepends each ref to its list, then sorts it stably by date. */
		for (size_t i = refs.nr; i-- > 0;) {
			enum object_type t;
			struct object_id peeled;
			if (!peel_to_non_tag(&refs.oid[i], &peeled, &t) && t == OBJ_COMMIT)
				oidcpy(&refs.oid[n++], &peeled);
		}
		sort_by_date(refs.oid, n);
		ret = find_by_message(refs.oid, n, name + 2, oid);
		free(refs.oid);
		return ret;
	}
	if (name[1] >= '0' && name[1] <= '3' && name[2] == ':' && name[3]) {
		stage = name[1] - '0';
		path = name + 3;
	}
	rel = resolve_relative(path);
	if (rel)
		path = rel;
	if (index_find(path, strlen(path), stage, &hit) == 0 && hit.found == 1) {
		oidcpy(oid, &hit.oid);
		ret = 0;
	} else if ((flags & GET_OID_ONLY_TO_DIE) && name[1] && name[1] != '/') {
		struct index_hit other;
		char *full;
		if (hit.found == 2)
			die("path '%s' is in the index, but not at stage %d\n"
			    "hint: Did you mean ':%d:%s'?", path, stage, hit.stage, path);
		full = xstrfmt("%s%s", prefix, path);
		if (index_find(full, strlen(full), stage, &other) == 0 && other.found) {
			int st = other.found == 1 ? stage : other.stage;
			die("path '%s' is in the index, but not '%s'\n"
			    "hint: Did you mean ':%d:%s' aka ':%d:./%s'?", full, path, st, full, st, path);
		}
		if (!access(path, F_OK))
			die("path '%s' exists on disk, but not in the index", path);
		die("path '%s' does not exist (neither on disk nor in the index)", path);
	}
	free(rel);
	return ret;
}

int get_oid_with_flags(const char *name, unsigned flags, struct object_id *oid)
{
	const char *cp;
	int depth = 0;
	size_t len = strlen(name);

	/* the whole name first, as git tries it: a reflog date may hold a
	 * ':' after its braces ("@{1}...x:y^{commit}") */
	if (strchr(name, ':') && !get_oid_1(name, len, flags & ~GET_OID_ONLY_TO_DIE, oid))
		return 0;
	if (name[0] == ':')
		return get_oid_colon(name, flags, oid);
	for (cp = name; *cp; cp++) {
		if (*cp == '{')
			depth++;
		else if (depth && *cp == '}')
			depth--;
		else if (!depth && *cp == ':')
			break;
	}
	if (*cp == ':') {
		struct object_id tree;
		const char *path = cp + 1;
		char *rel = resolve_relative(path);
		size_t rev_len = cp - name;
		int ret;
		if (rel)
			path = rel;
		if (get_oid_1(name, rev_len, GET_OID_TREEISH | (flags & (GET_OID_QUIETLY | GET_OID_DIE_QUIETLY)), &tree)) {
			if (flags & GET_OID_ONLY_TO_DIE)
				die("invalid object name '%.*s'.", (int)rev_len, name);
			free(rel);
			return -1;
		}
		if (peel_to_type(&tree, OBJ_TREE, NULL, &tree)) {
			free(rel);
			return -1;
		}
		ret = tree_lookup_path(&tree, path, oid);
		if (ret && (flags & GET_OID_ONLY_TO_DIE))
			die_path_in_tree(&tree, path, name, rev_len);
		free(rel);
		return ret;
	}
	return get_oid_1(name, len, flags, oid);
}

int get_oid(const char *name, struct object_id *oid)
{
	return get_oid_with_flags(name, 0, oid);
}
