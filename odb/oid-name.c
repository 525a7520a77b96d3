/* oid-name.c: revision names to object ids, following git's grammar
 * (gitrevisions(7)) and its messages. The suffix operators are parsed from
 * the right, so "A~2^2" is "(A~2)^2"; the ':' of <rev>:<path> is the first
 * one outside braces, so "HEAD^{/a:b}:x" works. */
#include "odb/oid-name.h"
#include "refs/refs.h"
#include "lib/repo.h"
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

int peel_to_type(const struct object_id *oid, enum object_type want, const char *name,
		 struct object_id *out)
{
	struct object_id cur;
	enum object_type t;
	size_t size;
	int depth = 0;

	oidcpy(&cur, oid);
	for (;;) {
		if (odb_read_header(&cur, &t, &size) < 0)
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

/* lookup_commit_reference in git's words: tags followed, then it must be a
 * commit ("error: object X is a tree, not a commit"). */
static int commit_reference(const struct object_id *oid, struct object_id *out)
{
	enum object_type t;
	if (peel_to_non_tag(oid, out, &t) < 0)
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
	if (!*buf || t != OBJ_COMMIT || parse_commit_buffer(*buf, size, ci) < 0) {
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
	if (len && str[len - 1] == '}' && memmem(str, len, "@{", 2)) {
		strbuf_release(&full);
		return -1;   /* reflog and upstream forms are not supported */
	}
	if (ambiguous_path(str, len))
		return -1;
	if (len == 1 && str[0] == '@') {
		str = "HEAD";
		len = 4;
	}
	{
		/* git's ref lookup quietly ignores names refs could not have */
		char *n = xstrndup(str, len);
		found = check_refname_format(n, REFNAME_ALLOW_ONELEVEL) ? 0 :
			refs_dwim(str, len, &full, oid);
		free(n);
	}
	strbuf_release(&full);
	if (found <= 0)
		return -1;
	if (!(flags & GET_OID_QUIETLY) &&
	    (found > 1 || !get_short_oid(str, len, GET_OID_QUIETLY, &tmp)))
		warning("refname '%.*s' is ambiguous.", (int)len, str);
	return 0;
}

static int get_oid_1(const char *name, size_t len, unsigned flags, struct object_id *oid);

static int get_parent(const char *name, size_t len, unsigned long idx, struct object_id *oid)
{
	struct object_id c;
	struct commit_info ci;
	char *buf;
	int ret = -1;

	if (get_oid_1(name, len, GET_OID_COMMITTISH, &c) || commit_reference(&c, &c))
		return -1;
	if (!idx) {
		oidcpy(oid, &c);
		return 0;
	}
	if (read_parents(&c, &ci, &buf))
		return -1;
	if (idx <= ci.nr_parents) {
		oidcpy(oid, &ci.parents[idx - 1]);
		ret = 0;
	}
	commit_info_release(&ci);
	free(buf);
	return ret;
}

static int get_nth_ancestor(const char *name, size_t len, unsigned long n, struct object_id *oid)
{
	struct object_id c;

	if (get_oid_1(name, len, GET_OID_COMMITTISH, &c) || commit_reference(&c, &c))
		return -1;
	while (n--) {
		struct commit_info ci;
		char *buf;
		int ok;
		if (read_parents(&c, &ci, &buf))
			return -1;
		ok = ci.nr_parents > 0;
		if (ok)
			oidcpy(&c, &ci.parents[0]);
		commit_info_release(&ci);
		free(buf);
		if (!ok)
			return -1;
	}
	oidcpy(oid, &c);
	return 0;
}

/* <commit>^{/regex}: the youngest commit reachable from start whose message
 * matches. "!!" quotes a leading '!', "!-" negates; other "!" forms are
 * reserved and fail, as in git. */
static int find_by_message(const struct object_id *start, const char *pattern,
			   struct object_id *oid)
{
	struct object_id *queue = NULL, *seen = NULL;
	timestamp_t *dates = NULL;
	size_t nq = 0, aq = 0, ad = 0, ns = 0, as = 0;
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
	ALLOC_GROW(queue, 1, aq);
	ALLOC_GROW(dates, 1, ad);
	oidcpy(&queue[0], start);
	dates[0] = UINT64_MAX;
	nq = 1;
	while (nq) {
		/* The most recent commit first, like git's date-ordered walk. */
		size_t best = 0;
		struct commit_info ci;
		struct object_id cur;
		char *buf;
		int seen_it = 0;
		for (size_t i = 1; i < nq; i++)
			if (dates[i] > dates[best])
				best = i;
		oidcpy(&cur, &queue[best]);
		queue[best] = queue[nq - 1];
		dates[best] = dates[nq - 1];
		nq--;
		for (size_t i = 0; i < ns; i++)
			if (oideq(&seen[i], &cur))
				seen_it = 1;
		if (seen_it)
			continue;
		ALLOC_GROW(seen, ns + 1, as);
		oidcpy(&seen[ns++], &cur);
		if (read_parents(&cur, &ci, &buf))
			continue;
		{
			char *msg = xmemdupz(ci.message, ci.message_len);
			int m = !regexec(&re, msg, 0, NULL, 0);
			free(msg);
			if (m != negate) {
				oidcpy(oid, &cur);
				found = 0;
			}
		}
		for (size_t i = 0; found && i < ci.nr_parents; i++) {
			ALLOC_GROW(queue, nq + 1, aq);
			ALLOC_GROW(dates, nq + 1, ad);
			oidcpy(&queue[nq], &ci.parents[i]);
			dates[nq++] = ci.committer_date;
		}
		commit_info_release(&ci);
		free(buf);
		if (!found)
			break;
	}
	regfree(&re);
	free(queue);
	free(dates);
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
		return 0;
	}
	if (want == OBJ_NONE)
		return peel_to_non_tag(&outer, oid, NULL);
	whole = xstrndup(name, len);
	ret = peel_to_type(&outer, want, whole, oid);
	free(whole);
	if (!ret && sp[0] == '/' && sp[1] != '}') {
		char *pattern = xstrndup(sp + 1, name + len - 1 - (sp + 1));
		struct object_id start;
		oidcpy(&start, oid);
		ret = find_by_message(&start, pattern, oid);
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
	if (!the_repo.worktree)
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

int get_oid_with_flags(const char *name, unsigned flags, struct object_id *oid)
{
	const char *cp;
	int depth = 0;
	size_t len = strlen(name);

	if (name[0] == ':') {
		/* :path (the index) and :/regex are not supported yet. */
		if (flags & GET_OID_ONLY_TO_DIE) {
			if (name[1] == '/')
				return -1;
			die("index lookups (:<path>) are not supported by mini-git: '%s'", name);
		}
		return -1;
	}
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
		if (get_oid_1(name, rev_len, GET_OID_TREEISH | (flags & GET_OID_QUIETLY), &tree)) {
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
	return get_oid_with_flags(name, GET_OID_QUIETLY, oid);
}
