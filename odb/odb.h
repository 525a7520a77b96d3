/* odb.h: the object store: loose objects, packs (mmap'ed, found through
 * their .idx), alternates. Lazy: nothing is opened until the first lookup,
 * and a lookup touches only the index and pack pages it needs.
 *
 * Errors: a missing object is not an error here (functions return -1 or
 * NULL); corruption dies with git's message and exit code 128 unless the
 * _gently variant is used. */
#ifndef ODB_ODB_H
#define ODB_ODB_H

#include "lib/hex.h"
#include "lib/strbuf.h"

enum object_type {
	OBJ_BAD = -1,
	OBJ_NONE = 0,
	OBJ_COMMIT = 1,
	OBJ_TREE = 2,
	OBJ_BLOB = 3,
	OBJ_TAG = 4,
	/* 5 is reserved */
	OBJ_OFS_DELTA = 6,
	OBJ_REF_DELTA = 7,
};

/* "commit", "tree", "blob", "tag"; NULL for anything else. */
const char *type_name(enum object_type t);
/* OBJ_BAD for an unknown name. */
enum object_type type_from_string(const char *s, size_t len);

/*
 * Read a whole object. Returns a malloc'ed buffer of *size bytes with a NUL
 * after the last byte (so text parsers may rely on it), or NULL if the
 * object does not exist. Dies on corruption.
 */
void *odb_read_object(const struct object_id *oid, enum object_type *type, size_t *size);
/* Same, but returns NULL after printing an error for corruption too. */
void *odb_read_object_gently(const struct object_id *oid, enum object_type *type, size_t *size);

/* Type and size, inflating no more than the object header (for a delta in
 * a pack: the delta's result size and the base chain's type). 0 or -1 if
 * the object does not exist. */
int odb_read_header(const struct object_id *oid, enum object_type *type, size_t *size);

/*
 * The start of an object, for readers that need only its first bytes (a
 * commit's parents and date, never its message). Copies the first
 * min(n, size) bytes into buf, which has room for n + ODB_HEAD_SLACK
 * bytes (scratch for the decoder), and returns that count, with *type
 * and *size those of the whole object. Only whole objects in packs are
 * read this way, without the rest of the stream being checked; -1 for
 * anything else (loose, deltified, missing, corrupt, MINI_GIT_INFLATE=zlib),
 * silently: the caller then reads the whole object with
 * odb_read_object(), which checks everything and reports errors as usual.
 */
#define ODB_HEAD_SLACK 288
ssize_t odb_read_object_head(const struct object_id *oid, enum object_type *type,
			     size_t *size, void *buf, size_t n);

/* The pack that holds oid (as the readers above would read it from) and
 * the offset of its entry there; NULL when it is not in a usable pack. */
struct packed_git;
struct packed_git *odb_pack_of(const struct object_id *oid, uint64_t *offset);

int odb_has_object(const struct object_id *oid);
/* What %(objectsize:disk) and %(deltabase) show: the bytes the object
 * takes where it is stored (its pack entry, or its loose file), and the
 * base it is a delta against (the null id if none). 0, or -1. */
int odb_disk_info(const struct object_id *oid, uint64_t *disk_size, struct object_id *delta_base);

/*
 * Write a blob's contents to out the way git streams blobs (cat-file -p,
 * cat-file blob, --batch): a loose blob is inflated 16 KiB at a time and
 * each full chunk written, so a corrupt one fails part way (git prints
 * only zlib's error, and the caller "unable to stream <id> to stdout").
 * Returns 0, or -1 (missing or corrupt).
 */
int odb_stream_blob(const struct object_id *oid, FILE *out);

/*
 * Abbreviated ids. hex is len (4..40) hex digits. Returns 1 with *out set
 * when exactly one object matches, 0 when none, -1 when ambiguous (then
 * *out is one of the candidates). for_each_candidate lists all matches.
 */
int odb_find_prefix(const char *hex, size_t len, struct object_id *out);
typedef int (*odb_oid_cb)(const struct object_id *oid, void *data);
int odb_for_each_prefix_match(const char *hex, size_t len, odb_oid_cb cb, void *data);
/* Length (>= min_len) of the shortest unique abbreviation, as git computes
 * it for --abbrev / --short (core.abbrev "auto" scales with object count:
 * pass min_len 0 for git's default). */
int odb_unique_abbrev_len(const struct object_id *oid, int min_len);
/* An abbreviation of oid will be asked for: callers that know a batch in
 * advance say so first, and the object store chooses how to look for the
 * loose objects that share their prefixes. */
void odb_abbrev_expect(const struct object_id *oid);
/* oid_to_hex cut at that length (rotating static buffers, like oid_to_hex). */
const char *odb_abbrev(const struct object_id *oid, int min_len);

/*
 * Every object: loose ones (sorted by id within each objects/xx/ dir),
 * then each pack in index order. Duplicates are reported as many times as
 * they are stored; callers that need unique sorted ids sort themselves.
 */
enum { ODB_FOR_EACH_LOCAL_ONLY = 1 };
int odb_for_each_object(odb_oid_cb cb, void *data, unsigned flags);

/* Write a loose object (temporary file + rename, mode 0444, objects/xx/
 * created as needed). Returns 0 and sets *oid; an existing object is not
 * rewritten. */
int odb_write_loose(enum object_type type, const void *data, size_t len, struct object_id *oid);
/* Hash only (what hash-object without -w does). */
void odb_hash_object(enum object_type type, const void *data, size_t len, struct object_id *oid);

/* Forget known packs and look at objects/pack/ again (after index-pack). */
void odb_reprepare(void);

/* Directory of the main object store ("<commondir>/objects"). */
const char *odb_objdir(void);

/* Count of objects, approximate (packs' counts + loose estimate), for
 * git's auto abbreviation length. */
size_t odb_approximate_count(void);

#endif
