/* inflate.c: the table-driven zlib decoder of odb/inflate.h.
 *
 * Most pack entries and loose objects are a few hundred bytes, where zlib
 * spends more time in its state machine and in building Huffman tables
 * than in decoding. This decoder decodes a whole stream in one loop into
 * a buffer of the known size, and refuses whatever zlib would refuse. */
#include "lib/util.h"
#include "lib/cpu.h"
#include "odb/inflate.h"
#include <endian.h>
#include <sched.h>
#include <zlib.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
#endif

enum { K_LIT, K_LEN, K_EOB, K_SUB, K_BAD };

/* Scratch room past the end of the output: a match may be written there
 * before the size check, and copies go 8 bytes at a time. */
#define INFLATE_SLACK FAST_INFLATE_SLACK  /* 258 + 8 */

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
	unsigned lit_bits, dist_bits;  /* of the primary tables */
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

_Static_assert(sizeof(struct hcode) == 4, "table entries are words");

/* The entry of a code of length l with no symbol: OR it with a symbol's. */
static inline uint32_t len_word(unsigned l)
{
	struct hcode h = { 0, (uint8_t)l, 0 };
	uint32_t w;
	memcpy(&w, &h, 4);
	return w;
}

static inline unsigned reverse_bits(unsigned code, unsigned len)
{
	return (unsigned)(rev8[code & 0xff] << 8 | rev8[code >> 8]) >> (16 - len);
}

/*
 * The code lengths of a set, listed by length: FOR_LENGTH(ls, l, sym)
 * runs its body for each symbol of length l, in increasing order (the
 * order of canonical codes). A table is built per block of a few hundred
 * bytes, so this matters. With SSE2 the lengths are compared 16 at a time
 * with the length asked for, among the groups of 16 that hold any code at
 * all (most of a literal set, in a small stream, is zero): no counting
 * pass, no list. Otherwise a counting sort, four quarters of the symbols
 * at once, each with its own counters (with one set, each increment waits
 * for the previous one through memory).
 */
struct length_sets {
#if defined(__SSE2__)
	__m128i dv[18];         /* the groups of 16 lengths holding a code */
	uint8_t at[18];         /* their places, in 16s */
	unsigned nv;
#else
	unsigned offs[17];      /* where each length starts in sorted */
	uint16_t sorted[288];
#endif
	unsigned min, max;      /* shortest and longest length used (0: none) */
};

#if defined(__SSE2__)
#define FOR_LENGTH(ls, l, sym) \
	for (unsigned j_ = 0; j_ < (ls)->nv; j_++) \
		for (uint32_t m_ = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8((ls)->dv[j_], \
				_mm_set1_epi8((char)(l)))), sym; \
		     m_ && (sym = 16u * (ls)->at[j_] + (unsigned)__builtin_ctz(m_), 1); \
		     m_ &= m_ - 1)

/* lens must be readable up to n rounded up to 16 (bytes past n are
 * ignored). */
static void list_lengths(struct length_sets *ls, const uint8_t *lens, unsigned n)
{
	static const uint8_t keep[32] = {
		255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255 };
	const __m128i zero = _mm_setzero_si128();
	__m128i vmax = zero, vmin = _mm_set1_epi8(-1);
	unsigned v;

	ls->nv = 0;
	for (v = 0; 16 * v < n; v++) {
		__m128i d = _mm_loadu_si128((const __m128i *)(lens + 16 * v)), z;
		if (n - 16 * v < 16)
			d = _mm_and_si128(d, _mm_loadu_si128((const __m128i *)(keep + 16 - (n - 16 * v))));
		z = _mm_cmpeq_epi8(d, zero);
		if (_mm_movemask_epi8(z) != 0xffff) {
			ls->dv[ls->nv] = d;
			ls->at[ls->nv++] = (uint8_t)v;
			vmax = _mm_max_epu8(vmax, d);
			vmin = _mm_min_epu8(vmin, _mm_or_si128(d, z));
		}
	}
	vmax = _mm_max_epu8(vmax, _mm_srli_si128(vmax, 8));
	vmax = _mm_max_epu8(vmax, _mm_srli_si128(vmax, 4));
	vmax = _mm_max_epu8(vmax, _mm_srli_si128(vmax, 2));
	vmax = _mm_max_epu8(vmax, _mm_srli_si128(vmax, 1));
	vmin = _mm_min_epu8(vmin, _mm_srli_si128(vmin, 8));
	vmin = _mm_min_epu8(vmin, _mm_srli_si128(vmin, 4));
	vmin = _mm_min_epu8(vmin, _mm_srli_si128(vmin, 2));
	vmin = _mm_min_epu8(vmin, _mm_srli_si128(vmin, 1));
	ls->max = (unsigned)_mm_cvtsi128_si32(vmax) & 0xff;
	ls->min = (unsigned)_mm_cvtsi128_si32(vmin) & 0xff;
}
#else
#define FOR_LENGTH(ls, l, sym) \
	for (unsigned k_ = (ls)->offs[l], sym; \
	     k_ < (ls)->offs[(l) + 1] && (sym = (ls)->sorted[k_], 1); k_++)

