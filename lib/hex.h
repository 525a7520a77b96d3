/* hex.h: object ids and their hexadecimal form (SHA-1 only). */
#ifndef LIB_HEX_H
#define LIB_HEX_H

#include "lib/util.h"

#define RAW_SZ 20
#define HEX_SZ 40

struct object_id {
	unsigned char hash[RAW_SZ];
};

static inline int oidcmp(const struct object_id *a, const struct object_id *b)
{
	return memcmp(a->hash, b->hash, RAW_SZ);
}
static inline int oideq(const struct object_id *a, const struct object_id *b)
{
	return !memcmp(a->hash, b->hash, RAW_SZ);
}
static inline void oidcpy(struct object_id *d, const struct object_id *s)
{
	memcpy(d->hash, s->hash, RAW_SZ);
}
static inline int is_null_oid(const struct object_id *o)
{
	static const unsigned char z[RAW_SZ];
	return !memcmp(o->hash, z, RAW_SZ);
}
static inline void oidclr(struct object_id *o)
{
	memset(o->hash, 0, RAW_SZ);
}

/* Writes 40 hex digits + NUL into buf (HEX_SZ + 1 bytes); returns buf. */
char *oid_to_hex_r(char *buf, const struct object_id *oid);
/* Rotating static buffers: up to 4 results usable at once. */
const char *oid_to_hex(const struct object_id *oid);
/* Parse exactly 40 hex digits (case-insensitive); 0 on success, -1 otherwise. */
int get_oid_hex(const char *hex, struct object_id *oid);
/* Like get_oid_hex, and *end points past the 40 digits. */
int parse_oid_hex(const char *hex, struct object_id *oid, const char **end);
/* Value of one hex digit, or -1. */
int hexval(int c);

#endif
