/* t-inflate.c: odb/inflate.c's decoder against zlib itself: thousands of
 * streams made by zlib, intact and damaged, hand-made code sets zlib
 * refuses, the consumed length, the bounds of the output; the head
 * decoder (the first n bytes only) likewise. Prints TAP. */
#include "tests/unit/tap.h"
#include "odb/inflate.h"
#include "tests/unit/zlib-ref.h"
#include <zlib.h>
#include <endian.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A bit writer for hand-made deflate streams. */
struct bitw {
	unsigned char buf[64];
	size_t n;
	unsigned bits;
};

static void put(struct bitw *w, unsigned v, unsigned nbits)
{
	for (unsigned i = 0; i < nbits; i++, w->bits++) {
		if (!(w->bits & 7))
			w->buf[w->n++] = 0;
		w->buf[w->n - 1] |= (unsigned char)(((v >> i) & 1) << (w->bits & 7));
	}
}

static void put_code(struct bitw *w, unsigned code, unsigned len)
{
	while (len--)
		put(w, (code >> len) & 1, 1);
}

/*
 * "aa" in one dynamic block whose literal code gives 'a' one bit and the
 * end of block eob_len bits: with 2 the set is incomplete, which zlib
 * refuses ("invalid literal/lengths set") though every code used is
 * valid; with 1 it is complete and both decode it.
 */
static size_t incomplete_stream(unsigned char *out, unsigned eob_len)
{
	static const unsigned char order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	struct bitw w;
	uint32_t s = (uint32_t)adler32(1, (const unsigned char *)"aa", 2);

	memset(&w, 0, sizeof(w));
	w.buf[0] = 0x78;
	w.buf[1] = 0x01;
	w.n = 2;
	w.bits = 16;
	put(&w, 1, 1);          /* final */
	put(&w, 2, 2);          /* dynamic */
	put(&w, 0, 5);          /* 257 literal/length codes */
	put(&w, 0, 5);          /* 1 distance code */
	put(&w, 14, 4);         /* 18 code length codes */
	/* Code length code: 0, 1, 2 and 18, two bits each (00 01 10 11). */
	for (int i = 0; i < 18; i++)
		put(&w, order[i] == 0 || order[i] == 1 || order[i] == 2 || order[i] == 18 ? 2 : 0, 3);
	put_code(&w, 3, 2);     /* 18: 97 zeros */
	put(&w, 97 - 11, 7);
	put_code(&w, 1, 2);     /* 'a': 1 */
	put_code(&w, 3, 2);     /* 18: 138 zeros */
	put(&w, 138 - 11, 7);
	put_code(&w, 3, 2);     /* 18: 20 zeros */
	put(&w, 20 - 11, 7);
	put_code(&w, eob_len, 2);  /* end of block: 1 or 2 */
	put_code(&w, 1, 2);     /* distance 0: 1 */
	/* 'a' is 0; the end of block 1 (length 1) or 10 (length 2). */
	put_code(&w, 0, 1);
	put_code(&w, 0, 1);
	put_code(&w, eob_len == 1 ? 1 : 2, eob_len);
	w.bits = (w.bits + 7) & ~7u;
	put(&w, s >> 24, 8);
	put(&w, (s >> 16) & 0xff, 8);
	put(&w, (s >> 8) & 0xff, 8);
	put(&w, s & 0xff, 8);
	memcpy(out, w.buf, w.n);
	return w.n;
}

/*
 * Streams made by zlib at every level and strategy, then damaged (bits,
 * bytes, a wrong size, a cut): the decoder must never accept what zlib
 * refuses nor decode differently, and must accept every intact stream.
 * Damage inside the compressed data, with a recomputed Adler-32, is what
 * reaches the code-set rules (incomplete and over-subscribed codes, bad
 * repeats, distances too far back) that a checksum would otherwise hide.
 */
/* Sample data: random (kind 0), text from the given alphabet (1), or
 * random with repeats of what came before (2). */
