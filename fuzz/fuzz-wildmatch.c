/* fuzz-wildmatch: git's wildcards (lib/wildmatch.h). The first input byte
 * gives the flags; the rest is the pattern, then after the first NUL the
 * text. Checked beyond not crashing (nor running away: the fuzzer's time
 * limit): a pattern with no wildcard or escape matches exactly the text
 * equal to it (ignoring case under WM_CASEFOLD). */
#include "fuzz/fuzz-harness.h"
#include "lib/wildmatch.h"
#include <strings.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static void run(const uint8_t *data, size_t size)
{
	unsigned flags = data[0] & (WM_CASEFOLD | WM_PATHNAME);
	char *s = fuzz_str(data + 1, size - 1);
	size_t n = size - 1, lp = strlen(s);
	const char *text;
	int m;

	text = lp < n ? s + lp + 1 : "";
	m = wildmatch(s, text, flags);
	if (!strpbrk(s, "*?[\\") &&
	    m != !((flags & WM_CASEFOLD) ? strcasecmp(s, text) : strcmp(s, text)))
		abort();
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_try(run, data, size);
	return 0;
}
