/* conn-walk.c: --connectivity-only's walk: objects parsed as git's
 * parse_object() and fsck_walk() would, typed by the links that name
 * them; missing ids said once. */
#include "builtin/fsck/fsck.h"
#include "odb/odb.h"
#include "sha1/object-hash.h"

/*
 * --connectivity-only, as git 2.39 does it: every id listed by the loose
 * directories and the pack indexes counts as stored without being read.
 * Refs, HEAD and cache-tree roots are read and hashed (git's
 * parse_object()); the walk reads commits, trees and tags as it reaches
 * them, without hashing, and a blob is only looked up. An object takes
 * its type from the first link that names it, as git's lookup_tree()
 * and friends give it, and keeps it: a later link of another type is
 * "object X is a Y, not a Z". git ignores the walk's failures in its
 * exit code; reading a corrupt object dies as git does.
 */

/* Missing ids the walk has reached: each says "broken link" once. */
static struct object_id *mset;
static size_t mset_size, mset_nr;
static int mset_null;  /* the null id, which marks empty slots */

static size_t mset_slot(const struct object_id *oid)
{
	size_t mask = mset_size - 1, i = get_be32(oid->hash) & mask;
	while (!is_null_oid(&mset[i]) && !oideq(&mset[i], oid))
		i = (i + 1) & mask;
	return i;
}

static int mset_has(const struct object_id *oid)
{
	if (is_null_oid(oid))
		return mset_null;
	return mset_size && oideq(&mset[mset_slot(oid)], oid);
}

/* 1 when oid was not in the set yet. */
static int mset_add(const struct object_id *oid)
{
	size_t i;
	if (is_null_oid(oid)) {
		int had = mset_null;
		mset_null = 1;
		return !had;
	}
	if (mset_size < 2 * (mset_nr + 1)) {
		struct object_id *old = mset;
		size_t n = mset_size;
		mset_size = n ? 2 * n : 64;
		mset = xcalloc(mset_size, sizeof(*mset));
		for (size_t k = 0; k < n; k++)
			if (!is_null_oid(&old[k]))
				oidcpy(&mset[mset_slot(&old[k])], &old[k]);
		free(old);
	}
	i = mset_slot(oid);
	if (oideq(&mset[i], oid))
		return 0;
	oidcpy(&mset[i], oid);
	mset_nr++;
	return 1;
}

static uint32_t conn_no_links[1];

/* git's lookup_<type>(): 0 when the object may be taken as type (and
 * then is), -1 after git's complaint when it has another type already. */
static int conn_lookup(uint32_t l, enum object_type type)
{
	struct fobj *t;
	if (l & LINK_MISSING)
		return 0;
	t = &fsck_objs[LINK_INDEX(l)];
	if (t->type && t->type != type) {
		error("object %s is a %s, not a %s", thex(&t->oid), printable_type(t->type),
		      printable_type(type));
		return -1;
	}
	t->type = (uint8_t)type;
	return 0;
}

/* git's parse_commit_buffer() and parse_tag_buffer(): the links, with the
 * objects they name typed; -1 after git's messages. */
static int conn_parse_links(struct fobj *o, enum object_type type, const char *buf, size_t len)
{
	struct msgs m = { STRBUF_INIT, STRBUF_INIT };
	uint32_t *l;

	if (parse_refuses(type, buf, len, &o->oid, &m)) {
		msg_flush(&m);
		return -1;
	}
	l = collect_links(type, buf, len);
	for (uint32_t i = 1; i <= l[0]; i++) {
		if (!conn_lookup(l[i], LINK_TYPE(l[i])))
			continue;
		const struct object_id *x = l[i] & LINK_MISSING ? &fsck_missing[LINK_INDEX(l[i])] :
			&fsck_objs[LINK_INDEX(l[i])].oid;
		if (type == OBJ_TAG)
			error("bad tag pointer to %s in %s", thex(x), thex(&o->oid));
		else if (i == 1)
			error("bad tree pointer %s in commit %s", thex(x), thex(&o->oid));
		else
			error("bad parent %s in commit %s", thex(x), thex(&o->oid));
		return -1;
	}
	o->links = l;
	return 0;
}

