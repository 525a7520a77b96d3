/* index-file.h: reading .git/index, and writing it in version 2 (gitformat-index): a
 * 12-byte header, entries sorted by path (stat data, mode, object id,
 * flags, the path NUL-padded to a multiple of 8), the SHA-1 of it all. */
#ifndef LIB_INDEX_FILE_H
#define LIB_INDEX_FILE_H

#include "lib/hex.h"
#include "lib/strbuf.h"
#include <sys/stat.h>

struct index_entry {
	char *path;
	struct object_id oid;
	unsigned mode;                 /* 0100644, 0100755, 0120000, 0160000 */
	uint32_t ctime_sec, ctime_nsec, mtime_sec, mtime_nsec;
	uint32_t dev, ino, uid, gid, size;
};

/* Fill the stat fields from st (as git truncates them to 32 bits). */
void index_entry_set_stat(struct index_entry *e, const struct stat *st);

/* Sorts entries by path and writes them to path through path.lock.
 * 0, or -1 after error(). */
int index_write(const char *path, struct index_entry *entries, size_t nr);

/* Reading: the entries of an index file, versions 2 to 4, in order. */
struct index_reader {
	const unsigned char *p, *end;   /* end: where the trailing checksum starts */
	uint32_t version, left;
	struct strbuf path;             /* the current entry's path */
};
struct index_entry_ref {
	const unsigned char *raw;       /* the entry as stored (stat data first) */
	struct object_id oid;
	unsigned mode, stage;
	const char *path;               /* the reader's: valid until the next entry */
	size_t path_len;
};

/* -1 unless buf holds an index ("DIRC", version 2 to 4, room for its
 * checksum); nothing is allocated then. */
int index_reader_init(struct index_reader *r, const void *buf, size_t len);
/* 1 with *e filled, 0 after the last entry (r->p then where the
 * extensions start), -1 at an entry that does not fit or parse. */
int index_reader_next(struct index_reader *r, struct index_entry_ref *e);
void index_reader_release(struct index_reader *r);

#endif
