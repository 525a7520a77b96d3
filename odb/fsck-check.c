/* fsck-check.c: object syntax checks with git's message ids. The order of
 * the checks, and where a check stops the rest, follow git's fsck.c as
 * observed with git 2.39, since the messages a damaged object gets (and
 * how many) depend on it. Every scan is bounded by the object's length;
 * callers give buffers with a NUL after the last byte, which the string
 * scans of names inside tree entries rely on only after a NUL is known to
 * exist inside the buffer. */
#include "lib/util.h"
#include "lib/strbuf.h"
#include "odb/fsck-check.h"
#include "refs/refs.h"
#include <ctype.h>
#include <endian.h>
#include <sys/stat.h>

#define FSCK_MSG_NAME(id, sev) #id,
static const char *const msg_upper[] = { FSCK_MSG_IDS(FSCK_MSG_NAME) };
#undef FSCK_MSG_NAME
#define FSCK_MSG_SEV(id, sev) sev,
static const unsigned char msg_default[] = { FSCK_MSG_IDS(FSCK_MSG_SEV) };
#undef FSCK_MSG_SEV

static char msg_camel[FSCK_MSG_MAX][40];

/* "BAD_TREE_SHA1" -> "badTreeSha1". Filled once, before threads start
 * (fsck_msg_id_name is called by the option parser first); the result is
 * the same whoever fills it, so a race would only write equal bytes. */
static void prepare_names(void)
{
	static int done;
	if (done)
		return;
	for (int i = 0; i < FSCK_MSG_MAX; i++) {
		const char *s = msg_upper[i];
		char *d = msg_camel[i];
		int up = 0;
		for (; *s; s++) {
			if (*s == '_') {
				up = 1;
				continue;
			}
			*d++ = up ? *s : (char)tolower((unsigned char)*s);
			up = 0;
		}
		*d = '\0';
	}
	done = 1;
}

const char *fsck_msg_id_name(enum fsck_msg_id id)
{
	prepare_names();
	return msg_camel[id];
}

int fsck_msg_id_parse(const char *name)
{
	prepare_names();
	for (int i = 0; i < FSCK_MSG_MAX; i++)
		if (!strcasecmp(name, msg_camel[i]))
			return i;
	return -1;
}

enum fsck_msg_type fsck_msg_type(const struct fsck_options *o, enum fsck_msg_id id)
{
	enum fsck_msg_type t;
	if (o->msg_type)
		return o->msg_type[id];
	t = msg_default[id];
	if (o->strict && t == FSCK_WARN)
		t = FSCK_ERROR;
	return t;
}

void fsck_set_msg_type(struct fsck_options *o, const char *id_name, const char *sev)
{
	int id = fsck_msg_id_parse(id_name);
	enum fsck_msg_type t;

	if (id < 0)
		die("Unhandled message id: %s", id_name);
	if (!sev)
		die("missing value for 'fsck.%s'", id_name);
	if (!strcasecmp(sev, "error"))
		t = FSCK_ERROR;
	else if (!strcasecmp(sev, "warn"))
		t = FSCK_WARN;
	else if (!strcasecmp(sev, "ignore"))
		t = FSCK_IGNORE;
	else
		die("Unknown fsck message type: '%s'", sev);
	if (!o->msg_type) {
		o->msg_type = xmalloc(FSCK_MSG_MAX);
		for (int i = 0; i < FSCK_MSG_MAX; i++)
			o->msg_type[i] = fsck_msg_type(o, i);
	}
	if (t != FSCK_ERROR && msg_default[id] == FSCK_FATAL)
		die("Cannot demote %s to %s", id_name, sev);
	o->msg_type[id] = t;
}

void fsck_options_release(struct fsck_options *o)
{
	free(o->msg_type);
	o->msg_type = NULL;
}

struct ctx {
	const struct fsck_options *o;
	const struct object_id *oid;
	enum object_type type;
	fsck_report_fn fn;
	void *data;
};

