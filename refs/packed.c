/* packed.c: reading packed-refs. A file of records "<hex> <name>\n",
 * each optionally followed by "^<hex>\n" (the peeled value of a tag), after
 * an optional "# pack-refs with: <traits>" header. A file with the "sorted"
 * trait is searched in place (mmap'ed when large), so a prefix query reads
 * only the pages of its slice; an unsorted file gets an index sorted in
 * memory. Malformed content dies with git's messages. */
#include "refs/refs-internal.h"
#include "lib/sorted.h"
#include "lib/repo.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* git reads small files instead of mapping them; the cost is the same. */
#define SMALL_PACKED_REFS (32 * 1024)

static struct packed_refs *cached;
static int cached_absent;
static struct stat cached_st;   /* of the file read (cached) */

static NORETURN void die_unterminated(const char *path, const char *p, size_t len)
{
	if (len < 80)
		die("unterminated line in %s: %.*s", path, (int)len, p);
	die("unterminated line in %s: %.75s...", path, p);
}

static NORETURN void die_invalid(const char *path, const char *p, size_t len)
{
	const char *eol = memchr(p, '\n', len);
	if (!eol)
		die_unterminated(path, p, len);
	if (eol - p < 80)
		die("unexpected line in %s: %.*s", path, (int)(eol - p), p);
	die("unexpected line in %s: %.75s...", path, p);
}

static const char *end_of(struct packed_refs *pr)
{
	return pr->buf + pr->len;
}

/* Start of the record holding p: back to a line start, and over a "^" line. */
static const char *record_start(const char *lo, const char *p)
{
	while (p > lo && (p[-1] != '\n' || p[0] == '^'))
		p--;
	return p;
}

/* First byte after the record holding p. */
static const char *record_end(const char *p, const char *end)
{
	while (++p < end && (p[-1] != '\n' || p[0] == '^'))
		;
	return p;
}

/* git's whitespace: the separator after the id may be any of these. */
static int is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Fill e from the record at rec; returns the next record. As git, records
 * are checked only as they are read: when listing, a name that fails
 * check_refname_format gets a null id and REF_BAD_NAME | REF_ISBROKEN (a
 * name that could escape refs/ dies), and a bad id or peeled line dies;
 * a lookup (listing 0) already matched the name and checks only the id.
 */
static const char *parse_record(struct packed_refs *pr, const char *rec,
				struct strbuf *name, struct ref_entry *e, int listing)
{
	const char *end = end_of(pr), *n = rec + HEX_SZ + 1, *nl, *p;

	if (end - rec < HEX_SZ + 2 || get_oid_hex(rec, &e->oid) ||
	    (listing && !is_sep(rec[HEX_SZ])))
		die_invalid(pr->path, rec, end - rec);
	nl = memchr(n, '\n', end - n);
	if (!nl)
		die_unterminated(pr->path, rec, end - rec);
	strbuf_reset(name);
	strbuf_add(name, n, nl - n);
	e->name = name->buf;
	e->flags = REF_ISPACKED;
	e->symref_target = NULL;
	oidclr(&e->peeled);
	if (listing && check_refname_format(name->buf, REFNAME_ALLOW_ONELEVEL)) {
		if (!refname_is_safe(name->buf))
			die("packed refname is dangerous: %s", name->buf);
		oidclr(&e->oid);
		e->flags |= REF_BAD_NAME | REF_ISBROKEN;
	}
	if (pr->fully_peeled || (pr->peeled && starts_with(name->buf, "refs/tags/")))
		e->flags |= REF_KNOWS_PEELED;
	p = nl + 1;
	if (p < end && *p == '^') {
		if (end - p < HEX_SZ + 2 || p[HEX_SZ + 1] != '\n' ||
		    get_oid_hex(p + 1, &e->peeled)) {
			if (listing)
				die_invalid(pr->path, p, end - p);
			oidclr(&e->peeled);
			e->flags &= ~REF_KNOWS_PEELED;
		} else if (e->flags & REF_ISBROKEN) {
			oidclr(&e->peeled);
			e->flags &= ~REF_KNOWS_PEELED;
		} else {
			e->flags |= REF_KNOWS_PEELED;
		}
		p = memchr(p, '\n', end - p) + 1;
	}
	return p;
}