static void fill_sample(unsigned char *src, size_t n, int kind, const char *text)
{
	size_t tn = strlen(text);
	for (size_t i = 0; i < n; i++)
		src[i] = kind == 0 ? (unsigned char)rnd() :
			 kind == 1 ? (unsigned char)text[rnd() % tn] :
			 i > 30 && rnd() % 4 ? src[i - 1 - rnd() % 30] : (unsigned char)rnd();
}

/* src deflated into out (cap bytes) by zlib; the compressed length. */
static size_t compress_sample(const unsigned char *src, size_t n, unsigned char *out, size_t cap,
			      int level, int wbits, int strategy)
{
	z_stream z;
	size_t cl;
	memset(&z, 0, sizeof(z));
	deflateInit2(&z, level, Z_DEFLATED, wbits, 8, strategy);
	z.next_in = (unsigned char *)src;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	deflate(&z, Z_FINISH);
	cl = z.total_out;
	deflateEnd(&z);
	return cl;
}

static void test_inflate(void)
{
	enum { MAX = 20000 };
	unsigned char *src = xmalloc(MAX), *comp = xmalloc(MAX * 2 + 64);
	unsigned char *a = xmalloc(MAX + 2), *b = xmalloc(MAX + 2 + FAST_INFLATE_SLACK);
	int bad = 0, refused_intact = 0, accepted = 0;

	for (int it = 0; it < 3000; it++) {
		size_t n = rnd() % (it % 50 ? 1500 : MAX), cl, size, avail;
		int kind = (int)(rnd() % 3), damage = it % 4, fixsum = damage == 3;

		fill_sample(src, n, kind, "abcdefgh \n");
		cl = compress_sample(src, n, comp, MAX * 2 + 64, (int)(rnd() % 10),
				     15 - (int)(rnd() % 4 ? 0 : rnd() % 7), (int)(rnd() % 5));
		size = n;
		avail = cl;
		if (damage && cl > 6) {
			for (int k = 1 + (int)(rnd() % 2); k; k--) {
				size_t pos = damage == 1 ? rnd() % cl : 2 + rnd() % (cl - 6 < 40 ? cl - 6 : 40);
				if (rnd() % 2)
					comp[pos] ^= (unsigned char)(1 << (rnd() % 8));
				else
					comp[pos] = (unsigned char)rnd();
			}
		}
		if (fixsum) {
			/* Whatever raw inflate makes of the damaged data becomes
			 * the expected result, under a correct checksum. */
			z_stream r;
			int st;
			memset(&r, 0, sizeof(r));
			inflateInit2(&r, -15);
			r.next_in = comp + 2;
			r.avail_in = (uInt)(cl - 2);
			r.next_out = a;
			r.avail_out = MAX + 2;
			st = inflate(&r, Z_FINISH);
			if (st == Z_STREAM_END && 2 + r.total_in + 4 <= MAX * 2 + 64) {
				uint32_t s = (uint32_t)adler32(1, a, (uInt)r.total_out);
				unsigned char *p = comp + 2 + r.total_in;
				p[0] = (unsigned char)(s >> 24);
				p[1] = (unsigned char)(s >> 16);
				p[2] = (unsigned char)(s >> 8);
				p[3] = (unsigned char)s;
				avail = 2 + r.total_in + 4;
				size = r.total_out;
			}
			inflateEnd(&r);
		}
		if (damage == 2 && rnd() % 2)
			size += size && rnd() % 2 ? (size_t)-1 : 1;
		if (damage == 2 && rnd() % 4 == 0)
			avail = rnd() % (avail + 1);
		{
			int za = zlib_inflate(comp, avail, a, size, NULL);
			int fa = !fast_inflate(comp, avail, b, size, NULL);
			accepted += fa;
			if (fa && (!za || memcmp(a, b, size)))
				bad++;
			if (!damage && !fa)
				refused_intact++;
		}
	}
	{
		unsigned char st[64], o1[8], o2[8 + FAST_INFLATE_SLACK];
		size_t len = incomplete_stream(st, 1);
		check(zlib_inflate(st, len, o1, 2, NULL) && !fast_inflate(st, len, o2, 2, NULL) &&
		      !memcmp(o2, "aa", 2), "hand-made dynamic block decodes");
		len = incomplete_stream(st, 2);
		check(!zlib_inflate(st, len, o1, 2, NULL) && fast_inflate(st, len, o2, 2, NULL),
		      "incomplete literal code refused, as zlib does");
	}
	check(!bad, "decoder accepts only what zlib accepts, with zlib's result");
	check(!refused_intact && accepted > 1000, "decoder accepts every intact stream");
	free(src);
	free(comp);
	free(a);
	free(b);
}

