/* pack-walk.c: resolve every object of a pack, each delta base inflated
 * once, delta trees walked from their roots on all threads.
 *
 * Entries live in one array sorted by offset. OFS_DELTA children are found
 * through a CSR table built from the base offsets; REF_DELTA children
 * through an array of (base id, entry) sorted by id, searched each time an
 * object's id becomes known, which is what lets a pack without .idx
 * resolve its REF_DELTAs. An entry is claimed with a compare-and-swap on
 * its state, so an object stored twice still resolves its children once. */
#include "lib/util.h"
#include "lib/cpu.h"
#include "lib/thread-pool.h"
#include "odb/pack-walk.h"
#include "odb/inflate.h"
#include "odb/delta.h"
#include "sha1/object-hash.h"
#include <endian.h>
#include <pthread.h>
#include <sys/mman.h>
#include <zlib.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
#endif

enum { ST_PENDING, ST_CLAIMED, ST_FAILED };

#define BUCKET_SHIFT 16

struct pw_entry {
	uint64_t offset, end;    /* [offset, end): header, base ref, zlib data */
	uint64_t size;           /* from the header (a delta's own size) */
	uint64_t base_off;       /* OFS_DELTA */
	uint32_t crc;
	uint32_t idx_crc;        /* what the index records (v2), else crc */
	uint32_t idx_pos;
	uint32_t tag;            /* opts->tags[idx_pos] */
	uint32_t base_nr;        /* OFS_DELTA: the base's entry number */
	uint16_t hdr_len;        /* header and base reference */
	int8_t type;             /* as stored; OBJ_BAD if unreadable */
	uint8_t state;
	uint8_t crc_done;        /* crc (and idx_crc of a v1 index) computed */
};

struct ref_child {
	struct object_id base;
	uint32_t nr;
};

struct pw_base {
	void *data;
	size_t size;
	enum object_type type;
	struct object_id oid;
	unsigned depth;
	int refs;
};

struct walk {
	const unsigned char *pack;
	size_t len;
	const struct pack_walk_opts *opts;
	struct thread_pool *pool;
	int nthreads;
	struct pw_entry *e;
	uint32_t n;
	uint32_t *child_start, *child;
	struct ref_child *refs;
	uint32_t nr_refs;
	pthread_mutex_t err_lock;
	uint32_t failed;
	struct worker_count *count;  /* per worker: no line shared per object */
	uint64_t data_end;       /* len - 20: where the trailer starts */
	z_stream *zs;            /* one per worker */
	char *zs_ready;
	int no_fast_inflate;     /* MINI_GIT_INFLATE=zlib: zlib only */
	int base_nr_known;       /* OFS_DELTA bases found by the scan tasks */
	size_t e_mapped;         /* e was mapped (bytes), not malloc'ed */
	uint32_t *bucket;        /* idx mode: first entry of each 64 KiB */
	uint32_t nr_buckets;
};

static uint32_t progress_count;

struct worker_count {
	uint32_t resolved, unreported;
	char pad[56];
};

uint32_t pack_walk_progress(void)
{
	return __atomic_load_n(&progress_count, __ATOMIC_RELAXED);
}

/* The entry header at pack[off..len): 0, or -1 if malformed or truncated. */
static int entry_header(const unsigned char *pack, size_t len, uint64_t off,
			enum object_type *type, uint64_t *size, unsigned *hdr_len)
{
	const unsigned char *p, *end = pack + len;
	uint64_t sz;
	unsigned shift = 4;
	unsigned char c;

	if (off >= len)
		return -1;
	p = pack + off;
	c = *p++;
	*type = (c >> 4) & 7;
	sz = c & 15;
	while (c & 0x80) {
		if (p >= end || shift > 60)
			return -1;
		c = *p++;
		sz |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	switch (*type) {
	case OBJ_COMMIT: case OBJ_TREE: case OBJ_BLOB: case OBJ_TAG:
	case OBJ_OFS_DELTA: case OBJ_REF_DELTA:
		break;
	default:
		return -1;
	}
	*size = sz;
	*hdr_len = (unsigned)(p - (pack + off));
	return 0;
}

/* The OFS_DELTA distance varint at p (not past end). */
static int ofs_distance(const unsigned char *p, const unsigned char *end,
			uint64_t *dist, unsigned *used)
{
	const unsigned char *start = p;
	uint64_t v;
	unsigned char c;

	if (p >= end)
		return -1;
	c = *p++;
	v = c & 0x7f;
	while (c & 0x80) {
		if (p >= end || v > (UINT64_MAX >> 7) - 1)
			return -1;
		c = *p++;
		v = ((v + 1) << 7) | (c & 0x7f);
	}
	*dist = v;
	*used = (unsigned)(p - start);
	return 0;
}

/*
 * CRC-32 (zlib's) of pack entries by folding 64 bytes at a time with
 * carry-less multiplication where the CPU has it (zlib's table-driven
 * loop was 5% of fsck): the method of Intel's "Fast CRC Computation for
 * Generic Polynomials Using PCLMULQDQ", for the bit-reflected polynomial
 * 0xEDB88320. The constants are x^k mod P for the fold distances (512 and
 * 128 bits, then 64 and 32) and the Barrett pair (P, floor(x^64 / P)).
 * Takes len >= 64, a multiple of 16, and the register without zlib's
 * inversions.
 */
#if defined(__x86_64__)
__attribute__((target("pclmul,sse4.1")))
static uint32_t crc32_pclmul(uint32_t crc, const unsigned char *p, size_t len)
{
	const __m128i r2r1 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
	const __m128i r4r3 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	const __m128i r5 = _mm_set_epi64x(0, 0x163cd6124);
	const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
	const __m128i poly = _mm_set_epi64x(0x1f7011641, 0x1db710641);
	__m128i x1 = _mm_loadu_si128((const __m128i *)p), x2 = _mm_loadu_si128((const __m128i *)(p + 16));
	__m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32)), x4 = _mm_loadu_si128((const __m128i *)(p + 48));
