/* conn-read.c: --connectivity-only's reader of packed commits, trees and
 * tags, with a cache of results for the next delta to build on. */
#include "builtin/fsck/fsck.h"
#include "odb/delta.h"
#include "odb/inflate.h"
#include "odb/odb.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <zlib.h>

/*
 * The walk's reader. Trees come one version after another, each a delta
 * of the one before, so a result is kept (by pack and offset) for the
 * next to build on: one small inflate per tree, where the object store's
 * reader, whose cache keeps bases only, would go down the chain again.
 * It is silent: zlib is called directly and any failure (a damaged
 * entry, a base in another pack, a loose object) hands the id to
 * odb_read_object(), which reads it again and says what git says.
 */
#define CONN_CACHE_SLOTS 4096
#define CONN_CACHE_LIMIT (32u << 20)
struct conn_cached {
	const struct packed_git *p;
	uint64_t off;
	unsigned char *data;
	size_t size;
	enum object_type type;
};
static struct conn_cached conn_cache[CONN_CACHE_SLOTS];
static size_t conn_cache_total;
static z_stream conn_zs;
static int conn_zs_ready;

static struct conn_cached *conn_cache_slot(const struct packed_git *p, uint64_t off)
{
	uint64_t h = ((uint64_t)(uintptr_t)p ^ off) * 0x9e3779b97f4a7c15ull;
	return &conn_cache[h >> 52];
}

/* Hands buf (size bytes plus a NUL) to the cache: 1 when it keeps it
 * (and frees it in time), 0 when it is too big to keep. */
static int conn_cache_keep(const struct packed_git *p, uint64_t off, enum object_type type,
			   unsigned char *buf, size_t size)
{
	struct conn_cached *c = conn_cache_slot(p, off);

	if (size > CONN_CACHE_LIMIT / 8)
		return 0;
	if (c->data) {
		conn_cache_total -= c->size;
		free(c->data);
		c->data = NULL;
	}
	/* Over the limit: start again (trees rebuild from their chains). */
	if (conn_cache_total + size > CONN_CACHE_LIMIT) {
		for (size_t i = 0; i < CONN_CACHE_SLOTS; i++) {
			free(conn_cache[i].data);
			conn_cache[i].data = NULL;
		}
		conn_cache_total = 0;
	}
	c->p = p;
	c->off = off;
	c->type = type;
	c->size = size;
	c->data = buf;
	conn_cache_total += size;
	return 1;
}

/* Inflates the entry's data into *buf (grown as needed to e->size plus
 * a NUL and the decoder's slack): 0, or -1, silently, for anything zlib
 * or the size disagrees with. */
static int conn_inflate(const struct packed_git *p, const struct pack_entry *e,
			unsigned char **buf, size_t *alloc)
{
	uint64_t start = e->offset + e->hdr_len, end = p->map_size - RAW_SZ;
	unsigned char *out;
	int st;

	/* Deflate expands at most 1032 to 1: a size the data cannot hold is
	 * left to the object store (and no buffer is made for it here). */
	if (start > end || e->size > UINT_MAX - FAST_INFLATE_SLACK - 1 ||
	    e->size > (end - start) * 1040 + 64)
		return -1;
	if (*alloc < e->size + FAST_INFLATE_SLACK + 1) {
		free(*buf);
		*alloc = e->size + FAST_INFLATE_SLACK + 1;
		*buf = xmalloc(*alloc);
	}
	out = *buf;
	if (!fast_inflate_disabled() &&
	    !fast_inflate(p->map + start, end - start, out, e->size, NULL)) {
		out[e->size] = '\0';
		return 0;
	}
	if (!conn_zs_ready) {
		memset(&conn_zs, 0, sizeof(conn_zs));
		if (inflateInit(&conn_zs) != Z_OK)
			return -1;
		conn_zs_ready = 1;
	} else if (inflateReset(&conn_zs) != Z_OK) {
		return -1;
	}
	conn_zs.next_in = (unsigned char *)p->map + start;
	conn_zs.avail_in = end - start > UINT_MAX ? UINT_MAX : (uInt)(end - start);
	conn_zs.next_out = out;
	conn_zs.avail_out = (uInt)e->size + 1;
	st = inflate(&conn_zs, Z_FINISH);
	if (st != Z_STREAM_END || conn_zs.total_out != e->size)
		return -1;
	out[e->size] = '\0';
	return 0;
}

/* A whole entry into a buffer of its own (NULL, silently, on failure). */
static unsigned char *conn_inflate_whole(const struct packed_git *p, const struct pack_entry *e)
{
	unsigned char *buf = NULL;
	size_t alloc = 0;
	if (conn_inflate(p, e, &buf, &alloc)) {
		free(buf);
		return NULL;
	}
	return buf;
}

#define CONN_MAX_CHAIN 10000

/*
 * The object at off of p, delta chain followed; NULL when the silent
 * way cannot tell. *owned says whether the caller frees it; if not, it is
 * the cache's, valid until the next read.
 */
