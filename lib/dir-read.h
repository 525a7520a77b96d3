/* dir-read.h: listing a directory in one pass of getdents64. */
#ifndef LIB_DIR_READ_H
#define LIB_DIR_READ_H

/*
 * Calls fn for each entry of the directory path but "." and "..", with
 * its name and d_type (DT_UNKNOWN on some file systems: callers that
 * care stat()), in the order the kernel gives, until fn returns non-zero,
 * which is returned; 0 at the end. -1 (errno set) if path cannot be
 * opened as a directory. getdents64 directly: opendir() would add an
 * fstat() and a heap buffer.
 */
int dir_read(const char *path, int (*fn)(const char *name, unsigned type, void *data),
	     void *data);

#endif
