/* pack.c: .pack files: mapping, entry headers, inflating, delta chains. */
#include "lib/util.h"
#include "odb/pack.h"
#include "odb/delta.h"
#include "odb/inflate.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/stat.h>

void pack_init(struct packed_git *p, const char *idx_path)
{
	size_t n = strlen(idx_path);

	memset(p, 0, sizeof(*p));
	p->idx_path = xstrdup(idx_path);
	if (n >= 4 && !strcmp(idx_path + n - 4, ".idx"))
		p->pack_path = xstrfmt("%.*s.pack", (int)(n - 4), idx_path);
	else
		p->pack_path = xstrfmt("%s.pack", idx_path);
	p->advice = MADV_RANDOM;
}

int pack_open_index(struct packed_git *p)
{
	/* A failure is not remembered: like git, each lookup tries again
	 * (and repeats the error), so a repaired index is picked up. */
	if (p->idx_state <= 0)
		p->idx_state = pack_idx_open(&p->idx, p->idx_path) < 0 ? -1 : 1;
	return p->idx_state > 0 ? 0 : -1;
}

static int map_pack(struct packed_git *p)
{
	struct stat st;
	void *map;
	uint32_t v, nr;
	int fd;

	if (pack_open_index(p) < 0)
		return error("packfile %s index unavailable", p->pack_path);
	fd = fd_open(p->pack_path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		fd_close_batched(fd);
		return -1;
	}
	if (st.st_size < 12 + 20) {
		fd_close_batched(fd);
		return error("file %s is far too short to be a packfile", p->pack_path);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	fd_close_batched(fd);
	if (map == MAP_FAILED)
		return error_errno("mmap failed for %s", p->pack_path);
	p->map = map;
	p->map_size = (size_t)st.st_size;
	if (p->map_size > PACK_SMALL_MAP)
		madvise(map, p->map_size, p->advice);
	if (memcmp(p->map, "PACK", 4))
		return error("file %s is not a GIT packfile", p->pack_path);
	v = get_be32(p->map + 4);
	if (v != 2 && v != 3)
		return error("packfile %s is version %u and not supported"
			     " (try upgrading GIT to a newer version)", p->pack_path, v);
	nr = get_be32(p->map + 8);
	if (nr != p->idx.nr)
		return error("packfile %s claims to have %u objects while index indicates %u objects",
			     p->pack_path, nr, p->idx.nr);
	if (memcmp(p->map + p->map_size - 20, pack_idx_pack_checksum(&p->idx), 20))
		return error("packfile %s does not match index", p->pack_path);
	return 0;
}

int pack_map(struct packed_git *p)
{
	if (p->map_state <= 0) {
		p->map_state = map_pack(p) < 0 ? -1 : 1;
		if (p->map_state < 0 && p->map) {
			munmap((void *)p->map, p->map_size);
			p->map = NULL;
			p->map_size = 0;
		}
	}
	return p->map_state > 0 ? 0 : -1;
}

int pack_open(struct packed_git *p, const char *idx_path)
{
	pack_init(p, idx_path);
	if (pack_open_index(p) < 0)
		return -1;
	return pack_map(p);
}

void pack_close(struct packed_git *p)
{
	if (p->map)
		munmap((void *)p->map, p->map_size);
	if (p->idx_state > 0)
		pack_idx_close(&p->idx);
	free(p->idx_path);
	free(p->pack_path);
	memset(p, 0, sizeof(*p));
}

int pack_entry_header(const struct packed_git *p, uint64_t offset, struct pack_entry *e)
{
	const unsigned char *s, *q, *end;
	uint64_t size;
	unsigned shift = 4, c;

	e->type = OBJ_BAD;
	if (!p->map || offset < 12 || offset >= p->map_size - 20)
		return -1;
	s = q = p->map + offset;
	end = p->map + p->map_size - 20;
	c = *q++;
	e->offset = offset;
	e->type = (enum object_type)((c >> 4) & 7);
	size = c & 15;
	while (c & 0x80) {
		uint64_t bits;
		if (q >= end || shift > 63)
			return -1;
		c = *q++;
		bits = (uint64_t)(c & 0x7f) << shift;
		if (bits >> shift != (c & 0x7f))
			return -1;
		size += bits;
		shift += 7;
	}
	e->size = size;
	switch (e->type) {
	case OBJ_COMMIT: case OBJ_TREE: case OBJ_BLOB: case OBJ_TAG:
		break;
	case OBJ_OFS_DELTA: {
		uint64_t back;
		if (q >= end)
			return -1;
		c = *q++;
		back = c & 0x7f;
		while (c & 0x80) {
			if (q >= end || back > (UINT64_MAX >> 7) - 1)
				return -1;
			c = *q++;
			back = ((back + 1) << 7) | (c & 0x7f);
		}
		if (!back || back > offset)
			return -1;
		e->base_offset = offset - back;
		break;
	}
	case OBJ_REF_DELTA:
		if ((size_t)(end - q) < 20)
			return -1;
		memcpy(e->base_oid.hash, q, 20);
		q += 20;
		break;
	default:
		return -1;
	}
	e->hdr_len = (unsigned)(q - s);
	return 0;
}

void pack_zstream_init(z_stream *zs)
{
	memset(zs, 0, sizeof(*zs));
	if (inflateInit(zs) != Z_OK)
		die("inflateInit: %s", zs->msg ? zs->msg : "no message");
}

void pack_zstream_end(z_stream *zs)
{
	inflateEnd(zs);
}

/*
 * Inflates from in (up to in_len bytes) into out (out_len bytes). Returns
 * zlib's final status; *produced gets the bytes written. zlib counts in
 * unsigned int, so both sides are fed in slices.
 */
static int inflate_into(z_stream *zs, const unsigned char *in, size_t in_len,
			unsigned char *out, size_t out_len, size_t *produced, int flush)
{
	int st;
	size_t done = 0;

	inflateReset(zs);
	zs->next_in = (unsigned char *)in;
	zs->avail_in = 0;
	zs->next_out = out;
	zs->avail_out = 0;
	for (;;) {
		if (!zs->avail_in && in_len) {
			unsigned n = in_len > (1u << 30) ? 1u << 30 : (unsigned)in_len;
			zs->avail_in = n;
			in_len -= n;
		}
		if (!zs->avail_out) {
			size_t left = out_len - done;
			unsigned n = left > (1u << 30) ? 1u << 30 : (unsigned)left;
			zs->avail_out = n;
		}
		{
			unsigned before = zs->avail_out;
			st = inflate(zs, flush);
			done += before - zs->avail_out;
		}
		if (st == Z_STREAM_END || (st != Z_OK && st != Z_BUF_ERROR))
			break;
		if (st == Z_BUF_ERROR && !zs->avail_in && !in_len)
			break;   /* input exhausted */
		if (done == out_len && !zs->avail_out) {
			/* Output full: probe one more byte's worth only if the
			 * stream has not ended, to catch data longer than the
			 * header says. */
			unsigned char extra;
			zs->next_out = &extra;
			zs->avail_out = 1;
			st = inflate(zs, flush);
			if (st == Z_STREAM_END && zs->avail_out == 1)
				break;
			if (zs->avail_out == 0)
				done++;
			if (st != Z_OK && st != Z_BUF_ERROR)
				break;
			st = Z_BUF_ERROR;
			break;
		}
	}
	if (st != Z_OK && st != Z_BUF_ERROR && st != Z_STREAM_END) {
		if (st == Z_MEM_ERROR)
			die("inflate: out of memory");
		inflate_error(st, zs->msg);
	}
	*produced = done;
	return st;
}

static size_t entry_avail(const struct packed_git *p, const struct pack_entry *e)
{
	return p->map_size - 20 - (size_t)e->offset - e->hdr_len;
}

/* MINI_GIT_INFLATE=zlib, read once per process (threads may race to
 * store the same value). */
static int use_fast_inflate(void)
{
	static int use = -1;
	int u = __atomic_load_n(&use, __ATOMIC_RELAXED);

	if (u < 0) {
		u = !fast_inflate_disabled();
		__atomic_store_n(&use, u, __ATOMIC_RELAXED);
	}
	return u;
}

void *pack_inflate_entry(const struct packed_git *p, const struct pack_entry *e, z_stream *zs)
{
	size_t avail = entry_avail(p, e), got;
	unsigned char *buf;
	int st;

	/* zlib cannot expand data more than ~1032 times: a larger size in
	 * the header is corruption, not a reason to allocate. */
	if (e->size / 1032 > avail + 64 || e->size >= SIZE_MAX)
		return NULL;
	if (use_fast_inflate()) {
		/* Tried first; anything it refuses goes through zlib below,
		 * which reports the problem in its own words. */
		buf = xmalloc((size_t)e->size + 1 + FAST_INFLATE_SLACK);
		if (!fast_inflate(p->map + e->offset + e->hdr_len, avail, buf,
				  (size_t)e->size, NULL)) {
			buf[e->size] = 0;
			return buf;
		}
	} else {
		buf = xmalloc((size_t)e->size + 1);
	}
	st = inflate_into(zs, p->map + e->offset + e->hdr_len, avail, buf, (size_t)e->size,
			  &got, Z_FINISH);
	if (st != Z_STREAM_END || got != e->size) {
		free(buf);
		return NULL;
	}
	buf[e->size] = 0;
	return buf;
}

ssize_t pack_inflate_prefix(const struct packed_git *p, const struct pack_entry *e,
			    z_stream *zs, unsigned char *buf, size_t n)
{
	size_t avail = entry_avail(p, e), got = 0;
	int st;

	if (n > e->size)
		n = (size_t)e->size;
	inflateReset(zs);
	zs->next_in = (unsigned char *)p->map + e->offset + e->hdr_len;
	zs->avail_in = avail > (1u << 30) ? 1u << 30 : (unsigned)avail;
	zs->next_out = buf;
	zs->avail_out = (unsigned)n;
	while (zs->avail_out) {
		st = inflate(zs, Z_SYNC_FLUSH);
		if (st == Z_STREAM_END)
			break;
		if (st != Z_OK) {
			if (st != Z_BUF_ERROR)
				inflate_error(st, zs->msg);
			return -1;
		}
	}
	got = n - zs->avail_out;
	return (ssize_t)got;
}

int pack_inflate_head(const struct packed_git *p, const struct pack_entry *e,
		      unsigned char *buf, size_t n)
{
	if (n > e->size || !use_fast_inflate())
		return -1;
	return fast_inflate_head(p->map + e->offset + e->hdr_len, entry_avail(p, e), buf, n);
}

static int cmp_order(const void *a, const void *b)
{
	const struct pack_order *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

struct pack_order *pack_entries_in_pack_order(const struct packed_git *p)
{
	struct pack_order *o = xmalloc(st_mult(p->idx.nr ? p->idx.nr : 1, sizeof(*o)));
	uint32_t i;

	for (i = 0; i < p->idx.nr; i++) {
		o[i].offset = pack_idx_offset(&p->idx, i);
		o[i].pos = i;
	}
	QSORT(o, p->idx.nr, cmp_order);
	return o;
}

static int readahead_mode(void)
{
	static int mode = -1;   /* 0 auto, 1 random, 2 normal */
	if (mode < 0) {
		const char *e = getenv("MINI_GIT_READAHEAD");
		mode = !e ? 0 : !strcmp(e, "random") ? 1 : !strcmp(e, "normal") ? 2 : 0;
	}
	return mode;
}

static void advise(struct packed_git *p, int advice)
{
	if (p->advice == advice)
		return;
	p->advice = advice;
	if (p->idx_state > 0 && p->idx.size > PACK_SMALL_MAP)
		madvise((void *)p->idx.map, p->idx.size, advice == MADV_SEQUENTIAL ? MADV_NORMAL : advice);
	if (p->map && p->map_size > PACK_SMALL_MAP)
		madvise((void *)p->map, p->map_size, advice);
}

void pack_advise_lookup(struct packed_git *p)
{
	int mode = readahead_mode();

	if (mode == 1)
		advise(p, MADV_RANDOM);
	else if (mode == 2)
		advise(p, MADV_NORMAL);
	else if (++p->lookups == PACK_RANDOM_LOOKUPS)
		advise(p, MADV_NORMAL);
}

void pack_advise_walk(struct packed_git *p)
{
	int mode = readahead_mode();
	advise(p, mode == 1 ? MADV_RANDOM : mode == 2 ? MADV_NORMAL : MADV_SEQUENTIAL);
}

/* The delta-base cache: the bases a chain needed, so the next object of
 * the same chain (trees of successive commits, versions of a file) starts
 * from there. A hash on (pack, offset) with least-recently-used eviction,
 * bounded in bytes as git's core.deltaBaseCacheLimit default (96 MiB):
 * objects asked for in id order (cat-file --batch-all-objects) revisit a
 * chain long after its last use, so a cache that forgets by slot
 * collisions re-inflates whole chains. */
#define DBC_LIMIT (96u << 20)

struct dbc_entry {
	struct dbc_entry *hnext;        /* same bucket */
	struct dbc_entry *older, *newer;
	const struct packed_git *p;
	uint64_t offset;
	unsigned char *data;
	size_t size;
	enum object_type type;
};
struct delta_base_cache {
	struct dbc_entry **bucket;
	size_t nbuckets, nr, total;
	struct dbc_entry lru;           /* lru.newer: the oldest; lru.older: the newest */
};

static size_t dbc_hash(const struct delta_base_cache *c, const struct packed_git *p, uint64_t off)
{
	uint64_t h = ((uint64_t)(uintptr_t)p ^ off) * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 32) & (c->nbuckets - 1);
}

static void lru_unlink(struct dbc_entry *e)
{
	e->older->newer = e->newer;
	e->newer->older = e->older;
}

static void lru_push_newest(struct delta_base_cache *c, struct dbc_entry *e)
{
	e->newer = &c->lru;
	e->older = c->lru.older;
	c->lru.older->newer = e;
	c->lru.older = e;
}

static struct dbc_entry *dbc_find(struct delta_base_cache *c, const struct packed_git *p, uint64_t off)
{
	struct dbc_entry *e;
	if (!c || !c->nr)
		return NULL;
	for (e = c->bucket[dbc_hash(c, p, off)]; e; e = e->hnext)
		if (e->p == p && e->offset == off) {
			lru_unlink(e);
			lru_push_newest(c, e);
			return e;
		}
	return NULL;
}

static void dbc_drop(struct delta_base_cache *c, struct dbc_entry *e)
{
	struct dbc_entry **pp = &c->bucket[dbc_hash(c, e->p, e->offset)];
	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	lru_unlink(e);
	c->total -= e->size;
	c->nr--;
	free(e->data);
	free(e);
}

static void dbc_grow(struct delta_base_cache *c)
{
	struct dbc_entry **old = c->bucket;
	size_t n = c->nbuckets;
	c->nbuckets = n ? 2 * n : 1024;
	c->bucket = xcalloc(c->nbuckets, sizeof(*c->bucket));
	for (size_t i = 0; i < n; i++)
		while (old[i]) {
			struct dbc_entry *e = old[i];
			size_t h = dbc_hash(c, e->p, e->offset);
			old[i] = e->hnext;
			e->hnext = c->bucket[h];
			c->bucket[h] = e;
		}
	free(old);
}

/* Takes ownership of data. */
static void dbc_put(struct delta_base_cache *c, const struct packed_git *p, uint64_t off,
		    unsigned char *data, size_t size, enum object_type type)
{
	struct dbc_entry *e;
	size_t h;

	if (!c || size > DBC_LIMIT / 4) {
		free(data);
		return;
	}
	if ((e = dbc_find(c, p, off)))
		dbc_drop(c, e);
	while (c->nr && c->total + size > DBC_LIMIT)
		dbc_drop(c, c->lru.newer);
	if (c->nr >= c->nbuckets)
		dbc_grow(c);
	e = xmalloc(sizeof(*e));
	e->p = p;
	e->offset = off;
	e->data = data;
	e->size = size;
	e->type = type;
	h = dbc_hash(c, p, off);
	e->hnext = c->bucket[h];
	c->bucket[h] = e;
	lru_push_newest(c, e);
	c->total += size;
	c->nr++;
}

void pack_reader_init(struct pack_reader *r, int with_cache)
{
	memset(r, 0, sizeof(*r));
	pack_zstream_init(&r->zs);
	if (with_cache) {
		r->cache = xcalloc(1, sizeof(*r->cache));
		r->cache->lru.older = r->cache->lru.newer = &r->cache->lru;
		dbc_grow(r->cache);
	}
}

void pack_reader_release(struct pack_reader *r)
{
	pack_zstream_end(&r->zs);
	if (r->cache) {
		while (r->cache->nr)
			dbc_drop(r->cache, r->cache->lru.newer);
		free(r->cache->bucket);
		free(r->cache);
	}
	r->cache = NULL;
}

/* A REF_DELTA base in this pack: its offset, or 0. */
static uint64_t ref_base_offset(const struct packed_git *p, const struct object_id *oid)
{
	uint32_t pos;
	uint64_t off;

	if (!pack_idx_lookup(&p->idx, oid->hash, &pos))
		return 0;
	off = pack_idx_offset(&p->idx, pos);
	return off == UINT64_MAX ? 0 : off;
}

#define MAX_CHAIN 100000

/* git's wording: a type that does not exist is named, anything else is a
 * bad header. */
static int report_bad_header(const struct packed_git *p, uint64_t off, const struct pack_entry *e)
{
	if (e->type == OBJ_NONE || e->type == 5)
		return error("unknown object type %d at offset %" PRIu64 " in %s",
			     (int)e->type, off, p->pack_path);
	return error("bad object header at offset %" PRIu64 " in %s", off, p->pack_path);
}

static const char *oid_at(const struct packed_git *p, uint64_t offset, char *hex)
{
	/* For messages only: a linear scan is fine on this path. */
	for (uint32_t i = 0; i < p->idx.nr; i++)
		if (pack_idx_offset(&p->idx, i) == offset) {
			struct object_id oid;
			memcpy(oid.hash, pack_idx_id(&p->idx, i), 20);
			return oid_to_hex_r(hex, &oid);
		}
	return "(unknown)";
}

void *pack_read_object(struct pack_reader *r, const struct packed_git *p, uint64_t offset,
		       enum object_type *type, size_t *size)
{
	struct pack_entry *chain = NULL;
	size_t nr = 0, alloc = 0;
	unsigned char *base = NULL;
	size_t base_size = 0;
	enum object_type base_type = OBJ_BAD;
	uint64_t base_off = 0, cur = offset;
	int base_cached = 0;

	for (;;) {
		struct pack_entry e;
		struct dbc_entry *ce = nr ? dbc_find(r->cache, p, cur) : NULL;

		if (ce) {
			base = ce->data;
			base_size = ce->size;
			base_type = ce->type;
			base_off = cur;
			base_cached = 1;
			break;
		}
		if (pack_entry_header(p, cur, &e) < 0) {
			report_bad_header(p, cur, &e);
			goto fail;
		}
		if (e.type == OBJ_OFS_DELTA || e.type == OBJ_REF_DELTA) {
			if (nr >= MAX_CHAIN) {
				error("delta chain too long at offset %" PRIu64 " in %s", offset, p->pack_path);
				goto fail;
			}
			ALLOC_GROW(chain, nr + 1, alloc);
			chain[nr++] = e;
			if (e.type == OBJ_OFS_DELTA) {
				cur = e.base_offset;
				continue;
			}
			cur = ref_base_offset(p, &e.base_oid);
			if (cur)
				continue;
			if (r->read_external)
				base = r->read_external(&e.base_oid, &base_type, &base_size);
			if (!base) {
				error("failed to validate delta base reference at offset %" PRIu64 " from %s",
				      e.offset + e.hdr_len, p->pack_path);
				goto fail;
			}
			base_off = 0;
			break;
		}
		base = pack_inflate_entry(p, &e, &r->zs);
		if (!base) {
			/* git names only a failing base, not the object itself. */
			char hex[HEX_SZ + 1];
			if (nr)
				error("failed to read delta base object %s at offset %" PRIu64 " from %s",
				      oid_at(p, cur, hex), cur, p->pack_path);
			goto fail;
		}
		base_size = (size_t)e.size;
		base_type = e.type;
		base_off = cur;
		break;
	}

	while (nr) {
		struct pack_entry *e = &chain[--nr];
		unsigned char *delta = pack_inflate_entry(p, e, &r->zs), *res;
		size_t res_size;
		const char *why;

		if (!delta) {
			error("failed to unpack compressed delta at offset %" PRIu64 " from %s",
			      e->offset + e->hdr_len, p->pack_path);
			goto fail;
		}
		res = delta_apply(base, base_size, delta, (size_t)e->size, &res_size, &why);
		free(delta);
		if (!res) {
			if (why)
				error("%s", why);
			error("failed to apply delta");
			goto fail;
		}
		if (!base_cached && base_off)
			dbc_put(r->cache, p, base_off, base, base_size, base_type);
		else if (!base_cached)
			free(base);
		base = res;
		base_size = res_size;
		base_off = e->offset;
		base_cached = 0;
	}
	free(chain);
	if (base_cached) {
		/* The object itself was cached as some chain's base. */
		unsigned char *copy = xmalloc(base_size + 1);
		memcpy(copy, base, base_size);
		copy[base_size] = 0;
		base = copy;
	}
	*type = base_type;
	*size = base_size;
	return base;
fail:
	if (!base_cached)
		free(base);
	free(chain);
	return NULL;
}

int pack_read_header(struct pack_reader *r, const struct packed_git *p, uint64_t offset,
		     enum object_type *type, size_t *size)
{
	struct pack_entry e;
	uint64_t cur = offset;
	size_t depth = 0;
	int have_size = 0;

	for (;;) {
		struct dbc_entry *ce = dbc_find(r->cache, p, cur);
		if (ce) {
			*type = ce->type;
			if (!have_size)
				*size = ce->size;
			return 0;
		}
		if (pack_entry_header(p, cur, &e) < 0)
			return report_bad_header(p, cur, &e);
		if (e.type != OBJ_OFS_DELTA && e.type != OBJ_REF_DELTA) {
			*type = e.type;
			if (!have_size)
				*size = (size_t)e.size;
			return 0;
		}
		if (!have_size) {
			unsigned char hdr[20];
			const unsigned char *q = hdr;
			uint64_t bsz, rsz;
			ssize_t n = pack_inflate_prefix(p, &e, &r->zs, hdr, sizeof(hdr));
			if (n < 0)
				return error("failed to unpack compressed delta at offset %" PRIu64
					     " from %s", e.offset + e.hdr_len, p->pack_path);
			/* An unreadable size is left for the full read to report
			 * ("failed to apply delta"), as git does. */
			if (delta_read_size(&q, hdr + n, &bsz) < 0 ||
			    delta_read_size(&q, hdr + n, &rsz) < 0 || rsz >= SIZE_MAX)
				rsz = 0;
			*size = (size_t)rsz;
			have_size = 1;
		}
		if (++depth > MAX_CHAIN)
			return error("delta chain too long at offset %" PRIu64 " in %s", offset, p->pack_path);
		if (e.type == OBJ_OFS_DELTA) {
			cur = e.base_offset;
		} else {
			/* git wants a REF_DELTA's base in the same pack to tell
			 * the type (thin packs are completed before use). */
			cur = ref_base_offset(p, &e.base_oid);
			if (!cur) {
				size_t dummy;
				return r->header_external ?
				       r->header_external(&e.base_oid, type, &dummy) : -1;
			}
		}
	}
}
