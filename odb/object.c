/* object.c: parsers for commit, tag and tree objects. Each one works on
 * (buf, len) and never looks at buf[len] or beyond, so that any buffer,
 * not only one from odb_read_object(), can be parsed. Nothing here reads
 * the object store (peel_to_non_tag lives in oid-name.c), so the parsers
 * link and test on their own. */
#include "odb/object.h"

/* The line starting at p (before end): its length without the '\n'.
 * *next is set after the '\n', or to end if the line is not terminated. */
static size_t line_len(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', end - p);
	if (!nl) {
		*next = end;
		return end - p;
	}
	*next = nl + 1;
	return nl - p;
}

/* "<key> <40 hex>\n" at *pp: fill oid, advance *pp. */
static int parse_oid_line(const char **pp, const char *end, const char *key,
			  size_t keylen, struct object_id *oid)
{
	const char *p = *pp;
	if ((size_t)(end - p) < keylen + HEX_SZ + 1 || memcmp(p, key, keylen) ||
	    p[keylen + HEX_SZ] != '\n' || get_oid_hex(p + keylen, oid))
		return -1;
	*pp = p + keylen + HEX_SZ + 1;
	return 0;
}

/* Digits of a decimal timestamp; 0 if there are none or it overflows. */
static timestamp_t parse_decimal(const char *p, const char *end, const char **out,
				 int *overflowp)
{
	timestamp_t v = 0;
	int overflow = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		unsigned d = *p++ - '0';
		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		v = v * 10 + d;
	}
	if (out)
		*out = p;
	*overflowp = overflow;
	return overflow ? 0 : v;
}

