/* pack-idx.h: pack index files (.idx), version 1 and 2 (gitformat-pack).
 *
 * v1: 256 fan-out words, then per object a 4-byte offset and a 20-byte id.
 * v2: "\377tOc", version 2, fan-out, ids, CRC32s, 4-byte offsets (bit 31
 *     set: index into the table of 8-byte offsets that follows).
 * Both end with the pack's checksum and the index's own checksum.
 *
 * An index is mmap'ed whole and checked on open (size against the object
 * count, fan-out monotonic). Lookups only read the map, so they are safe
 * from several threads once the index is open. */
#ifndef ODB_PACK_IDX_H
#define ODB_PACK_IDX_H

#include <stdint.h>
#include <stddef.h>

/* Maps up to this size get no madvise(): read-ahead covers them anyway. */
#define PACK_SMALL_MAP (128 * 1024)

struct pack_idx {
	const unsigned char *map;
	size_t size;
	int version;                 /* 1 or 2 */
	uint32_t nr;                 /* objects */
	const unsigned char *fanout; /* 256 big-endian words */
	const unsigned char *ids;    /* first id */
	size_t stride;               /* bytes from one id to the next */
	const unsigned char *crc;    /* v2 */
	const unsigned char *off32;  /* v2 */
	const unsigned char *off64;  /* v2 */
	uint32_t nr64;               /* entries in the 8-byte table */
	const char *name;            /* basename, for MINI_GIT_DEBUG_LOOKUP */
	char *path;
};

/* Maps and checks path. 0, or -1 after printing git's error (e.g. "index
 * file X is too small", "non-monotonic index X"). */
int pack_idx_open(struct pack_idx *idx, const char *path);
/* Same checks on a buffer the caller owns (unit tests). */
int pack_idx_init(struct pack_idx *idx, const void *buf, size_t size, const char *path);
void pack_idx_close(struct pack_idx *idx);

enum pack_lookup_mode { PACK_LOOKUP_BSEARCH, PACK_LOOKUP_INTERP };
/* The mode from MINI_GIT_LOOKUP (bsearch|interp), else the default. Reads
 * the environment once: call it first from one thread. */
enum pack_lookup_mode pack_lookup_mode(void);

/*
 * Finds a 20-byte id. Returns 1 and *pos when found; 0 when not, with *pos
 * the position where it would be inserted (the first id greater than it).
 * With MINI_GIT_DEBUG_LOOKUP=1 each probe prints
 * "lookup: <idx basename> pos=<n> lo=<n> hi=<n>" to stderr.
 */
int pack_idx_lookup(const struct pack_idx *idx, const unsigned char *id, uint32_t *pos);
int pack_idx_lookup_mode(const struct pack_idx *idx, const unsigned char *id,
			 enum pack_lookup_mode mode, uint32_t *pos);

static inline const unsigned char *pack_idx_id(const struct pack_idx *idx, uint32_t pos)
{
	return idx->ids + (size_t)pos * idx->stride;
}
/* Offset of entry pos in the pack, or UINT64_MAX when a v2 index points
 * outside its 8-byte table. */
uint64_t pack_idx_offset(const struct pack_idx *idx, uint32_t pos);
/* v2 only (0 for v1). */
uint32_t pack_idx_crc(const struct pack_idx *idx, uint32_t pos);
/* The pack checksum recorded in the index (20 bytes). */
static inline const unsigned char *pack_idx_pack_checksum(const struct pack_idx *idx)
{
	return idx->map + idx->size - 40;
}

#endif
