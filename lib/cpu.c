/* cpu.c: see cpu.h. */
#include "lib/cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static unsigned detect(void)
{
	unsigned eax, ebx, ecx, edx, f = 0, ecx1;
	int ymm = 0;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return 0;
	ecx1 = ecx;
	if (ecx1 & bit_SSSE3)
		f |= CPU_SSSE3;
	if (ecx1 & bit_SSE4_1)
		f |= CPU_SSE41;
	if (ecx1 & bit_PCLMUL)
		f |= CPU_PCLMUL;
	/* AVX registers are usable only if the kernel saves them (OSXSAVE,
	 * then XCR0 has both the SSE and the AVX state bits). */
	if ((ecx1 & bit_OSXSAVE) && (ecx1 & bit_AVX)) {
		unsigned lo, hi;
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		ymm = (lo & 6) == 6;
	}
	if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
		if (ymm && (ebx & bit_AVX2))
			f |= CPU_AVX2;
		if (ebx & bit_SHA)
			f |= CPU_SHA;
	}
	return f;
}

int cpu_has(unsigned mask)
{
	/* bit 31: known; the rest: the features */
	static unsigned cached;
	unsigned f = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (!f) {
		f = detect() | 1u << 31;
		__atomic_store_n(&cached, f, __ATOMIC_RELAXED);
	}
	return (f & mask) == mask;
}
#else
int cpu_has(unsigned mask)
{
	(void)mask;
	return 0;
}
#endif
