/* t-delta.c: delta application: good deltas of each instruction form, and
 * every kind of bad instruction or header rejected without reading or
 * writing out of bounds (run it under SANITIZE=1). Prints TAP. */
#include "lib/util.h"
#include "odb/delta.h"
#include "tests/unit/tap.h"

#define ok(cond, what) check((cond), "%s", (what))

/* Appends a size varint. */
static size_t put_size(unsigned char *p, uint64_t v)
{
	size_t n = 0;
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		p[n++] = c | (v ? 0x80 : 0);
	} while (v);
	return n;
}

struct d {
	unsigned char buf[256];
	size_t len;
};

static void hdr(struct d *d, uint64_t base, uint64_t result)
{
	d->len = put_size(d->buf, base);
	d->len += put_size(d->buf + d->len, result);
}

static void raw(struct d *d, const char *bytes, size_t n)
{
	memcpy(d->buf + d->len, bytes, n);
	d->len += n;
}

static void *apply(const char *base, size_t blen, const struct d *d, size_t *out, const char **why)
{
	return delta_apply(base, blen, d->buf, d->len, out, why);
}

static int result_is(void *res, size_t len, const char *want, size_t wlen)
{
	int r = res && len == wlen && !memcmp(res, want, wlen) && ((char *)res)[len] == 0;
	free(res);
	return r;
}

int main(void)
{
	const char *base = "0123456789abcdefghijklmnopqrstuvwxyz";
	size_t blen = strlen(base), n;
	const char *why;
	struct d d;
	void *res;
	uint64_t b, r;

	/* copy: offset 10, size 5 (one offset byte, one size byte) */
	hdr(&d, blen, 5); raw(&d, "\x91\x0a\x05", 3);
	res = apply(base, blen, &d, &n, &why);
	ok(result_is(res, n, "abcde", 5), "copy with 1-byte offset and size");

	/* insert then copy from offset 0 (no offset bytes) */
	hdr(&d, blen, 7); raw(&d, "\x03XYZ\x90\x04", 6);
	res = apply(base, blen, &d, &n, &why);
	ok(result_is(res, n, "XYZ0123", 7), "insert, then copy at offset 0");

	/* empty result */
	hdr(&d, blen, 0);
	res = apply(base, blen, &d, &n, &why);
	ok(result_is(res, n, "", 0), "empty result");

	/* copy with size bytes absent: 0x10000 from a 64 KiB base */
	{
		char *big = xmalloc(0x10000);
		for (int i = 0; i < 0x10000; i++)
			big[i] = (char)(i * 7);
		hdr(&d, 0x10000, 0x10000); raw(&d, "\x80", 1);
		res = apply(big, 0x10000, &d, &n, &why);
		ok(res && n == 0x10000 && !memcmp(res, big, n), "copy of size 0 means 0x10000");
		free(res);
		/* offset in the 2nd and 3rd bytes, size in the 2nd byte */
		/* offset only in its 2nd byte, size only in its 2nd byte */
		hdr(&d, 0x10000, 0x100); raw(&d, "\xa2\x01\x01", 3);
		res = apply(big, 0x10000, &d, &n, &why);
		ok(res && n == 0x100 && !memcmp(res, big + 0x100, 0x100),
		   "offset and size given by their second bytes only");
		free(res);
		free(big);
	}

	/* the bad ones */
	hdr(&d, blen + 1, 5); raw(&d, "\x91\x0a\x05", 3);
	ok(!apply(base, blen, &d, &n, &why) && !why, "base size mismatch: refused, nothing to say");

	hdr(&d, blen, 6); raw(&d, "\x91\x0a\x05", 3);
	ok(!apply(base, blen, &d, &n, &why) && why && !strcmp(why, "delta replay has gone wild"),
	   "result shorter than the header says");

	hdr(&d, blen, 4); raw(&d, "\x91\x0a\x05", 3);
	ok(!apply(base, blen, &d, &n, &why) && why, "result longer than the header says");

	hdr(&d, blen, 10); raw(&d, "\x91\x20\x0a", 3);
	ok(!apply(base, blen, &d, &n, &why) && why, "copy reading past the end of the base");

	hdr(&d, blen, 1); raw(&d, "\x91\x25\x01", 3);
	ok(!apply(base, blen, &d, &n, &why), "copy starting past the end of the base");

	hdr(&d, blen, 1); raw(&d, "\x9f\xff\xff\xff\xff\x01", 6);
	ok(!apply(base, blen, &d, &n, &why), "copy with a 4-byte offset near 2^32");

	hdr(&d, blen, 5); raw(&d, "\x91\x0a", 2);
	ok(!apply(base, blen, &d, &n, &why), "copy operands cut off by the end of the delta");

	hdr(&d, blen, 5); raw(&d, "\x05" "ab", 3);
	ok(!apply(base, blen, &d, &n, &why) && why, "insert running past the end of the delta");

	hdr(&d, blen, 5); raw(&d, "\x00", 1);
	ok(!apply(base, blen, &d, &n, &why) && !why, "reserved opcode 0");

	d.len = 0; raw(&d, "\x80", 1);
	ok(!apply(base, blen, &d, &n, &why), "header cut inside the base size");

	d.len = put_size(d.buf, blen);
	ok(!apply(base, blen, &d, &n, &why), "header without a result size");

	d.len = 0; raw(&d, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x05", 11);
	ok(!apply(base, blen, &d, &n, &why), "base size varint wider than 64 bits");

	hdr(&d, blen, (uint64_t)1 << 40); raw(&d, "\x91\x0a\x05", 3);
	ok(!apply(base, blen, &d, &n, &why), "absurd result size refused before allocating");

	hdr(&d, 300, 70000);
	ok(!delta_header_sizes(d.buf, d.len, &b, &r) && b == 300 && r == 70000, "delta_header_sizes");
	ok(delta_header_sizes(d.buf, 1, &b, &r) < 0, "delta_header_sizes on a cut header");

	return tap_done();
}
