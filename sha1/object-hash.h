/* object-hash.h: object ids are the SHA-1 of "<type> <size>\0" followed by
 * the object's contents. */
#ifndef SHA1_OBJECT_HASH_H
#define SHA1_OBJECT_HASH_H

#include <stddef.h>
#include "sha1/sha1.h"
#include "lib/hex.h"

/* Writes "<type> <len>\0" into buf; returns its length including the NUL,
 * or -1 if that does not fit in bufsz bytes. */
int object_header_format(char *buf, size_t bufsz, const char *type, size_t len);

/* sha1_init(c) then the header, ready for len bytes of contents to be
 * streamed with sha1_update() and finished with sha1_final(). */
void hash_object_header(struct sha1_ctx *c, const char *type, size_t len);

/* The object id of an object held whole in memory. */
void hash_object_buf(const char *type, const void *data, size_t len,
		     struct object_id *oid);

#endif
