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
#include "lib/thread-pool.h"
#include "odb/pack-walk.h"
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
	struct inflater **inf;   /* one per worker */
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
	static int clmul = -1;
	int have = __atomic_load_n(&clmul, __ATOMIC_RELAXED);
	if (have < 0) {
		have = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
		__atomic_store_n(&clmul, have, __ATOMIC_RELAXED);
	}
	if (have && len >= 64) {
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
 * A decoder for the zlib streams of pack entries, tried before zlib.
 * Most entries are a few hundred bytes, where zlib spends more time in
 * its state machine and in building Huffman tables than in decoding. This
 * one decodes a whole stream in one loop into a buffer of the known size.
 * It is strict: it accepts a stream only when zlib would accept it with
 * the same result (header, code sets zlib refuses, distances before the
 * start, the exact size, the Adler-32 trailer), and gives up on anything
 * else, so that zlib then runs and says what is wrong in its own words.
 */
enum { K_LIT, K_LEN, K_EOB, K_SUB, K_BAD };

/* Scratch room past the end of the output: a match may be written there
 * before the size check, and copies go 8 bytes at a time. */
#define INFLATE_SLACK PACK_WALK_INFLATE_SLACK  /* 258 + 8 */

struct hcode {
	uint16_t val;    /* literal, length or distance base, subtable start */
	uint8_t len;     /* bits to consume (subtable link: the primary bits) */
	uint8_t kx;      /* kind << 5 | extra bits (subtable link: its bits) */
};

#define LIT_BITS 10
#define DIST_BITS 8
#define CL_BITS 7
#define LIT_TABLE ((1 << LIT_BITS) + 288 * (1 << (15 - LIT_BITS)))
#define DIST_TABLE ((1 << DIST_BITS) + 32 * (1 << (15 - DIST_BITS)))

struct inflater {
	struct hcode lit[LIT_TABLE], dist[DIST_TABLE], cl[1 << CL_BITS];
};

static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

enum table_kind { T_CODES, T_LIT, T_DIST };

/* The entry of each symbol, by table kind; filled once with the fixed
 * tables. */
static struct hcode sym_entry[3][288];
static uint8_t rev8[256];

static struct hcode sym_code(enum table_kind k, unsigned sym)
{
	struct hcode c = { 0, 0, K_BAD << 5 };
	if (k == T_CODES || (k == T_LIT && sym < 256)) {
		c.val = (uint16_t)sym;
		c.kx = K_LIT << 5;
	} else if (k == T_LIT && sym == 256) {
		c.kx = K_EOB << 5;
	} else if (k == T_LIT && sym < 286) {
		c.val = len_base[sym - 257];
		c.kx = K_LEN << 5 | len_extra[sym - 257];
	} else if (k == T_DIST && sym < 30) {
		c.val = dist_base[sym];
		c.kx = K_LEN << 5 | dist_extra[sym];
	}
	return c;
}

static inline unsigned reverse_bits(unsigned code, unsigned len)
{
	return (unsigned)(rev8[code & 0xff] << 8 | rev8[code >> 8]) >> (16 - len);
}

/*
 * Counts the symbols of each code length and lists those of non-zero
 * length ordered by (length, symbol), the order of canonical codes.
 * A table is built per block of a few hundred bytes, so this matters: with
 * SSE2, one comparison finds the symbols of non-zero length among 16 (most
 * of a literal set, in a small stream, are zero), and only those are
 * counted and placed; otherwise four quarters of the symbols
 * are counted and placed at once, each with its own counters (with one
 * set, each increment waits for the previous one through memory).
 */
static const uint16_t *sort_by_length(const uint8_t *lens, unsigned n, unsigned count[16],
				      uint16_t sorted[288])
{
#if defined(__SSE2__)
	uint8_t pl[288] __attribute__((aligned(16)));
	uint16_t nz[288];
	unsigned offs[16], k = 0, l;
	const __m128i zero = _mm_setzero_si128();

	memcpy(pl, lens, n);
	memset(pl + n, 0, sizeof(pl) - n);
	for (unsigned v = 0; v < (n + 15) / 16; v++) {
		__m128i d = _mm_load_si128((const __m128i *)(pl + 16 * v));
		uint32_t bm = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(d, zero)) & 0xffff;
		for (; bm; bm &= bm - 1)
			nz[k++] = (uint16_t)(16 * v + __builtin_ctz(bm));
	}
	memset(count, 0, 16 * sizeof(*count));
	for (unsigned j = 0; j < k; j++)
		count[pl[nz[j]]]++;
	count[0] = n - k;
	offs[1] = 0;
	for (l = 1; l < 15; l++)
		offs[l + 1] = offs[l] + count[l];
	for (unsigned j = 0; j < k; j++)
		sorted[offs[pl[nz[j]]]++] = nz[j];
	return sorted;
#else
	unsigned cq[4][16] = { { 0 } }, offs[16], qs = (n + 3) / 4, j, q, l;
	uint8_t pl[288];  /* lens padded with zeros to four equal parts */

	memcpy(pl, lens, n);
	memset(pl + n, 0, 4 * qs - n);
	for (j = 0; j < qs; j++) {
		cq[0][pl[j]]++;
		cq[1][pl[qs + j]]++;
		cq[2][pl[2 * qs + j]]++;
		cq[3][pl[3 * qs + j]]++;
	}
	for (l = 0; l < 16; l++)
		count[l] = cq[0][l] + cq[1][l] + cq[2][l] + cq[3][l];
	offs[0] = 0;
	for (l = 0; l < 15; l++)
		offs[l + 1] = offs[l] + count[l];
	for (l = 0; l < 16; l++) {
		unsigned o = offs[l];
		for (q = 0; q < 4; q++) {
			unsigned c = cq[q][l];
			cq[q][l] = o;
			o += c;
		}
	}
	for (j = 0; j < qs; j++) {
		sorted[cq[0][pl[j]]++] = (uint16_t)j;
		sorted[cq[1][pl[qs + j]]++] = (uint16_t)(qs + j);
		sorted[cq[2][pl[2 * qs + j]]++] = (uint16_t)(2 * qs + j);
		sorted[cq[3][pl[3 * qs + j]]++] = (uint16_t)(3 * qs + j);
	}
	return sorted + count[0];
#endif
}