static void list_lengths(struct length_sets *ls, const uint8_t *lens, unsigned n)
{
	unsigned cq[4][16] = { { 0 } }, count[16], qs = (n + 3) / 4, j, q, l;
	uint8_t pl[288];  /* lens padded with zeros to four equal parts */

	memcpy(pl, lens, n);
	memset(pl + n, 0, 4 * qs - n);
	for (j = 0; j < qs; j++) {
		cq[0][pl[j]]++;
		cq[1][pl[qs + j]]++;
		cq[2][pl[2 * qs + j]]++;
		cq[3][pl[3 * qs + j]]++;
	}
	ls->min = 16;
	ls->max = 0;
	for (l = 0; l < 16; l++) {
		count[l] = cq[0][l] + cq[1][l] + cq[2][l] + cq[3][l];
		if (l && count[l]) {
			ls->max = l;
			if (ls->min > l)
				ls->min = l;
		}
	}
	ls->offs[0] = 0;
	for (l = 0; l < 16; l++)
		ls->offs[l + 1] = ls->offs[l] + count[l];
	for (l = 0; l < 16; l++) {
		unsigned o = ls->offs[l];
		for (q = 0; q < 4; q++) {
			unsigned c = cq[q][l];
			cq[q][l] = o;
			o += c;
		}
	}
	for (j = 0; j < qs; j++) {
		ls->sorted[cq[0][pl[j]]++] = (uint16_t)j;
		ls->sorted[cq[1][pl[qs + j]]++] = (uint16_t)(qs + j);
		ls->sorted[cq[2][pl[2 * qs + j]]++] = (uint16_t)(2 * qs + j);
		ls->sorted[cq[3][pl[3 * qs + j]]++] = (uint16_t)(3 * qs + j);
	}
}
#endif

/*
 * Canonical Huffman decoding table for lens[0..n): a primary table of
 * 2^bits entries, where bits is the longest code length but at most
 * maxbits, and codes longer than that through subtables. Returns bits, or
 * -1 for the sets zlib refuses: over-subscribed, or incomplete unless it
 * is a single one-bit code of a literal or distance set (or no code at
 * all there: then the table is one invalid entry, with bits 0). The
 * table's contents are undefined after -1.
 *
 * The primary table is sized to the longest code because the blocks of
 * small objects have short codes (a commit's literals take 7 bits at
 * most): 128 entries to fill instead of 1024. It is built by doubling:
 * after the codes of length l are placed in the first 2^l entries, those
 * are copied once to make 2^(l+1), which is what repeating each short
 * code through the table amounts to. Codes are placed as they are
 * listed, length by length, and counted as they go: a set found
 * over-subscribed at a length stops there, before its codes can run past
 * 2^15 + 288 (so every write stays in the table).
 */
static int build_table(struct hcode *t, unsigned maxbits, const uint8_t *lens, unsigned n,
		       enum table_kind kind)
{
	struct length_sets ls;
	const struct hcode *se = sym_entry[kind];
	struct hcode bad = { 0, 0, K_BAD << 5 };
	unsigned bits, sub_bits, next, size = 2, code = 0, prefix = UINT32_MAX, sub = 0, l;
	int left = 1;    /* codes of the current length still free */