/* git's parse_object() on an object of the table: read, hashed, typed,
 * commits and tags parsed. 1, or 0 after git's messages. */
int conn_parse_object(struct fobj *o)
{
	enum object_type type;
	size_t size;
	char *buf;
	struct object_id real;
	int ok = 1;

	if (o->links)
		return 1;
	buf = conn_read(o, &type, &size);
	if (!buf)
		return 0;
	hash_object_buf(type_name(type), buf, size, &real);
	if (!oideq(&real, &o->oid)) {
		error("hash mismatch %s", thex(&o->oid));
		conn_done(buf);
		return 0;
	}
	if (o->type && o->type != type) {
		error("object %s is a %s, not a %s", thex(&o->oid), printable_type(o->type),
		      printable_type(type));
		conn_done(buf);
		return 0;
	}
	o->type = (uint8_t)type;
	if (type == OBJ_BLOB)
		o->links = conn_no_links;
	else if (type == OBJ_COMMIT || type == OBJ_TAG)
		ok = conn_parse_links(o, type, buf, size) == 0;
	conn_done(buf);
	return ok;
}

/* A link to nothing git can use: a missing id, or one its lookup refused. */
static void conn_broken(const struct fobj *p, enum object_type type, const struct object_id *oid)
{
	printf("broken link from %7s %s\n              to %7s %s\n", printable_type(p->type),
	       thex(&p->oid), printable_type(type), thex(oid));
	fsck_errors_found |= ERROR_REACHABLE;
}

static void conn_refused(const struct fobj *p, enum object_type type)
{
	printf("broken link from %7s %s\n", printable_type(p->type), thex(&p->oid));
	printf("broken link from %7s %s\n", type ? printable_type(type) : "unknown", "unknown");
	fsck_errors_found |= ERROR_REACHABLE;
}

/* git's mark_object() from parent p (the walk) or, with used set, its
 * mark_used() (objects named by unreachable ones). */
static void conn_mark(const struct fobj *p, uint32_t l, int used)
{
	struct fobj *t;

	if (l & LINK_MISSING) {
		if (!used && mset_add(&fsck_missing[LINK_INDEX(l)]))
			conn_broken(p, LINK_TYPE(l), &fsck_missing[LINK_INDEX(l)]);
		return;
	}
	t = &fsck_objs[LINK_INDEX(l)];
	if (used) {
		t->flags |= USED;
		return;
	}
	if (t->flags & REACHABLE)
		return;
	mark_reachable(t);
}

/* Reads an object the walk reached as a commit, tree or tag; NULL after
 * git's message ("Could not read", "Object X not a tree"). */
static char *conn_read_as(const struct fobj *o, enum object_type want, size_t *size)
{
	enum object_type type;
	char *buf = conn_read(o, &type, size);
	if (!buf) {
		error("Could not read %s", thex(&o->oid));
		return NULL;
	}
	if (type != want) {
		error("Object %s not a %s", thex(&o->oid), type_name(want));
		conn_done(buf);
		return NULL;
	}
	return buf;
}

/* git's tree entry decoder: NULL, or why it stops. */
static const char *conn_tree_entry(const char *buf, size_t size, unsigned *mode,
				   const char **name)
{
	const char *s = buf;
	unsigned m = 0;

	if (size < RAW_SZ + 3 || buf[size - (RAW_SZ + 1)])
		return "too-short tree object";
	if (*s == ' ')
		return "malformed mode in tree entry";
	for (; *s != ' '; s++) {
		if (*s < '0' || *s > '7')
			return "malformed mode in tree entry";
		m = (m << 3) + (unsigned)(*s - '0');
	}
	if (!*++s)
		return "empty filename in tree entry";
	*mode = m;
	*name = s;
	return NULL;
}

