/* inflate.h: a fast decoder for whole zlib streams (RFC 1950/1951) of
 * known decompressed size, tried before zlib.
 *
 * It is strict: it accepts a stream only when zlib would accept it with
 * the same result (header, code sets zlib refuses, distances before the
 * start, the exact size, the Adler-32 trailer), and refuses anything
 * else, so that the caller then runs zlib on the same bytes and reports
 * what is wrong in zlib's own words. It never allocates and may be called
 * from any number of threads at once; what it keeps between calls is its
 * fixed tables (built once, thread-safely) and, per thread, a cache of
 * code length code tables keyed by every bit that defines them.
 *
 * MINI_GIT_INFLATE=zlib in the environment asks callers to use zlib only
 * (for differential tests and fuzzing); see fast_inflate_disabled(). */
#ifndef ODB_INFLATE_H
#define ODB_INFLATE_H

#include <stddef.h>

/* Bytes of scratch the decoder may write past out + out_len: a match is
 * copied 8 bytes at a time and may overshoot before the size check. */
#define FAST_INFLATE_SLACK 266

/*
 * Decodes the zlib stream at in[0..in_len) into exactly out_len bytes at
 * out, which must have room for out_len + FAST_INFLATE_SLACK bytes.
 * Returns 0 when the stream decoded completely to exactly out_len bytes
 * and zlib would have accepted it the same way; *consumed (may be NULL)
 * then gets the stream's length, Adler-32 trailer included, and bytes
 * past it in the input are left alone. Returns -1 otherwise ("ask zlib"):
 * out's contents are then undefined.
 */
int fast_inflate(const unsigned char *in, size_t in_len, unsigned char *out,
		 size_t out_len, size_t *consumed);

/*
 * The first n bytes the zlib stream at in[0..in_len) decodes to, into out
 * (room for n + FAST_INFLATE_SLACK bytes), for readers that need only the
 * start of an object (a commit's parents and date). Decoding stops there:
 * nothing after those bytes is looked at, so the stream's length and
 * Adler-32 are not checked. Returns 0 when the stream is valid as far as
 * it was decoded and yields at least n bytes; -1 otherwise (a stream that
 * ends before n bytes included), when the caller should read the whole
 * object the strict way.
 */
int fast_inflate_head(const unsigned char *in, size_t in_len, unsigned char *out, size_t n);

/* 1 when MINI_GIT_INFLATE=zlib is set: callers skip fast_inflate().
 * Reads the environment on every call. */
int fast_inflate_disabled(void);

/* git's message for a zlib failure ("error: inflate: data stream error
 * (incorrect header check)"); status is zlib's, zmsg its z_stream.msg. */
void inflate_error(int status, const char *zmsg);

#endif
