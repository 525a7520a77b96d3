/* versioncmp.c: the order of --sort=version:<key> (lib/versioncmp.h). */
#include "lib/util.h"
#include "lib/config.h"
#include "lib/versioncmp.h"

/*
 * What the common prefix ends in, which decides how the first differing
 * bytes compare:
 *   TEXT      not a digit (or nothing): bytes compare as bytes, except
 *             that two nonzero digits start integers, compared by length;
 *   INTEGER   a run of digits that began with 1-9: the longer run is the
 *             larger number, and runs of one length compare as bytes;
 *   ZEROS     a run of zeros only: a fraction still at its leading zeros,
 *             so the run that goes on with a digit is the smaller one;
 *   FRACTION  zeros, then other digits: bytes compare as bytes.
 */
enum run { TEXT, INTEGER, ZEROS, FRACTION };

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* How many digits start at s. */
static size_t digits_at(const unsigned char *s)
{
	size_t n = 0;
	while (is_digit(s[n]))
		n++;
	return n;
}

int strverscmp_own(const char *s1, const char *s2)
{
	const unsigned char *a = (const unsigned char *)s1, *b = (const unsigned char *)s2;
	enum run run = TEXT;
	size_t i = 0;
	int byte;

	while (a[i] == b[i]) {
		if (!a[i])
			return 0;
		if (!is_digit(a[i]))
			run = TEXT;
		else if (run == TEXT)
			run = a[i] == '0' ? ZEROS : INTEGER;
		else if (run == ZEROS && a[i] != '0')
			run = FRACTION;
		i++;
	}
	byte = a[i] - b[i];
	switch (run) {
	case TEXT:
		if (is_digit(a[i]) && is_digit(b[i]) && a[i] != '0' && b[i] != '0')
			break;
		return byte;
	case INTEGER:
		break;
	case ZEROS:
		if (is_digit(a[i]) != is_digit(b[i]))
			return is_digit(a[i]) ? -1 : 1;
		return byte;
	case FRACTION:
		return byte;
	}
	/* integers: the longer run of digits from here is the larger */
	{
		size_t la = digits_at(a + i), lb = digits_at(b + i);
		if (la != lb)
			return la < lb ? -1 : 1;
	}
	return byte;
}

/*
 * versionsort.suffix: where a configured suffix touches the first
 * difference (starts at or before it, ends at or after it), the name
 * sorts by the suffix's place in the configuration. Of several, the one
 * starting earliest counts, then the longest, then the first configured.
 * Returns the place, or -1 when none applies.
 */
static long suffix_place(const char *name, size_t off, const char **sfx, size_t nr)
{
	size_t best_at = 0, best_len = 0;
	long best = -1;
	for (size_t k = 0; k < nr; k++) {
		size_t len = strlen(sfx[k]), from = len < off ? off - len : 0;
		for (size_t p = from; p <= off; p++) {
			if (best >= 0 && (p > best_at || (p == best_at && len <= best_len)))
				break;
			if (!strncmp(name + p, sfx[k], len)) {
				best = (long)k;
				best_at = p;
				best_len = len;
				break;
			}
		}
	}
	return best;
}

static const char **suffixes;
static size_t nr_suffixes;

static void load_suffixes(void)
{
	static int loaded;
	const char **old;
	size_t nr_old;
	if (loaded)
		return;
	loaded = 1;
	nr_suffixes = config_get_all("versionsort.suffix", &suffixes);
	nr_old = config_get_all("versionsort.prereleasesuffix", &old);
	if (nr_suffixes && nr_old)
		warning("ignoring versionsort.prereleasesuffix because versionsort.suffix is set");
	if (!nr_suffixes) {
		free(suffixes);
		suffixes = old;
		nr_suffixes = nr_old;
	} else
		free(old);
	/* a bare "suffix" line (no value) names no suffix */
	{
		size_t n = 0;
		for (size_t k = 0; k < nr_suffixes; k++)
			if (suffixes[k])
				suffixes[n++] = suffixes[k];
		nr_suffixes = n;
	}
}

int versioncmp(const char *s1, const char *s2)
{
	size_t off = 0;
	long p1, p2;

	load_suffixes();
	if (nr_suffixes) {
		while (s1[off] && s1[off] == s2[off])
			off++;
		if (s1[off] == s2[off])
			return 0;
		p1 = suffix_place(s1, off, suffixes, nr_suffixes);
		p2 = suffix_place(s2, off, suffixes, nr_suffixes);
		if (p1 != p2) {
			if (p1 >= 0 && p2 >= 0)
				return p1 < p2 ? -1 : 1;
			return p1 >= 0 ? -1 : 1;
		}
	}
	return strverscmp_own(s1, s2);
}
