/* refs.c: reading refs. A name is looked up as a loose file first, then
 * in packed-refs; symbolic refs are followed up to git's depth of five.
 * Listing a prefix opens only the directory of that prefix and the slice
 * of packed-refs that holds it; no object is looked up. */
#include "refs/refs-internal.h"
#include "lib/repo.h"
#include "lib/dir-read.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#define SYMREF_MAXDEPTH 5

static int is_per_worktree(const char *name)
{
	return !strchr(name, '/') || starts_with(name, "refs/bisect/") ||
	       starts_with(name, "refs/worktree/") || starts_with(name, "refs/rewritten/");
}

void ref_path(struct strbuf *sb, const char *name)
{
	if (is_per_worktree(name))
		git_path_buf(sb, "%s", name);
	else
		common_path_buf(sb, "%s", name);
}

int parse_loose_ref(const char *buf, size_t len, struct object_id *oid, struct strbuf *target)
{
	const char *p;
	size_t n = len;
	while (n && git_isspace((unsigned char)buf[n - 1]))
		n--;
	if (n >= 4 && !memcmp(buf, "ref:", 4)) {
		p = buf + 4;
		while (p < buf + n && git_isspace((unsigned char)*p))
			p++;
		strbuf_reset(target);
		strbuf_add(target, p, buf + n - p);
		return 1;
	}
	if (n < HEX_SZ || get_oid_hex(buf, oid) ||
	    (n > HEX_SZ && !git_isspace((unsigned char)buf[HEX_SZ])))
		return -1;
	return 0;
}

int read_loose_ref_fresh(const char *name, struct object_id *oid, struct strbuf *target)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	int r;
	ref_path(&path, name);
	r = strbuf_read_file(&buf, path.buf, 256);
	if (r >= 0) {
		r = parse_loose_ref(buf.buf, buf.len, oid, target);
		if (r < 0)
			errno = EINVAL;
	} else {
		r = -2;
	}
	/* Newest first: both blocks go back to the start-up arena, which
	 * takes back only its newest block. */
	strbuf_release(&buf);
	strbuf_release(&path);
	return r;
}

/* What resolve() read, so that listing the same directory next does not
 * read those files again (branch resolves HEAD, then lists refs/heads/). */
struct loose_seen {
	char *name;
	int r, err;
	struct object_id oid;
	char *target;
};
static struct loose_seen *seen;
static size_t seen_nr, seen_alloc;

static int scan_cache_lookup(const char *name, struct object_id *oid, struct strbuf *target);
static void scan_cache_clear(void);

int read_loose_ref(const char *name, struct object_id *oid, struct strbuf *target)
{
	int r;
	struct loose_seen *ls;
	if ((r = scan_cache_lookup(name, oid, target)) != -3)
		return r;
	if (!strcmp(name, "HEAD") && the_repo.head_valid) {
		r = parse_loose_ref(the_repo.head.buf, the_repo.head.len, oid, target);
		if (r < 0)
			errno = EINVAL;
		return r;
	}
	for (size_t i = 0; i < seen_nr; i++)
		if (!strcmp(seen[i].name, name)) {
			ls = &seen[i];
			oidcpy(oid, &ls->oid);
			if (ls->r == 1) {
				strbuf_reset(target);
				strbuf_addstr(target, ls->target);
			}
			errno = ls->err;
			return ls->r;
		}
	for (size_t i = 0; i < seen_nr; i++) {
		/* "refs/remotes/x" is not there, so "refs/remotes/x/HEAD"
		 * is not either (git's last short-name rule) */
		size_t n = strlen(seen[i].name);
		if (seen[i].r == -2 && seen[i].err == ENOENT &&
		    !strncmp(seen[i].name, name, n) && name[n] == '/') {
			errno = ENOENT;
			return -2;
		}
	}
	r = read_loose_ref_fresh(name, oid, target);
	if (seen_nr < 16) {
		ALLOC_GROW(seen, seen_nr + 1, seen_alloc);
		ls = &seen[seen_nr++];
		ls->name = xstrdup(name);
		ls->r = r;
		ls->err = errno;
		if (r == 0)
			oidcpy(&ls->oid, oid);
		else
			oidclr(&ls->oid);
		ls->target = r == 1 ? xstrdup(target->buf) : NULL;
	}
	return r;
}