/*
 * Canonical Huffman decoding table for lens[0..n): a primary table of
 * 2^bits entries, codes longer than that through subtables. Refuses the
 * sets zlib refuses: over-subscribed, or incomplete unless it is a single
 * one-bit code of a literal or distance set (or no code at all there).
 * The primary table is built by doubling: after the codes of length l are
 * placed in the first 2^l entries, those are copied once to make 2^(l+1),
 * which is what repeating each short code through the table amounts to.
 */
static int build_table(struct hcode *t, unsigned bits, const uint8_t *lens, unsigned n,
		       enum table_kind kind)
{
	unsigned count[16], max = 0, sub_bits, next, size;
	uint16_t sorted_buf[288];
	const uint16_t *sorted;
	const struct hcode *se = sym_entry[kind];
	int left = 1;
	unsigned code, prefix = UINT32_MAX, sub = 0, i, l;
	struct hcode bad = { 0, 0, K_BAD << 5 };

	sorted = sort_by_length(lens, n, count, sorted_buf);
	for (l = 1; l <= 15; l++) {
		if (count[l])
			max = l;
		left <<= 1;
		left -= (int)count[l];
		if (left < 0)
			return -1;
	}
	if (!max || left > 0) {
		if (kind == T_CODES || max > 1)
			return -1;
		if (!max) {
			for (i = 0; i < (1u << bits); i++)
				t[i] = bad;
			return 0;
		}
	}
	t[0] = t[1] = bad;
	size = 2;
	code = 0;        /* canonical code of the next symbol, l bits */
	i = 0;
	for (l = 1; l <= bits; l++) {
		if (l > 1) {
			memcpy(t + size, t, size * sizeof(*t));
			size *= 2;
		}
		for (unsigned k = 0; k < count[l]; k++, i++, code++) {
			struct hcode e = se[sorted[i]];
			e.len = (uint8_t)l;
			t[reverse_bits(code, l)] = e;
		}
		code <<= 1;
	}
	if (max <= bits)
		return 0;
	sub_bits = max - bits;
	next = 1u << bits;
	for (; l <= max; l++) {
		for (unsigned k = 0; k < count[l]; k++, i++, code++) {
			struct hcode e = se[sorted[i]];
			unsigned r = reverse_bits(code, l), p = r & ((1u << bits) - 1);
			e.len = (uint8_t)l;
			/* Codes of one prefix are consecutive in canonical order. */
			if (p != prefix) {
				prefix = p;
				sub = next;
				next += 1u << sub_bits;
				t[p].val = (uint16_t)sub;
				t[p].len = (uint8_t)bits;
				t[p].kx = (uint8_t)(K_SUB << 5 | sub_bits);
			}
			for (unsigned x = r >> bits; x < (1u << sub_bits); x += 1u << (l - bits))
				t[sub + x] = e;
		}
		code <<= 1;
	}
	return 0;
}

