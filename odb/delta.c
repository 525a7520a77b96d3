/* delta.c: applying git deltas, every instruction bounds-checked. */
#include "lib/util.h"
#include "odb/delta.h"

int delta_read_size(const unsigned char **pp, const unsigned char *end, uint64_t *out)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char c;

	do {
		if (p >= end || shift > 63)
			return -1;
		c = *p++;
		if (shift == 63 && (c & 0x7e))
			return -1;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	*pp = p;
	return 0;
}

int delta_header_sizes(const void *delta, size_t len, uint64_t *base_size, uint64_t *result_size)
{
	const unsigned char *p = delta, *end = p + len;

	if (delta_read_size(&p, end, base_size) < 0 || delta_read_size(&p, end, result_size) < 0)
		return -1;
	return 0;
}

void *delta_apply(const void *base, size_t base_len, const void *delta, size_t delta_len,
		  size_t *result_size, const char **why)
{
	const unsigned char *p = delta, *end = p + delta_len;
	const unsigned char *b = base;
	uint64_t want_base, want_result;
	unsigned char *out, *o, *oend;

	if (why)
		*why = NULL;
	if (delta_read_size(&p, end, &want_base) < 0 ||
	    delta_read_size(&p, end, &want_result) < 0)
		return NULL;
	if (want_base != base_len || want_result >= SIZE_MAX)
		return NULL;
	/* The result cannot be larger than what the instructions can make:
	 * a copy byte yields at most 16M+ bytes, an insert byte at most 127
	 * for 128 bytes of delta. Reject nonsense before allocating. */
	if (want_result / 0x1000000 > delta_len)
		return NULL;
	out = xmalloc((size_t)want_result + 1);
	o = out;
	oend = out + want_result;
	while (p < end) {
		unsigned c = *p++;
		if (c & 0x80) {
			uint64_t off = 0, size = 0;
			int i;
			for (i = 0; i < 4; i++)
				if (c & (1u << i)) {
					if (p >= end)
						goto bad;
					off |= (uint64_t)*p++ << (8 * i);
				}
			for (i = 0; i < 3; i++)
				if (c & (0x10u << i)) {
					if (p >= end)
						goto bad;
					size |= (uint64_t)*p++ << (8 * i);
				}
			if (!size)
				size = 0x10000;
			if (off > base_len || size > base_len - off ||
			    size > (uint64_t)(oend - o))
				goto bad;
			memcpy(o, b + off, size);
			o += size;
		} else if (c) {
			if (c > (size_t)(end - p) || c > (size_t)(oend - o))
				goto bad;
			memcpy(o, p, c);
			o += c;
			p += c;
		} else {
			/* Reserved for future extensions: corruption for us.
			 * git 2.39 fails here without a message. */
			free(out);
			return NULL;
		}
	}
	if (o != oend)
		goto bad;
	*o = 0;
	*result_size = (size_t)want_result;
	return out;
bad:
	if (why)
		*why = "delta replay has gone wild";
	free(out);
	return NULL;
}
