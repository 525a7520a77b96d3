/* delta.h: git's delta format (gitformat-pack "Deltified representation").
 *
 * A delta is: the base size and the result size as little-endian base-128
 * varints, then instructions. An instruction byte with bit 7 set copies
 * from the base: bits 0-3 say which of 4 offset bytes follow, bits 4-6
 * which of 3 size bytes follow (a size of 0 means 0x10000). A byte 1..127
 * inserts that many literal bytes that follow it. A byte 0 is reserved and
 * invalid. Every function here is pure and thread-safe. */
#ifndef ODB_DELTA_H
#define ODB_DELTA_H

#include <stddef.h>
#include <stdint.h>

/* Reads one size varint from *p (not past end); advances *p. 0, or -1 if
 * it runs past end or does not fit in 64 bits. */
int delta_read_size(const unsigned char **p, const unsigned char *end, uint64_t *out);

/* Both sizes of a delta's header; 0 or -1 (truncated/overflow). */
int delta_header_sizes(const void *delta, size_t len, uint64_t *base_size, uint64_t *result_size);

/*
 * Applies delta to base. Returns a malloc'ed buffer of *result_size bytes
 * plus a NUL, or NULL when the delta is invalid: base size mismatch, an
 * instruction reading outside the base or past the delta's end, the reserved
 * opcode 0, or a result whose length differs from the header's. Nothing is
 * printed; if why is not NULL it gets git's wording for the failure
 * ("delta replay has gone wild") or NULL when git 2.39 says nothing (a
 * base size mismatch, a truncated header, the reserved opcode 0).
 */
void *delta_apply(const void *base, size_t base_len, const void *delta, size_t delta_len,
		  size_t *result_size, const char **why);

#endif