/* 1 if reported as an error, 0 otherwise: git's report() value. */
FORMAT_PRINTF(3, 4)
static int report(struct ctx *c, enum fsck_msg_id id, const char *fmt, ...)
{
	enum fsck_msg_type t = fsck_msg_type(c->o, id);
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (t == FSCK_IGNORE)
		return 0;
	if (t == FSCK_FATAL)
		t = FSCK_ERROR;
	else if (t == FSCK_INFO)
		t = FSCK_WARN;
	strbuf_addf(&sb, "%s: ", fsck_msg_id_name(id));
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	c->fn(c->data, c->oid, c->type, t, sb.buf);
	strbuf_release(&sb);
	return t == FSCK_ERROR;
}

/* The header must end with a blank line, or with a newline at the end of
 * the object, and hold no NUL: everything below may then scan lines. */
static int verify_headers(struct ctx *c, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (!buf[i])
			return report(c, FSCK_MSG_NUL_IN_HEADER,
				      "unterminated header: NUL at offset %ld", (long)i);
		if (buf[i] == '\n' && i + 1 < len && buf[i + 1] == '\n')
			return 0;
	}
	if (len && buf[len - 1] == '\n')
		return 0;
	return report(c, FSCK_MSG_UNTERMINATED_HEADER, "unterminated header");
}

/* strtoumax's reading of a number: optional blanks and sign, digits,
 * saturating on overflow. *end is p when there are no digits. */
static uintmax_t parse_unsigned(const char *p, const char **end)
{
	const char *s = p;
	uintmax_t v = 0;
	int neg = 0, over = 0, any = 0;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = *s - '0';
		any = 1;
		if (v > (UINTMAX_MAX - d) / 10)
			over = 1;
		else
			v = v * 10 + d;
	}
	if (!any) {
		*end = p;
		return 0;
	}
	*end = s;
	if (over)
		return UINTMAX_MAX;
	return neg ? (uintmax_t)0 - v : v;
}

static int date_overflows(uintmax_t t)
{
	return t == UINTMAX_MAX || t > (uintmax_t)INT64_MAX;
}

/* One ident line; *pp is moved past its newline. */
static int check_ident(struct ctx *c, const char **pp)
{
	const char *p = *pp, *end;
	const char *eol = strchrnul(p, '\n');

	*pp = *eol == '\n' ? eol + 1 : eol;
	if (*p == '<')
		return report(c, FSCK_MSG_MISSING_NAME_BEFORE_EMAIL,
			      "invalid author/committer line - missing space before email");
	p += strcspn(p, "<>\n");
	if (*p == '>')
		return report(c, FSCK_MSG_BAD_NAME, "invalid author/committer line - bad name");
	if (*p != '<')
		return report(c, FSCK_MSG_MISSING_EMAIL, "invalid author/committer line - missing email");
	if (p[-1] != ' ')
		return report(c, FSCK_MSG_MISSING_SPACE_BEFORE_EMAIL,
			      "invalid author/committer line - missing space before email");
	p++;
	p += strcspn(p, "<>\n");
	if (*p != '>')
		return report(c, FSCK_MSG_BAD_EMAIL, "invalid author/committer line - bad email");
	p++;
	if (*p != ' ')
		return report(c, FSCK_MSG_MISSING_SPACE_BEFORE_DATE,
			      "invalid author/committer line - missing space before date");
	p++;
	if (*p == '0' && p[1] != ' ')
		return report(c, FSCK_MSG_ZERO_PADDED_DATE, "invalid author/committer line - zero-padded date");
	if (date_overflows(parse_unsigned(p, &end)))
		return report(c, FSCK_MSG_BAD_DATE_OVERFLOW,
			      "invalid author/committer line - date causes integer overflow");
	if (end == p || *end != ' ')
		return report(c, FSCK_MSG_BAD_DATE, "invalid author/committer line - bad date");
	p = end + 1;
	if ((*p != '+' && *p != '-') || !isdigit((unsigned char)p[1]) ||
	    !isdigit((unsigned char)p[2]) || !isdigit((unsigned char)p[3]) ||
	    !isdigit((unsigned char)p[4]) || p[5] != '\n')
		return report(c, FSCK_MSG_BAD_TIMEZONE, "invalid author/committer line - bad time zone");
	return 0;
}

