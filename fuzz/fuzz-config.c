/* fuzz-config: config_parse_buf() (lib/config.h) and the value parsers
 * that do not die. A syntax error dies ("bad config line N"): that is the
 * expected answer, caught by the harness. */
#include "fuzz/fuzz-harness.h"
#include "lib/config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static int check_var(const char *key, const char *value, void *data)
{
	const char *dot = strchr(key, '.');
	size_t *count = data;

	/* section.name at least. (A NUL inside a subsection cuts the key
	 * short, as it does in git, so nothing is checked after the dot.) */
	if (!dot)
		abort();
	if (value)
		config_maybe_bool(value);
	(*count)++;
	return 0;
}

static void parse(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);
	size_t count = 0;

	config_parse_buf(buf, size, "fuzz.config", check_var, &count);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_try(parse, data, size);
	return 0;
}