/* Deflates src[0..n) at level into a malloc'ed buffer; *len gets its size. */
static unsigned char *deflate_buf(const unsigned char *src, size_t n, int level, size_t *len)
{
	uLongf cl = compressBound((uLong)n);
	unsigned char *c = xmalloc(cl);
	if (compress2(c, &cl, src, (uLong)n, level) != Z_OK)
		die("compress2");
	*len = cl;
	return c;
}

/* The consumed length, trailing bytes, the empty stream, a large stream,
 * and nothing written past out_len + FAST_INFLATE_SLACK. */
static void test_edges(void)
{
	enum { BIG = 1 << 20, GUARD = 64 };
	unsigned char *src = xmalloc(BIG), *out = xmalloc(BIG + FAST_INFLATE_SLACK + GUARD);
	unsigned char *c, *padded;
	size_t cl, used = 0, i, ok_guard = 1;

	for (i = 0; i < BIG; i++)
		src[i] = i % 3000 < 1000 ? (unsigned char)"0123456789abcdef"[(i * 7) % 16] :
			 (unsigned char)rnd();
	c = deflate_buf(src, BIG, 6, &cl);
	memset(out, 0xa5, BIG + FAST_INFLATE_SLACK + GUARD);
	check(!fast_inflate(c, cl, out, BIG, &used) && used == cl && !memcmp(out, src, BIG),
	      "1 MiB stream decodes whole, consumed is its length");
	for (i = BIG + FAST_INFLATE_SLACK; i < BIG + FAST_INFLATE_SLACK + GUARD; i++)
		ok_guard &= out[i] == 0xa5;
	check(ok_guard, "nothing written past out_len + FAST_INFLATE_SLACK");
	check(fast_inflate(c, cl, out, BIG - 1, NULL) == -1 &&
	      fast_inflate(c, cl, out, BIG + 1, NULL) == -1,
	      "one byte less or more than the stream holds is refused");
	check(fast_inflate(c, cl - 1, out, BIG, NULL) == -1, "a cut trailer is refused");
	padded = xmalloc(cl + 100);
	memcpy(padded, c, cl);
	memset(padded + cl, 0x78, 100);
	used = 0;
	check(!fast_inflate(padded, cl + 100, out, BIG, &used) && used == cl,
	      "bytes after the stream are left alone and not counted");
	free(padded);
	free(c);

	c = deflate_buf(src, 0, 9, &cl);
	used = 0;
	check(!fast_inflate(c, cl, out, 0, &used) && used == cl, "empty stream");
	free(c);
	c = deflate_buf(src, 5000, 0, &cl);
	check(!fast_inflate(c, cl, out, 5000, NULL) && !memcmp(out, src, 5000),
	      "stored blocks (level 0)");
	free(c);

	unsetenv("MINI_GIT_INFLATE");
	check(!fast_inflate_disabled(), "fast decoder enabled by default");
	setenv("MINI_GIT_INFLATE", "zlib", 1);
	check(fast_inflate_disabled(), "MINI_GIT_INFLATE=zlib disables it");
	unsetenv("MINI_GIT_INFLATE");
	free(src);
	free(out);
}

/*
 * fast_inflate_head against zlib: for streams of every kind (stored,
 * fixed, dynamic blocks; random, text and repetitive data; intact and
 * damaged), every output length n and inputs cut at every length, the
 * decoder must yield n bytes exactly when zlib does, and the same bytes.
 */