/*
 * Tree entries looked up: a tree's next version names nearly the same ids,
 * and some thousands are live at once (more than link_to()'s cache
 * holds), so the walk keeps a bigger one.
 */
#define CONN_LC_BITS 16
struct conn_lc {
	unsigned char id[RAW_SZ];
	uint32_t pos1;      /* table index + 1; 0: empty */
};
static struct conn_lc *conn_lc;

static struct conn_lc *conn_lc_slot(const struct object_id *oid)
{
	if (!conn_lc)
		conn_lc = xcalloc((size_t)1 << CONN_LC_BITS, sizeof(*conn_lc));
	return &conn_lc[(oid->hash[0] | oid->hash[1] << 8) & ((1u << CONN_LC_BITS) - 1)];
}

static inline int conn_lc_match(const struct conn_lc *c, const struct object_id *oid)
{
	uint64_t a[2], b[2];
	uint32_t x, y;
	memcpy(a, c->id, 16);
	memcpy(b, oid->hash, 16);
	memcpy(&x, c->id + 16, 4);
	memcpy(&y, oid->hash + 16, 4);
	return a[0] == b[0] && a[1] == b[1] && x == y;
}

/* want_resolve(), the cache filled with what it found. */
static void conn_want_resolve(struct want *wt, size_t n)
{
	want_resolve(wt, n);
	for (size_t i = 0; i < n; i++) {
		uint32_t l = *wt[i].slot;
		if (!(l & LINK_MISSING)) {
			struct conn_lc *c = conn_lc_slot(wt[i].oid);
			memcpy(c->id, wt[i].oid->hash, RAW_SZ);
			c->pos1 = LINK_INDEX(l) + 1;
		}
	}
}

/* git's fsck_walk_tree(): an entry is taken only once the next one has
 * decoded; a mode git does not know is a gitlink, skipped. */
static void conn_walk_tree(struct fobj *o, int used)
{
	static uint32_t *ents;
	static size_t alloc_ents;
	struct want wt[WANT_BATCH];
	size_t size, left, nr = 0, nw = 0;
	char *buf = conn_read_as(o, OBJ_TREE, &size);
	const char *p, *name, *why = NULL;
	unsigned mode = 0;

	if (!buf)
		return;
	/* Room for all entries at once (the batch points into the array):
	 * one takes at least a mode digit, a space, a name byte, its NUL
	 * and an id. */
	ALLOC_GROW(ents, size / (RAW_SZ + 4) + 1, alloc_ents);
	p = buf;
	left = size;
	if (left)
		why = conn_tree_entry(p, left, &mode, &name);
	if (why)
		left = 0;
	/* The entries' links first, looked up in batches whose cache misses
	 * overlap; then git's marking, in order. */
	while (left) {
		const struct object_id *id = (const struct object_id *)(name + strlen(name) + 1);
		unsigned cur = mode;
		enum object_type t;
		size_t n = (const char *)id->hash + RAW_SZ - p;
		struct conn_lc *c;

		p += n;
		left -= n;
		if (left && (why = conn_tree_entry(p, left, &mode, &name)))
			left = 0;
		if ((t = entry_link_type(cur)) == OBJ_NONE)
			continue;
		c = conn_lc_slot(id);
		if (c->pos1 && conn_lc_match(c, id)) {
			ents[nr] = (c->pos1 - 1) | (uint32_t)t << 28;
			__builtin_prefetch(&fsck_objs[c->pos1 - 1]);
		} else {
			want_add(wt, &nw, id, t, &ents[nr]);
			if (nw == WANT_BATCH) {
				conn_want_resolve(wt, nw);
				nw = 0;
			}
		}
		nr++;
	}
	if (nw)
		conn_want_resolve(wt, nw);
	for (size_t i = 0; i < nr; i++) {
		enum object_type t = LINK_TYPE(ents[i]);
		if (conn_lookup(ents[i], t)) {
			if (!used)
				conn_refused(o, t);
			continue;
		}
		conn_mark(o, ents[i], used);
	}
	if (why)
		error("%s", why);
	conn_done(buf);
}

