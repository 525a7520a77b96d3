/* pack.h: packfiles (.pack v2 and v3) and their entries.
 *
 * Two layers:
 *
 * 1. Low-level, thread-safe entry API (used by the reader below and by
 *    whole-pack verifiers such as fsck and index-pack): open a pack and its
 *    index, list entries in pack order, decode an entry header, inflate an
 *    entry, apply a delta (odb/delta.h). After pack_open() and pack_map()
 *    have returned in one thread, every function of this layer only reads
 *    the two maps and the caller's z_stream, so any number of threads may
 *    call them at once on the same pack, each with its own z_stream. No
 *    cache is involved.
 *
 * 2. The reader (pack_read_object with a struct pack_reader): follows delta
 *    chains with a small delta-base cache so that long chains are not
 *    re-inflated. A reader belongs to one thread.
 *
 * Entry layout: a header whose first byte holds the type in bits 4-6 and
 * the low 4 bits of the size, continued 7 bits at a time while bit 7 is
 * set; for OFS_DELTA a base-128 "offset encoding" of the distance back to
 * the base; for REF_DELTA the base's 20-byte id; then zlib data that
 * inflates to exactly the header's size (for deltas: the delta's size).
 *
 * Read-ahead policy (one place: pack_advise_*): point lookups want
 * MADV_RANDOM on the .idx and .pack maps (the kernel would otherwise read
 * 128 KiB around each touched page, almost all of it useless); maps are
 * set to MADV_RANDOM when created. A process that makes many lookups
 * (cat-file --batch on thousands of objects) eventually touches most pages
 * anyway and then benefits from read-ahead, so after PACK_RANDOM_LOOKUPS
 * lookups in one pack the maps switch to MADV_NORMAL. Measured with
 * perf/lookup (1000 cold lookups in a pack of 1M objects): MADV_RANDOM
 * reads 4x fewer bytes (9 MB against 40 MB) but takes one major fault
 * per page and 4x the time (284 ms against 67 ms); a handful of lookups
 * is where RANDOM wins (one 4 KiB read instead of 128 KiB per probe). Walks over a whole
 * pack (batch-all-objects in pack order, fsck, index-pack) call
 * pack_advise_walk(), which asks for MADV_SEQUENTIAL.
 * MINI_GIT_READAHEAD=random|normal|auto forces a policy (auto: the above).
 */
#ifndef ODB_PACK_H
#define ODB_PACK_H

#include <zlib.h>
#include "odb/odb.h"
#include "odb/pack-idx.h"

#define PACK_RANDOM_LOOKUPS 64

struct packed_git {
	struct packed_git *next;
	struct pack_idx idx;        /* valid when idx_state == 1 */
	int idx_state;              /* 0 not tried, 1 open, -1 failed */
	char *idx_path;
	char *pack_path;
	const unsigned char *map;   /* the whole .pack once pack_map() succeeded */
	size_t map_size;
	int map_state;              /* 0 not tried, 1 mapped, -1 failed */
	int local;                  /* in the repository's own objects dir */
	int64_t mtime;
	unsigned lookups;           /* for the read-ahead policy */
	int advice;                 /* current madvise() advice */
	int pack_seen;              /* object store: 1 the .pack exists, 0 not
				     * looked at yet, -1 missing */
};

/* Fills p for "<dir>/pack-X.idx" without touching the disk. */
void pack_init(struct packed_git *p, const char *idx_path);
/* Opens and checks the .idx (once). 0, or -1 (error printed by
 * pack_idx_open for a bad index; silent if it does not exist). */
int pack_open_index(struct packed_git *p);
/* Maps the .pack (once) and checks its header (PACK, version 2 or 3,
 * object count equal to the index's) and that its trailing checksum is the
 * one the index records. 0, or -1 after git's error. */
int pack_map(struct packed_git *p);
/* pack_init + pack_open_index + pack_map. */
int pack_open(struct packed_git *p, const char *idx_path);
void pack_close(struct packed_git *p);