/* The name of the record at rec against key, as git compares them: bytes
 * up to the newline, unchecked (every line ends in one; see
 * packed_refs_get). */
static int cmp_rec_name(const char *rec, const char *key)
{
	const unsigned char *r = (const unsigned char *)rec + HEX_SZ + 1;
	const unsigned char *k = (const unsigned char *)key;

	for (;; r++, k++) {
		if (*r == '\n')
			return *k ? -1 : 0;
		if (!*k)
			return 1;
		if (*r != *k)
			return *r < *k ? -1 : 1;
	}
}

static int cmp_recs(const void *a, const void *b)
{
	const unsigned char *r1 = (const unsigned char *)*(const char **)a + HEX_SZ + 1;
	const unsigned char *r2 = (const unsigned char *)*(const char **)b + HEX_SZ + 1;

	for (;; r1++, r2++) {
		if (*r1 == '\n')
			return *r2 == '\n' ? 0 : -1;
		if (*r2 == '\n')
			return 1;
		if (*r1 != *r2)
			return *r1 < *r2 ? -1 : 1;
	}
}

/* An unsorted file: index the records (a "^" line stays with the record
 * before it) and sort the index. Like git, only the length of each line
 * is checked here; the rest as records are read. */
static void index_unsorted(struct packed_refs *pr)
{
	const char *p = pr->start, *end = end_of(pr), *eol;
	size_t alloc = 0;

	while (p < end) {
		eol = memchr(p, '\n', end - p);
		if (eol - p < HEX_SZ + 2)
			die_invalid(pr->path, p, end - p);
		ALLOC_GROW(pr->recs, pr->nr + 1, alloc);
		pr->recs[pr->nr++] = p;
		p = eol + 1;
		if (p < end && *p == '^')
			p = (const char *)memchr(p, '\n', end - p) + 1;
	}
	if (pr->nr > 1)
		QSORT(pr->recs, pr->nr, cmp_recs);
}

static void parse_header(struct packed_refs *pr)
{
	const char *p = pr->buf, *end = end_of(pr), *nl, *traits;
	if (pr->len == 0 || *p != '#') {
		pr->start = p;
		return;
	}
	nl = memchr(p, '\n', pr->len);
	if (!nl)
		die_unterminated(pr->path, p, pr->len);
	if (pr->len < 17 || memcmp(p, "# pack-refs with:", 17))
		die_invalid(pr->path, p, pr->len);
	traits = p + 17;
	while (traits < nl) {
		const char *w = traits, *sp;
		sp = memchr(w, ' ', nl - w);
		if (!sp)
			sp = nl;
		if (sp - w == 6 && !memcmp(w, "peeled", 6))
			pr->peeled = 1;
		else if (sp - w == 12 && !memcmp(w, "fully-peeled", 12))
			pr->fully_peeled = 1;
		else if (sp - w == 6 && !memcmp(w, "sorted", 6))
			pr->sorted = 1;
		traits = sp + 1;
	}
	pr->start = nl + 1;
	(void)end;
}

struct packed_refs *packed_refs_get(void)
{
	struct packed_refs *pr;
	struct stat st;
	int fd;
	const char *end, *last;