/* git's fsck_walk() on one object, with mark_object() or mark_used(). */
static void conn_walk(struct fobj *o, int used)
{
	if (!o->type)
		conn_parse_object(o);
	switch (o->type) {
	case OBJ_BLOB:
		return;
	case OBJ_TREE:
		conn_walk_tree(o, used);
		return;
	case OBJ_COMMIT:
	case OBJ_TAG:
		if (!o->links) {
			size_t size;
			char *buf = conn_read_as(o, o->type, &size);
			int r = buf ? conn_parse_links(o, o->type, buf, size) : -1;
			conn_done(buf);
			if (r)
				return;
		}
		for (uint32_t i = 1; i <= o->links[0]; i++)
			conn_mark(o, o->links[i], used);
		return;
	default:
		error("Unknown object type for %s", thex(&o->oid));
	}
}

void conn_traverse(void)
{
	/* Missing ids the roots reached already. */
	for (size_t i = 0; i < fsck_nr_virtual; i++)
		if (fsck_virt[i].flags & REACHABLE)
			mset_add(&fsck_virt[i].oid);
	while (fsck_nr_pending) {
		uint32_t r = fsck_pending[--fsck_nr_pending];
		if (!(r & LINK_MISSING))
			conn_walk(&fsck_objs[r], 0);
	}
}

/* git marks what unreachable objects name as used, so that only the tips
 * of unreachable history are "dangling"; it types each by its header.
 * It goes through every stored copy: the loose ones in the order their
 * directories were listed, then each pack's in index order. So an object
 * stored twice is walked twice, and a damaged one says so twice. */
static void mark_unreachable_copy(struct fobj *o)
{
	if (o->flags & REACHABLE)
		return;
	if (!o->type) {
		enum object_type t;
		size_t sz;
		if (!odb_read_header(&o->oid, &t, &sz) && t > 0)
			o->type = (uint8_t)t;
	}
	conn_walk(o, 1);
}

void conn_mark_unreachable(void)
{
	uint32_t *unreachable = NULL;
	size_t nr = 0, alloc = 0;

	for (size_t i = 0; i < fsck_nr_objs; i++)
		if (!(fsck_objs[i].flags & REACHABLE)) {
			ALLOC_GROW(unreachable, nr + 1, alloc);
			unreachable[nr++] = (uint32_t)i;
		}
	if (!nr)
		return;
	for (size_t i = 0; i < fsck_nr_loose; i++) {
		const struct object_id *oid = loose_oid_at(i);
		struct fobj *o = oid ? find_obj(oid) : NULL;
		if (o)
			mark_unreachable_copy(o);
	}
	/* The table is sorted as an index is: its unreachable entries,
	 * looked up in each pack, come in that pack's order. */
	for (size_t i = 0; i < fsck_nr_packs; i++) {
		uint32_t pos;
		if (!fsck_packs[i].usable)
			continue;
		for (size_t k = 0; k < nr; k++) {
			struct fobj *o = &fsck_objs[unreachable[k]];
			if (pack_idx_lookup(&fsck_packs[i].p.idx, o->oid.hash, &pos))
				mark_unreachable_copy(o);
		}
	}
	free(unreachable);
}

/* The missing list again, with what the walk added, REACHABLE where the
 * walk or the roots got to. */
void conn_finish_missing(void)
{
	free(fsck_virt);
	free(fsck_missing_map);
	fsck_nr_virtual = 0;
	build_missing();
	for (size_t i = 0; i < fsck_nr_virtual; i++)
		if (mset_has(&fsck_virt[i].oid))
			fsck_virt[i].flags |= REACHABLE;
}
