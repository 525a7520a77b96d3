/* pack-walk.h: resolve every object of a .pack, on all threads.
 *
 * One pass over the entries decodes each header (offset, type, size, base)
 * and computes the CRC32 of the entry's bytes. Whole objects are the roots
 * of delta trees; each root is inflated once, hashed, handed to the
 * object callback, and then its delta children are resolved from it in
 * memory, depth first, the base being freed when its last child is done.
 * Different trees (and large sibling sets) run on different threads.
 *
 * Two modes:
 *  - with the pack's .idx (fsck): entry boundaries come from the index's
 *    offsets, the first pass is split across threads too, and each object
 *    carries its index position so the caller can compare id and CRC;
 *  - without (index-pack): the first pass inflates every entry to find
 *    where it ends. REF_DELTA bases are then found by id among the pack's
 *    own objects as they are resolved; bases that are not in the pack are
 *    asked of opts->external_base (thin packs), else reported as missing.
 *
 * Whole objects and deltas are inflated with odb/inflate.h's decoder
 * first, zlib when it refuses or MINI_GIT_INFLATE=zlib is set.
 *
 * The pack must be wholly in memory (mmap it). Every offset, size and
 * varint read from it is bounds-checked; a damaged entry fails alone (and
 * its delta descendants with it) and is reported through opts->error.
 * Callbacks run concurrently on the pool's threads unless opts->threads
 * is 1; they must be thread-safe. The walk never writes anything. */
#ifndef ODB_PACK_WALK_H
#define ODB_PACK_WALK_H

#include <stdint.h>
#include "odb/odb.h"
#include "odb/pack-idx.h"

struct thread_pool;

#define PACK_WALK_NO_POS UINT32_MAX

struct pack_walk_object {
	struct object_id oid;
	enum object_type type;   /* OBJ_COMMIT..OBJ_TAG: the resolved type */
	const void *data;        /* size bytes and a NUL; valid during the call */
	size_t size;
	uint64_t offset;         /* of the entry's header in the pack */
	uint64_t packed_len;     /* the entry's bytes, header included */
	uint32_t crc;            /* CRC32 (zlib's) of those packed_len bytes */
	uint32_t idx_crc;        /* the CRC opts->idx records (v2); else crc */
	uint32_t nr;             /* entry number, in pack (offset) order */
	uint32_t idx_pos;        /* position in opts->idx; PACK_WALK_NO_POS without */
	uint32_t tag;            /* opts->tags[idx_pos], or 0 */
	enum object_type in_pack_type; /* as stored: may be OBJ_OFS/REF_DELTA */
	unsigned depth;          /* delta chain length; 0 for a whole object */
	const struct object_id *base; /* the delta base's id, NULL for a root */
	int worker;              /* 0..threads-1, for per-thread state */
};

enum pack_walk_error_kind {
	PACK_WALK_BAD_PACK,      /* no "PACK" signature, bad version, too short */
	PACK_WALK_TRUNCATED,     /* entries run past the end (no-idx mode) */
	PACK_WALK_BAD_OFFSET,    /* an index offset outside the pack, or two
				    entries at one offset (idx mode) */
	PACK_WALK_BAD_HEADER,    /* unparseable entry header or bad type */
	PACK_WALK_BAD_DATA,      /* zlib stream broken, or size != header's */
	PACK_WALK_BAD_DELTA,     /* delta does not apply to its base */
	PACK_WALK_BAD_BASE,      /* its base failed, so it cannot be resolved */
	PACK_WALK_MISSING_BASE,  /* REF_DELTA base not found, or OFS_DELTA base
				    offset not the start of an entry */
	PACK_WALK_DELTA_CYCLE,   /* entries whose bases never resolve (loop) */
};

struct pack_walk_error {
	enum pack_walk_error_kind kind;
	uint64_t offset;         /* of the failing entry */
	uint32_t nr;             /* its entry number (offset order) */
	uint32_t idx_pos;        /* PACK_WALK_NO_POS without an index */
	struct object_id base;   /* MISSING_BASE of a REF_DELTA: the wanted id */
	uint64_t base_offset;    /* MISSING_BASE of an OFS_DELTA */
	const char *detail;      /* zlib's message or NULL; static storage */
	uint64_t packed_len;     /* the entry's bytes (0 if unknown) */
	uint32_t crc;            /* CRC32 of those bytes (idx mode: always) */
	uint32_t idx_crc;        /* the CRC opts->idx records (v2); else crc */
};

