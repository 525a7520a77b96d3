/* fuzz-inflate: odb/inflate.c's decoder against zlib. The input's first
 * two bytes (little-endian) are the expected size, the rest a zlib
 * stream: fast_inflate() alone must accept it only when zlib gives that
 * many bytes, and then the same bytes and the same consumed length. Then
 * the input is wrapped in a one-entry pack (a blob whose header size is the
 * input's first two bytes, little-endian, and whose zlib data is the
 * rest), walked once with the walk's decoder and once with
 * MINI_GIT_INFLATE=zlib; both must give the same object or the same
 * error. Mutating whole packs (fuzz-pack-walk) rarely keeps a zlib stream
 * valid enough to reach the decoder's deeper states; this does. And
 * fast_inflate_head() for an output limit n drawn from the input (up to
 * the expected size and a little past it) must yield n bytes exactly when
 * zlib yields that many before it stops, and the same bytes, without
 * writing past n + FAST_INFLATE_SLACK. */
#include "fuzz/fuzz-harness.h"
#include "odb/pack-walk.h"
#include "odb/inflate.h"
#include "tests/unit/zlib-ref.h"
#include <zlib.h>

struct result {
	uint32_t crc, errors, kind;
	size_t size;
	int objects;
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static void on_object(const struct pack_walk_object *o, void *data)
{
	struct result *r = data;
	if (((const unsigned char *)o->data)[o->size])
		abort();
	r->crc = (uint32_t)crc32(0, o->data, (uInt)o->size);
	r->size = o->size;
	r->objects++;
}

static void on_error(const struct pack_walk_error *e, void *data)
{
	struct result *r = data;
	r->errors++;
	r->kind = e->kind;
}

static int walk(const unsigned char *pack, size_t len, struct result *r)
{
	struct pack_walk_opts opts;

	memset(&opts, 0, sizeof(opts));
	memset(r, 0, sizeof(*r));
	opts.threads = 1;
	opts.object = on_object;
	opts.error = on_error;
	opts.data = r;
	return pack_walk(pack, len, &opts, NULL);
}

/* The decoder alone, against one zlib call asking for the same size. */
static void direct(const uint8_t *in, size_t n, size_t want)
{
	unsigned char *fast = malloc(want + FAST_INFLATE_SLACK + 1), *slow = malloc(want + 1);
	size_t used = 0, zused = 0;
	int zok = zlib_inflate(in, n, slow, want, &zused);

	if (!fast_inflate(in, n, fast, want, &used) &&
	    (!zok || used != zused || memcmp(fast, slow, want)))
		abort();
	free(fast);
	free(slow);
}

/* The head decoder for a limit taken from a hash of the input, so that a
 * mutation of the stream gets a new limit as well. At least one byte:
 * for none, zlib reads nothing to compare with (t-inflate covers it). */
static void head(const uint8_t *in, size_t n, size_t want)
{
	uint32_t h = (uint32_t)crc32(0, in, (uInt)n);
	size_t lim = 1 + h % (want + 16), got;
	unsigned char *fast, *slow = malloc(lim + 1);
	int fr;

	/* Past the limit and its slack, a guard nothing may touch. */
	fast = malloc(lim + FAST_INFLATE_SLACK + 16);
	memset(fast, 0x5a, lim + FAST_INFLATE_SLACK + 16);
	got = zlib_head(in, n, slow, lim);
	fr = fast_inflate_head(in, n, fast, lim);
	if ((got == lim) != !fr || (!fr && memcmp(fast, slow, lim)))
		abort();
	for (size_t g = lim + FAST_INFLATE_SLACK; g < lim + FAST_INFLATE_SLACK + 16; g++)
		if (fast[g] != 0x5a)
			abort();
	free(fast);
	free(slow);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result fast, slow;
	unsigned char *pack, *q;
	size_t obj_size, n;
	int ret_f, ret_s;

	if (size < 2)
		return 0;
	obj_size = data[0] | (size_t)data[1] << 8;
	n = size - 2;
	direct(data + 2, n, obj_size);
	head(data + 2, n, obj_size);
	pack = malloc(12 + 4 + n + 20);
	memcpy(pack, "PACK\0\0\0\2\0\0\0\1", 12);
	q = pack + 12;
	*q = (unsigned char)(OBJ_BLOB << 4 | (obj_size & 15));
	obj_size >>= 4;
	while (obj_size) {
		*q++ |= 0x80;
		*q = obj_size & 0x7f;
		obj_size >>= 7;
	}
	q++;
	memcpy(q, data + 2, n);
	q += n;
	memset(q, 0, 20);
	q += 20;

	unsetenv("MINI_GIT_INFLATE");
	ret_f = walk(pack, (size_t)(q - pack), &fast);
	setenv("MINI_GIT_INFLATE", "zlib", 1);
	ret_s = walk(pack, (size_t)(q - pack), &slow);
	unsetenv("MINI_GIT_INFLATE");
	if (ret_f != ret_s || fast.objects != slow.objects || fast.errors != slow.errors ||
	    fast.kind != slow.kind || fast.crc != slow.crc || fast.size != slow.size)
		abort();
	free(pack);
	return 0;
}