#define FOLD(x, k, next) _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), next)
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	p += 64;
	len -= 64;
	while (len >= 64) {
		x1 = FOLD(x1, r2r1, _mm_loadu_si128((const __m128i *)p));
		x2 = FOLD(x2, r2r1, _mm_loadu_si128((const __m128i *)(p + 16)));
		x3 = FOLD(x3, r2r1, _mm_loadu_si128((const __m128i *)(p + 32)));
		x4 = FOLD(x4, r2r1, _mm_loadu_si128((const __m128i *)(p + 48)));
		p += 64;
		len -= 64;
	}
	x1 = FOLD(x1, r4r3, x2);
	x1 = FOLD(x1, r4r3, x3);
	x1 = FOLD(x1, r4r3, x4);
	while (len >= 16) {
		x1 = FOLD(x1, r4r3, _mm_loadu_si128((const __m128i *)p));
		p += 16;
		len -= 16;
	}
	x2 = _mm_clmulepi64_si128(r4r3, x1, 0x01);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), r5, 0x00), x2);
	x2 = x1;
	x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);
	x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}
#undef FOLD
#endif

static uint32_t crc32_of(uint32_t crc, const unsigned char *p, size_t len)
{
#if defined(__x86_64__)
	if (len >= 64 && cpu_has(CPU_PCLMUL | CPU_SSE41)) {
		size_t n = len & ~(size_t)15;
		crc = ~crc32_pclmul(~crc, p, n);
		p += n;
		len -= n;
	}
#endif
	return (uint32_t)crc32_z(crc, p, len);
}

/* The CRC32 of an entry's bytes, computed by the thread that resolves it
 * while they are in cache rather than in a pass of its own. */
static uint32_t entry_crc(struct walk *w, struct pw_entry *e)
{
	if (e->crc_done)
		return e->crc;
	e->crc = crc32_of(0, w->pack + e->offset, e->end - e->offset);
	if (w->opts->idx && w->opts->idx->version < 2)
		e->idx_crc = e->crc;
	e->crc_done = 1;
	return e->crc;
}

static void report(struct walk *w, enum pack_walk_error_kind kind, uint32_t nr,
		   const char *detail)
{
	struct pack_walk_error err;

	memset(&err, 0, sizeof(err));
	err.kind = kind;
	err.nr = nr;
	err.idx_pos = PACK_WALK_NO_POS;
	err.detail = detail;
	if (nr < w->n) {
		struct pw_entry *e = &w->e[nr];
		err.offset = e->offset;
		err.idx_pos = e->idx_pos;
		err.packed_len = e->end > e->offset ? e->end - e->offset : 0;
		err.crc = entry_crc(w, e);
		err.idx_crc = e->idx_crc;
		if (e->type == OBJ_REF_DELTA && e->hdr_len >= RAW_SZ &&
		    e->offset + e->hdr_len <= w->len)
			memcpy(err.base.hash, w->pack + e->offset + e->hdr_len - RAW_SZ, RAW_SZ);
		if (e->type == OBJ_OFS_DELTA)
			err.base_offset = e->base_off;
	}
	if (!w->opts->error)
		return;
	pthread_mutex_lock(&w->err_lock);
	w->opts->error(&err, w->opts->data);
	pthread_mutex_unlock(&w->err_lock);
}

/*
 * Inflates exactly size bytes from the zlib stream at [start, limit).
 * Returns a buffer with a NUL after the data, or NULL and *detail. A size
 * beyond zlib's best ratio for the bytes available is refused before any
 * allocation: the header of a damaged entry must not make us ask for
 * gigabytes. *used gets the compressed length consumed.
 */
