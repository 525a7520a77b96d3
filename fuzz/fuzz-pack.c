/* fuzz-pack: pack entries (odb/pack.h): header decoding, inflating,
 * delta chains through the reader (with and without the delta-base
 * cache), header-only reads and the pack-order listing.
 *
 * Input: a 4-byte little-endian length, that many bytes of .idx, then the
 * .pack. The pack is checked as pack_map() checks it (size, signature,
 * version, object count) except for the trailing checksum, which a
 * fuzzer cannot forge and which the entry code must not rely on. */
#include "fuzz/fuzz-harness.h"
#include "odb/pack.h"

#define MAX_ENTRIES 64
/* As in fuzz-delta.c: a delta can expand 65536 times; larger objects are
 * only decoded as far as their headers. */
#define MAX_RESULT (16u << 20)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct packed_git p;
	struct pack_reader cached, plain;
	struct pack_order *order;
	unsigned char *idx_buf, *pack_buf;
	size_t idx_len, pack_len;
	uint32_t i, v;

	if (size < 4)
		return 0;
	idx_len = data[0] | data[1] << 8 | data[2] << 16 | (size_t)data[3] << 24;
	if (idx_len > size - 4)
		return 0;
	pack_len = size - 4 - idx_len;
	if (pack_len < 32 || memcmp(data + 4 + idx_len, "PACK", 4))
		return 0;
	v = get_be32(data + 4 + idx_len + 4);
	if (v != 2 && v != 3)
		return 0;
	idx_buf = fuzz_dup(data + 4, idx_len);
	pack_buf = fuzz_dup(data + 4 + idx_len, pack_len);

	memset(&p, 0, sizeof(p));
	if (pack_idx_init(&p.idx, idx_buf, idx_len, "fuzz.idx") < 0 ||
	    get_be32(pack_buf + 8) != p.idx.nr)
		goto out;
	p.idx_state = 1;
	p.map = pack_buf;
	p.map_size = pack_len;
	p.map_state = 1;
	p.pack_path = (char *)"fuzz.pack";

	pack_reader_init(&cached, 1);
	pack_reader_init(&plain, 0);
	order = pack_entries_in_pack_order(&p);
	for (i = 0; i < p.idx.nr && i < MAX_ENTRIES; i++) {
		uint64_t off = order[i].offset;
		struct pack_entry e;
		enum object_type t1, t2;
		size_t s1, s2;
		void *o1, *o2;

		if (pack_entry_header(&p, off, &e) == 0) {
			if (e.hdr_len > pack_len || e.offset != off)
				abort();
			free(pack_inflate_entry(&p, &e, &cached.zs));
			unsigned char prefix[20];
			ssize_t n = pack_inflate_prefix(&p, &e, &cached.zs, prefix, sizeof(prefix));
			if (n > (ssize_t)sizeof(prefix))
				abort();
		}
		if (pack_read_header(&plain, &p, off, &t1, &s1) == 0 && s1 > MAX_RESULT)
			continue;
		o1 = pack_read_object(&cached, &p, off, &t1, &s1);
		o2 = pack_read_object(&plain, &p, off, &t2, &s2);
		/* Same answer with and without the cache. */
		if (!o1 != !o2 || (o1 && (t1 != t2 || s1 != s2 || memcmp(o1, o2, s1))))
			abort();
		if (o1 && (((unsigned char *)o1)[s1] || t1 < OBJ_COMMIT || t1 > OBJ_TAG))
			abort();
		if (pack_read_header(&plain, &p, off, &t2, &s2) == 0 && o1 &&
		    (t1 != t2 || s1 != s2))
			abort();
		free(o1);
		free(o2);
	}
	/* A second pass: objects now come out of the cache. */
	for (i = 0; i < p.idx.nr && i < MAX_ENTRIES; i++) {
		enum object_type t;
		size_t s;
		if (pack_read_header(&plain, &p, order[i].offset, &t, &s) == 0 && s <= MAX_RESULT)
			free(pack_read_object(&cached, &p, order[i].offset, &t, &s));
	}
	free(order);
	pack_reader_release(&cached);
	pack_reader_release(&plain);
out:
	free(p.idx.path);
	free(idx_buf);
	free(pack_buf);
	return 0;
}
