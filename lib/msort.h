/* msort.h: a stable merge sort whose result, even for a comparison that
 * is not a strict order (version order with versionsort.suffix), is the
 * same on every libc and the same as git's: halves of n/2 and n - n/2,
 * merged taking from the left on ties. */
#ifndef LIB_MSORT_H
#define LIB_MSORT_H

#include <stddef.h>

void msort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