static void *inflate_exact(z_stream *zs, int fast, const unsigned char *start,
			   uint64_t avail, uint64_t size, const char **detail, uint64_t *used)
{
	unsigned char *out;
	int st;

	*detail = NULL;
	if (size > avail * 1040 + 64 || size >= SIZE_MAX - 1) {
		*detail = "size larger than the data can hold";
		return NULL;
	}
	out = xmalloc(size + 1 + (fast ? FAST_INFLATE_SLACK : 0));
	if (fast) {
		size_t n;
		if (!fast_inflate(start, avail, out, size, &n)) {
			*used = n;
			out[size] = '\0';
			return out;
		}
	}
	/* One stream per worker, reset rather than re-made per object. */
	if (inflateReset(zs) != Z_OK)
		die("unable to reset zlib");
	zs->avail_in = 0;
	zs->next_out = out;
	/* One spare byte of output: a stream longer than size shows up as
	 * output beyond it rather than as a quiet success. */
	zs->avail_out = (uInt)(size + 1 > UINT32_MAX ? UINT32_MAX : size + 1);
	zs->next_in = (unsigned char *)start;
	do {
		uint64_t in_left = avail - (uint64_t)(zs->next_in - start);
		uint64_t out_left = size + 1 - (uint64_t)(zs->next_out - out);
		if (!zs->avail_in)
			zs->avail_in = (uInt)(in_left > (1u << 30) ? (1u << 30) : in_left);
		if (!zs->avail_out)
			zs->avail_out = (uInt)(out_left > (1u << 30) ? (1u << 30) : out_left);
		if (!zs->avail_in || !zs->avail_out) {
			st = Z_BUF_ERROR;
			break;
		}
		st = inflate(zs, Z_FINISH);
	} while (st == Z_OK || (st == Z_BUF_ERROR && zs->avail_in == 0 &&
				(uint64_t)(zs->next_in - start) < avail));
	*used = (uint64_t)(zs->next_in - start);
	if (st != Z_STREAM_END || zs->total_out != size) {
		*detail = zs->msg ? zs->msg : st == Z_STREAM_END ? "size mismatch" : "truncated";
		free(out);
		return NULL;
	}
	out[size] = '\0';
	return out;
}

/*
 * Finds where the zlib stream at start ends without keeping its output.
 * Failures are named as git's reader, whose buffer holds the size the
 * header gives, meets them: a stream with more output than that is
 * "stream longer than its size" whatever follows (git stops there), one
 * that ends short "size mismatch", one that needs bytes past avail
 * "truncated"; a zlib error keeps zlib's message. The room given to zlib
 * stays large: its fast loop runs only with 258 bytes of room or more.
 */
static int inflate_skip(const unsigned char *start, uint64_t avail, uint64_t size,
			const char **detail, uint64_t *used)
{
	unsigned char buf[16384];
	z_stream z;
	int st;

	*detail = NULL;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		die("unable to initialise zlib");
	z.next_in = (unsigned char *)start;
	for (;;) {
		uint64_t in_left = avail - (uint64_t)(z.next_in - start);
		uInt in_before;
		if (!z.avail_in)
			z.avail_in = (uInt)(in_left > (1u << 30) ? (1u << 30) : in_left);
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		in_before = z.avail_in;
		st = inflate(&z, Z_NO_FLUSH);
		if (st == Z_STREAM_END || z.total_out > size || (st != Z_OK && st != Z_BUF_ERROR))
			break;
		if (z.avail_in == in_before && z.avail_out == sizeof(buf)) {
			st = Z_BUF_ERROR;  /* no progress: it wants input */
			break;
		}
	}
	*used = (uint64_t)(z.next_in - start);
	if (st != Z_STREAM_END || z.total_out != size) {
		if (z.total_out > size)
			*detail = "stream longer than its size";
		else if (st == Z_STREAM_END)
			*detail = "size mismatch";
		else if (st != Z_BUF_ERROR)
			*detail = z.msg ? z.msg : "data error";
		else
			*detail = "truncated";
		inflateEnd(&z);
		return -1;
	}
	inflateEnd(&z);
	return 0;
}

/* Reads the base reference after the header; fills hdr_len, base_off. */
static int decode_entry(struct walk *w, struct pw_entry *e, uint64_t limit)
{
	enum object_type type;
	uint64_t size;
	unsigned hl, used;

	if (entry_header(w->pack, limit, e->offset, &type, &size, &hl) < 0)
		return -1;
	e->type = type;
	e->size = size;
	if (type == OBJ_OFS_DELTA) {
		uint64_t dist;
		if (ofs_distance(w->pack + e->offset + hl, w->pack + limit, &dist, &used) < 0 ||
		    !dist || dist > e->offset)
			return -1;
		e->base_off = e->offset - dist;
		hl += used;
	} else if (type == OBJ_REF_DELTA) {
		if (e->offset + hl + RAW_SZ > limit)
			return -1;
		hl += RAW_SZ;
	}
	e->hdr_len = (uint16_t)hl;
	return 0;
}