void ref_file_read(const char *name, struct ref_file *f)
{
	f->r = read_loose_ref(name, &f->oid, &f->target);
	f->err = f->r < 0 ? errno : 0;
	f->done = 1;
}

void ref_file_release(struct ref_file *f)
{
	strbuf_release(&f->target);
	f->done = 0;
}

/* One step: 0 value, 1 symref, -1 broken, -2 absent. first: name's loose
 * file as already read, if not NULL. */
static int read_raw_ref(const char *name, struct object_id *oid, struct strbuf *target,
			unsigned *flags, const struct ref_file *first)
{
	int r;
	struct packed_refs *pr;
	struct ref_entry e;
	if (!first) {
		r = read_loose_ref(name, oid, target);
	} else {
		r = first->r;
		errno = first->err;
		if (r == 0)
			oidcpy(oid, &first->oid);
		else if (r == 1) {
			strbuf_reset(target);
			strbuf_addbuf(target, &first->target);
		}
	}
	if (r == -1) {
		*flags |= REF_ISBROKEN;
		return -1;
	}
	if (r >= 0) {
		if (r == 1)
			*flags |= REF_ISSYMREF;
		return r;
	}
	if (errno != ENOENT && errno != EISDIR && errno != ENOTDIR)
		return -1;
	if (!starts_with(name, "refs/") || !(pr = packed_refs_get()) ||
	    packed_refs_find(pr, name, &e) < 0) {
		errno = ENOENT;
		return -2;
	}
	oidcpy(oid, &e.oid);
	*flags |= REF_ISPACKED;
	return 0;
}

static const char *resolve(const char *name, int reading, struct object_id *oid, unsigned *flags,
			   const struct ref_file *first)
{
	static struct strbuf cur = STRBUF_INIT, target = STRBUF_INIT;
	unsigned dummy;
	if (!flags)
		flags = &dummy;
	*flags = 0;
	strbuf_reset(&cur);
	strbuf_addstr(&cur, name);
	for (int depth = 0; depth < SYMREF_MAXDEPTH; depth++) {
		int r;
		if (check_refname_format(cur.buf, REFNAME_ALLOW_ONELEVEL)) {
			if (!refname_is_safe(cur.buf)) {
				*flags |= REF_ISBROKEN;
				return NULL;
			}
			*flags |= REF_BAD_NAME;
		}
		r = read_raw_ref(cur.buf, oid, &target, flags, depth ? NULL : first);
		if (r == -1)
			return NULL;
		if (r == -2) {
			if (reading || !depth)
				return NULL;
			oidclr(oid);
			return cur.buf;
		}
		if (r == 0) {
			if (*flags & REF_BAD_NAME) {
				oidclr(oid);
				*flags |= REF_ISBROKEN;
			}
			return cur.buf;
		}
		strbuf_reset(&cur);
		strbuf_addbuf(&cur, &target);
	}
	*flags |= REF_ISBROKEN;
	return NULL;
}

const char *refs_resolve(const char *name, struct object_id *oid, unsigned *flags)
{
	return resolve(name, 0, oid, flags, NULL);
}

struct worktree **refs_worktrees(void)
{
	struct worktree **wt = worktrees_get();

	for (size_t i = 0; wt[i]; i++) {
		struct object_id oid;
		const char *end;
		if (!wt[i]->head_ref || wt[i]->head_followed)
			continue;
		wt[i]->head_followed = 1;
		/* refs/heads/ is shared by all work trees; an unborn target
		 * stays as HEAD names it */
		end = refs_resolve(wt[i]->head_ref, &oid, NULL);
		if (end && strcmp(end, wt[i]->head_ref)) {
			free(wt[i]->head_ref);
			wt[i]->head_ref = xstrdup(end);
		}
	}
	return wt;
}

const char *refs_resolve_reading(const char *name, struct object_id *oid, unsigned *flags)
{
	return resolve(name, 1, oid, flags, NULL);
}

const char *refs_resolve_from(const struct ref_file *first, const char *name, int reading,
			      struct object_id *oid, unsigned *flags)
{
	return resolve(name, reading, oid, flags, first);
}

int refs_read(const char *name, struct object_id *oid)
{
	return refs_resolve_reading(name, oid, NULL) ? 0 : -1;
}