	if (cached || cached_absent)
		return cached;
	pr = xcalloc(1, sizeof(*pr));
	pr->path = xstrdup(common_path("packed-refs"));
	fd = fd_open(pr->path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0) {
		if (errno != ENOENT)
			die_errno("couldn't read %s", pr->path);
		free(pr->path);
		free(pr);
		cached_absent = 1;
		return NULL;
	}
	if (fstat(fd, &st) < 0)
		die_errno("couldn't stat %s", pr->path);
	cached_st = st;
	if ((uintmax_t)st.st_size > SIZE_MAX)
		die("packed-refs file %s is too large", pr->path);
	pr->len = st.st_size;
	if (pr->len <= SMALL_PACKED_REFS) {
		char *b = xmalloc(pr->len + 1);
		ssize_t n = read_in_full(fd, b, pr->len);
		if (n < 0)
			die_errno("couldn't read %s", pr->path);
		pr->len = n;
		b[n] = 0;
		pr->buf = b;
	} else {
		void *m = mmap(NULL, pr->len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			die_errno("unable to mmap %s", pr->path);
		/* a binary search touches a few scattered pages: no read-around */
		madvise(m, pr->len, MADV_RANDOM);
		pr->buf = m;
		pr->mmapped = 1;
	}
	fd_close_batched(fd);

	/* The last line must be whole, so a search never runs off the end,
	 * and the last record long enough to hold an id and a name. */
	parse_header(pr);
	end = end_of(pr);
	if (pr->start < end) {
		last = record_start(pr->start, end - 1);
		if (end[-1] != '\n' || (size_t)(end - last) < HEX_SZ + 2)
			die_invalid(pr->path, last, end - last);
	}
	if (!pr->sorted)
		index_unsorted(pr);
	cached = pr;
	return pr;
}

/* The same file as the one read: same inode, size and times. */
static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

struct packed_refs *packed_refs_get_fresh(void)
{
	struct stat st;
	if (cached || cached_absent) {
		int there = !stat(common_path("packed-refs"), &st);
		if (there ? cached && same_file(&st, &cached_st) : cached_absent)
			return cached;
		packed_refs_forget();
	}
	return packed_refs_get();
}

void packed_refs_forget(void)
{
	if (cached) {
		if (cached->mmapped)
			munmap((void *)cached->buf, cached->len);
		else
			free((void *)cached->buf);
		free(cached->recs);
		free(cached->path);
		free(cached);
	}
	cached = NULL;
	cached_absent = 0;
}

/* Sorted file: the first record whose name is >= key. The first probe
 * is the last record of the file's first page, which reading the header
 * brought in: refs/heads/ sorts before refs/remotes/ and refs/tags/, so a
 * branch listing or look-up usually ends there, where a probe in the
 * middle would read a page from disk at each halving on a cold cache. */
static const char *record_lower_bound(struct packed_refs *pr, const char *key)
{
	const char *lo = pr->start, *hi = end_of(pr);
	const char *first_page_end = pr->buf + 4096;
	while (lo < hi) {
		const char *mid = lo + (hi - lo) / 2;
		if (lo < first_page_end && first_page_end < mid) {
			/* its last whole line, so that the name read is there */
			const char *nl = memrchr(lo, '\n', first_page_end - lo);
			if (nl)
				mid = nl;
		}
		const char *rec = record_start(lo, mid);
		if (cmp_rec_name(rec, key) < 0)
			lo = record_end(mid, hi);
		else
			hi = rec;
	}
	return lo;
}

static int cmp_rec_key(const void *rec, const void *key)
{
	return cmp_rec_name(*(const char *const *)rec, key);
}

static size_t lower_bound_index(struct packed_refs *pr, const char *key)
{
	return lower_bound(pr->recs, pr->nr, sizeof(*pr->recs), key, cmp_rec_key);
}

int packed_refs_for_each(struct packed_refs *pr, const char *prefix,
			 int (*fn)(struct ref_entry *e, void *data), void *data)
{
	struct strbuf name = STRBUF_INIT;
	struct ref_entry e;
	size_t plen = strlen(prefix);
	int ret = 0;

	if (pr->sorted && !pr->recs) {
		const char *p = record_lower_bound(pr, prefix), *end = end_of(pr);
		while (p < end) {
			p = parse_record(pr, p, &name, &e, 1);
			if (strncmp(name.buf, prefix, plen))
				break;
			if ((ret = fn(&e, data)))
				break;
		}
	} else {
		for (size_t i = lower_bound_index(pr, prefix); i < pr->nr; i++) {
			parse_record(pr, pr->recs[i], &name, &e, 1);
			if (strncmp(name.buf, prefix, plen))
				break;
			if ((ret = fn(&e, data)))
				break;
		}
	}
	strbuf_release(&name);
	return ret;
}

int packed_refs_find(struct packed_refs *pr, const char *name, struct ref_entry *e)
{
	static struct strbuf sb = STRBUF_INIT;
	const char *rec;
	if (pr->sorted && !pr->recs) {
		rec = record_lower_bound(pr, name);
		if (rec >= end_of(pr))
			return -1;
	} else {
		size_t i = lower_bound_index(pr, name);
		if (i >= pr->nr)
			return -1;
		rec = pr->recs[i];
	}
	if (cmp_rec_name(rec, name))
		return -1;
	parse_record(pr, rec, &sb, e, 0);
	return 0;
}
