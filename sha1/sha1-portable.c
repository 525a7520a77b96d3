/* sha1-portable.c: the SHA-1 compression function (FIPS 180-4, 6.1.2) in
 * plain C, for CPUs without SHA instructions.
 *
 * What makes it fast:
 *  - message words are loaded 32 bits at a time (memcpy, so any alignment
 *    is fine) and byte-swapped with one instruction, not assembled from
 *    four bytes with shifts;
 *  - the schedule is a 16-word ring: W[t] for t >= 16 overwrites W[t-16]
 *    in place, so 64 bytes of schedule instead of 320;
 *  - all 80 rounds are unrolled and the five working variables rotate by
 *    renaming macro arguments instead of moving values around;
 *  - every ring index is a constant, so the compiler turns W[] into
 *    sixteen scalars and keeps in registers what fits. Forcing W[] to
 *    memory with volatile stores instead (which helps some compilers on
 *    register-poor x86) measured about 5% slower with gcc 12 on x86-64.
 */
#include "sha1/sha1.h"
#include <string.h>

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static inline uint32_t load_be32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

/* The round functions of FIPS 180-4, 4.1.1, in forms with fewer operations:
 * Ch(b,c,d) = d ^ (b & (c ^ d)); for Maj the two terms have no bit in
 * common, so they may be added, which lets both be summed into e
 * separately instead of waiting for an OR. */
#define F_CH(b, c, d)  ((d) ^ ((b) & ((c) ^ (d))))
#define F_PAR(b, c, d) ((b) ^ (c) ^ (d))

#define K1 0x5a827999u
#define K2 0x6ed9eba1u
#define K3 0x8f1bbcdcu
#define K4 0xca62c1d6u

/* Rounds 0-15 take the message word; later rounds first extend the ring:
 * W[t] = ROL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]), where t-16 is the
 * same slot as t. */
#define W_LOAD(t) (W[t] = load_be32(p + 4 * (t)))
#define W_MIX(t)                                                               \
	(W[(t) & 15] = ROL(W[((t) + 13) & 15] ^ W[((t) + 8) & 15] ^            \
			   W[((t) + 2) & 15] ^ W[(t) & 15], 1))

#define STEP(a, b, c, d, e, fn, k, w)                                          \
	do {                                                                   \
		e += ROL(a, 5) + fn(b, c, d) + (k) + (w);                      \
		b = ROL(b, 30);                                                \
	} while (0)

#define STEP_MAJ(a, b, c, d, e, w)                                             \
	do {                                                                   \
		e += ROL(a, 5) + K3 + (w) + ((b) & (c));                        \
		e += (d) & ((b) ^ (c));                                        \
		b = ROL(b, 30);                                                \
	} while (0)

#define R0(a, b, c, d, e, t) STEP(a, b, c, d, e, F_CH, K1, W_LOAD(t))
#define R1(a, b, c, d, e, t) STEP(a, b, c, d, e, F_CH, K1, W_MIX(t))
#define R2(a, b, c, d, e, t) STEP(a, b, c, d, e, F_PAR, K2, W_MIX(t))
#define R3(a, b, c, d, e, t) STEP_MAJ(a, b, c, d, e, W_MIX(t))
#define R4(a, b, c, d, e, t) STEP(a, b, c, d, e, F_PAR, K4, W_MIX(t))

/* Five rounds starting at t, with the variables renamed each round. */
#define FIVE(R, t)                                                             \
	do {                                                                   \
		R(a, b, c, d, e, (t));                                         \
		R(e, a, b, c, d, (t) + 1);                                     \
		R(d, e, a, b, c, (t) + 2);                                     \
		R(c, d, e, a, b, (t) + 3);                                     \
		R(b, c, d, e, a, (t) + 4);                                     \
	} while (0)

void sha1_block_portable(uint32_t h[5], const unsigned char *p, size_t nblocks)
{
	uint32_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
	uint32_t a = h0, b = h1, c = h2, d = h3, e = h4;

	while (nblocks--) {
		uint32_t W[16];

		FIVE(R0, 0);
		FIVE(R0, 5);
		FIVE(R0, 10);
		R0(a, b, c, d, e, 15);
		R1(e, a, b, c, d, 16);
		R1(d, e, a, b, c, 17);
		R1(c, d, e, a, b, 18);
		R1(b, c, d, e, a, 19);

		FIVE(R2, 20);
		FIVE(R2, 25);
		FIVE(R2, 30);
		FIVE(R2, 35);

		FIVE(R3, 40);
		FIVE(R3, 45);
		FIVE(R3, 50);
		FIVE(R3, 55);

		FIVE(R4, 60);
		FIVE(R4, 65);
		FIVE(R4, 70);
		FIVE(R4, 75);

		a = h0 += a;
		b = h1 += b;
		c = h2 += c;
		d = h3 += d;
		e = h4 += e;
		p += 64;
	}
	h[0] = h0;
	h[1] = h1;
	h[2] = h2;
	h[3] = h3;
	h[4] = h4;
}
