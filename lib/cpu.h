#ifndef LIB_CPU_H
#define LIB_CPU_H
/* cpu.h: which optional x86 instructions this CPU (and the kernel, for
 * the AVX state) lets us use. Asked once, at the first question, never at
 * start-up: cpuid traps to the hypervisor on many virtual machines, and
 * the compiler's __builtin_cpu_supports() would link a constructor that
 * runs it before main() in every command. */

enum cpu_feature {
	CPU_SSSE3 = 1 << 0,
	CPU_SSE41 = 1 << 1,
	CPU_PCLMUL = 1 << 2,
	CPU_AVX2 = 1 << 3,
	CPU_SHA = 1 << 4,
};

/* 1 if every feature in the mask is usable; 0 elsewhere than x86. */
int cpu_has(unsigned mask);

#endif