	list_lengths(&ls, lens, n);
	if (!ls.max) {
		if (kind == T_CODES)
			return -1;
		t[0] = bad;
		return 0;
	}
	bits = ls.max < maxbits ? ls.max : maxbits;
	sub_bits = ls.max - bits;
	next = 1u << bits;
	t[0] = t[1] = bad;
	for (l = 1; l <= ls.max; l++) {
		unsigned first = code;    /* canonical code of the next symbol, l bits */
		if (l > 1 && l <= bits) {
			/* Small copies inline: a call costs more than most. */
			if (size > 32) {
				memcpy(t + size, t, size * sizeof(*t));
			} else {
				for (unsigned j = 0; j < size; j += 2) {
					uint64_t two;
					memcpy(&two, t + j, 8);
					memcpy(t + size + j, &two, 8);
				}
			}
			size *= 2;
		}
		if (l >= ls.min && l <= bits) {
			/* As words: the compiler handles these better than
			 * fields. */
			uint32_t lw = len_word(l);
			FOR_LENGTH(&ls, l, sym) {
				uint32_t w;
				memcpy(&w, se + sym, 4);
				w |= lw;
				memcpy(t + reverse_bits(code, l), &w, 4);
				code++;
			}
		} else if (l > bits) {
			FOR_LENGTH(&ls, l, sym) {
				struct hcode e = se[sym];
				unsigned r = reverse_bits(code, l), p = r & ((1u << bits) - 1);
				e.len = (uint8_t)l;
				/* Codes of one prefix are consecutive in
				 * canonical order. */
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
				code++;
			}
		}
		left = 2 * left - (int)(code - first);
		if (left < 0)
			return -1;
		code <<= 1;
	}
	if (left > 0 && (kind == T_CODES || ls.max > 1))
		return -1;
	return (int)bits;
}

static struct inflater fixed_tables;
/* 0: not built, 1: a thread is building them, 2: ready. Not
 * pthread_once(), whose first call ends in a futex wake-up system call. */
static int fixed_state;

static void build_fixed(void)
{
	uint8_t l[288];
	unsigned i;
	int bits;

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
	bits = build_table(fixed_tables.lit, LIT_BITS, l, 288, T_LIT);
	if (bits < 0)
		die("BUG: fixed literal table");
	fixed_tables.lit_bits = (unsigned)bits;
	for (i = 0; i < 32; i++)
		l[i] = 5;
	bits = build_table(fixed_tables.dist, DIST_BITS, l, 32, T_DIST);
	if (bits < 0)
		die("BUG: fixed distance table");
	fixed_tables.dist_bits = (unsigned)bits;
}

