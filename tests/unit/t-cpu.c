/* t-cpu.c: cpu_has() agrees with the flags the kernel reports in
 * /proc/cpuinfo (which lists avx2 only when it saves the AVX state, the
 * same condition cpu_has checks with xgetbv).
 * Prints TAP. */
#include "tests/unit/tap.h"
#include "lib/cpu.h"
#include "lib/strbuf.h"

static int has_flag(const char *flags, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = flags; (p = strstr(p, name)); p += n)
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

int main(void)
{
	static const struct {
		unsigned bit;
		const char *flag;
	} features[] = {
		{ CPU_SSSE3, "ssse3" },
		{ CPU_SSE41, "sse4_1" },
		{ CPU_PCLMUL, "pclmulqdq" },
		{ CPU_AVX2, "avx2" },
		{ CPU_SHA, "sha_ni" },
	};
	struct strbuf info = STRBUF_INIT;
	const char *flags = NULL;

#if defined(__x86_64__) || defined(__i386__)
	if (strbuf_read_file(&info, "/proc/cpuinfo", 0) >= 0)
		flags = strstr(info.buf, "\nflags");
#endif
	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		if (!flags) {
			tap_skip("no x86 /proc/cpuinfo", "cpu_has(%s)", features[i].flag);
			continue;
		}
		check(cpu_has(features[i].bit) == has_flag(flags, features[i].flag),
		      "cpu_has(%s) is %d, as /proc/cpuinfo says", features[i].flag,
		      cpu_has(features[i].bit));
	}
	check(cpu_has(0), "the empty set of features is always there");
	if (flags)
		check(cpu_has(CPU_SSSE3 | CPU_SSE41) ==
		      (has_flag(flags, "ssse3") && has_flag(flags, "sse4_1")),
		      "a mask asks for all of its features");
	strbuf_release(&info);
	return tap_done();
}