/* Decoded entry header. */
struct pack_entry {
	uint64_t offset;              /* of the header */
	enum object_type type;        /* as stored: 1-4, OBJ_OFS_DELTA or OBJ_REF_DELTA */
	uint64_t size;                /* inflated size of the data (the delta for deltas) */
	unsigned hdr_len;             /* header bytes, base reference included */
	uint64_t base_offset;         /* OBJ_OFS_DELTA: offset of the base entry */
	struct object_id base_oid;    /* OBJ_REF_DELTA: id of the base */
};

/* Decodes the header at offset; checks it lies inside the pack data, the
 * type is valid and an OFS base lies before the entry. 0 or -1 (silent:
 * the caller names the object in its message; e->type then holds the
 * invalid type 0 or 5 if that was the problem, else OBJ_BAD). */
int pack_entry_header(const struct packed_git *p, uint64_t offset, struct pack_entry *e);

/* zlib stream for the functions below: one per thread, reused for every
 * entry (inflateReset, not inflateInit, per object). */
void pack_zstream_init(z_stream *zs);
void pack_zstream_end(z_stream *zs);

/* Inflates the whole entry: a malloc'ed buffer of e->size bytes plus a
 * NUL, or NULL after printing zlib's error ("inflate: data stream error
 * (...)") when the data is corrupt or does not inflate to exactly e->size
 * bytes, or runs past the end of the pack. */
void *pack_inflate_entry(const struct packed_git *p, const struct pack_entry *e, z_stream *zs);
/* Inflates only the first up to n bytes into buf (a delta's size header).
 * Returns the count, or -1. */
ssize_t pack_inflate_prefix(const struct packed_git *p, const struct pack_entry *e,
			    z_stream *zs, unsigned char *buf, size_t n);

/* The first n bytes (n <= e->size) of a whole (non-delta) entry into buf,
 * which has room for n + FAST_INFLATE_SLACK (odb/inflate.h) bytes, with
 * the fast decoder only and without checking the rest of the stream.
 * 0, or -1 without a message: the caller then reads the entry the strict
 * way, which reports what is wrong. Thread-safe like the layer above. */
int pack_inflate_head(const struct packed_git *p, const struct pack_entry *e,
		      unsigned char *buf, size_t n);

/* Entries in pack order: offsets ascending, with the index position of
 * each. A malloc'ed array of idx.nr elements. The end of entry i (for CRC
 * or length checks) is the offset of i+1, or map_size - 20 for the last. */
struct pack_order {
	uint64_t offset;
	uint32_t pos;
};
struct pack_order *pack_entries_in_pack_order(const struct packed_git *p);

/* The read-ahead policy (see above). */
void pack_advise_lookup(struct packed_git *p);
void pack_advise_walk(struct packed_git *p);

/* Reader: resolves delta chains with a delta-base cache. */
struct delta_base_cache;
struct pack_reader {
	z_stream zs;
	struct delta_base_cache *cache;   /* NULL: no caching */
	/* Reads a REF_DELTA base that is not in this pack (thin packs,
	 * bases elsewhere). NULL: such deltas fail, as in git ("failed to
	 * validate delta base reference"); the object store leaves it NULL. */
	void *(*read_external)(const struct object_id *oid, enum object_type *type, size_t *size);
	int (*header_external)(const struct object_id *oid, enum object_type *type, size_t *size);
};
void pack_reader_init(struct pack_reader *r, int with_cache);
void pack_reader_release(struct pack_reader *r);

/*
 * The object whose entry starts at offset, delta chains followed. A
 * malloc'ed buffer of *size bytes plus a NUL, or NULL after an error was
 * printed (corrupt entry, bad delta, missing base).
 */
void *pack_read_object(struct pack_reader *r, const struct packed_git *p, uint64_t offset,
		       enum object_type *type, size_t *size);
/* Type and size only: walks the chain's headers and inflates only the
 * first bytes of the top delta. 0 or -1. */
int pack_read_header(struct pack_reader *r, const struct packed_git *p, uint64_t offset,
		     enum object_type *type, size_t *size);

#endif
