/* lockfile.h: git's lock-file protocol. <path>.lock is created with
 * O_CREAT|O_EXCL; the new content goes there; commit fsyncs (where git
 * does) and renames it over <path>; rollback unlinks it. Locks still held
 * at exit or on a fatal signal are removed. */
#ifndef LIB_LOCKFILE_H
#define LIB_LOCKFILE_H

#include "lib/strbuf.h"

struct lock_file {
	int fd;
	struct strbuf path;     /* the .lock file */
	struct lock_file *next; /* for cleanup at exit */
	int active;
};

/*
 * Take <path>.lock. timeout_ms > 0 retries with backoff (git's
 * core.packedRefsTimeout style). Returns fd, or -1 with errno set; on
 * EEXIST, lock_file_error() gives git's "Unable to create '...lock': File
 * exists." message with the "Another git process seems to be running"
 * advice.
 */
int lock_file_acquire(struct lock_file *lk, const char *path, long timeout_ms);
/* Append git's message for a failed acquire to sb. */
void lock_file_error(struct strbuf *sb, const char *path, int err);
/* fsync (unless closed unsynced) and rename; 0 or -1 */
int lock_file_commit(struct lock_file *lk);
/* Close the lock's file unsynced, for a caller that syncs many at once
 * (syncfs) before it commits them: commit then only renames. 0 or -1. */
int lock_file_close_unsynced(struct lock_file *lk);
void lock_file_rollback(struct lock_file *lk);
/* The path the lock will be renamed to (without ".lock"). */
const char *lock_file_target(struct lock_file *lk, struct strbuf *sb);

#endif
