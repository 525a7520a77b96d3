/* object-hash.c: hashing objects the way git names them. */
#include "sha1/object-hash.h"

int object_header_format(char *buf, size_t bufsz, const char *type, size_t len)
{
	int n = snprintf(buf, bufsz, "%s %zu", type, len);

	/* snprintf's count excludes the NUL, which is part of the header. */
	if (n < 0 || (size_t)n >= bufsz)
		return -1;
	return n + 1;
}

void hash_object_header(struct sha1_ctx *c, const char *type, size_t len)
{
	/* The type goes in by itself so that a type name of any length
	 * (hash-object --literally) needs no buffer of its own. */
	char size[32];
	int n = snprintf(size, sizeof(size), " %zu", len);

	sha1_init(c);
	sha1_update(c, type, strlen(type));
	sha1_update(c, size, (size_t)n + 1);
}

void hash_object_buf(const char *type, const void *data, size_t len,
		     struct object_id *oid)
{
	struct sha1_ctx c;

	hash_object_header(&c, type, len);
	sha1_update(&c, data, len);
	sha1_final(oid->hash, &c);
}
