/* sorted.h: sorted arrays.
 *
 * msort(): a stable merge sort whose result, even for a comparison that
 * is not a strict order (version order with versionsort.suffix), is the
 * same on every libc and the same as git's: halves of n/2 and n - n/2,
 * merged taking from the left on ties.
 *
 * msort_ordered(): msort() for a comparison that is an order (transitive,
 * ties allowed), with the same result; halves already in order are not
 * merged, so an array that is sorted costs n - 1 comparisons.
 *
 * lower_bound(): in an array sorted by cmp, the first element that is not
 * below key (cmp(element, key) >= 0); n if there is none.
 *
 * cmp_strings(): strcmp() order for arrays of C strings (char pointers),
 * for qsort() and the above. */
#ifndef LIB_SORTED_H
#define LIB_SORTED_H

#include <stddef.h>

void msort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void msort_ordered(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
size_t lower_bound(const void *base, size_t n, size_t size, const void *key,
		   int (*cmp)(const void *elem, const void *key));
int cmp_strings(const void *a, const void *b);

#endif
