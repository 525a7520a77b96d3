/* fuzz-config: config_parse_buf() (lib/config.h) and the value parsers
 * that do not die. A syntax error dies ("bad config line N"): that is the
 * expected answer, caught by the harness. */
#include "fuzz/fuzz-harness.h"
#include "lib/config.h"
#include <ctype.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static int check_var(const char *key, const char *value, void *data)
{
	const char *dot = strchr(key, '.'), *last = strrchr(key, '.');
	size_t *count = data;

	/* section.name at least; section and name lower-cased. */
	if (!dot || !last[1])
		abort();
	for (const char *p = last + 1; *p; p++)
		if (isupper((unsigned char)*p))
			abort();
	if (value)
		config_maybe_bool(value);
	(*count)++;
	return 0;
}

/* The copy of the input; freed at the start of the next run when the
 * parser died with it. */
static char *buf;

static void parse(const uint8_t *data, size_t size)
{
	size_t count = 0;

	free(buf);
	buf = fuzz_dup(data, size);
	config_parse_buf(buf, size, "fuzz.config", check_var, &count);
	free(buf);
	buf = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_run_dying(parse, data, size);
	return 0;
}