static void need_fixed_tables(void)
{
	int st = __atomic_load_n(&fixed_state, __ATOMIC_ACQUIRE);

	if (st == 2)
		return;
	st = 0;
	if (__atomic_compare_exchange_n(&fixed_state, &st, 1, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		build_fixed();
		__atomic_store_n(&fixed_state, 2, __ATOMIC_RELEASE);
		return;
	}
	/* Another thread is building them: a few microseconds. */
	while (__atomic_load_n(&fixed_state, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
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

static inline int decode(struct bits *s, const struct hcode *t, unsigned mask, struct hcode *out)
{
	struct hcode e = t[s->bb & mask];
	if (e.kx >> 5 == K_SUB)
		e = t[e.val + ((s->bb >> e.len) & ((1u << (e.kx & 31)) - 1))];
	if (e.kx >> 5 == K_BAD || s->bc < e.len)
		return -1;
	s->bb >>= e.len;
	s->bc -= e.len;
	*out = e;
	return 0;
}

/* One symbol of the code length code: a length, or a run of them, into
 * lens[*i...]. With checked, the bits are counted first. */
static inline __attribute__((always_inline))
int code_length(struct bits *s, const struct hcode *cl, unsigned clmask, uint8_t *lens,
		unsigned *i, unsigned total, const int checked)
{
	struct hcode e = cl[s->bb & clmask];
	unsigned rep, val = 0, x;
	uint64_t v8;

	if (checked && s->bc < e.len)
		return -1;
	s->bb >>= e.len;
	s->bc -= e.len;
	if (e.val < 16) {
		lens[(*i)++] = (uint8_t)e.val;
		return 0;
	}
	x = e.val == 16 ? 2 : e.val == 17 ? 3 : 7;
	if (checked && s->bc < x)
		return -1;
	rep = (unsigned)(s->bb & ((1u << x) - 1)) + (e.val == 18 ? 11 : 3);
	s->bb >>= x;
	s->bc -= x;
	if (e.val == 16) {
		if (!*i)
			return -1;
		val = lens[*i - 1];
	}
	if (*i + rep > total)
		return -1;
	/* Runs are short: eight bytes at a time (into the slack after the
	 * lengths) rather than a call to memset. */
	v8 = val * 0x0101010101010101ull;
	for (unsigned j = 0; j < rep; j += 8)
		memcpy(lens + *i + j, &v8, 8);
	*i += rep;
	return 0;
}

/*
 * The tables of the code length code, by the lengths that define it, per
 * thread. Small objects of one kind are compressed alike, and repeat a
 * handful of these (the commits of a history of 50,000 used about 200
 * different ones; 64 places held the table asked for 87% of the time),
 * which saves building one table of three per block. Only short codes
 * are kept (tables of 32 entries at most: 9 KiB in all). The key is
 * every bit that decides the table, so a hit is exactly what
 * build_table() would make.
 */
#define CL_CACHE_BITS 6
#define CL_CACHED_BITS 5
struct cl_cached {
	uint64_t key;           /* lengths << 5 | how many; 0: empty */
	uint8_t bits;
	struct hcode t[1 << CL_CACHED_BITS];
};
static __thread struct cl_cached *cl_cache; /* see xcalloc_thread */

static int dynamic_tables(struct bits *sp, struct inflater *f)
{
	/* A copy the compiler can keep in registers (lens, a char array,
	 * could alias *sp); written back on success. */
	struct bits bs = *sp, *s = &bs;
	static const uint8_t order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	/* Room for reading the sets 16 bytes at a time (list_lengths) and
	 * for runs written 8 bytes at a time. */
	uint8_t lens[288 + 32 + 8], cl[32] = { 0 };
	unsigned nlen, ndist, ncl, v, i, clmask, total;
	int bits, dbits;
	const struct hcode *clt = f->cl;

	refill(s);
	if (take(s, 5, &nlen) || take(s, 5, &ndist) || take(s, 4, &ncl))
		return -1;
	nlen += 257;
	ndist += 1;
	ncl += 4;
	if (nlen > 286 || ndist > 30)
		return -1;
	refill(s);
	if (s->bc >= 3 * ncl) {
		/* All the code length code's lengths at once: its table may
		 * be in the cache. */
		uint64_t raw = s->bb & ((1ull << (3 * ncl)) - 1), key = raw << 5 | ncl;
		struct cl_cached *ce;
		if (!cl_cache)
			cl_cache = xcalloc_thread(1 << CL_CACHE_BITS, sizeof(*cl_cache));
		ce = &cl_cache[(key * 0x9e3779b97f4a7c15ull) >> (64 - CL_CACHE_BITS)];
		s->bb >>= 3 * ncl;
		s->bc -= 3 * ncl;
		if (ce->key == key) {
			clt = ce->t;
			bits = ce->bits;
		} else {
			for (i = 0; i < ncl; i++)
				cl[order[i]] = (uint8_t)(raw >> (3 * i) & 7);
			bits = build_table(f->cl, CL_BITS, cl, 19, T_CODES);
			if (bits < 0)
				return -1;
			if (bits <= CL_CACHED_BITS) {
				memcpy(ce->t, f->cl, sizeof(*f->cl) << bits);
				ce->bits = (uint8_t)bits;
				ce->key = key;
			}
		}
	} else {
		for (i = 0; i < ncl; i++) {
			if (s->bc < 3)
				refill(s);
			if (take(s, 3, &v))
				return -1;
			cl[order[i]] = (uint8_t)v;
		}
		bits = build_table(f->cl, CL_BITS, cl, 19, T_CODES);
		if (bits < 0)
			return -1;
	}
	clmask = (1u << bits) - 1;
	total = nlen + ndist;
	for (i = 0; i < total;) {
		/*
		 * The code length code is complete (build_table refuses it
		 * otherwise), so every entry is a symbol, of 7 bits at most;
		 * with its extra bits one takes 14 at most. So once a refill
		 * has 56 bits, four symbols need no count checks; near the
		 * end of the input every symbol checks them.
		 */
		if (s->end - s->in >= 8) {
			uint64_t w;
			memcpy(&w, s->in, 8);
			s->bb |= le64toh(w) << s->bc;
			s->in += (63 - s->bc) >> 3;
			s->bc |= 56;
			if (code_length(s, clt, clmask, lens, &i, total, 0) || i >= total ||
			    code_length(s, clt, clmask, lens, &i, total, 0) || i >= total ||
			    code_length(s, clt, clmask, lens, &i, total, 0) || i >= total ||
			    code_length(s, clt, clmask, lens, &i, total, 0))
				break;
		} else {
			refill(s);
			if (code_length(s, clt, clmask, lens, &i, total, 1))
				return -1;
		}
	}
	if (i != total)
		return -1;
	if (!lens[256])
		return -1;
	bits = build_table(f->lit, LIT_BITS, lens, nlen, T_LIT);
	dbits = build_table(f->dist, DIST_BITS, lens + nlen, ndist, T_DIST);
	if (bits < 0 || dbits < 0)
		return -1;
	f->lit_bits = (unsigned)bits;
	f->dist_bits = (unsigned)dbits;
	*sp = bs;
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
	if (cpu_has(CPU_AVX2))
		return adler32_avx2(1, p, n);
#endif
	return (uint32_t)adler32_z(1, p, n);
}

/* Decodes the zlib stream at [in, in + avail) into exactly size bytes at
 * out, which has room for INFLATE_SLACK bytes more (scratch). Returns 0,
 * or -1 when zlib should be asked instead. Every read of the input is
 * bounded by s.end (refill) and every write by cap (fast loop) or oend. */
/* With head set (a constant: the compiler makes two functions) it stops
 * as soon as size bytes exist, trusting nothing past them: no check of
 * the length or the Adler-32, and a match or stored block that crosses
 * the end is cut there. */
static inline __attribute__((always_inline))
int decode_stream(struct inflater *f, const unsigned char *in, size_t avail,
		  unsigned char *out, size_t size, size_t *used, const int head)
{
	struct bits s;
	unsigned char *o = out, *oend = out + size, *cap = oend + INFLATE_SLACK;
	unsigned final, type, v;
	const unsigned char *p;

	if (avail < (head ? 2u : 6u) || (in[0] & 15) != 8 || (in[0] >> 4) > 7 || (in[1] & 0x20) ||
	    ((unsigned)in[0] << 8 | in[1]) % 31)
		return -1;
	if (head && !size)
		return 0;
	s.in = in + 2;
	s.end = in + avail;
	s.bb = 0;
	s.bc = 0;
	need_fixed_tables();
	do {
		const struct hcode *lit, *dist;
		const unsigned char *ip, *iend;
		unsigned lmask, dmask, bc;
		uint64_t bb;
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
			if (head && (uint64_t)(oend - o) <= n) {
				n = (unsigned)(oend - o);
				if ((uint64_t)(s.end - p) < n)
					return -1;
				memcpy(o, p, n);
				return 0;
			}
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
			lmask = (1u << fixed_tables.lit_bits) - 1;
			dmask = (1u << fixed_tables.dist_bits) - 1;
		} else if (type == 2) {
			if (dynamic_tables(&s, f))
				return -1;
			lit = f->lit;
			dist = f->dist;
			lmask = (1u << f->lit_bits) - 1;
			dmask = (1u << f->dist_bits) - 1;
		} else {
			return -1;
		}
		/*
		 * While at least 8 input bytes and room for a longest match
		 * (with 8 bytes to spare, in the slack past the end if need
		 * be: overshooting the size fails below) remain: one refill
		 * per symbol gives the 48 bits a length and distance can need,
		 * and matches are copied 8 bytes at a time. (With head there
		 * is always room: it returns once size bytes exist, and the
		 * literals below cannot reach them.)
		 */
		/* The state in locals: s escapes to dynamic_tables(), and the
		 * compiler would keep it in memory through every store to o. */
		bb = s.bb;
		bc = s.bc;
		ip = s.in;
		iend = s.end;
		while (iend - ip >= 8 && (head ? oend - o > 5 : cap - o >= 258 + 8)) {
			struct hcode e, d;
			unsigned len, dd, k;
			uint64_t v;
			memcpy(&v, ip, 8);
			bb |= le64toh(v) << bc;
			ip += (63 - bc) >> 3;
			bc |= 56;
			e = lit[bb & lmask];
			if (e.kx >> 5 == K_SUB)
				e = lit[e.val + ((bb >> e.len) & ((1u << (e.kx & 31)) - 1))];
			k = e.kx >> 5;
			bb >>= e.len;
			bc -= e.len;
			if (k == K_LIT) {
				*o++ = (unsigned char)e.val;
				/* At least 41 bits are left: four more literals
				 * whose codes the primary table holds (10 bits at
				 * most each) need no refill, nor a loop test. */
#define ANOTHER_LITERAL() \
				e = lit[bb & lmask]; \
				if (e.kx >> 5 != K_LIT) \
					continue; \
				bb >>= e.len; \
				bc -= e.len; \
				*o++ = (unsigned char)e.val
				ANOTHER_LITERAL();
				ANOTHER_LITERAL();
				ANOTHER_LITERAL();
				ANOTHER_LITERAL();
#undef ANOTHER_LITERAL
				continue;
			}
			if (k != K_LEN) {
				if (k == K_EOB) {
					s.bb = bb;
					s.bc = bc;
					s.in = ip;
					goto block_done;
				}
				return -1;
			}
			len = e.val + (unsigned)(bb & ((1u << (e.kx & 31)) - 1));
			bb >>= e.kx & 31;
			bc -= e.kx & 31;
			d = dist[bb & dmask];
			if (d.kx >> 5 == K_SUB)
				d = dist[d.val + ((bb >> d.len) & ((1u << (d.kx & 31)) - 1))];
			if (d.kx >> 5 == K_BAD)
				return -1;
			bb >>= d.len;
			bc -= d.len;
			dd = d.val + (unsigned)(bb & ((1u << (d.kx & 31)) - 1));
			bb >>= d.kx & 31;
			bc -= d.kx & 31;
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
			/* The bytes past oend are scratch in the slack. */
			if (head && o >= oend)
				return 0;
		}
		s.bb = bb;
		s.bc = bc;
		s.in = ip;
		if (o > oend)
			return -1;
		for (;;) {
			struct hcode e, d;
			unsigned len, x, dd;
			refill(&s);
			if (decode(&s, lit, lmask, &e))
				return -1;
			if (e.kx >> 5 == K_LIT) {
				if (o == oend)
					return -1;
				*o++ = (unsigned char)e.val;
				if (head && o == oend)
					return 0;
				continue;
			}
			if (e.kx >> 5 == K_EOB)
				break;
			if (take(&s, e.kx & 31, &x))
				return -1;
			len = e.val + x;
			if (decode(&s, dist, dmask, &d) || take(&s, d.kx & 31, &x))
				return -1;
			dd = d.val + x;
			if (head && dd <= (size_t)(o - out) && len >= (size_t)(oend - o)) {
				/* Byte by byte: from may overlap the bytes written. */
				const unsigned char *from = o - dd;
				while (o < oend)
					*o++ = *from++;
				return 0;
			}
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
	v = (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
	if (v != adler32_of(out, size))
		return -1;
	if (used)
		*used = (size_t)(p + 4 - in);
	return 0;
}

int fast_inflate(const unsigned char *in, size_t in_len, unsigned char *out,
		 size_t out_len, size_t *consumed)
{
	/* The dynamic tables (58 KiB) live on the stack: no allocation per
	 * call, no state shared between threads, and only the entries a
	 * block's codes need are ever written. */
	struct inflater f;

	return decode_stream(&f, in, in_len, out, out_len, consumed, 0);
}

int fast_inflate_head(const unsigned char *in, size_t in_len, unsigned char *out, size_t n)
{
	struct inflater f;

	return decode_stream(&f, in, in_len, out, n, NULL, 1);
}

int fast_inflate_disabled(void)
{
	const char *e = getenv("MINI_GIT_INFLATE");

	return e && !strcmp(e, "zlib");
}

void inflate_error(int status, const char *zmsg)
{
	const char *what;
	switch (status) {
	case Z_MEM_ERROR: what = "out of memory"; break;
	case Z_VERSION_ERROR: what = "wrong version"; break;
	case Z_NEED_DICT: what = "needs dictionary"; break;
	case Z_DATA_ERROR: what = "data stream error"; break;
	case Z_STREAM_ERROR: what = "stream consistency error"; break;
	default: what = "unknown error"; break;
	}
	error("inflate: %s (%s)", what, zmsg ? zmsg : "no message");
}