/* "<40 hex>\n" at p: 0 and *next past the newline, or -1. */
static int oid_line(const char *p, const char *end, const char **next)
{
	struct object_id oid;
	if (end - p < HEX_SZ + 1 || get_oid_hex(p, &oid) || p[HEX_SZ] != '\n')
		return -1;
	*next = p + HEX_SZ + 1;
	return 0;
}

static int skip(const char *p, const char *end, const char *prefix, const char **out)
{
	size_t n = strlen(prefix);
	if ((size_t)(end - p) < n || memcmp(p, prefix, n))
		return 0;
	*out = p + n;
	return 1;
}

static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);
	return nl ? nl + 1 : end;
}

static int check_commit(struct ctx *c, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *q;
	unsigned authors = 0;
	int err = 0;

	if (verify_headers(c, buf, len))
		return 1;
	if (!skip(p, end, "tree ", &p))
		return report(c, FSCK_MSG_MISSING_TREE, "invalid format - expected 'tree' line");
	if (oid_line(p, end, &q)) {
		err = report(c, FSCK_MSG_BAD_TREE_SHA1, "invalid 'tree' line format - bad sha1");
		if (err)
			return err;
		q = next_line(p, end);
	}
	p = q;
	while (skip(p, end, "parent ", &p)) {
		if (oid_line(p, end, &q)) {
			err = report(c, FSCK_MSG_BAD_PARENT_SHA1, "invalid 'parent' line format - bad sha1");
			if (err)
				return err;
			q = next_line(p, end);
		}
		p = q;
	}
	while (skip(p, end, "author ", &p)) {
		authors++;
		err = check_ident(c, &p);
		if (err)
			return err;
	}
	if (authors < 1)
		err = report(c, FSCK_MSG_MISSING_AUTHOR, "invalid format - expected 'author' line");
	else if (authors > 1)
		err = report(c, FSCK_MSG_MULTIPLE_AUTHORS, "invalid format - multiple 'author' lines");
	if (err)
		return err;
	if (!skip(p, end, "committer ", &p))
		return report(c, FSCK_MSG_MISSING_COMMITTER, "invalid format - expected 'committer' line");
	err = check_ident(c, &p);
	if (err)
		return err;
	if (memchr(buf, '\0', len))
		return report(c, FSCK_MSG_NUL_IN_COMMIT, "NUL byte in the commit object body");
	return 0;
}

static int check_tag(struct ctx *c, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *q, *eol;
	int err;

	if (verify_headers(c, buf, len))
		return 1;
	if (!skip(p, end, "object ", &p))
		return report(c, FSCK_MSG_MISSING_OBJECT, "invalid format - expected 'object' line");
	if (oid_line(p, end, &q)) {
		err = report(c, FSCK_MSG_BAD_OBJECT_SHA1, "invalid 'object' line format - bad sha1");
		if (err)
			return err;
		q = next_line(p, end);
	}
	p = q;
	if (!skip(p, end, "type ", &p))
		return report(c, FSCK_MSG_MISSING_TYPE_ENTRY, "invalid format - expected 'type' line");
	eol = memchr(p, '\n', end - p);
	if (!eol)
		return report(c, FSCK_MSG_MISSING_TYPE, "invalid format - unexpected end after 'type' line");
	if (type_from_string(p, eol - p) <= 0) {
		err = report(c, FSCK_MSG_BAD_TYPE, "invalid 'type' value");
		if (err)
			return err;
	}
	p = eol + 1;
	if (!skip(p, end, "tag ", &p))
		return report(c, FSCK_MSG_MISSING_TAG_ENTRY, "invalid format - expected 'tag' line");
	eol = memchr(p, '\n', end - p);
	if (!eol)
		return report(c, FSCK_MSG_MISSING_TAG, "invalid format - unexpected end after 'type' line");
	{
		char *name = xstrfmt("refs/tags/%.*s", (int)(eol - p), p);
		int bad = check_refname_format(name, 0);
		free(name);
		if (bad) {
			err = report(c, FSCK_MSG_BAD_TAG_NAME, "invalid 'tag' name: %.*s",
				     (int)(eol - p), p);
			if (err)
				return err;
		}
	}
	p = eol + 1;
	if (!skip(p, end, "tagger ", &p)) {
		err = report(c, FSCK_MSG_MISSING_TAGGER_ENTRY, "invalid format - expected 'tagger' line");
		if (err)
			return err;
	} else {
		err = check_ident(c, &p);
	}
	if (p >= end || !*p)
		return err;
	if (*p != '\n') {
		int e2 = report(c, FSCK_MSG_EXTRA_HEADER_ENTRY,
				"invalid format - extra header(s) after 'tagger'");
		if (e2)
			return e2;
	}
	return err;
}

