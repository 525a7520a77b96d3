/* links.c: an object's links as table indexes (ids not in the table go
 * to the missing list), through a per-thread cache of recent lookups and
 * batched lookups, kept in per-thread chunks. */
#include "builtin/fsck/fsck.h"
#include <pthread.h>

struct object_id *fsck_missing;
uint8_t *fsck_missing_type;
size_t fsck_nr_missing;
static size_t alloc_missing;
static pthread_mutex_t missing_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Per-thread cache of recent lookups, direct-mapped on the id's first
 * bytes. Successive versions of a tree share nearly all their entries and
 * a thread resolves a delta chain in order, so most links hit here instead
 * of costing the cache misses of a search of the whole table.
 */
#define LCACHE_BITS 12
struct lcache_entry {
	struct object_id oid;
	uint32_t pos1;      /* table index + 1; 0: empty */
};
/* Allocated at a thread's first lookup (see xcalloc_thread). */
static __thread struct lcache_entry *lcache;

static inline struct lcache_entry *lcache_slot(const struct object_id *oid)
{
	struct lcache_entry *c = lcache ? lcache
		: (lcache = xcalloc_thread(1 << LCACHE_BITS, sizeof(*lcache)));
	return &c[(oid->hash[0] | oid->hash[1] << 8 | oid->hash[2] << 16) &
		  ((1 << LCACHE_BITS) - 1)];
}

static uint32_t missing_link(const struct object_id *oid, enum object_type type)
{
	uint32_t idx;

	pthread_mutex_lock(&missing_lock);
	ALLOC_GROW(fsck_missing, fsck_nr_missing + 1, alloc_missing);
	fsck_missing_type = xrealloc(fsck_missing_type, alloc_missing);
	oidcpy(&fsck_missing[fsck_nr_missing], oid);
	fsck_missing_type[fsck_nr_missing] = type;
	idx = (uint32_t)fsck_nr_missing++;
	pthread_mutex_unlock(&missing_lock);
	return idx | (uint32_t)type << 28 | LINK_MISSING;
}

static uint32_t link_found(struct fobj *o, const struct object_id *oid, enum object_type type)
{
	struct lcache_entry *ce = lcache_slot(oid);
	uint32_t idx = (uint32_t)(o - fsck_objs);

	oidcpy(&ce->oid, oid);
	ce->pos1 = idx + 1;
	return idx | (uint32_t)type << 28;
}

uint32_t link_to(const struct object_id *oid, enum object_type type)
{
	struct lcache_entry *ce = lcache_slot(oid);
	struct fobj *o;

	if (ce->pos1 && oideq(&ce->oid, oid))
		return (ce->pos1 - 1) | (uint32_t)type << 28;
	o = find_obj(oid);
	return o ? link_found(o, oid, type) : missing_link(oid, type);
}

#define CAND_NONE UINT32_MAX
#define CAND_SEARCH (UINT32_MAX - 1)

void want_resolve(struct want *wt, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct object_id *oid = wt[i].oid;
		uint32_t k = oid->hash[0] << 8 | oid->hash[1];
		size_t lo = fsck_fan[k], end = fsck_fan[k + 1];
		uint64_t key = key64(oid->hash);
		wt[i].cand = CAND_NONE;
		if (end - lo > 16) {
			wt[i].cand = CAND_SEARCH;
			continue;
		}
		for (; lo < end && fsck_keys[lo] <= key; lo++)
			if (fsck_keys[lo] == key) {
				wt[i].cand = (uint32_t)lo;
				__builtin_prefetch(&fsck_objs[lo]);
				break;
			}
	}
	for (size_t i = 0; i < n; i++) {
		const struct object_id *oid = wt[i].oid;
		uint32_t c = wt[i].cand;
		struct fobj *o = NULL;
		if (c < CAND_SEARCH && !memcmp(fsck_objs[c].oid.hash + 10, oid->hash + 10, RAW_SZ - 10))
			o = &fsck_objs[c];
		else if (c != CAND_NONE)
			o = find_obj(oid);  /* a big bucket, or two ids with one key */
		*wt[i].slot = o ? link_found(o, oid, wt[i].type) : missing_link(oid, wt[i].type);
	}
}

/* The link to oid from the cache, or queued in wt (resolved by the time
 * the batch is full or the object is done). */
static inline void link_or_want(struct want *wt, size_t *n, const struct object_id *oid,
				enum object_type type, uint32_t *slot)
{
	struct lcache_entry *ce = lcache_slot(oid);

	if (ce->pos1 && oideq(&ce->oid, oid)) {
		*slot = (ce->pos1 - 1) | (uint32_t)type << 28;
		return;
	}
	want_add(wt, n, oid, type, slot);
	if (*n == WANT_BATCH) {
		want_resolve(wt, *n);
		*n = 0;
	}
}

/*
 * Link lists live in per-thread chunks and are never freed one by one
 * (a malloc per object was a tenth of the time). A list is carved with an
 * upper bound on its length and the unused tail is given back at once.
 */