static void *conn_pack_read(const struct packed_git *p, uint64_t off, enum object_type *type,
			    size_t *size, int *owned)
{
	static uint64_t *chain;
	static size_t alloc_chain;
	static unsigned char *delta;
	static size_t alloc_delta;
	size_t n = 0;
	unsigned char *base = NULL;
	size_t base_size = 0;
	enum object_type base_type = OBJ_NONE;
	int base_owned = 0;
	uint64_t cur = off;

	for (;;) {
		struct conn_cached *c = conn_cache_slot(p, cur);
		struct pack_entry e;
		if (c->data && c->p == p && c->off == cur) {
			base = c->data;
			base_size = c->size;
			base_type = c->type;
			break;
		}
		if (pack_entry_header(p, cur, &e))
			return NULL;
		if (e.type >= OBJ_COMMIT && e.type <= OBJ_TAG) {
			base = conn_inflate_whole(p, &e);
			if (!base)
				return NULL;
			base_size = e.size;
			base_type = e.type;
			/* A tree starts a chain the next versions build on. */
			base_owned = !((n || e.type == OBJ_TREE) &&
				       conn_cache_keep(p, cur, base_type, base, base_size));
			break;
		}
		if (n >= CONN_MAX_CHAIN)
			return NULL;
		ALLOC_GROW(chain, n + 1, alloc_chain);
		chain[n++] = cur;
		if (e.type == OBJ_OFS_DELTA) {
			cur = e.base_offset;
		} else {
			uint32_t pos;
			if (!pack_idx_lookup(&p->idx, e.base_oid.hash, &pos))
				return NULL;
			cur = pack_idx_offset(&p->idx, pos);
			if (cur == UINT64_MAX)
				return NULL;
		}
	}
	while (n--) {
		struct pack_entry e;
		unsigned char *res;
		size_t res_size;
		if (pack_entry_header(p, chain[n], &e) || conn_inflate(p, &e, &delta, &alloc_delta))
			res = NULL;
		else
			res = delta_apply(base, base_size, delta, e.size, &res_size, NULL);
		if (base_owned)
			free(base);
		if (!res)
			return NULL;
		base = res;
		base_size = res_size;
		base_owned = !conn_cache_keep(p, chain[n], base_type, base, base_size);
	}
	*type = base_type;
	*size = base_size;
	*owned = base_owned;
	return base;
}

/*
 * Does the pack pass, silently, the checks the object store makes when
 * it maps one? Only then may the walk ask the store where an object
 * lies before reading it: with a damaged pack, each lookup repeats the
 * store's complaint, and git's count of them is that of its reads.
 */
static int conn_pack_sound(struct fpack *f)
{
	unsigned char hdr[12], trailer[RAW_SZ];
	struct stat st;
	int fd, ok;

	if (!f->usable)
		return 0;
	fd = fd_open(f->p.pack_path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ok = !fstat(fd, &st) && st.st_size >= 12 + RAW_SZ &&
	     pread(fd, hdr, 12, 0) == 12 &&
	     pread(fd, trailer, RAW_SZ, st.st_size - RAW_SZ) == RAW_SZ &&
	     !memcmp(hdr, "PACK", 4) && (get_be32(hdr + 4) == 2 || get_be32(hdr + 4) == 3) &&
	     get_be32(hdr + 8) == f->p.idx.nr &&
	     !memcmp(trailer, pack_idx_pack_checksum(&f->p.idx), RAW_SZ);
	fd_close_batched(fd);
	return ok;
}

/* Where the walk reads each table object from: pack number + 1 (0: not
 * in a pack) and index position, set up when every pack is sound. */
static uint32_t *conn_where, *conn_pos;

void conn_reader_setup(void)
{
	for (size_t i = 0; i < fsck_nr_packs; i++)
		if (!conn_pack_sound(&fsck_packs[i]) || pack_map(&fsck_packs[i].p) < 0)
			return;
	map_pack_positions();
	conn_where = xcalloc(fsck_nr_objs + 1, sizeof(*conn_where));
	conn_pos = xmalloc((fsck_nr_objs + 1) * sizeof(*conn_pos));
	/* The first pack in git's order that holds an object is read. */
	for (size_t i = fsck_nr_packs; i--;)
		for (uint32_t k = 0; k < fsck_packs[i].p.idx.nr; k++) {
			conn_where[fsck_packs[i].pos_map[k]] = (uint32_t)i + 1;
			conn_pos[fsck_packs[i].pos_map[k]] = k;
		}
}

/* Whether the buffer conn_read() returned last is the caller's (only one
 * is in use at a time): give it back with conn_done(). */
static int conn_buf_owned;

/* What the walk reads: the fast way when it can, else the object store's. */
void *conn_read(const struct fobj *o, enum object_type *type, size_t *size)
{
	uint32_t w = conn_where ? conn_where[o - fsck_objs] : 0;
	void *buf;

	if (w) {
		struct packed_git *p = &fsck_packs[w - 1].p;
		uint64_t off = pack_idx_offset(&p->idx, conn_pos[o - fsck_objs]);
		pack_advise_lookup(p);
		if (off < p->map_size - RAW_SZ &&
		    (buf = conn_pack_read(p, off, type, size, &conn_buf_owned)))
			return buf;
	}
	conn_buf_owned = 1;
	return odb_read_object(&o->oid, type, size);
}

void conn_done(void *buf)
{
	if (conn_buf_owned)
		free(buf);
}