static struct inflater fixed_tables;
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void build_fixed(void)
{
	uint8_t l[288];
	unsigned i;

	for (i = 0; i < 256; i++) {
		unsigned r = 0;
		for (unsigned b = 0; b < 8; b++)
			r |= ((i >> b) & 1) << (7 - b);
		rev8[i] = (uint8_t)r;
	}
	for (int k = T_CODES; k <= T_DIST; k++)
		for (i = 0; i < 288; i++)
			sym_entry[k][i] = sym_code(k, i);
	for (i = 0; i < 144; i++)
		l[i] = 8;
	for (; i < 256; i++)
		l[i] = 9;
	for (; i < 280; i++)
		l[i] = 7;
	for (; i < 288; i++)
		l[i] = 8;
	if (build_table(fixed_tables.lit, LIT_BITS, l, 288, T_LIT))
		die("BUG: fixed literal table");
	for (i = 0; i < 32; i++)
		l[i] = 5;
	if (build_table(fixed_tables.dist, DIST_BITS, l, 32, T_DIST))
		die("BUG: fixed distance table");
}

struct bits {
	const unsigned char *in, *end;
	uint64_t bb;
	unsigned bc;
};

static inline void refill(struct bits *s)
{
	if (s->end - s->in >= 8) {
		uint64_t v;
		memcpy(&v, s->in, 8);
		s->bb |= le64toh(v) << s->bc;
		s->in += (63 - s->bc) >> 3;
		s->bc |= 56;
	} else {
		while (s->bc <= 56 && s->in < s->end) {
			s->bb |= (uint64_t)*s->in++ << s->bc;
			s->bc += 8;
		}
	}
}

static inline int take(struct bits *s, unsigned n, unsigned *v)
{
	if (s->bc < n)
		return -1;
	*v = (unsigned)(s->bb & ((1ull << n) - 1));
	s->bb >>= n;
	s->bc -= n;
	return 0;
}

static inline int decode(struct bits *s, const struct hcode *t, unsigned bits, struct hcode *out)
{
	struct hcode e = t[s->bb & ((1u << bits) - 1)];
	if (e.kx >> 5 == K_SUB)
		e = t[e.val + ((s->bb >> bits) & ((1u << (e.kx & 31)) - 1))];
	if (e.kx >> 5 == K_BAD || s->bc < e.len)
		return -1;
	s->bb >>= e.len;
	s->bc -= e.len;
	*out = e;
	return 0;
}

static int dynamic_tables(struct bits *s, struct inflater *f)
{
	static const uint8_t order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	uint8_t lens[288 + 32], cl[19] = { 0 };
	unsigned nlen, ndist, ncl, v, i;

	refill(s);
	if (take(s, 5, &nlen) || take(s, 5, &ndist) || take(s, 4, &ncl))
		return -1;
	nlen += 257;
	ndist += 1;
	ncl += 4;
	if (nlen > 286 || ndist > 30)
		return -1;
	for (i = 0; i < ncl; i++) {
		refill(s);
		if (take(s, 3, &v))
			return -1;
		cl[order[i]] = (uint8_t)v;
	}
	if (build_table(f->cl, CL_BITS, cl, 19, T_CODES))
		return -1;
	for (i = 0; i < nlen + ndist;) {
		/* The code length code has no subtables (7 bits at most). */
		struct hcode e;
		unsigned rep, val = 0;
		refill(s);
		e = f->cl[s->bb & ((1u << CL_BITS) - 1)];
		if (e.kx >> 5 == K_BAD || s->bc < e.len)
			return -1;
		s->bb >>= e.len;
		s->bc -= e.len;
		if (e.val < 16) {
			lens[i++] = (uint8_t)e.val;
			continue;
		}
		if (e.val == 16) {
			if (!i || take(s, 2, &rep))
				return -1;
			rep += 3;
			val = lens[i - 1];
		} else if (e.val == 17) {
			if (take(s, 3, &rep))
				return -1;
			rep += 3;
		} else {
			if (take(s, 7, &rep))
				return -1;
			rep += 11;
		}
		if (i + rep > nlen + ndist)
			return -1;
		memset(lens + i, (int)val, rep);
		i += rep;
	}
	if (!lens[256])
		return -1;
	if (build_table(f->lit, LIT_BITS, lens, nlen, T_LIT) ||
	    build_table(f->dist, DIST_BITS, lens + nlen, ndist, T_DIST))
		return -1;
	return 0;
}