const char *refs_read_symref(const char *name, struct strbuf *target)
{
	struct object_id oid;
	int r = read_loose_ref(name, &oid, target);
	return r == 1 ? target->buf : NULL;
}

void refs_invalidate(void)
{
	for (size_t i = 0; i < seen_nr; i++) {
		free(seen[i].name);
		free(seen[i].target);
	}
	seen_nr = 0;
	scan_cache_clear();
	the_repo.head_valid = 0;
	packed_refs_forget();
}

/* --- iteration --- */

struct loose {
	char *name;
	struct object_id oid;
	unsigned flags;
	char *target;
};

struct loose_list {
	struct loose *items;
	size_t nr, alloc;
	const char *prefix;
	size_t plen;
};

static void add_loose(struct loose_list *l, const char *name)
{
	struct loose *e;
	struct object_id oid;
	struct strbuf target = STRBUF_INIT;
	unsigned flags = 0;
	int r;

	if (strncmp(name, l->prefix, l->plen))
		return;
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	e = &l->items[l->nr++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	r = read_loose_ref(name, &oid, &target);
	if (r == -2) {
		/* vanished since readdir, or a directory: not a ref */
		free(e->name);
		l->nr--;
	} else if (r == -1) {
		e->flags = REF_ISBROKEN;
	} else if (r == 0) {
		oidcpy(&e->oid, &oid);
		/* as git: no object has the null id, so a file that holds it
		 * is a broken ref */
		if (is_null_oid(&oid))
			e->flags = REF_ISBROKEN;
	} else {
		e->target = strbuf_detach(&target, NULL);
		if (!resolve(name, 1, &e->oid, &flags, NULL) || is_null_oid(&e->oid)) {
			oidclr(&e->oid);
			e->flags |= REF_ISBROKEN;
		}
		/* as git: the flags of what it resolves to, packed or not */
		e->flags |= REF_ISSYMREF | (flags & REF_ISPACKED);
	}
	if (r != -2 && check_refname_format(name, REFNAME_ALLOW_ONELEVEL)) {
		if (!refname_is_safe(name))
			die("loose refname is dangerous: %s", name);
		oidclr(&e->oid);
		e->flags |= REF_BAD_NAME | REF_ISBROKEN;
	}
	strbuf_release(&target);
}

struct scan {
	struct loose_list *l;
	struct strbuf *dir;
	size_t base;
};

static void scan_dir(struct loose_list *l, struct strbuf *dir);

static int scan_entry(const char *name, unsigned type, void *data)
{
	struct scan *sc = data;
	struct strbuf *dir = sc->dir;

	if (name[0] == '.' || ends_with(name, ".lock"))
		return 0;
	strbuf_setlen(dir, sc->base);
	strbuf_addstr(dir, name);
	if (type == DT_UNKNOWN || type == DT_LNK) {
		struct stat st;
		struct strbuf p = STRBUF_INIT;
		int r;
		common_path_buf(&p, "%s", dir->buf);
		r = stat(p.buf, &st);
		strbuf_release(&p);
		if (r < 0)
			return 0;
		type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (type == DT_DIR) {
		/* descend only where the prefix can still match */
		size_t m = dir->len < sc->l->plen ? dir->len : sc->l->plen;
		if (strncmp(dir->buf, sc->l->prefix, m))
			return 0;
		strbuf_addch(dir, '/');
		scan_dir(sc->l, dir);
	} else if (type == DT_REG) {
		add_loose(sc->l, dir->buf);
	}
	return 0;
}

/* dir is a ref name prefix ending in '/' ("refs/heads/"). */
static void scan_dir(struct loose_list *l, struct strbuf *dir)
{
	struct strbuf path = STRBUF_INIT;
	struct scan sc = { l, dir, dir->len };

	common_path_buf(&path, "%s", dir->buf);
	dir_read(path.buf, scan_entry, &sc);
	strbuf_release(&path);
	strbuf_setlen(dir, sc.base);
}

static int cmp_loose(const void *a, const void *b)
{
	return strcmp(((const struct loose *)a)->name, ((const struct loose *)b)->name);
}

struct merge {
	struct loose_list *l;
	size_t next;
	unsigned flags;
	ref_cb cb;
	void *data;
};

static int emit(struct merge *m, const struct ref_entry *e)
{
	/* like git, a dangling symref is left out without a word */
	if ((e->flags & REF_ISBROKEN) &&
	    (!(m->flags & REFS_INCLUDE_BROKEN) ||
	     ((e->flags & REF_ISSYMREF) && !(m->flags & REFS_INCLUDE_DANGLING))))
		return 0;
	return m->cb(e, m->data);
}

static int emit_loose(struct merge *m, struct loose *lo)
{
	struct ref_entry e;
	e.name = lo->name;
	oidcpy(&e.oid, &lo->oid);
	oidclr(&e.peeled);
	e.flags = lo->flags;
	e.symref_target = lo->target;
	return emit(m, &e);
}

static int merge_packed(struct ref_entry *pe, void *data)
{
	struct merge *m = data;
	int ret;
	while (m->next < m->l->nr) {
		struct loose *lo = &m->l->items[m->next];
		int c = strcmp(lo->name, pe->name);
		if (c > 0)
			break;
		m->next++;
		if ((ret = emit_loose(m, lo)))
			return ret;
		if (!c)
			return 0; /* the loose ref overrides its packed twin */
	}
	return emit(m, pe);
}

/* The last directory scanned by refs_prime(), kept whole so that
 * resolving a ref in it (HEAD's branch) and listing it cost one read of
 * the directory and of each file. */
static struct loose_list scan_cache;
static char *scan_cache_dir;

static void free_loose_list(struct loose_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->items[i].name);
		free(l->items[i].target);
	}
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
}