int parse_ident(const char *line, size_t len, struct ident *out)
{
	const char *end = line + len, *lt, *gt, *p;

	memset(out, 0, sizeof(*out));
	lt = memchr(line, '<', len);
	if (!lt)
		return -1;
	gt = memchr(lt + 1, '>', end - lt - 1);
	if (!gt)
		return -1;
	p = lt;
	while (p > line && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	out->name = line;
	out->name_len = p - line;
	out->email = lt + 1;
	out->email_len = gt - lt - 1;

	/* The date follows the last '>' on the line, like git reads it. */
	p = end;
	while (p > gt && p[-1] != '>')
		p--;
	while (p < end && *p == ' ')
		p++;
	if (p >= end || *p < '0' || *p > '9')
		return 0;   /* name and email only: git accepts that */
	out->date = parse_decimal(p, end, &p, &out->date_overflow);
	while (p < end && *p == ' ')
		p++;
	if (p < end && (*p == '+' || *p == '-')) {
		const char *tz = p++;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		out->tz = tz;
		out->tz_len = p - tz;
	}
	return 0;
}

/* The date of an ident line, 0 when there is none (as git does). */
static timestamp_t ident_date(const char *line, size_t len)
{
	struct ident id;
	if (parse_ident(line, len, &id))
		return 0;
	return id.date;
}

int parse_commit_buffer(const char *buf, size_t len, struct commit_info *out)
{
	const char *p = buf, *end = buf + len, *next;
	size_t alloc = 0;

	memset(out, 0, sizeof(*out));
	if (parse_oid_line(&p, end, "tree ", 5, &out->tree))
		return error("bogus commit object: no tree line");
	while (end - p >= 7 && !memcmp(p, "parent ", 7)) {
		struct object_id oid;
		if (parse_oid_line(&p, end, "parent ", 7, &oid)) {
			commit_info_release(out);
			return error("bad parents in commit");
		}
		ALLOC_GROW(out->parents, out->nr_parents + 1, alloc);
		oidcpy(&out->parents[out->nr_parents++], &oid);
	}
	/* Other headers in any order; continuation lines start with ' '. */
	while (p < end && *p != '\n') {
		size_t n = line_len(p, end, &next);
		if (!out->author && n >= 7 && !memcmp(p, "author ", 7)) {
			out->author = p + 7;
			out->author_len = n - 7;
			out->author_date = ident_date(out->author, out->author_len);
		} else if (!out->committer && n >= 10 && !memcmp(p, "committer ", 10)) {
			out->committer = p + 10;
			out->committer_len = n - 10;
			out->committer_date = ident_date(out->committer, out->committer_len);
		}
		p = next;
	}
	if (p < end)
		p++;   /* the blank line */
	out->message = p;
	out->message_len = end - p;
	return 0;
}

void commit_info_release(struct commit_info *ci)
{
	free(ci->parents);
	ci->parents = NULL;
	ci->nr_parents = 0;
}

int parse_tag_buffer(const char *buf, size_t len, struct tag_info *out)
{
	const char *p = buf, *end = buf + len, *next;
	size_t n;

	memset(out, 0, sizeof(*out));
	out->type = OBJ_BAD;
	if (parse_oid_line(&p, end, "object ", 7, &out->object))
		return error("bogus tag object: no object line");
	n = line_len(p, end, &next);
	if (n < 5 || memcmp(p, "type ", 5) || p + n == end)
		return error("bogus tag object: no type line");
	out->type = type_from_string(p + 5, n - 5);
	if (out->type == OBJ_BAD)
		return error("bogus tag object: unknown type '%.*s'", (int)(n - 5), p + 5);
	p = next;
	while (p < end && *p != '\n') {
		n = line_len(p, end, &next);
		if (!out->tag && n >= 4 && !memcmp(p, "tag ", 4)) {
			out->tag = p + 4;
			out->tag_len = n - 4;
		} else if (!out->tagger && n >= 7 && !memcmp(p, "tagger ", 7)) {
			out->tagger = p + 7;
			out->tagger_len = n - 7;
			out->tagger_date = ident_date(out->tagger, out->tagger_len);
		}
		p = next;
	}
	if (p < end)
		p++;
	out->message = p;
	out->message_len = end - p;
	return 0;
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Length of the line without trailing white space (0 for a blank line). */
static size_t trimmed_len(const char *p, size_t n)
{
	while (n && is_space((unsigned char)p[n - 1]))
		n--;
	return n;
}

void message_subject(const char *msg, size_t len, struct strbuf *sb)
{
	const char *p = msg, *end = msg + len, *next;
	int first = 1;

	while (p < end) {   /* leading blank lines do not count */
		size_t n = line_len(p, end, &next);
		if (trimmed_len(p, n))
			break;
		p = next;
	}
	while (p < end) {
		size_t n = trimmed_len(p, line_len(p, end, &next));
		if (!n)
			break;
		if (!first)
			strbuf_addch(sb, ' ');
		strbuf_add(sb, p, n);
		first = 0;
		p = next;
	}
}

void tree_iter_init(struct tree_iter *it, const void *buf, size_t len)
{
	it->p = buf;
	it->end = it->p + len;
}

int tree_iter_next(struct tree_iter *it, struct tree_entry *e)
{
	const unsigned char *p = it->p, *nul;
	unsigned mode = 0;

	if (p >= it->end)
		return 0;
	if (*p == ' ')
		goto bad;
	while (p < it->end && *p != ' ') {
		if (*p < '0' || *p > '7' || mode > 07777777)
			goto bad;
		mode = (mode << 3) | (*p++ - '0');
	}
	if (p >= it->end)
		goto bad;
	p++;
	nul = memchr(p, 0, it->end - p);
	if (!nul || nul == p || (size_t)(it->end - nul - 1) < RAW_SZ)
		goto bad;
	e->mode = mode;
	e->name = (const char *)p;
	e->name_len = nul - p;
	_Static_assert(sizeof(struct object_id) == RAW_SZ, "object_id is its raw bytes");
	e->oid = (const struct object_id *)(nul + 1);
	it->p = nul + 1 + RAW_SZ;
	return 1;
bad:
	it->p = it->end;
	return -1;
}
