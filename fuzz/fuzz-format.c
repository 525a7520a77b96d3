/* fuzz-format: the small parsers of user-written strings: ref formats
 * (ref_format_parse, refs/ref-filter.h) and sort keys, colour
 * specifications (lib/color.h), version order (lib/versioncmp.h) and
 * C-quoted strings (lib/quote.h), --sort keys and dates (lib/approxidate.h). The first input byte picks one; the
 * rest is the string (for version order: two strings split at the first
 * NUL). Refusals die, which is an expected answer. Checked beyond not
 * crashing: version order is an order (antisymmetric, 0 only for equal
 * strings), and a quoted string's unquoted bytes survive quoting back. */
#include "fuzz/fuzz-harness.h"
#include "lib/approxidate.h"
#include "lib/color.h"
#include "lib/quote.h"
#include "lib/versioncmp.h"
#include "refs/ref-filter.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	/* read the (empty) configuration now, outside any run */
	versioncmp("a", "b");
	return 0;
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void check_versions(const char *a, const char *b)
{
	int ab = sign(versioncmp(a, b)), ba = sign(versioncmp(b, a));
	if (ab != -ba || (ab == 0) != !strcmp(a, b) || versioncmp(a, a))
		abort();
}

static void check_unquote(const char *s)
{
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT, back = STRBUF_INIT;
	const char *end;
	if (!unquote_c_style(&out, s, &end)) {
		if (end <= s || end > s + strlen(s))
			abort();
		/* every byte but NUL written back as an octal escape reads
		 * back the same */
		strbuf_addch(&back, '"');
		for (size_t i = 0; i < out.len; i++)
			strbuf_addf(&back, "\\%03o", (unsigned char)out.buf[i]);
		strbuf_addch(&back, '"');
		if (unquote_c_style(&again, back.buf, &end) || again.len != out.len ||
		    memcmp(again.buf, out.buf, out.len) || *end)
			abort();
	}
	strbuf_release(&out);
	strbuf_release(&again);
	strbuf_release(&back);
}

static void run(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data + 1, size - 1);
	size_t n = size - 1;
	switch (data[0] % 7) {
	case 0:
	case 1: {
		ref_format_free(ref_format_parse(s, data[0] & 1, 0));
		break;
	}
	case 5: {
		struct ref_sorting *keys = NULL;
		ref_sorting_add(&keys, s);
		ref_sorting_free(keys);
		break;
	}
	case 2: {
		struct strbuf esc = STRBUF_INIT;
		color_parse(s, &esc);
		strbuf_release(&esc);
		break;
	}
	case 3: {
		size_t la = strlen(s);
		check_versions(s, la < n ? s + la + 1 : "");
		break;
	}
	case 4:
		check_unquote(s);
		break;
	case 6: {
		/* any string is some time; git's own "@<seconds> <zone>" is
		 * exactly its seconds */
		int errors = 0;
		char own[48];
		uint64_t t = approxidate_careful(s, &errors) % 100000000000ULL;
		snprintf(own, sizeof(own), "@%llu +0000", (unsigned long long)t);
		errors = 0;
		if (approxidate_careful(own, &errors) != t || errors)
			abort();
		break;
	}
	}
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_try(run, data, size);
	return 0;
}