/* Next character for HFS+ comparisons: skips the code points HFS+
 * ignores (U+200C-200F, U+202A-202E, U+206A-206F, U+FEFF), folds ASCII
 * case. Non-ASCII characters come back as 0x80 so they never match. */
static int next_hfs_char(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	for (;;) {
		if (p[0] == 0xe2 && p[1] == 0x80 && ((p[2] >= 0x8c && p[2] <= 0x8f) ||
						      (p[2] >= 0xaa && p[2] <= 0xae))) {
			p += 3;
			continue;
		}
		if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xaa && p[2] <= 0xaf) {
			p += 3;
			continue;
		}
		if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
			p += 3;
			continue;
		}
		break;
	}
	if (!*p) {
		*pp = p;
		return 0;
	}
	*pp = p + 1;
	if (*p >= 0x80)
		return 0x80;
	return tolower(*p);
}

static int is_hfs_dot(const char *name, const char *what)
{
	const unsigned char *p = (const unsigned char *)name;
	if (next_hfs_char(&p) != '.')
		return 0;
	for (; *what; what++)
		if (next_hfs_char(&p) != *what)
			return 0;
	return next_hfs_char(&p) == 0;
}

int fsck_is_hfs_dotgit(const char *name)
{
	if (name[0] != '.' && (unsigned char)name[0] < 0x80)
		return 0;
	return is_hfs_dot(name, "git");
}

int fsck_is_ntfs_dotgit(const char *name)
{
	char ch = *name++;
	if (ch == '.') {
		if (tolower((unsigned char)name[0]) != 'g' || tolower((unsigned char)name[1]) != 'i' ||
		    tolower((unsigned char)name[2]) != 't')
			return 0;
		name += 3;
	} else if (ch == 'g' || ch == 'G') {
		if (tolower((unsigned char)name[0]) != 'i' || tolower((unsigned char)name[1]) != 't' ||
		    name[2] != '~' || name[3] != '1')
			return 0;
		name += 4;
	} else {
		return 0;
	}
	for (;;) {
		ch = *name++;
		if (!ch || ch == '\\' || ch == '/' || ch == ':')
			return 1;
		if (ch != '.' && ch != ' ')
			return 0;
	}
}

/* NTFS reading of ".<name>": case-folded, trailing spaces and dots. */
static int is_ntfs_dot(const char *name, const char *what)
{
	size_t n = strlen(what);
	if (*name != '.' || strncasecmp(name + 1, what, n))
		return 0;
	for (name += n + 1; *name == ' ' || *name == '.'; name++)
		;
	return !*name || *name == '\\' || *name == ':';
}

static int is_dot_file(const char *name, const char *what)
{
	/* Nearly every name fails here: no '.' and no ignorable code point. */
	if (name[0] != '.' && (unsigned char)name[0] < 0x80)
		return 0;
	return is_hfs_dot(name, what) || is_ntfs_dot(name, what);
}

struct tree_entry_raw {
	unsigned mode;
	const char *name;         /* NUL-terminated inside the buffer */
	size_t name_len;
	const unsigned char *oid;
	size_t entry_len;
	unsigned slashes;         /* NAME_HAS_SLASH, NAME_HAS_BACKSLASH */
};
#define NAME_HAS_SLASH 1
#define NAME_HAS_BACKSLASH 2

/* Bytes equal to zero get their top bit set; a false positive happens
 * only above a true one, which is all the scan below needs. */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
