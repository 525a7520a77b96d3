/* fuzz-pack-walk: the whole-pack walk of fsck and index-pack
 * (odb/pack-walk.h), in scan mode and, when the input carries a valid
 * .idx, in index mode; one thread, so runs are deterministic.
 *
 * The walk inflates with its own table-driven decoder and falls back to
 * zlib when that refuses a stream, so each walk runs twice, once as is
 * and once with MINI_GIT_INFLATE=zlib, and the two must agree on every
 * object (id, type, size, bytes, CRC) and on the count of each kind of
 * error: any difference is a bug in the decoder.
 *
 * Input: as fuzz-pack's: a 4-byte little-endian length, that many bytes
 * of .idx (0 for none), then the pack. A delta may expand its input some
 * 65536 times, so inputs whose declared sizes exceed MAX_SIZE are cut at
 * the walk's own checks only; rss is bounded by libFuzzer. */
#include "fuzz/fuzz-harness.h"
#include "odb/pack-walk.h"
#include <zlib.h>

struct digest {
	uint64_t sum, nr;
	uint32_t errors[16];
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static void on_object(const struct pack_walk_object *o, void *data)
{
	struct digest *d = data;
	uint32_t c = (uint32_t)crc32(0, o->oid.hash, RAW_SZ);

	if (!o->data || ((const unsigned char *)o->data)[o->size] || o->type < OBJ_COMMIT ||
	    o->type > OBJ_TAG)
		abort();
	c = (uint32_t)crc32(c, o->data, (uInt)o->size);
	/* Order-independent: the walk may visit siblings in any order. */
	d->sum += ((uint64_t)c << 20) ^ o->size ^ ((uint64_t)o->type << 60) ^
		  ((uint64_t)o->crc << 7) ^ o->offset;
	d->nr++;
}

static void on_error(const struct pack_walk_error *e, void *data)
{
	struct digest *d = data;
	if ((unsigned)e->kind >= 16)
		abort();
	d->errors[e->kind]++;
}

static void walk(const unsigned char *pack, size_t len, const struct pack_idx *idx,
		 int verify, struct digest *d, struct pack_walk_result *res, int *ret)
{
	struct pack_walk_opts opts;

	memset(&opts, 0, sizeof(opts));
	memset(d, 0, sizeof(*d));
	memset(res, 0, sizeof(*res));
	opts.idx = idx;
	opts.threads = 1;
	opts.verify_checksum = verify;
	opts.object = on_object;
	opts.error = on_error;
	opts.data = d;
	*ret = pack_walk(pack, len, &opts, res);
}

static void both_ways(const unsigned char *pack, size_t len, const struct pack_idx *idx, int verify)
{
	struct digest fast, slow;
	struct pack_walk_result rf, rs;
	int ret_f, ret_s;

	unsetenv("MINI_GIT_INFLATE");
	walk(pack, len, idx, verify, &fast, &rf, &ret_f);
	setenv("MINI_GIT_INFLATE", "zlib", 1);
	walk(pack, len, idx, verify, &slow, &rs, &ret_s);
	unsetenv("MINI_GIT_INFLATE");
	if (ret_f != ret_s || fast.sum != slow.sum || fast.nr != slow.nr ||
	    memcmp(fast.errors, slow.errors, sizeof(fast.errors)) ||
	    rf.nr_resolved != rs.nr_resolved || rf.nr_failed != rs.nr_failed ||
	    rf.entries_end != rs.entries_end)
		abort();
	if (rf.nr_resolved != fast.nr || rf.entries_end > len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pack_idx idx;
	unsigned char *idx_buf, *pack;
	size_t idx_len, pack_len;
	int have_idx;

	if (size < 4)
		return 0;
	idx_len = data[0] | data[1] << 8 | data[2] << 16 | (size_t)data[3] << 24;
	if (idx_len > size - 4)
		idx_len = 0;
	pack_len = size - 4 - idx_len;
	idx_buf = fuzz_dup(data + 4, idx_len);
	pack = fuzz_dup(data + 4 + idx_len, pack_len);

	have_idx = idx_len && pack_idx_init(&idx, idx_buf, idx_len, "fuzz.idx") == 0;
	both_ways(pack, pack_len, NULL, data[0] & 1);
	if (have_idx) {
		both_ways(pack, pack_len, &idx, 1);
		free(idx.path);
	}
	free(idx_buf);
	free(pack);
	return 0;
}
