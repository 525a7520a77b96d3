/* fuzz-delta: delta_apply() and the delta header readers (odb/delta.h).
 * Input: two bytes giving the base length (little-endian, cut to what is
 * there), the base, then the delta.
 *
 * A valid delta may legitimately expand its input some 65536 times (a
 * one-byte copy instruction copies 64 KiB), so results above MAX_RESULT
 * are not built: they would measure the machine, not the code. */
#include "fuzz/fuzz-harness.h"
#include "odb/delta.h"

#define MAX_RESULT (16u << 20)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base_len, delta_len, res_len = 0;
	unsigned char *base, *delta, *res;
	const unsigned char *p;
	uint64_t a, b;
	const char *why;

	if (size < 2)
		return 0;
	base_len = data[0] | (size_t)data[1] << 8;
	if (base_len > size - 2)
		base_len = size - 2;
	delta_len = size - 2 - base_len;
	base = fuzz_dup(data + 2, base_len);
	delta = fuzz_dup(data + 2 + base_len, delta_len);

	p = delta;
	if (delta_read_size(&p, delta + delta_len, &a) == 0 && (p <= delta || p > delta + delta_len))
		abort();
	if (delta_header_sizes(delta, delta_len, &a, &b) == 0 && b > MAX_RESULT)
		goto out;

	res = delta_apply(base, base_len, delta, delta_len, &res_len, &why);
	if (res) {
		/* The promised NUL after the result, and a size that matches
		 * the header. */
		if (res[res_len] != 0 || delta_header_sizes(delta, delta_len, &a, &b) ||
		    a != base_len || b != res_len || why)
			abort();
		free(res);
	}
out:
	free(base);
	free(delta);
	return 0;
}
