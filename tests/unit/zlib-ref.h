/* zlib-ref.h: zlib as the reference our decoder (odb/inflate.c) is held
 * to, shared by the unit test (t-inflate) and the fuzz target
 * (fuzz-inflate).
 *
 * zlib_inflate(): zlib's verdict as callers ask it: exactly size bytes
 * into out (room for one more), stream ended; *consumed (if not NULL) the
 * input it took.
 * zlib_head(): how many of the first n bytes zlib yields from
 * in[0..avail) before it stops (output full, input exhausted, end of
 * stream or an error). */
#ifndef TESTS_UNIT_ZLIB_REF_H
#define TESTS_UNIT_ZLIB_REF_H

#include <string.h>
#include <zlib.h>

/* A stream from in[0..avail) into out[0..room); 0 if zlib refuses. */
static inline int zlib_start(z_stream *z, const unsigned char *in, size_t avail,
			     unsigned char *out, size_t room)
{
	memset(z, 0, sizeof(*z));
	if (inflateInit(z) != Z_OK)
		return 0;
	z->next_in = (unsigned char *)in;
	z->avail_in = (uInt)avail;
	z->next_out = out;
	z->avail_out = (uInt)room;
	return 1;
}

static inline int zlib_inflate(const unsigned char *in, size_t avail, unsigned char *out,
			       size_t size, size_t *consumed)
{
	z_stream z;
	int ok;
	if (!zlib_start(&z, in, avail, out, size + 1))
		return 0;
	ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == size;
	if (consumed)
		*consumed = z.total_in;
	inflateEnd(&z);
	return ok;
}

static inline size_t zlib_head(const unsigned char *in, size_t avail, unsigned char *out, size_t n)
{
	z_stream z;
	size_t got;
	if (!zlib_start(&z, in, avail, out, n))
		return 0;
	while (z.avail_out && inflate(&z, Z_SYNC_FLUSH) == Z_OK)
		;
	got = n - z.avail_out;
	inflateEnd(&z);
	return got;
}

#endif