#define CHUNK_WORDS (1u << 20)
struct link_chunk {
	struct link_chunk *next;
	size_t used, size;
	uint32_t w[];
};
static struct link_chunk *all_chunks;
static pthread_mutex_t chunk_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread struct link_chunk *my_chunk;

static uint32_t *links_reserve(size_t n)
{
	struct link_chunk *c = my_chunk;
	uint32_t *p;

	if (!c || c->size - c->used < n) {
		size_t sz = n > CHUNK_WORDS ? n : CHUNK_WORDS;
		c = huge_zalloc(sizeof(*c) + sz * sizeof(uint32_t));
		if (!c)
			c = xmalloc(sizeof(*c) + sz * sizeof(uint32_t));
		c->used = 0;
		c->size = sz;
		pthread_mutex_lock(&chunk_lock);
		c->next = all_chunks;
		all_chunks = c;
		pthread_mutex_unlock(&chunk_lock);
		my_chunk = c;
	}
	p = c->w + c->used;
	c->used += n;
	return p;
}

/* Gives back the end of the list links_reserve() returned last. */
static void links_trim(size_t reserved, size_t used)
{
	my_chunk->used -= reserved - used;
}

/* Links of a parsed object, as git's fsck_walk() sees them. */
uint32_t *collect_links(enum object_type type, const char *buf, size_t len)
{
	uint32_t *l;
	size_t nr = 1, bound, nw = 0;
	struct object_id x[2];
	struct want wt[WANT_BATCH];

	/* A tree entry takes at least a NUL and an id (21 bytes), a parent
	 * line 48. */
	if (type == OBJ_TREE)
		bound = len / 21 + 2;
	else if (type == OBJ_COMMIT)
		bound = len / 48 + 2;
	else
		bound = 2;
	l = links_reserve(bound);
	if (type == OBJ_TREE) {
		struct tree_iter it;
		struct tree_entry e;
		tree_iter_init(&it, buf, len);
		while (nr < bound && tree_iter_next(&it, &e) > 0) {
			enum object_type t = entry_link_type(e.mode);
			if (t != OBJ_NONE)
				link_or_want(wt, &nw, e.oid, t, &l[nr++]);
		}
	} else if (type == OBJ_COMMIT) {
		const char *p = buf + 5, *end = buf + len;
		get_oid_hex(p, &x[0]);
		link_or_want(wt, &nw, &x[0], OBJ_TREE, &l[nr++]);
		p += HEX_SZ + 1;
		while (nr < bound && p + 7 + HEX_SZ < end && !memcmp(p, "parent ", 7) &&
		       !get_oid_hex(p + 7, &x[1])) {
			/* Parents one at a time: x[1] is reused. */
			if (nw) {
				want_resolve(wt, nw);
				nw = 0;
			}
			l[nr++] = link_to(&x[1], OBJ_COMMIT);
			p += 7 + HEX_SZ + 1;
		}
	} else if (type == OBJ_TAG) {
		const char *p = buf + 7 + HEX_SZ + 1 + 5;
		const char *nl = memchr(p, '\n', buf + len - p);
		get_oid_hex(buf + 7, &x[0]);
		l[nr++] = link_to(&x[0], type_from_string(p, nl - p));
	}
	if (nw)
		want_resolve(wt, nw);
	links_trim(bound, nr);
	l[0] = (uint32_t)(nr - 1);
	return l;
}

/* A tree's links gathered while its syntax is checked (one parse). */
struct tree_links {
	uint32_t *l;
	size_t nr, bound, nw;
	struct want wt[WANT_BATCH];
};

static void tree_link_cb(void *data, unsigned mode, const unsigned char *id)
{
	struct tree_links *tl = data;
	enum object_type t = entry_link_type(mode);

	if (t == OBJ_NONE)
		return;
	if (tl->nr < tl->bound)
		link_or_want(tl->wt, &tl->nw, (const struct object_id *)id, t, &tl->l[tl->nr++]);
}

static void count_report_cb(void *data, const struct object_id *oid UNUSED,
			    enum object_type type UNUSED, enum fsck_msg_type sev UNUSED,
			    const char *msg UNUSED)
{
	(*(int *)data)++;
}

/*
 * The links of a tree that checks clean, from the check's own parse; NULL
 * (nothing kept) when the check has anything to say: the caller then
 * takes the way that reports in git's order.
 */
uint32_t *tree_links_checked(const struct object_id *oid, const char *buf, size_t len)
{
	struct tree_links tl;
	const char *why = NULL;
	int reports = 0;

	tl.bound = len / 21 + 2;
	tl.l = links_reserve(tl.bound);
	tl.nr = 1;
	tl.nw = 0;
	if (fsck_check_tree_entries(&fsck_check_opts, oid, buf, len, count_report_cb, &reports, &why,
				    tree_link_cb, &tl) || reports || why) {
		links_trim(tl.bound, 0);
		return NULL;
	}
	if (tl.nw)
		want_resolve(tl.wt, tl.nw);
	links_trim(tl.bound, tl.nr);
	tl.l[0] = (uint32_t)(tl.nr - 1);
	return tl.l;
}