/*
 * Adler-32 of the decoded data, 32 bytes a step with AVX2 where the CPU
 * has it (zlib's portable loop was 4% of fsck). Per run of at most 173
 * steps, so that no 32-bit lane can overflow before the reduction:
 * s1 gains the byte sums; s2 gains 32 * (s1 before each step) plus the
 * bytes weighted 32..1 by their distance from the end of the step.
 */
#define ADLER_BASE 65521u
#if defined(__x86_64__)
__attribute__((target("avx2")))
static uint32_t adler32_avx2(uint32_t adler, const unsigned char *p, size_t n)
{
	uint64_t s1 = adler & 0xffff, s2 = adler >> 16;
	const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi16(1);
	const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23,
		22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);

	while (n >= 32) {
		size_t steps = n / 32 > 173 ? 173 : n / 32;
		__m256i vs1 = zero, vs2 = zero, vprev = zero;
		uint32_t lanes[8];
		uint64_t a = 0, b = 0, c = 0;

		n -= steps * 32;
		s2 += s1 * 32 * steps;
		while (steps--) {
			__m256i d = _mm256_loadu_si256((const __m256i *)p);
			p += 32;
			vprev = _mm256_add_epi32(vprev, vs1);
			vs1 = _mm256_add_epi32(vs1, _mm256_sad_epu8(d, zero));
			vs2 = _mm256_add_epi32(vs2, _mm256_madd_epi16(_mm256_maddubs_epi16(d, weights), ones));
		}
		_mm256_storeu_si256((__m256i *)lanes, vs1);
		for (int i = 0; i < 8; i++)
			a += lanes[i];
		_mm256_storeu_si256((__m256i *)lanes, vprev);
		for (int i = 0; i < 8; i++)
			b += lanes[i];
		_mm256_storeu_si256((__m256i *)lanes, vs2);
		for (int i = 0; i < 8; i++)
			c += lanes[i];
		s2 = (s2 + 32 * b + c) % ADLER_BASE;
		s1 = (s1 + a) % ADLER_BASE;
	}
	while (n--) {
		s1 += *p++;
		s2 += s1;
	}
	return (uint32_t)((s2 % ADLER_BASE) << 16 | (s1 % ADLER_BASE));
}
#endif

static uint32_t adler32_of(const unsigned char *p, size_t n)
{
#if defined(__x86_64__)
	static int avx2 = -1;
	int have = __atomic_load_n(&avx2, __ATOMIC_RELAXED);
	if (have < 0) {
		have = __builtin_cpu_supports("avx2") ? 1 : 0;
		__atomic_store_n(&avx2, have, __ATOMIC_RELAXED);
	}
	if (have)
		return adler32_avx2(1, p, n);
#endif
	return (uint32_t)adler32_z(1, p, n);
}

/* Decodes the zlib stream at [in, in + avail) into exactly size bytes at
 * out, which has room for INFLATE_SLACK bytes more (scratch). Returns 0,
 * or -1 when zlib should be asked instead. */
