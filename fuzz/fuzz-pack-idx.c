/* fuzz-pack-idx: pack_idx_init() on a .idx file's bytes, then lookups in
 * both search modes (for ids in the index, their neighbours and ids taken
 * from the input), offsets and CRCs (odb/pack-idx.h). */
#include "fuzz/fuzz-harness.h"
#include "odb/pack-idx.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static void check_lookup(const struct pack_idx *idx, const unsigned char *id)
{
	uint32_t pos_b = 0, pos_i = 0;
	int fb = pack_idx_lookup_mode(idx, id, PACK_LOOKUP_BSEARCH, &pos_b);
	int fi = pack_idx_lookup_mode(idx, id, PACK_LOOKUP_INTERP, &pos_i);

	if (pos_b > idx->nr || pos_i > idx->nr)
		abort();
	if (fb && memcmp(pack_idx_id(idx, pos_b), id, 20))
		abort();
	if (fi && memcmp(pack_idx_id(idx, pos_i), id, 20))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pack_idx idx;
	unsigned char *buf = fuzz_dup(data, size);
	unsigned char id[20];
	uint32_t i, n;

	if (pack_idx_init(&idx, buf, size, "fuzz.idx") < 0) {
		free(buf);
		return 0;
	}
	n = idx.nr < 512 ? idx.nr : 512;
	for (i = 0; i < n; i++) {
		const unsigned char *p = pack_idx_id(&idx, i);
		check_lookup(&idx, p);
		memcpy(id, p, 20);
		id[19] ^= 1;
		check_lookup(&idx, id);
		(void)pack_idx_offset(&idx, i);
		(void)pack_idx_crc(&idx, i);
	}
	if (idx.nr) {
		(void)pack_idx_offset(&idx, idx.nr - 1);
		(void)pack_idx_crc(&idx, idx.nr - 1);
	}
	memset(id, 0, 20);
	check_lookup(&idx, id);
	memset(id, 0xff, 20);
	check_lookup(&idx, id);
	/* The trailer as an id: arbitrary but input-controlled. */
	check_lookup(&idx, buf + size - 20);
	(void)pack_idx_pack_checksum(&idx);
	/* pack_idx_close() unmaps; the buffer is ours. */
	free(idx.path);
	free(buf);
	return 0;
}
