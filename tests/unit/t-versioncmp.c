/* t-versioncmp: strverscmp_own() and versioncmp() with the suffixes of
 * versionsort.suffix. */
#include "lib/util.h"
#include "lib/config.h"
#include "lib/versioncmp.h"
#include "tests/unit/tap.h"

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

/* Every name of up to max bytes over the alphabet, NUL-separated. */
static size_t all_names(char *out, const char *alpha, unsigned max)
{
	size_t n = 0, na = strlen(alpha);
	for (unsigned len = 0; len <= max; len++) {
		size_t count = 1;
		for (unsigned k = 0; k < len; k++)
			count *= na;
		for (size_t c = 0; c < count; c++) {
			size_t v = c;
			for (unsigned k = 0; k < len; k++, v /= na)
				out[n * 8 + k] = alpha[v % na];
			out[n * 8 + len] = 0;
			n++;
		}
	}
	return n;
}

static void ordered(const char *const *names, size_t nr, const char *what)
{
	int ok = 1;
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < nr; j++) {
			int want = i < j ? -1 : i > j;
			if (sign(versioncmp(names[i], names[j])) != want) {
				check(0, "%s: '%s' against '%s'", what, names[i], names[j]);
				ok = 0;
			}
		}
	if (ok)
		check(1, "%s", what);
}

int main(void)
{
	static char names[2000 * 8];
	static const char *const man[] = { "000", "00", "01", "010", "09", "0", "1", "9", "10" };
	static const char *const tags[] = {
		"v1.0", "v1.0.1", "v1.2", "v1.9", "v1.10", "v1.10a", "v2", "v10", "v10.0" };
	size_t n = all_names(names, "0129a.", 4);

	check(n == 1555, "%zu names", n);
	/* read once, at the first comparison; none of them touches the
	 * names of the first two lists */
	config_push_parameter("versionsort.suffix=-rc");
	config_push_parameter("versionsort.suffix=");
	config_push_parameter("versionsort.suffix=-ck");
	config_push_parameter("versionsort.suffix=-bfs");
	ordered(man, 9, "strverscmp's own example order");
	ordered(tags, 9, "tag names");
#ifdef __GLIBC__
	{
		size_t bad = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				const char *a = names + 8 * i, *b = names + 8 * j;
				if (sign(strverscmp_own(a, b)) != sign(strverscmp(a, b)) && bad++ < 5)
					printf("# '%s' '%s': %d, libc %d\n", a, b, strverscmp_own(a, b),
					       strverscmp(a, b));
			}
		check(!bad, "as glibc's strverscmp on every pair of %zu names (%zu differ)", n, bad);
	}
#else
	tap_skip("not glibc", "as glibc's strverscmp on every pair");
#endif
	{
		static const char *const kernel[] = {
			"v4.7", "v4.8-rc1", "v4.8-rc2", "v4.8", "v4.8-ck1", "v4.8-ck2", "v4.8-bfs" };
		ordered(kernel, 7, "suffixes -rc, '', -ck, -bfs");
	}
	return tap_done();
}