static int claim(struct pw_entry *e, uint8_t to)
{
	uint8_t want = ST_PENDING;
	return __atomic_compare_exchange_n(&e->state, &want, to, 0,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* An entry failed: so do its OFS_DELTA descendants (REF_DELTA ones stay
 * pending and are reported at the end, their base id being unknown). */
static void fail_entry(struct walk *w, uint32_t nr, enum pack_walk_error_kind kind,
		       const char *detail)
{
	uint32_t *stack = NULL;
	size_t sp = 0, alloc = 0;

	w->e[nr].state = ST_FAILED;
	__atomic_add_fetch(&w->failed, 1, __ATOMIC_RELAXED);
	report(w, kind, nr, detail);
	ALLOC_GROW(stack, sp + 1, alloc);
	stack[sp++] = nr;
	while (sp) {
		uint32_t b = stack[--sp];
		for (uint32_t i = w->child_start[b]; i < w->child_start[b + 1]; i++) {
			uint32_t c = w->child[i];
			if (!claim(&w->e[c], ST_FAILED))
				continue;
			__atomic_add_fetch(&w->failed, 1, __ATOMIC_RELAXED);
			report(w, PACK_WALK_BAD_BASE, c, NULL);
			ALLOC_GROW(stack, sp + 1, alloc);
			stack[sp++] = c;
		}
	}
	free(stack);
}

static void base_put(struct pw_base *b)
{
	if (__atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL))
		return;
	free(b->data);
	free(b);
}

static void deliver(struct walk *w, uint32_t nr, struct pw_base *b,
		    const struct pw_base *parent, int worker)
{
	struct pw_entry *e = &w->e[nr];
	struct pack_walk_object o;
	struct sha1_ctx c;

	hash_object_header(&c, type_name(b->type), b->size);
	sha1_update(&c, b->data, b->size);
	sha1_final(b->oid.hash, &c);
	{
		struct worker_count *wc = &w->count[worker];
		wc->resolved++;
		if (++wc->unreported == 64) {
			__atomic_add_fetch(&progress_count, wc->unreported, __ATOMIC_RELAXED);
			wc->unreported = 0;
		}
	}
	if (parent && w->opts->progress) {
		struct pack_walk_event ev = { .kind = PACK_WALK_DELTA_RESOLVED, .nr = nr };
		w->opts->progress(&ev, w->opts->data);
	}
	if (!w->opts->object)
		return;
	memset(&o, 0, sizeof(o));
	oidcpy(&o.oid, &b->oid);
	o.type = b->type;
	o.data = b->data;
	o.size = b->size;
	o.offset = e->offset;
	o.packed_len = e->end - e->offset;
	o.crc = e->crc;
	o.idx_crc = e->idx_crc;
	o.nr = nr;
	o.idx_pos = e->idx_pos;
	o.tag = e->tag;
	o.in_pack_type = e->type;
	o.depth = b->depth;
	o.base = parent ? &parent->oid : NULL;
	o.worker = worker;
	w->opts->object(&o, w->opts->data);
}

static z_stream *worker_zstream(struct walk *w, int worker)
{
	z_stream *z = &w->zs[worker];
	if (!w->zs_ready[worker]) {
		memset(z, 0, sizeof(*z));
		if (inflateInit(z) != Z_OK)
			die("unable to initialise zlib");
		w->zs_ready[worker] = 1;
	}
	return z;
}

/* Resolves entry nr (claimed by the caller) from base (NULL for a whole
 * object). Returns the new base with one reference, or NULL on failure. */
static struct pw_base *resolve_one(struct walk *w, uint32_t nr, const struct pw_base *base,
				   int worker)
{
	struct pw_entry *e = &w->e[nr];
	const char *detail;
	uint64_t used;
	void *raw;
	struct pw_base *nb;
	z_stream *zs;

	if (w->opts->prefetch)
		w->opts->prefetch(e->tag, w->opts->data);
	entry_crc(w, e);
	zs = worker_zstream(w, worker);
	raw = inflate_exact(zs, !w->no_fast_inflate, w->pack + e->offset + e->hdr_len,
			    e->end - e->offset - e->hdr_len, e->size, &detail, &used);
	if (!raw) {
		fail_entry(w, nr, PACK_WALK_BAD_DATA, detail);
		return NULL;
	}
	nb = xmalloc(sizeof(*nb));
	nb->refs = 1;
	if (!base) {
		nb->data = raw;
		nb->size = e->size;
		nb->type = e->type;
		nb->depth = 0;
	} else {
		const char *why = NULL;
		nb->data = delta_apply(base->data, base->size, raw, e->size, &nb->size, &why);
		free(raw);
		if (!nb->data) {
			free(nb);
			fail_entry(w, nr, PACK_WALK_BAD_DELTA, why);
			return NULL;
		}
		nb->type = base->type;
		nb->depth = base->depth + 1;
	}
	deliver(w, nr, nb, base, worker);
	return nb;
}

struct frame {
	struct pw_base *b;
	uint32_t ci, ce;  /* OFS children left: child[ci..ce) */
	uint32_t ri, re;  /* REF children left: refs[ri..re) */
};

static void ref_range(struct walk *w, const struct object_id *oid, uint32_t *lo_out,
		      uint32_t *hi_out)
{
	uint32_t lo = 0, hi = w->nr_refs;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (oidcmp(&w->refs[mid].base, oid) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*lo_out = lo;
	while (hi < w->nr_refs && oideq(&w->refs[hi].base, oid))
		hi++;
	if (hi < lo)
		hi = lo;
	*hi_out = hi;
}

static void push_frame(struct walk *w, struct frame **st, size_t *sp, size_t *alloc,
		       struct pw_base *b, uint32_t nr)
{
	struct frame *f;

	ALLOC_GROW(*st, *sp + 1, *alloc);
	f = &(*st)[(*sp)++];
	f->b = b;
	if (nr < w->n) {
		f->ci = w->child_start[nr];
		f->ce = w->child_start[nr + 1];
	} else {
		f->ci = f->ce = 0;
	}
	ref_range(w, &b->oid, &f->ri, &f->re);
}

struct child_task {
	struct walk *w;
	struct pw_base *base;
	uint32_t nr;
};

static void descend(struct walk *w, struct pw_base *b, uint32_t nr, int worker);

static void child_task_run(void *arg, int worker)
{
	struct child_task *t = arg;
	struct pw_base *nb = resolve_one(t->w, t->nr, t->base, worker);

	base_put(t->base);
	if (nb)
		descend(t->w, nb, t->nr, worker);
	free(t);
}

/* Next claimable child of f, or UINT32_MAX. */
static uint32_t next_child(struct walk *w, struct frame *f)
{
	while (f->ci < f->ce) {
		uint32_t c = w->child[f->ci++];
		if (claim(&w->e[c], ST_CLAIMED))
			return c;
	}
	while (f->ri < f->re) {
		uint32_t c = w->refs[f->ri++].nr;
		if (claim(&w->e[c], ST_CLAIMED))
			return c;
	}
	return UINT32_MAX;
}

/* Depth first from b (entry nr, or w->n for a base from outside the
 * pack), with an explicit stack: a hostile pack may chain deltas very deep.
 * Consumes the caller's reference to b. */
static void descend(struct walk *w, struct pw_base *b, uint32_t nr, int worker)
{
	struct frame *st = NULL;
	size_t sp = 0, alloc = 0;

	push_frame(w, &st, &sp, &alloc, b, nr);
	while (sp) {
		struct frame *f = &st[sp - 1];
		uint32_t c = next_child(w, f);
		struct pw_base *nb;

		if (c == UINT32_MAX) {
			base_put(f->b);
			sp--;
			continue;
		}
		/* Siblings still to come: give this one to an idle thread. */
		if (w->nthreads > 1 && (f->ci < f->ce || f->ri < f->re) &&
		    thread_pool_pending(w->pool) < (size_t)w->nthreads) {
			struct child_task *t = xmalloc(sizeof(*t));
			t->w = w;
			t->base = f->b;
			t->nr = c;
			__atomic_add_fetch(&f->b->refs, 1, __ATOMIC_ACQ_REL);
			thread_pool_add(w->pool, child_task_run, t);
			continue;
		}
		nb = resolve_one(w, c, f->b, worker);
		if (nb)
			push_frame(w, &st, &sp, &alloc, nb, c);
	}
	free(st);
}

struct range_task {
	struct walk *w;
	uint32_t from, to;
};

static void roots_task_run(void *arg, int worker)
{
	struct range_task *t = arg;
	struct walk *w = t->w;

	for (uint32_t i = t->from; i < t->to; i++) {
		struct pw_entry *e = &w->e[i];
		struct pw_base *b;
		if (e->type == OBJ_OFS_DELTA || e->type == OBJ_REF_DELTA ||
		    e->state != ST_PENDING || !claim(e, ST_CLAIMED))
			continue;
		b = resolve_one(w, i, NULL, worker);
		if (b)
			descend(w, b, i, worker);
	}
	free(t);
}

/*
 * The entry table of a big pack (tens of megabytes), zeroed: mapped with
 * transparent huge pages where the kernel gives them on request, so that
 * filling it takes a few faults instead of one per 4 KiB (on one thread).
 */
static void *entries_alloc(size_t n, size_t *mapped)
{
	size_t bytes = (n ? n : 1) * sizeof(struct pw_entry);
	void *p;

	*mapped = 0;
	if (bytes < (4u << 20))
		return xcalloc(n ? n : 1, sizeof(struct pw_entry));
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return xcalloc(n, sizeof(struct pw_entry));
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	*mapped = bytes;
	return p;
}

static int32_t find_entry_at(struct walk *w, uint64_t off);

/* idx mode, first pass over a slice: the index's CRC and the caller's tag
 * of each entry, headers, and the entry number of
 * each OFS_DELTA base (a search each, so better here on all threads than
 * in link_children()). */
static void scan_task_run(void *arg, int worker UNUSED)
{
	struct range_task *t = arg;
	struct walk *w = t->w;

	const struct pack_idx *idx = w->opts->idx;

	for (uint32_t i = t->from; i < t->to; i++) {
		struct pw_entry *e = &w->e[i];
		/* Scattered reads of the index, here on all threads. */
		if (idx->version >= 2)
			e->idx_crc = pack_idx_crc(idx, e->idx_pos);
		if (w->opts->tags)
			e->tag = w->opts->tags[e->idx_pos];
		if (e->state == ST_FAILED)
			continue;
		if (decode_entry(w, e, e->end) < 0) {
			e->type = OBJ_BAD;
			e->state = ST_FAILED;
		} else if (e->type == OBJ_OFS_DELTA) {
			int32_t b = find_entry_at(w, e->base_off);
			e->base_nr = b < 0 ? UINT32_MAX : (uint32_t)b;
		}
	}
	free(t);
}

struct sum_task {
	struct walk *w;
	struct pack_walk_result *res;
};

static void checksum_task_run(void *arg, int worker UNUSED)
{
	struct sum_task *t = arg;
	struct sha1_ctx c;

	sha1_init(&c);
	sha1_update(&c, t->w->pack, t->w->data_end);
	sha1_final(t->res->checksum, &c);
	t->res->checksum_ok = !memcmp(t->res->checksum, t->w->pack + t->w->data_end, RAW_SZ);
}

static int cmp_entry_offset(const void *a, const void *b)
{
	const struct pw_entry *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int cmp_ref_child(const void *a, const void *b)
{
	const struct ref_child *x = a, *y = b;
	int c = oidcmp(&x->base, &y->base);
	if (c)
		return c;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static int32_t find_entry_at(struct walk *w, uint64_t off)
{
	uint32_t lo = 0, hi = w->n;
	if (w->bucket) {
		uint64_t b = off >> BUCKET_SHIFT;
		if (b >= w->nr_buckets)
			return -1;
		lo = w->bucket[b];
		hi = w->bucket[b + 1];
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (w->e[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->n && w->e[lo].offset == off ? (int32_t)lo : -1;
}

/* Sorts keys (offset << 32 | position, offsets below 4 GiB) by offset:
 * three passes of 11 bits. qsort of the entries was a tenth of the run,
 * on one thread. */
static void radix_sort_offsets(uint64_t *k, uint32_t n)
{
	uint64_t *tmp = xmalloc(((size_t)n + 1) * sizeof(*tmp)), *src = k, *dst = tmp;
	uint32_t *count = xmalloc(2048 * sizeof(*count));

	for (unsigned shift = 32; shift < 64; shift += 11) {
		uint32_t sum = 0;
		memset(count, 0, 2048 * sizeof(*count));
		for (uint32_t i = 0; i < n; i++)
			count[(src[i] >> shift) & 2047]++;
		for (uint32_t d = 0; d < 2048; d++) {
			uint32_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (uint32_t i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & 2047]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, (size_t)n * sizeof(*k));
	free(count);
	free(tmp);
}

/* Entries from the index, sorted by offset; bad offsets fail up front. */
static void entries_from_idx(struct walk *w)
{
	const struct pack_idx *idx = w->opts->idx;
	uint64_t *keys, max = 0;
	uint32_t i;

	w->n = idx->nr;
	w->e = entries_alloc(w->n, &w->e_mapped);
	keys = xmalloc(((size_t)w->n + 1) * sizeof(*keys));
	for (i = 0; i < w->n; i++) {
		uint64_t off = pack_idx_offset(idx, i);
		keys[i] = off;
		if (off > max)
			max = off;
	}
	if (max <= UINT32_MAX) {
		for (i = 0; i < w->n; i++)
			keys[i] = keys[i] << 32 | i;
		radix_sort_offsets(keys, w->n);
		for (i = 0; i < w->n; i++) {
			w->e[i].offset = keys[i] >> 32;
			w->e[i].idx_pos = (uint32_t)keys[i];
		}
	} else {
		for (i = 0; i < w->n; i++) {
			w->e[i].offset = keys[i];
			w->e[i].idx_pos = i;
		}
		QSORT(w->e, w->n, cmp_entry_offset);
	}
	free(keys);
	/* First entry at or after each 64 KiB of the pack, for find_entry_at(). */
	w->nr_buckets = (uint32_t)(w->data_end >> BUCKET_SHIFT) + 1;
	w->bucket = xmalloc(((size_t)w->nr_buckets + 1) * sizeof(*w->bucket));
	for (uint32_t b = 0, k = 0; b <= w->nr_buckets; b++) {
		while (k < w->n && w->e[k].offset < (uint64_t)b << BUCKET_SHIFT)
			k++;
		w->bucket[b] = k;
	}
	for (i = 0; i < w->n; i++) {
		struct pw_entry *e = &w->e[i];
		e->end = i + 1 < w->n ? w->e[i + 1].offset : w->data_end;
		if (e->offset < 12 || e->offset >= w->data_end || e->end <= e->offset ||
		    e->end > w->data_end) {
			e->state = ST_FAILED;
			e->type = OBJ_BAD;
			e->crc_done = 1;  /* never read: reported with a CRC of 0 */
			if (e->end > w->data_end)
				e->end = e->offset;
		}
	}
}

static void entry_read_event(struct walk *w, uint32_t nr, uint64_t off, enum object_type type,
			     unsigned hdr_len, uint64_t end)
{
	struct pack_walk_event ev = {
		.kind = PACK_WALK_ENTRY_READ, .nr = nr, .type = type,
		.hdr_len = hdr_len, .offset = off, .end = end, .checksum_ok = -1,
	};
	w->opts->progress(&ev, w->opts->data);
}

/*
 * The scan stopped at entry i (offset off) for want of bytes before the
 * trailer. git reads a stream with no notion of a trailer until the
 * entries are done, so its count goes on as far as whole entries reach
 * into the last 20 bytes: count them too, for progress only.
 */
static void count_into_trailer(struct walk *w, uint32_t i, uint32_t count, uint64_t off)
{
	struct pw_entry e;

	for (; i < count; i++) {
		const char *detail;
		uint64_t used;

		struct pack_walk_event fail = {
			.kind = PACK_WALK_ENTRY_FAILED, .nr = i, .offset = off,
			.error = PACK_WALK_BAD_HEADER, .checksum_ok = -1,
		};

		memset(&e, 0, sizeof(e));
		e.offset = off;
		if (off >= w->len)
			return;
		if (decode_entry(w, &e, w->len) < 0) {
			w->opts->progress(&fail, w->opts->data);
			return;
		}
		if (inflate_skip(w->pack + off + e.hdr_len, w->len - off - e.hdr_len,
				 e.size, &detail, &used) < 0) {
			fail.error = PACK_WALK_BAD_DATA;
			fail.detail = detail;
			w->opts->progress(&fail, w->opts->data);
			return;
		}
		off += e.hdr_len + used;
		entry_read_event(w, i + 1, e.offset, e.type, e.hdr_len, off);
	}
	struct pack_walk_event ev = {
		.kind = PACK_WALK_ENTRIES_DONE, .end = off, .checksum_ok = -1,
	};
	w->opts->progress(&ev, w->opts->data);
}

/* No index: walk the entries one after the other, inflating each to find
 * where it ends. Returns -1 if the pack ends early. */
static int entries_from_scan(struct walk *w, uint32_t count)
{
	uint64_t off = 12;
	size_t alloc = 0;

	w->n = 0;
	for (uint32_t i = 0; i < count; i++) {
		struct pw_entry *e;
		const char *detail;
		uint64_t used;

		ALLOC_GROW(w->e, w->n + 1, alloc);
		e = &w->e[w->n];
		memset(e, 0, sizeof(*e));
		e->offset = off;
		e->idx_pos = PACK_WALK_NO_POS;
		if (off >= w->data_end || decode_entry(w, e, w->data_end) < 0) {
			e->end = off;
			w->n++;
			report(w, off >= w->data_end ? PACK_WALK_TRUNCATED : PACK_WALK_BAD_HEADER,
			       w->n - 1, NULL);
			if (w->opts->progress)
				count_into_trailer(w, i, count, off);
			return -1;
		}
		if (inflate_skip(w->pack + off + e->hdr_len, w->data_end - off - e->hdr_len,
				 e->size, &detail, &used) < 0) {
			e->end = off;
			w->n++;
			report(w, PACK_WALK_BAD_DATA, w->n - 1, detail);
			if (w->opts->progress)
				count_into_trailer(w, i, count, off);
			return -1;
		}
		e->end = off + e->hdr_len + used;
		if (w->opts->progress)
			entry_read_event(w, w->n + 1, off, e->type, e->hdr_len, e->end);
		e->crc = crc32_of(0, w->pack + e->offset, e->end - e->offset);
		e->idx_crc = e->crc;
		e->crc_done = 1;
		off = e->end;
		w->n++;
	}
	return 0;
}

static void link_children(struct walk *w)
{
	uint32_t nr_ofs = 0, i;

	w->child_start = xcalloc((size_t)w->n + 2, sizeof(uint32_t));
	for (i = 0; i < w->n; i++) {
		struct pw_entry *e = &w->e[i];
		int32_t b;
		if (e->state == ST_FAILED)
			continue;
		if (e->type == OBJ_OFS_DELTA) {
			if (!w->base_nr_known) {
				b = find_entry_at(w, e->base_off);
				e->base_nr = b < 0 ? UINT32_MAX : (uint32_t)b;
			}
			if (e->base_nr == UINT32_MAX)
				continue;
			b = (int32_t)e->base_nr;
			w->child_start[b + 1]++;
			nr_ofs++;
		} else if (e->type == OBJ_REF_DELTA) {
			w->nr_refs++;
		}
	}
	for (i = 0; i < w->n; i++)
		w->child_start[i + 1] += w->child_start[i];
	w->child = xmalloc(((size_t)nr_ofs + 1) * sizeof(uint32_t));
	w->refs = xmalloc(((size_t)w->nr_refs + 1) * sizeof(*w->refs));
	{
		uint32_t *fill = xmalloc(((size_t)w->n + 1) * sizeof(uint32_t));
		uint32_t r = 0;
		memcpy(fill, w->child_start, (size_t)w->n * sizeof(uint32_t));
		for (i = 0; i < w->n; i++) {
			struct pw_entry *e = &w->e[i];
			if (e->state == ST_FAILED)
				continue;
			if (e->type == OBJ_OFS_DELTA && e->base_nr != UINT32_MAX)
				w->child[fill[e->base_nr]++] = i;
			else if (e->type == OBJ_REF_DELTA) {
				memcpy(w->refs[r].base.hash,
				       w->pack + e->offset + e->hdr_len - RAW_SZ, RAW_SZ);
				w->refs[r++].nr = i;
			}
		}
		free(fill);
	}
	QSORT(w->refs, w->nr_refs, cmp_ref_child);
}

struct external_task {
	struct walk *w;
	struct pw_base *base;
};

static void external_task_run(void *arg, int worker)
{
	struct external_task *t = arg;
	descend(t->w, t->base, t->w->n, worker);
	free(t);
}

/* Bases from outside the pack (thin packs), one id at a time. */
static void resolve_external(struct walk *w)
{
	struct external_task *t;
	uint32_t i = 0;

	while (i < w->nr_refs) {
		uint32_t j = i;
		struct pw_base *b;
		enum object_type type;
		size_t size;
		void *data;
		int any = 0;

		while (j < w->nr_refs && oideq(&w->refs[j].base, &w->refs[i].base)) {
			any |= w->e[w->refs[j].nr].state == ST_PENDING;
			j++;
		}
		if (!any) {
			i = j;
			continue;
		}
		data = w->opts->external_base(&w->refs[i].base, &type, &size, w->opts->data);
		if (data) {
			b = xmalloc(sizeof(*b));
			b->data = data;
			b->size = size;
			b->type = type;
			b->depth = 0;
			b->refs = 1;
			oidcpy(&b->oid, &w->refs[i].base);
			/* On a worker, so per-worker state is never shared. */
			t = xmalloc(sizeof(*t));
			t->w = w;
			t->base = b;
			thread_pool_add(w->pool, external_task_run, t);
			thread_pool_wait(w->pool);
		}
		i = j;
	}
}

int pack_walk(const void *pack, size_t len, const struct pack_walk_opts *opts,
	      struct pack_walk_result *res_out)
{
	struct pack_walk_result res_local, *res = res_out ? res_out : &res_local;
	struct walk w;
	struct sum_task sum;
	const unsigned char *p = pack;
	uint32_t count, i, step;
	int ret = 0, own_pool = 0;

	memset(res, 0, sizeof(*res));
	memset(&w, 0, sizeof(w));
	w.pack = pack;
	w.len = len;
	w.opts = opts;
	pthread_mutex_init(&w.err_lock, NULL);
	if (len < 32 || memcmp(p, "PACK", 4) ||
	    (get_be32(p + 4) != 2 && get_be32(p + 4) != 3)) {
		report(&w, PACK_WALK_BAD_PACK, UINT32_MAX, len < 32 ? "too short" :
		       memcmp(p, "PACK", 4) ? "bad signature" : "unsupported version");
		pthread_mutex_destroy(&w.err_lock);
		return -1;
	}
	count = get_be32(p + 8);
	res->nr_objects = count;
	w.data_end = len - RAW_SZ;
	w.pool = opts->pool;
	if (!w.pool) {
		w.pool = thread_pool_new(opts->threads);
		own_pool = 1;
	}
	w.nthreads = thread_pool_threads(w.pool);
	w.zs = xcalloc(w.nthreads, sizeof(*w.zs));
	w.zs_ready = xcalloc(w.nthreads, 1);
	w.count = xcalloc(w.nthreads, sizeof(*w.count));
	w.no_fast_inflate = fast_inflate_disabled();

	if (opts->verify_checksum) {
		sum.w = &w;
		sum.res = res;
		thread_pool_add(w.pool, checksum_task_run, &sum);
	}
	if (opts->idx) {
		entries_from_idx(&w);
		step = w.n / (uint32_t)(w.nthreads * 8) + 1;
		for (i = 0; i < w.n; i += step) {
			struct range_task *t = xmalloc(sizeof(*t));
			t->w = &w;
			t->from = i;
			t->to = w.n - i < step ? w.n : i + step;
			thread_pool_add(w.pool, scan_task_run, t);
		}
		thread_pool_wait(w.pool);
		w.base_nr_known = 1;
		for (i = 0; i < w.n; i++)
			if (w.e[i].state == ST_FAILED) {
				w.failed++;
				report(&w, w.e[i].type == OBJ_BAD && w.e[i].end <= w.e[i].offset ?
				       PACK_WALK_BAD_OFFSET : PACK_WALK_BAD_HEADER, i, NULL);
			}
	} else if (entries_from_scan(&w, count) < 0) {
		ret = -1;
		goto out;
	}
	res->nr_entries = w.n;
	res->entries_end = w.n ? w.e[w.n - 1].end : 12;
	if (opts->progress) {
		struct pack_walk_event ev = {
			.kind = PACK_WALK_ENTRIES_DONE, .end = res->entries_end, .checksum_ok = -1,
		};
		for (i = 0; i < w.n; i++)
			ev.nr += w.e[i].type == OBJ_OFS_DELTA || w.e[i].type == OBJ_REF_DELTA;
		/* A trailer that does not match is reported before any delta
		 * is resolved: the checksum was computed beside the scan. */
		if (!opts->idx && opts->verify_checksum) {
			thread_pool_wait(w.pool);
			ev.checksum_ok = res->checksum_ok;
		}
		opts->progress(&ev, opts->data);
	}
	link_children(&w);

	/* Roots in slices of about 64, in pack order, so each thread reads
	 * its part of the pack sequentially. */
	for (i = 0; i < w.n; i += 64) {
		struct range_task *t = xmalloc(sizeof(*t));
		t->w = &w;
		t->from = i;
		t->to = w.n - i < 64 ? w.n : i + 64;
		thread_pool_add(w.pool, roots_task_run, t);
	}
	thread_pool_wait(w.pool);
	if (opts->external_base)
		resolve_external(&w);

	for (i = 0; i < w.n; i++) {
		struct pw_entry *e = &w.e[i];
		if (e->state != ST_PENDING)
			continue;
		e->state = ST_FAILED;
		w.failed++;
		if (e->type == OBJ_REF_DELTA)
			report(&w, PACK_WALK_MISSING_BASE, i, NULL);
		else if (e->base_nr == UINT32_MAX)
			report(&w, PACK_WALK_MISSING_BASE, i, NULL);
		else
			report(&w, PACK_WALK_BAD_BASE, i, NULL);
	}
	ret = w.failed ? 1 : 0;
out:
	thread_pool_wait(w.pool);
	if (opts->verify_checksum && !res->checksum_ok && ret == 0)
		ret = 1;
	for (i = 0; i < (uint32_t)w.nthreads; i++) {
		res->nr_resolved += w.count[i].resolved;
		__atomic_add_fetch(&progress_count, w.count[i].unreported, __ATOMIC_RELAXED);
	}
	res->nr_failed = w.failed;
	if (own_pool)
		thread_pool_free(w.pool);
	for (i = 0; i < (uint32_t)w.nthreads; i++)
		if (w.zs_ready[i])
			inflateEnd(&w.zs[i]);
	free(w.count);
	free(w.zs);
	free(w.zs_ready);
	if (w.e_mapped)
		munmap(w.e, w.e_mapped);
	else
		free(w.e);
	free(w.bucket);
	free(w.child_start);
	free(w.child);
	free(w.refs);
	pthread_mutex_destroy(&w.err_lock);
	return ret;
}