static void test_head(void)
{
	enum { MAX = 400 };
	unsigned char src[MAX], comp[2 * MAX + 64], a[MAX + 1], b[MAX + FAST_INFLATE_SLACK + 64];
	unsigned long cases = 0, agreed = 0, yielded = 0, guard_bad = 0;

	for (int it = 0; it < 90; it++) {
		size_t n = it < 4 ? (size_t)it : rnd() % MAX, cl;
		int kind = (int)(rnd() % 3), damage = it % 3 == 2;

		fill_sample(src, n, kind, "tree parent 0123456789abcdef\n");
		cl = compress_sample(src, n, comp, sizeof(comp), it % 10, 15, (int)(rnd() % 5));
		if (damage && cl > 2)
			comp[2 + rnd() % (cl - 2)] ^= (unsigned char)(1 << (rnd() % 8));
		/* Every output length on the whole input; every input length
		 * for a few output lengths. */
		for (size_t want = 0; want <= n + 1; want++) {
			for (size_t avail = cl; avail + 1 > 0; avail--) {
				size_t zg;
				int fr;
				if (avail != cl && want % 37 != 5 && want != n)
					break;
				if (!want && avail < 2)
					break;   /* nothing to ask zlib: no header yet */
				zg = zlib_head(comp, avail, a, want);
				memset(b, 0x5a, sizeof(b));
				fr = fast_inflate_head(comp, avail, b, want);
				cases++;
				yielded += !fr;
				if ((zg == want) == !fr && (fr || !memcmp(a, b, want)))
					agreed++;
				else if (cases - agreed < 4)
					printf("# head: n %zu want %zu avail %zu/%zu: zlib %zu, fast %d\n",
					       n, want, avail, cl, zg, fr);
				for (size_t g = want + FAST_INFLATE_SLACK; g < sizeof(b); g++)
					guard_bad += b[g] != 0x5a;
			}
		}
	}
	check(cases == agreed, "head: %lu of %lu cases as zlib yields them", agreed, cases);
	check(yielded > cases / 4, "head: %lu cases yielded bytes", yielded);
	check(!guard_bad, "head: nothing written past n + FAST_INFLATE_SLACK");
}

/* A real commit: its header alone, the whole, one byte too many. */
static void test_head_commit(void)
{
	static const char commit[] =
		"tree c2ac15cefc82360ff4db3fedf4acaaa5e101b95a\n"
		"parent 3db3497bd6f12461036600e6f81a894849955b1d\n"
		"author A U Thor <author@example.com> 1503000000 +0000\n"
		"committer A U Thor <author@example.com> 1503000000 +0000\n"
		"\n"
		"commit 50000\n";
	size_t n = sizeof(commit) - 1, cl, hdr = strstr(commit, "\n\n") - commit + 1;
	unsigned char *c = deflate_buf((const unsigned char *)commit, n, 6, &cl);
	unsigned char out[sizeof(commit) + FAST_INFLATE_SLACK];

	check(!fast_inflate_head(c, cl, out, hdr) && !memcmp(out, commit, hdr),
	      "head: a commit's header alone");
	check(!fast_inflate_head(c, cl, out, n) && !memcmp(out, commit, n), "head: the whole commit");
	check(fast_inflate_head(c, cl, out, n + 1) == -1, "head: past the end of the stream is refused");
	c[cl - 1] ^= 1;
	check(!fast_inflate_head(c, cl, out, n), "head: the Adler-32 is not looked at");
	check(!fast_inflate_head(c, 2, out, 0) && fast_inflate_head(c, 2, out, 1) == -1,
	      "head: zero bytes need only the zlib header");
	c[0] ^= 1;
	check(fast_inflate_head(c, cl, out, 0) == -1, "head: a bad zlib header is refused");
	free(c);
}

/*
 * Commits alike but for their ids, as a history has them: most streams
 * repeat a code length code that an earlier one used (its table then
 * comes from the decoder's cache). Each intact stream must decode, and
 * each damaged one after the code length code (with a fixed checksum)
 * must get zlib's verdict, whether its code length code was seen before
 * or not; the head decoder likewise.
 */