static void scan_cache_clear(void)
{
	free_loose_list(&scan_cache);
	free(scan_cache_dir);
	scan_cache_dir = NULL;
}

void refs_prime(const char *dir_prefix)
{
	struct strbuf dir = STRBUF_INIT;
	struct loose_list l = { NULL, 0, 0, dir_prefix, strlen(dir_prefix) };
	if (scan_cache_dir && !strcmp(scan_cache_dir, dir_prefix))
		return;
	scan_cache_clear();
	strbuf_addstr(&dir, dir_prefix);
	scan_dir(&l, &dir);
	strbuf_release(&dir);
	QSORT(l.items, l.nr, cmp_loose);
	scan_cache = l;
	scan_cache_dir = xstrdup(dir_prefix);
}

/* -3: not covered by the cache; else read_loose_ref's answer. */
static int scan_cache_lookup(const char *name, struct object_id *oid, struct strbuf *target)
{
	size_t lo = 0, hi;
	if (!scan_cache_dir || !starts_with(name, scan_cache_dir))
		return -3;
	hi = scan_cache.nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct loose *e = &scan_cache.items[mid];
		int c = strcmp(e->name, name);
		if (!c) {
			if (e->target) {
				strbuf_reset(target);
				strbuf_addstr(target, e->target);
				return 1;
			}
			if (e->flags & REF_ISBROKEN) {
				errno = EINVAL;
				return -1;
			}
			oidcpy(oid, &e->oid);
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	errno = ENOENT;
	return -2;
}

int refs_for_each(const char *prefix, unsigned flags, ref_cb cb, void *data)
{
	struct loose_list l = { NULL, 0, 0, prefix, strlen(prefix) };
	struct strbuf dir = STRBUF_INIT;
	struct merge m = { &l, 0, flags, cb, data };
	struct packed_refs *pr;
	const char *slash = strrchr(prefix, '/');
	int ret = 0, cached = 0;

	/* the deepest directory that holds every match */
	if (scan_cache_dir && !strcmp(scan_cache_dir, prefix)) {
		l = scan_cache;
		cached = 1;
	} else if (slash) {
		strbuf_add(&dir, prefix, slash + 1 - prefix);
		scan_dir(&l, &dir);
	} else {
		strbuf_addstr(&dir, "refs/");
		if (!strncmp("refs/", prefix, l.plen))
			scan_dir(&l, &dir);
	}
	strbuf_release(&dir);
	if (!cached)
		QSORT(l.items, l.nr, cmp_loose);

	pr = packed_refs_get();
	if (pr)
		ret = packed_refs_for_each(pr, prefix, merge_packed, &m);
	while (!ret && m.next < l.nr)
		ret = emit_loose(&m, &l.items[m.next++]);
	if (!cached)
		free_loose_list(&l);
	return ret;
}