/*
 * What opts->progress hears, in this order:
 *  - PACK_WALK_ENTRY_READ (scan mode), on the calling thread, after each
 *    entry the first pass has read: nr entries read so far, the entry's
 *    offset, type as stored, hdr_len (header and base reference) and end.
 *    Like git, which reads the trailer only after the entries, the count
 *    goes on into the last 20 bytes when the pack is cut short there
 *    (end then passes len - 20; the walk still fails as before), and
 *    PACK_WALK_ENTRY_FAILED then says where that count stopped: error
 *    (BAD_HEADER or BAD_DATA, detail zlib's message) at offset;
 *  - PACK_WALK_ENTRIES_DONE once every entry is known (before any is
 *    resolved): nr the number of delta entries, end where the entries
 *    end, checksum_ok the trailer check (scan mode with verify_checksum:
 *    the walk waits for it; else -1);
 *  - PACK_WALK_DELTA_RESOLVED after each delta resolved, on any thread,
 *    concurrently: keep it cheap (an atomic add; see lib/progress.h).
 */
enum pack_walk_event_kind {
	PACK_WALK_ENTRY_READ,
	PACK_WALK_ENTRIES_DONE,
	PACK_WALK_DELTA_RESOLVED,
	PACK_WALK_ENTRY_FAILED,
};

struct pack_walk_event {
	enum pack_walk_event_kind kind;
	uint32_t nr;
	enum object_type type;
	unsigned hdr_len;
	uint64_t offset, end;
	int checksum_ok;
	enum pack_walk_error_kind error;  /* ENTRY_FAILED */
	const char *detail;               /* ENTRY_FAILED: zlib's, or NULL */
};

struct pack_walk_opts {
	const struct pack_idx *idx;  /* NULL: scan mode (index-pack) */
	int threads;                 /* 0: thread_pool_default_threads() */
	struct thread_pool *pool;    /* use this pool instead of making one */
	int verify_checksum;         /* hash the pack to check its trailer */

	/* Every resolved object, once. Return value is ignored. */
	void (*object)(const struct pack_walk_object *obj, void *data);
	/* Every failure; calls are serialised by the walk. */
	void (*error)(const struct pack_walk_error *err, void *data);
	/* Optional: a REF_DELTA base that is not in the pack (thin pack).
	 * Return a malloc'ed buffer (with NUL after size bytes) or NULL. Called
	 * once per missing id after all in-pack objects are resolved. */
	void *(*external_base)(const struct object_id *oid, enum object_type *type,
			       size_t *size, void *data);
	/* Optional, idx mode: a value per index position, handed back with
	 * each object as its tag (fsck: where the object is in its table).
	 * Read in one pass as the entries are set up. */
	const uint32_t *tags;
	/* Optional: called with an entry's tag just before the entry is
	 * inflated, so the caller can prefetch what its object callback
	 * will touch. */
	void (*prefetch)(uint32_t tag, void *data);
	void *data;
	/* Optional: progress of the walk (see struct pack_walk_event). */
	void (*progress)(const struct pack_walk_event *ev, void *data);
};

struct pack_walk_result {
	uint32_t nr_objects;     /* the pack header's count */
	uint32_t nr_entries;     /* entries found (scan) or listed (idx) */
	uint32_t nr_resolved;    /* objects handed to opts->object */
	uint32_t nr_failed;
	uint64_t entries_end;    /* offset where the last entry ends */
	unsigned char checksum[RAW_SZ]; /* SHA-1 of the pack before its trailer */
	int checksum_ok;         /* verify_checksum: it equals the trailer */
};

/*
 * Walks the pack in pack[0..len). Returns 0 when every entry resolved
 * (and, with verify_checksum, the trailer matched), 1 when some entries
 * failed (each reported), -1 when the pack itself is unusable (reported
 * as PACK_WALK_BAD_PACK or PACK_WALK_TRUNCATED). res may be NULL.
 */
int pack_walk(const void *pack, size_t len, const struct pack_walk_opts *opts,
	      struct pack_walk_result *res);

/* Objects resolved so far by the running walks (for progress meters). */
uint32_t pack_walk_progress(void);

#endif
