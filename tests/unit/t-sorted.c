/* t-sorted: msort() sorts, keeps equal elements in their order, and
 * splits and merges as git's merge sort does (seen through a comparison
 * that is not an order); msort_ordered() gives the same result, looks at
 * elements first in the same order, and sorts a sorted array in n - 1
 * comparisons; lower_bound() finds the first element not below a key. */
#include "lib/util.h"
#include "lib/sorted.h"
#include "tests/unit/tap.h"

struct item {
	unsigned key, at;
};

static int by_key(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Rock, paper, scissors: 0 < 1 < 2 < 0. */
static int cyclic(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x == y ? 0 : (y - x + 3) % 3 == 1 ? -1 : 1;
}

/* by_key, counting comparisons and noting the order in which elements
 * are first looked at (by their "at"). */
static size_t ncmp, nseen;
static unsigned seen_order[1000];
static unsigned char seen[1000];

static void look(const struct item *x)
{
	if (!seen[x->at]) {
		seen[x->at] = 1;
		seen_order[nseen++] = x->at;
	}
}

static int by_key_noted(const void *a, const void *b)
{
	ncmp++;
	look(a);
	look(b);
	return by_key(a, b);
}

static void sort_noted(void (*sort)(void *, size_t, size_t, int (*)(const void *, const void *)),
		       struct item *v, size_t n, unsigned *order)
{
	ncmp = nseen = 0;
	memset(seen, 0, sizeof(seen));
	sort(v, n, sizeof(*v), by_key_noted);
	memcpy(order, seen_order, nseen * sizeof(*order));
}

static int int_cmp(const void *elem, const void *key)
{
	int x = *(const int *)elem, y = *(const int *)key;
	return (x > y) - (x < y);
}

int main(void)
{
	static struct item v[1000];
	unsigned seed = 12345;
	int ok = 1;

	for (size_t n = 0; n <= 1000; n = n ? n * 3 + 1 : 1) {
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			v[i].key = (seed >> 16) % 17;
			v[i].at = (unsigned)i;
		}
		msort(v, n, sizeof(*v), by_key);
		for (size_t i = 1; i < n; i++)
			if (v[i - 1].key > v[i].key ||
			    (v[i - 1].key == v[i].key && v[i - 1].at > v[i].at))
				ok = 0;
		check(ok, "%zu elements sorted, equal keys in input order", n);
	}
	{
		/* halves [2] and [0,1]; 2 comes before 0, so first. Halves
		 * the other way round ([2,0] and [1]) would give 1 2 0. */
		int a[] = { 2, 0, 1 };
		msort(a, 3, sizeof(*a), cyclic);
		check(a[0] == 2 && a[1] == 0 && a[2] == 1, "cyclic order: %d %d %d", a[0], a[1], a[2]);
	}
	for (size_t n = 1; n <= 1000; n = n * 3 + 1) {
		static struct item a[1000], b[1000];
		static unsigned oa[1000], ob[1000];
		size_t na;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			/* runs of keys in order, some of them out of order */
			a[i].key = (unsigned)(i / 7 + (seed >> 16) % 3 * ((seed >> 20) % 5 == 0));
			a[i].at = (unsigned)i;
		}
		memcpy(b, a, n * sizeof(*a));
		sort_noted(msort, a, n, oa);
		na = nseen;
		sort_noted(msort_ordered, b, n, ob);
		check(!memcmp(a, b, n * sizeof(*a)) && na == nseen && !memcmp(oa, ob, na * sizeof(*oa)),
		      "%zu elements: msort_ordered sorts and first looks at elements as msort does", n);
		sort_noted(msort_ordered, b, n, ob);
		check(ncmp == n - 1, "%zu sorted elements: %zu comparisons", n, ncmp);
	}
	{
		static const int v[] = { 1, 3, 3, 3, 7 };
		static const struct { int key; size_t at; } cases[] = {
			{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 4 }, { 7, 4 }, { 8, 5 } };
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			size_t at = lower_bound(v, 5, sizeof(*v), &cases[i].key, int_cmp);
			check(at == cases[i].at, "lower_bound of %d: %zu (want %zu)", cases[i].key, at,
			      cases[i].at);
		}
		check(lower_bound(v, 0, sizeof(*v), &v[0], int_cmp) == 0, "lower_bound in nothing: 0");
	}
	return tap_done();
}
