/* index-file.h: writing .git/index, version 2 (gitformat-index): a
 * 12-byte header, entries sorted by path (stat data, mode, object id,
 * flags, the path NUL-padded to a multiple of 8), the SHA-1 of it all. */
#ifndef LIB_INDEX_FILE_H
#define LIB_INDEX_FILE_H

#include "lib/hex.h"
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

#endif
