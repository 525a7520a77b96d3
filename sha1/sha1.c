/* sha1.c: the streaming SHA-1 interface (FIPS 180-4: padding, length,
 * output) and the run-time choice of block function.
 *
 * The choice is made at the first block any context processes, not at
 * start-up: a command that never hashes never runs cpuid or getenv. The
 * function pointer starts at choose_block(), which decides, stores the
 * real function and forwards the call. Two threads racing through it
 * store the same value, so the race is harmless; the accesses are atomic
 * only so that it is also well defined.
 */
#include "sha1/sha1.h"
#include "lib/util.h"

static void choose_block(uint32_t h[5], const unsigned char *p, size_t nblocks);

static sha1_block_fn block_fn = choose_block;

static sha1_block_fn pick_block_fn(void)
{
	const char *want = getenv("MINI_GIT_SHA1");

	if (!want || !*want)
		return sha1_cpu_has_shani() ? sha1_block_shani : sha1_block_portable;
	if (!strcmp(want, "portable"))
		return sha1_block_portable;
	if (!strcmp(want, "shani")) {
		if (!sha1_cpu_has_shani())
			die("MINI_GIT_SHA1=shani: this CPU has no SHA instructions");
		return sha1_block_shani;
	}
	die("MINI_GIT_SHA1=%s: unknown SHA-1 implementation "
	    "(expected 'portable' or 'shani')", want);
}

static void choose_block(uint32_t h[5], const unsigned char *p, size_t nblocks)
{
	sha1_block_fn fn = pick_block_fn();

	__atomic_store_n(&block_fn, fn, __ATOMIC_RELAXED);
	fn(h, p, nblocks);
}

static inline void run_blocks(uint32_t h[5], const unsigned char *p, size_t nblocks)
{
	__atomic_load_n(&block_fn, __ATOMIC_RELAXED)(h, p, nblocks);
}

const char *sha1_impl_name(void)
{
	sha1_block_fn fn = __atomic_load_n(&block_fn, __ATOMIC_RELAXED);

	if (fn == choose_block) {
		fn = pick_block_fn();
		__atomic_store_n(&block_fn, fn, __ATOMIC_RELAXED);
	}
	return fn == sha1_block_shani ? "shani" : "portable";
}

void sha1_init(struct sha1_ctx *c)
{
	/* FIPS 180-4, 5.3.1. */
	c->h[0] = 0x67452301;
	c->h[1] = 0xefcdab89;
	c->h[2] = 0x98badcfe;
	c->h[3] = 0x10325476;
	c->h[4] = 0xc3d2e1f0;
	c->total = 0;
}

void sha1_update(struct sha1_ctx *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t used = c->total & 63;
	size_t nblocks;

	if (!len)
		return;
	c->total += len;

	/* Top up a partial block first. */
	if (used) {
		size_t room = 64 - used;

		if (len < room) {
			memcpy(c->buf + used, p, len);
			return;
		}
		memcpy(c->buf + used, p, room);
		run_blocks(c->h, c->buf, 1);
		p += room;
		len -= room;
	}

	/* Whole blocks straight from the caller's buffer, in one call. */
	nblocks = len / 64;
	if (nblocks) {
		run_blocks(c->h, p, nblocks);
		p += nblocks * 64;
		len &= 63;
	}
	if (len)
		memcpy(c->buf, p, len);
}

static inline void store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

void sha1_final(unsigned char out[20], struct sha1_ctx *c)
{
	/* FIPS 180-4, 5.1.1: a 1 bit, zeros to 56 mod 64 bytes, then the
	 * message length in bits as a 64-bit big-endian number. */
	uint64_t bits = c->total << 3;
	size_t used = c->total & 63;
	int i;

	c->buf[used++] = 0x80;
	if (used > 56) {
		memset(c->buf + used, 0, 64 - used);
		run_blocks(c->h, c->buf, 1);
		used = 0;
	}
	memset(c->buf + used, 0, 56 - used);
	store_be32(c->buf + 56, (uint32_t)(bits >> 32));
	store_be32(c->buf + 60, (uint32_t)bits);
	run_blocks(c->h, c->buf, 1);

	for (i = 0; i < 5; i++)
		store_be32(out + 4 * i, c->h[i]);
}

void sha1_buf(unsigned char out[20], const void *data, size_t len)
{
	struct sha1_ctx c;

	sha1_init(&c);
	sha1_update(&c, data, len);
	sha1_final(out, &c);
}
