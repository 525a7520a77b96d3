/* sha1-shani.c: the SHA-1 compression function with the x86 SHA
 * extensions. Only this function is compiled for those instructions
 * (target attribute), so the rest of the program runs on any x86-64 and
 * no special build flags are needed. Elsewhere this file is a stub.
 *
 * Register layout used by the instructions: "abcd" holds A in its highest
 * 32-bit lane and D in its lowest; E travels in the highest lane of the
 * vector of four message words for the next four rounds, with W[t] in the
 * highest lane and W[t+3] in the lowest.
 */
#include "sha1/sha1.h"
#include "lib/util.h"
#include "lib/cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

int sha1_cpu_has_shani(void)
{
	return cpu_has(CPU_SHA | CPU_SSE41 | CPU_SSSE3);
}

/* Four rounds: the E input was prepared by the previous step. */
#define RNDS4(f, e_in)                                                         \
	do {                                                                   \
		prev = abcd;                                                   \
		abcd = _mm_sha1rnds4_epu32(abcd, e_in, f);                     \
	} while (0)

/* Message words W[4i..4i+3] from the previous sixteen:
 * m[i] = msg2(msg1(m[i-4], m[i-3]) ^ m[i-2], m[i-1]); the ring of four
 * registers holds m[i-4] in the slot m[i] is written to. */
#define SCHED(i)                                                               \
	(m[(i) & 3] = _mm_sha1msg2_epu32(                                      \
		 _mm_xor_si128(_mm_sha1msg1_epu32(m[(i) & 3], m[((i) + 1) & 3]), \
			       m[((i) + 2) & 3]),                              \
		 m[((i) + 3) & 3]))

/* Rounds 4i..4i+3 for i >= 1: E is ROL30 of the A of four rounds ago,
 * added into the highest message lane by sha1nexte. */
#define GROUP(i, f)                                                            \
	do {                                                                   \
		e = _mm_sha1nexte_epu32(prev, m[(i) & 3]);                     \
		RNDS4(f, e);                                                   \
	} while (0)
#define GROUP_S(i, f)                                                          \
	do {                                                                   \
		SCHED(i);                                                      \
		GROUP(i, f);                                                   \
	} while (0)

__attribute__((target("sha,sse4.1,ssse3")))
void sha1_block_shani(uint32_t h[5], const unsigned char *p, size_t nblocks)
{
	/* Reverses all 16 bytes: big-endian words, W[t] to the top lane. */
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					   11, 12, 13, 14, 15);
	__m128i abcd, e0, abcd_save, e, prev, m[4];

	/* h[0..3] loads as D C B A from the top down: reverse the lanes. */
	abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0x1b);
	e0 = _mm_set_epi32((int)h[4], 0, 0, 0);

	while (nblocks--) {
		abcd_save = abcd;
		m[0] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), bswap);
		m[1] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
		m[2] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
		m[3] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);

		/* Rounds 0-3: E is the chaining value itself. */
		e = _mm_add_epi32(e0, m[0]);
		RNDS4(0, e);
		GROUP(1, 0);
		GROUP(2, 0);
		GROUP(3, 0);
		GROUP_S(4, 0);
		GROUP_S(5, 1);
		GROUP_S(6, 1);
		GROUP_S(7, 1);
		GROUP_S(8, 1);
		GROUP_S(9, 1);
		GROUP_S(10, 2);
		GROUP_S(11, 2);
		GROUP_S(12, 2);
		GROUP_S(13, 2);
		GROUP_S(14, 2);
		GROUP_S(15, 3);
		GROUP_S(16, 3);
		GROUP_S(17, 3);
		GROUP_S(18, 3);
		GROUP_S(19, 3);

		/* New E = old E + ROL30(A after round 75). */
		e0 = _mm_sha1nexte_epu32(prev, e0);
		abcd = _mm_add_epi32(abcd, abcd_save);
		p += 64;
	}

	_mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1b));
	h[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

#else

int sha1_cpu_has_shani(void)
{
	return 0;
}

void sha1_block_shani(uint32_t h[5], const unsigned char *p, size_t nblocks)
{
	(void)h;
	(void)p;
	(void)nblocks;
	BUG("SHA-1: SHA-NI block function called on a build without it");
}

#endif
