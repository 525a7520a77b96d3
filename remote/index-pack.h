/* index-pack.h: turn a received pack into a .idx (version 2) with the
 * pack walk engine (odb/pack-walk.h): every object hashed, the CRC32 of
 * every entry, offsets; the same bytes git's index-pack writes. */
#ifndef REMOTE_INDEX_PACK_H
#define REMOTE_INDEX_PACK_H

#include "lib/hex.h"
#include <stdint.h>

struct index_pack_opts {
	int threads;            /* 0: the default (MINI_GIT_THREADS or CPUs) */
	int check_collisions;   /* compare with objects already stored */
	int verbose;            /* git's progress meters on stderr */
	int receiving;          /* the pack came on stdin: "Receiving objects"
				   with its throughput, not "Indexing objects" */
	const char *progress_title; /* instead of either */
	int fix_thin;           /* complete a thin pack with our own bases */
	/* Every id the pack's commits, trees and tags name must be in the
	 * pack (LINKS_IN_PACK: git's --check-self-contained-and-connected)
	 * or, with LINKS_IN_PACK_OR_OURS, in the pack or our objects (what a
	 * fetch needs: a server that leaves objects out is caught here, before
	 * any ref moves). */
	enum { LINKS_UNCHECKED, LINKS_IN_PACK, LINKS_IN_PACK_OR_OURS } check_links;
	uint64_t receive_start_ns;  /* progress_now_ns() when the pack began
				       to arrive (0: unknown) */
};

/*
 * Indexes the pack at pack_path and writes idx_path (through a temporary
 * file and rename). pack_hash gets the pack's checksum (its name). On a
 * bad pack: returns -1 after printing git's message ("fatal: early EOF",
 * "fatal: pack has junk at the end", ...) without writing anything, so the
 * caller can clean up and exit 128.
 */
int index_pack_file(const char *pack_path, const char *idx_path,
		    const struct index_pack_opts *opts, unsigned char pack_hash[RAW_SZ]);

/* Writes a v2 index of nr objects (sorted here) to fd; checksum in
 * idx_hash. Entries: id, offset, CRC32. */
struct idx_entry {
	struct object_id oid;
	uint64_t offset;
	uint32_t crc;
};
int index_write_v2(int fd, struct idx_entry *e, uint32_t nr,
		   const unsigned char pack_hash[RAW_SZ]);



/*
 * A pack received into tmp_pack (a file in objects_pack_dir) is indexed
 * and both files renamed to pack-<hash>.pack/.idx (pack first, so no
 * reader sees an index without its pack). keep_msg non-NULL writes
 * pack-<hash>.keep holding it. On failure tmp_pack is removed. 0 or -1.
 */
int index_pack_store(const char *objects_pack_dir, const char *tmp_pack,
		     const struct index_pack_opts *opts, const char *keep_msg,
		     unsigned char pack_hash[RAW_SZ]);
#endif
