/* loose.h: loose objects, objects/xx/<38 hex>: zlib of "<type> <size>\0"
 * followed by the contents. */
#ifndef ODB_LOOSE_H
#define ODB_LOOSE_H

#include "odb/odb.h"

/* "<objdir>/xx/yyyy..." into sb (reset first). */
void loose_path(struct strbuf *sb, const char *objdir, const struct object_id *oid);

/*
 * Reads the loose object oid from objdir. With data NULL only the header
 * is inflated. Returns 1 (found; *type, *size and *data set), 0 (no such
 * file), or -1 after printing git's error for a corrupt object ("unable
 * to unpack X header", "inflate: ...", "corrupt loose object 'X'",
 * "garbage at end of loose object 'X'").
 */
int loose_read(const char *objdir, const struct object_id *oid,
	       enum object_type *type, size_t *size, void **data);

/* Streams the contents of the loose object to out as git's loose stream
 * reader does (see odb_stream_blob): the whole zlib stream, whatever the
 * header says. 1 done, 0 no such file, -1 error. */
int loose_stream(const char *objdir, const struct object_id *oid, FILE *out);

/* Does the file exist (one stat, nothing read)? */
int loose_exists(const char *objdir, const struct object_id *oid);

/* Writes the object (already hashed into oid) under objdir; level is the
 * zlib level. 0, or -1 after an error. */
int loose_write(const char *objdir, const struct object_id *oid, const char *type,
		const void *data, size_t len, int level);

/* Calls cb for every loose object in objdir, sorted within each xx/ dir
 * (and so sorted overall). Only names of 38 hex digits count. */
int loose_for_each(const char *objdir, odb_oid_cb cb, void *data);
/* Loose objects whose hex id starts with hex[0..len) (len >= 2), sorted.
 * Each objects/xx/ is listed once per process and kept (see loose.c). */
int loose_for_each_prefix(const char *objdir, const char *hex, size_t len,
			  odb_oid_cb cb, void *data);
/* The next prefix questions will be about this many objects/xx/ dirs. */
void loose_cache_expect(size_t dirs);
/* Forget the listings kept by loose_for_each_prefix. */
void loose_cache_clear(void);

#endif
