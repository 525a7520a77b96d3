/* sorted.c: sorting and searching sorted arrays (lib/sorted.h). */
#include "lib/util.h"
#include "lib/sorted.h"

static void sort_range(char *b, size_t n, size_t size, char *tmp,
		       int (*cmp)(const void *, const void *), int transitive)
{
	size_t n1 = n / 2, n2 = n - n1;
	char *left = b, *right = b + n1 * size, *out = tmp;

	if (n <= 1)
		return;
	sort_range(left, n1, size, tmp, cmp, transitive);
	sort_range(right, n2, size, tmp, cmp, transitive);
	/* For an order, halves already in order merge into themselves. The
	 * first element this looks at is the one the merge would (a half
	 * of one element is the only one not compared before). */
	if (transitive && cmp(right - size, right) <= 0)
		return;
	while (n1 && n2) {
		if (cmp(left, right) <= 0) {
			memcpy(out, left, size);
			left += size;
			n1--;
		} else {
			memcpy(out, right, size);
			right += size;
			n2--;
		}
		out += size;
	}
	/* what is left of the right half is in place already */
	memcpy(out, left, n1 * size);
	memcpy(b, tmp, (size_t)(out - tmp) + n1 * size);
}

static void sort_all(void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *), int transitive)
{
	char *tmp;
	if (n < 2)
		return;
	tmp = xmalloc(st_mult(n, size));
	sort_range(base, n, size, tmp, cmp, transitive);
	free(tmp);
}

void msort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	sort_all(base, n, size, cmp, 0);
}

void msort_ordered(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	sort_all(base, n, size, cmp, 1);
}

size_t lower_bound(const void *base, size_t n, size_t size, const void *key,
		   int (*cmp)(const void *elem, const void *key))
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp((const char *)base + mid * size, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int cmp_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}