static int fast_inflate(struct inflater *f, const unsigned char *in, uint64_t avail,
			unsigned char *out, uint64_t size, uint64_t *used)
{
	struct bits s;
	unsigned char *o = out, *oend = out + size, *cap = oend + INFLATE_SLACK;
	unsigned final, type, v;
	const unsigned char *p;

	if (avail < 6 || (in[0] & 15) != 8 || (in[0] >> 4) > 7 || (in[1] & 0x20) ||
	    ((unsigned)in[0] << 8 | in[1]) % 31)
		return -1;
	s.in = in + 2;
	s.end = in + avail;
	s.bb = 0;
	s.bc = 0;
	pthread_once(&fixed_once, build_fixed);
	do {
		const struct hcode *lit, *dist;
		refill(&s);
		if (take(&s, 1, &final) || take(&s, 2, &type))
			return -1;
		if (type == 0) {
			unsigned n, nn;
			s.bb >>= s.bc & 7;
			s.bc &= ~7u;
			refill(&s);
			if (take(&s, 16, &n) || take(&s, 16, &nn) || n != (~nn & 0xffff))
				return -1;
			p = s.in - s.bc / 8;
			if ((uint64_t)(s.end - p) < n || (uint64_t)(oend - o) < n)
				return -1;
			memcpy(o, p, n);
			o += n;
			s.in = p + n;
			s.bb = 0;
			s.bc = 0;
			continue;
		}
		if (type == 1) {
			lit = fixed_tables.lit;
			dist = fixed_tables.dist;
		} else if (type == 2) {
			if (dynamic_tables(&s, f))
				return -1;
			lit = f->lit;
			dist = f->dist;
		} else {
			return -1;
		}
		/*
		 * While at least 8 input bytes and room for a longest match
		 * (with 8 bytes to spare, in the slack past the end if need
		 * be: overshooting the size fails below) remain: one refill
		 * per symbol gives the 48 bits a length and distance can need,
		 * and matches are copied 8 bytes at a time.
		 */
		while (s.end - s.in >= 8 && cap - o >= 258 + 8) {
			struct hcode e, d;
			unsigned len, dd, k;
			uint64_t v;
			memcpy(&v, s.in, 8);
			s.bb |= le64toh(v) << s.bc;
			s.in += (63 - s.bc) >> 3;
			s.bc |= 56;
			e = lit[s.bb & ((1u << LIT_BITS) - 1)];
			if (e.kx >> 5 == K_SUB)
				e = lit[e.val + ((s.bb >> LIT_BITS) & ((1u << (e.kx & 31)) - 1))];
			k = e.kx >> 5;
			s.bb >>= e.len;
			s.bc -= e.len;
			if (k == K_LIT) {
				*o++ = (unsigned char)e.val;
				continue;
			}
			if (k != K_LEN) {
				if (k == K_EOB)
					goto block_done;
				return -1;
			}
			len = e.val + (unsigned)(s.bb & ((1u << (e.kx & 31)) - 1));
			s.bb >>= e.kx & 31;
			s.bc -= e.kx & 31;
			d = dist[s.bb & ((1u << DIST_BITS) - 1)];
			if (d.kx >> 5 == K_SUB)
				d = dist[d.val + ((s.bb >> DIST_BITS) & ((1u << (d.kx & 31)) - 1))];
			if (d.kx >> 5 == K_BAD)
				return -1;
			s.bb >>= d.len;
			s.bc -= d.len;
			dd = d.val + (unsigned)(s.bb & ((1u << (d.kx & 31)) - 1));
			s.bb >>= d.kx & 31;
			s.bc -= d.kx & 31;
			if (dd > (size_t)(o - out))
				return -1;
			{
				const unsigned char *from = o - dd;
				unsigned char *to = o;
				o += len;
				if (dd >= 8) {
					do {
						memcpy(to, from, 8);
						to += 8;
						from += 8;
					} while (to < o);
				} else if (dd == 1) {
					memset(to, *from, len);
				} else {
					while (to < o)
						*to++ = *from++;
				}
			}
		}
		if (o > oend)
			return -1;
		for (;;) {
			struct hcode e, d;
			unsigned len, x, dd;
			refill(&s);
			if (decode(&s, lit, LIT_BITS, &e))
				return -1;
			if (e.kx >> 5 == K_LIT) {
				if (o == oend)
					return -1;
				*o++ = (unsigned char)e.val;
				continue;
			}
			if (e.kx >> 5 == K_EOB)
				break;
			if (take(&s, e.kx & 31, &x))
				return -1;
			len = e.val + x;
			if (decode(&s, dist, DIST_BITS, &d) || take(&s, d.kx & 31, &x))
				return -1;
			dd = d.val + x;
			if (dd > (size_t)(o - out) || len > (size_t)(oend - o))
				return -1;
			{
				const unsigned char *from = o - dd;
				if (dd >= len) {
					memcpy(o, from, len);
					o += len;
				} else {
					while (len--)
						*o++ = *from++;
				}
			}
		}
block_done:
		if (o > oend)
			return -1;
	} while (!final);
	if (o != oend)
		return -1;
	s.bb >>= s.bc & 7;
	s.bc &= ~7u;
	p = s.in - s.bc / 8;
	if (s.end - p < 4)
		return -1;
	v = get_be32(p);
	if (v != adler32_of(out, size))
		return -1;
	*used = (uint64_t)(p + 4 - in);
	return 0;
}