static inline uint64_t zero_bytes(uint64_t v)
{
	return (v - ONES) & ~v & HIGHS;
}

/*
 * A name's length and whether it holds '/' or '\\', eight bytes at a
 * time (names are short: three library scans cost more). Reading up to
 * seven bytes past the NUL stays inside the entry: its id follows.
 */
static inline void name_scan(const char *name, struct tree_entry_raw *e)
{
	const char *q = name;
	unsigned sl = 0;

	for (;; q += 8) {
		uint64_t v, z, s, b;
		memcpy(&v, q, 8);
		v = le64toh(v);
		z = zero_bytes(v);
		s = zero_bytes(v ^ (ONES * '/'));
		b = zero_bytes(v ^ (ONES * '\\'));
		if (z) {
			uint64_t before = (z & -z) - 1;  /* bits below the first NUL */
			sl |= (s & before ? NAME_HAS_SLASH : 0) | (b & before ? NAME_HAS_BACKSLASH : 0);
			e->slashes = sl;
			e->name_len = (size_t)(q - name) + (size_t)(__builtin_ctzll(z) >> 3);
			return;
		}
		sl |= (s ? NAME_HAS_SLASH : 0) | (b ? NAME_HAS_BACKSLASH : 0);
	}
}

/* A mode and its space as little-endian bytes of a word. */
#define MODE_WORD6(a, b, c, d, e) \
	((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 | \
	 (uint64_t)(e) << 32 | (uint64_t)' ' << 40)
#define MODE_WORD7(a, b, c, d, e, f) \
	((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 | \
	 (uint64_t)(e) << 32 | (uint64_t)(f) << 40 | (uint64_t)' ' << 48)

/* git's tree entry decoder: one entry at p with len bytes left. */
static int decode_entry(const char *p, size_t len, struct tree_entry_raw *e,
			const char **why)
{
	const char *s = p, *name;
	unsigned mode = 0;

	if (len < RAW_SZ + 3 || p[len - (RAW_SZ + 1)]) {
		*why = "too-short tree object";
		return -1;
	}
	if (*s == ' ') {
		*why = "malformed mode in tree entry";
		return -1;
	}
	/* The common modes in one compare (len >= 23: eight bytes are
	 * there); anything else digit by digit. */
	{
		uint64_t w;
		memcpy(&w, p, 8);
		w = le64toh(w);
		if ((w & 0xffffffffffffffull) == MODE_WORD7('1', '0', '0', '6', '4', '4')) {
			mode = 0100644;
			s = p + 6;
		} else if ((w & 0xffffffffffffull) == MODE_WORD6('4', '0', '0', '0', '0')) {
			mode = 040000;
			s = p + 5;
		} else if ((w & 0xffffffffffffffull) == MODE_WORD7('1', '0', '0', '7', '5', '5')) {
			mode = 0100755;
			s = p + 6;
		}
	}
	/* The NUL at p[len - 21] bounds both scans below. */
	while (*s != ' ') {
		if (*s < '0' || *s > '7') {
			*why = "malformed mode in tree entry";
			return -1;
		}
		mode = (mode << 3) + (unsigned)(*s - '0');
		s++;
	}
	name = s + 1;
	if (!*name) {
		*why = "empty filename in tree entry";
		return -1;
	}
	e->mode = mode;
	e->name = name;
	name_scan(name, e);
	e->oid = (const unsigned char *)name + e->name_len + 1;
	e->entry_len = (size_t)(name + e->name_len + 1 + RAW_SZ - p);
	return 0;
}

enum { TREE_OK, TREE_UNORDERED, TREE_HAS_DUPS };

struct name_stack {
	const char **names;
	size_t nr, alloc;
};

static int less_than_slash(unsigned char c)
{
	return c != '\0' && c < '/';
}

static int verify_ordered(unsigned mode1, const char *name1, size_t len1, unsigned mode2,
			  const char *name2, size_t len2, struct name_stack *st)
{
	size_t len = len1 < len2 ? len1 : len2;
	unsigned char c1, c2;
	int cmp = memcmp(name1, name2, len);

	if (cmp < 0)
		return TREE_OK;
	if (cmp > 0)
		return TREE_UNORDERED;
	c1 = name1[len];
	c2 = name2[len];
	if (!c1 && !c2)
		return TREE_HAS_DUPS;
	if (!c1 && S_ISDIR(mode1))
		c1 = '/';
	if (!c2 && S_ISDIR(mode2))
		c2 = '/';
	/* A blob "a", then "a.c", then a tree "a": a duplicate that is not
	 * adjacent. Blob names that could meet a later tree are stacked. */
	if (!c1 && less_than_slash(c2)) {
		ALLOC_GROW(st->names, st->nr + 1, st->alloc);
		st->names[st->nr++] = name1;
	} else if (c2 == '/' && less_than_slash(c1)) {
		while (st->nr) {
			const char *f = st->names[--st->nr];
			size_t fl = strlen(f);
			if (strncmp(name2, f, fl))
				continue;
			if (!name2[fl])
				return TREE_HAS_DUPS;
			if (less_than_slash(name2[fl])) {
				st->nr++;
				break;
			}
		}
	}
	return c1 < c2 ? TREE_OK : TREE_UNORDERED;
}

static inline int is_null_id(const unsigned char *id)
{
	uint64_t a, b;
	uint32_t x;
	memcpy(&a, id, 8);
	memcpy(&b, id + 8, 8);
	memcpy(&x, id + 16, 4);
	return !(a | b | x);
}

static int check_tree(struct ctx *c, const char *buf, size_t len, const char **why,
		      fsck_tree_entry_fn entry_fn, void *entry_data)
{
	int ret = 0, has_null = 0, has_full = 0, has_empty = 0, has_dot = 0, has_dotdot = 0;
	int has_dotgit = 0, has_zero_pad = 0, has_bad_modes = 0, has_dups = 0, unsorted = 0;
	struct name_stack st = { NULL, 0, 0 };
	struct tree_entry_raw e;
	const char *p = buf, *o_name = NULL;
	size_t left = len;
	unsigned o_mode = 0, c0;
	size_t o_len = 0;

	if (left && decode_entry(p, left, &e, why))
		return report(c, FSCK_MSG_BAD_TREE, "cannot be parsed as a tree");
	while (left) {
		const char *bs;

		if (entry_fn)
			entry_fn(entry_data, e.mode, e.oid);
		/* The names' lengths are known: no scan of a name for its end. */
		has_null |= is_null_id(e.oid);
		has_full |= e.slashes & NAME_HAS_SLASH;
		has_empty |= !*e.name;
		c0 = (unsigned char)e.name[0];
		/* The dot-file and .git tests all fail unless the name starts
		 * with '.', a non-ASCII byte (HFS+ ignorables) or 'g' (NTFS
		 * short name): most names skip them. */
		if (c0 == '.' || c0 >= 0x80 || c0 == 'g' || c0 == 'G') {
			has_dot |= e.name_len == 1 && c0 == '.';
			has_dotdot |= e.name_len == 2 && c0 == '.' && e.name[1] == '.';
			has_dotgit |= fsck_is_hfs_dotgit(e.name) || fsck_is_ntfs_dotgit(e.name);
			if (is_dot_file(e.name, "gitmodules") && S_ISLNK(e.mode))
				ret += report(c, FSCK_MSG_GITMODULES_SYMLINK, ".gitmodules is a symbolic link");
			if (is_dot_file(e.name, "gitattributes") && S_ISLNK(e.mode))
				ret += report(c, FSCK_MSG_GITATTRIBUTES_SYMLINK, ".gitattributes is a symlink");
			if (S_ISLNK(e.mode)) {
				if (is_dot_file(e.name, "gitignore"))
					ret += report(c, FSCK_MSG_GITIGNORE_SYMLINK, ".gitignore is a symlink");
				if (is_dot_file(e.name, "mailmap"))
					ret += report(c, FSCK_MSG_MAILMAP_SYMLINK, ".mailmap is a symlink");
			}
		}
		has_zero_pad |= *p == '0';
		if (e.slashes & NAME_HAS_BACKSLASH)
			for (bs = memchr(e.name, '\\', e.name_len); bs;
			     bs = memchr(bs, '\\', (size_t)(e.name + e.name_len - bs))) {
				bs++;
				has_dotgit |= fsck_is_ntfs_dotgit(bs);
			}
		if (e.entry_len > left) {
			*why = "too-short tree file";
			ret += report(c, FSCK_MSG_BAD_TREE, "cannot be parsed as a tree");
			break;
		}
		p += e.entry_len;
		left -= e.entry_len;
		{
			unsigned mode = e.mode;
			const char *name = e.name;
			size_t name_len = e.name_len;
			if (left && decode_entry(p, left, &e, why)) {
				ret += report(c, FSCK_MSG_BAD_TREE, "cannot be parsed as a tree");
				break;
			}
			switch (mode) {
			case S_IFREG | 0755:
			case S_IFREG | 0644:
			case S_IFLNK:
			case S_IFDIR:
			case 0160000:
				break;
			case S_IFREG | 0664:
				if (!c->o->strict)
					break;
				/* fallthrough */
			default:
				has_bad_modes = 1;
			}
			if (o_name) {
				switch (verify_ordered(o_mode, o_name, o_len, mode, name, name_len, &st)) {
				case TREE_UNORDERED:
					unsorted = 1;
					break;
				case TREE_HAS_DUPS:
					has_dups = 1;
					break;
				}
			}
			o_mode = mode;
			o_name = name;
			o_len = name_len;
		}
	}
	free(st.names);
	if (has_null)
		ret += report(c, FSCK_MSG_NULL_SHA1, "contains entries pointing to null sha1");
	if (has_full)
		ret += report(c, FSCK_MSG_FULL_PATHNAME, "contains full pathnames");
	if (has_empty)
		ret += report(c, FSCK_MSG_EMPTY_NAME, "contains empty pathname");
	if (has_dot)
		ret += report(c, FSCK_MSG_HAS_DOT, "contains '.'");
	if (has_dotdot)
		ret += report(c, FSCK_MSG_HAS_DOTDOT, "contains '..'");
	if (has_dotgit)
		ret += report(c, FSCK_MSG_HAS_DOTGIT, "contains '.git'");
	if (has_zero_pad)
		ret += report(c, FSCK_MSG_ZERO_PADDED_FILEMODE, "contains zero-padded file modes");
	if (has_bad_modes)
		ret += report(c, FSCK_MSG_BAD_FILEMODE, "contains bad file modes");
	if (has_dups)
		ret += report(c, FSCK_MSG_DUPLICATE_ENTRIES, "contains duplicate file entries");
	if (unsorted)
		ret += report(c, FSCK_MSG_TREE_NOT_SORTED, "not properly sorted");
	return ret;
}

int fsck_check_object(const struct fsck_options *o, const struct object_id *oid,
		      enum object_type type, const char *buf, size_t len,
		      fsck_report_fn fn, void *data, const char **parse_error)
{
	struct ctx c = { o, oid, type, fn, data };
	const char *why = NULL;
	int ret;

	switch (type) {
	case OBJ_BLOB:
		return 0;
	case OBJ_TREE:
		ret = check_tree(&c, buf, len, &why, NULL, NULL);
		if (parse_error)
			*parse_error = why;
		return ret;
	case OBJ_COMMIT:
		return check_commit(&c, buf, len);
	case OBJ_TAG:
		return check_tag(&c, buf, len);
	default:
		return report(&c, FSCK_MSG_UNKNOWN_TYPE, "unknown type '%d' (internal fsck error)", type);
	}
}

int fsck_check_tree_entries(const struct fsck_options *o, const struct object_id *oid,
			    const char *buf, size_t len, fsck_report_fn fn, void *data,
			    const char **parse_error, fsck_tree_entry_fn entry_fn,
			    void *entry_data)
{
	struct ctx c = { o, oid, OBJ_TREE, fn, data };
	const char *why = NULL;
	int ret = check_tree(&c, buf, len, &why, entry_fn, entry_data);
	if (parse_error)
		*parse_error = why;
	return ret;
}