static void test_cl_cache(void)
{
	enum { N = 6000 };
	static uint64_t seen[N];
	size_t nseen = 0, repeats = 0, bad = 0, bad_head = 0, refused = 0, damaged = 0;
	char text[800];
	unsigned char a[800], b[800 + FAST_INFLATE_SLACK];

	for (int it = 0; it < N; it++) {
		size_t n = 0, cl;
		unsigned char *c;
		uint64_t key, hdr;
		unsigned ncl;
		int k, known = 0;

		n += (size_t)sprintf(text + n, "tree ");
		for (k = 0; k < 40; k++)
			text[n++] = "0123456789abcdef"[rnd() % 16];
		n += (size_t)sprintf(text + n, "\nparent ");
		for (k = 0; k < 40; k++)
			text[n++] = "0123456789abcdef"[rnd() % 16];
		n += (size_t)sprintf(text + n, "\nauthor A U Thor <author@example.com> %d +0000\n"
				     "committer A U Thor <author@example.com> %d +0000\n\ncommit %d\n",
				     1500000000 + it * 60, 1500000000 + it * 60, it);
		/* Every third a message of its own, from a few letters:
		 * other code length codes, some a length apart. */
		if (it % 3 == 0) {
			unsigned m = 1 + (unsigned)(rnd() % 200), kinds = 2 + (unsigned)(rnd() % 20);
			for (unsigned j = 0; j < m; j++)
				text[n++] = (char)('A' + rnd() % kinds * (rnd() % 3 ? 1 : 2));
			text[n++] = '\n';
		}
		c = deflate_buf((const unsigned char *)text, n, 6, &cl);
		/* The code length code: 3 bits each, after the block's 17
		 * header bits (the zlib header is 2 bytes). */
		memcpy(&hdr, c + 2, 8);
		hdr = le64toh(hdr);
		ncl = (unsigned)(hdr >> 13 & 15) + 4;
		key = (hdr >> 17 & ((1ull << (3 * ncl)) - 1)) << 5 | ncl;
		if ((hdr >> 1 & 3) == 2) {
			for (size_t i = 0; i < nseen && !known; i++)
				known = seen[i] == key;
			if (known)
				repeats++;
			else
				seen[nseen++] = key;
		}
		if (fast_inflate(c, cl, b, n, NULL) || memcmp(b, text, n))
			refused++;
		if (fast_inflate_head(c, cl, b, n / 2) || memcmp(b, text, n / 2))
			bad_head++;
		if (it % 2 && cl > 16) {
			/* Damage in the code length code's lengths (which a
			 * cached table must not hide), or past them (bit
			 * 17 + 3 * 19 at most, byte 12); checksum fixed. */
			z_stream r;
			int st, za, fa;
			if (it % 4 == 1) {
				size_t bit = 16 + 17 + rnd() % (3 * ncl);
				c[bit / 8] ^= (unsigned char)(1 << (bit % 8));
			} else {
				size_t pos = 12 + rnd() % (cl - 16);
				c[pos] ^= (unsigned char)(1 << (rnd() % 8));
			}
			memset(&r, 0, sizeof(r));
			inflateInit2(&r, -15);
			r.next_in = c + 2;
			r.avail_in = (uInt)(cl - 2);
			r.next_out = a;
			r.avail_out = sizeof(a);
			st = inflate(&r, Z_FINISH);
			if (st == Z_STREAM_END && r.total_out == n) {
				uint32_t sum = (uint32_t)adler32(1, a, (uInt)n);
				unsigned char *p = c + 2 + r.total_in;
				if (p + 4 <= c + cl) {
					p[0] = (unsigned char)(sum >> 24);
					p[1] = (unsigned char)(sum >> 16);
					p[2] = (unsigned char)(sum >> 8);
					p[3] = (unsigned char)sum;
				}
			}
			inflateEnd(&r);
			za = zlib_inflate(c, cl, a, n, NULL);
			fa = !fast_inflate(c, cl, b, n, NULL);
			damaged++;
			if (fa && (!za || memcmp(a, b, n)))
				bad++;
		}
		free(c);
	}
	check(!refused && !bad_head, "commits alike: every one decodes, whole and head");
	check(!bad && damaged > N / 3, "commits alike, damaged: only what zlib accepts (%lu streams)",
	      (unsigned long)damaged);
	check(repeats > N / 2, "commits alike: %lu of %d repeat a code length code seen before",
	      (unsigned long)repeats, N);
}

int main(void)
{
	test_inflate();
	test_edges();
	test_head();
	test_head_commit();
	test_cl_cache();
	return tap_done();
}