int pack_walk_inflate(const void *in, size_t avail, void *out, size_t size)
{
	struct inflater *f = xmalloc(sizeof(*f));
	uint64_t used;
	int r = fast_inflate(f, in, avail, out, size, &used);
	free(f);
	return r;
}

/*
 * Inflates exactly size bytes from the zlib stream at [start, limit).
 * Returns a buffer with a NUL after the data, or NULL and *detail. A size
 * beyond zlib's best ratio for the bytes available is refused before any
 * allocation: the header of a damaged entry must not make us ask for
 * gigabytes. *used gets the compressed length consumed.
 */
static void *inflate_exact(z_stream *zs, struct inflater *fi, const unsigned char *start,
			   uint64_t avail, uint64_t size, const char **detail, uint64_t *used)
{
	unsigned char *out;
	int st;

	*detail = NULL;
	if (size > avail * 1040 + 64 || size >= SIZE_MAX - 1) {
		*detail = "size larger than the data can hold";
		return NULL;
	}
	out = xmalloc(size + 1 + (fi ? INFLATE_SLACK : 0));
	if (fi && !fast_inflate(fi, start, avail, out, size, used)) {
		out[size] = '\0';
		return out;
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

/* Finds where the zlib stream at start ends without keeping its output. */
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
		if (!z.avail_in)
			z.avail_in = (uInt)(in_left > (1u << 30) ? (1u << 30) : in_left);
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		st = inflate(&z, Z_NO_FLUSH);
		if (st == Z_STREAM_END)
			break;
		if (st != Z_OK || (!z.avail_in && z.avail_out) || z.total_out > size) {
			if (st == Z_OK || st == Z_BUF_ERROR)
				st = Z_BUF_ERROR;
			break;
		}
	}
	*used = (uint64_t)(z.next_in - start);
	if (st != Z_STREAM_END || z.total_out != size) {
		*detail = z.msg ? z.msg : st == Z_STREAM_END ? "size mismatch" : "truncated";
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

	{
		/* "<type> <size>\0", formatted here: snprintf per object showed. */
		char hdr[48], digits[24];
		const char *tn = type_name(b->type);
		size_t tl = strlen(tn), nd = 0, v = b->size;
		do {
			digits[nd++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		memcpy(hdr, tn, tl);
		hdr[tl++] = ' ';
		while (nd)
			hdr[tl++] = digits[--nd];
		hdr[tl++] = '\0';
		sha1_init(&c);
		sha1_update(&c, hdr, tl);
	}
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
		if (!w->no_fast_inflate)
			w->inf[worker] = xmalloc(sizeof(struct inflater));
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
	raw = inflate_exact(zs, w->inf[worker], w->pack + e->offset + e->hdr_len,
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
			return -1;
		}
		if (inflate_skip(w->pack + off + e->hdr_len, w->data_end - off - e->hdr_len,
				 e->size, &detail, &used) < 0) {
			e->end = off;
			w->n++;
			report(w, PACK_WALK_BAD_DATA, w->n - 1, detail);
			return -1;
		}
		e->end = off + e->hdr_len + used;
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
	w.inf = xcalloc(w.nthreads, sizeof(*w.inf));
	w.count = xcalloc(w.nthreads, sizeof(*w.count));
	{
		const char *e = getenv("MINI_GIT_INFLATE");
		w.no_fast_inflate = e && !strcmp(e, "zlib");
	}

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
	for (i = 0; i < (uint32_t)w.nthreads; i++)
		free(w.inf[i]);
	free(w.inf);
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
