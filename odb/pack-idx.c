/* pack-idx.c: opening pack indexes and finding ids in them. */
#include "lib/util.h"
#include "odb/pack-idx.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

int pack_idx_init(struct pack_idx *idx, const void *buf, size_t size, const char *path)
{
	const unsigned char *m = buf;
	uint32_t nr = 0;
	int i;

	memset(idx, 0, sizeof(*idx));
	if (size < 4 * 256 + 40)
		return error("index file %s is too small", path);
	if (!memcmp(m, "\377tOc", 4)) {
		uint32_t v = get_be32(m + 4);
		if (v != 2)
			return error("index file %s is version %u and is not supported by this binary"
				     " (try upgrading GIT to a newer version)", path, v);
		idx->version = 2;
		idx->fanout = m + 8;
	} else {
		idx->version = 1;
		idx->fanout = m;
	}
	for (i = 0; i < 256; i++) {
		uint32_t n = get_be32(idx->fanout + 4 * i);
		if (n < nr)
			return error("non-monotonic index %s", path);
		nr = n;
	}
	idx->nr = nr;
	if (idx->version == 1) {
		if ((uint64_t)size != 4 * 256 + 40 + (uint64_t)nr * 24)
			return error("wrong index v1 file size in %s", path);
		idx->ids = m + 4 * 256 + 4;
		idx->stride = 24;
	} else {
		uint64_t min = 8 + 4 * 256 + (uint64_t)nr * 28 + 40;
		uint64_t max = min + (nr ? (uint64_t)(nr - 1) * 8 : 0);
		if ((uint64_t)size < min || (uint64_t)size > max)
			return error("wrong index v2 file size in %s", path);
		idx->ids = m + 8 + 4 * 256;
		idx->stride = 20;
		idx->crc = idx->ids + (size_t)nr * 20;
		idx->off32 = idx->crc + (size_t)nr * 4;
		idx->off64 = idx->off32 + (size_t)nr * 4;
		idx->nr64 = (uint32_t)((size - min) / 8);
	}
	idx->map = m;
	idx->size = size;
	idx->path = xstrdup(path);
	idx->name = strrchr(idx->path, '/');
	idx->name = idx->name ? idx->name + 1 : idx->path;
	return 0;
}

int pack_idx_open(struct pack_idx *idx, const char *path)
{
	struct stat st;
	void *map;
	int fd = fd_open(path, O_RDONLY | O_CLOEXEC, 0);

	memset(idx, 0, sizeof(*idx));
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		fd_close_batched(fd);
		return -1;
	}
	if ((size_t)st.st_size < 4 * 256 + 40) {
		fd_close_batched(fd);
		return error("index file %s is too small", path);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	fd_close_batched(fd);
	if (map == MAP_FAILED)
		return error_errno("mmap failed for %s", path);
	/* Point lookups touch a few scattered pages; read-ahead would only
	 * pull in neighbours nobody asked for (see pack.h). A file within
	 * one read-ahead window is not worth the system call. */
	if ((size_t)st.st_size > PACK_SMALL_MAP)
		madvise(map, (size_t)st.st_size, MADV_RANDOM);
	if (pack_idx_init(idx, map, (size_t)st.st_size, path) < 0) {
		munmap(map, (size_t)st.st_size);
		return -1;
	}
	return 0;
}

void pack_idx_close(struct pack_idx *idx)
{
	if (idx->map)
		munmap((void *)idx->map, idx->size);
	free(idx->path);
	memset(idx, 0, sizeof(*idx));
}

enum pack_lookup_mode pack_lookup_mode(void)
{
	static int mode = -1;
	if (mode < 0) {
		const char *e = getenv("MINI_GIT_LOOKUP");
		if (e && !strcmp(e, "bsearch"))
			mode = PACK_LOOKUP_BSEARCH;
		else if (e && !strcmp(e, "interp"))
			mode = PACK_LOOKUP_INTERP;
		else
			mode = PACK_LOOKUP_INTERP;
	}
	return (enum pack_lookup_mode)mode;
}

static int debug_lookup(void)
{
	static int on = -1;
	if (on < 0) {
		const char *e = getenv("MINI_GIT_DEBUG_LOOKUP");
		on = e && *e && strcmp(e, "0");
	}
	return on;
}

/* The first 8 bytes of an id as a number, for interpolation. */
static inline uint64_t id_key(const unsigned char *p)
{
	return get_be64(p);
}

/*
 * Both searches keep the invariant: the answer lies in [lo, hi), where
 * ids[lo-1] < id (or lo is the fan-out start) and ids[hi] > id.
 * Interpolation guesses the position from the first 8 bytes, assuming ids
 * are uniform (they are hashes). Because a skewed range could make it
 * crawl, a probe that fails to halve the range is followed by a bisection,
 * so the worst case stays logarithmic.
 */
int pack_idx_lookup_mode(const struct pack_idx *idx, const unsigned char *id,
			 enum pack_lookup_mode mode, uint32_t *pos)
{
	uint32_t lo = id[0] ? get_be32(idx->fanout + 4 * (id[0] - 1)) : 0;
	uint32_t hi = get_be32(idx->fanout + 4 * id[0]);
	int dbg = debug_lookup();
	int bisect_next = 0;
	uint64_t key = id_key(id);

	if (hi > idx->nr)
		hi = idx->nr;
	if (lo > hi)
		lo = hi;
	while (lo < hi) {
		uint32_t mid;
		int cmp;

		if (mode == PACK_LOOKUP_INTERP && !bisect_next && hi - lo > 2) {
			uint64_t klo = id_key(pack_idx_id(idx, lo));
			uint64_t khi = id_key(pack_idx_id(idx, hi - 1));
			if (key <= klo)
				mid = lo;
			else if (key >= khi)
				mid = hi - 1;
			else
				mid = lo + (uint32_t)((unsigned __int128)(key - klo) * (hi - 1 - lo) /
						      (khi - klo));
		} else {
			mid = lo + (hi - lo) / 2;
		}
		if (dbg)
			fprintf(stderr, "lookup: %s pos=%u lo=%u hi=%u\n", idx->name, mid, lo, hi);
		cmp = memcmp(id, pack_idx_id(idx, mid), 20);
		if (!cmp) {
			*pos = mid;
			return 1;
		}
		if (mode == PACK_LOOKUP_INTERP) {
			uint32_t before = hi - lo;
			if (cmp < 0)
				hi = mid;
			else
				lo = mid + 1;
			/* Guard against skewed ranges: after a probe that
			 * removed less than an eighth, bisect once. */
			bisect_next = !bisect_next && (hi - lo) > before - before / 8;
		} else if (cmp < 0) {
			hi = mid;
		} else {
			lo = mid + 1;
		}
	}
	*pos = lo;
	return 0;
}

int pack_idx_lookup(const struct pack_idx *idx, const unsigned char *id, uint32_t *pos)
{
	return pack_idx_lookup_mode(idx, id, pack_lookup_mode(), pos);
}

uint64_t pack_idx_offset(const struct pack_idx *idx, uint32_t pos)
{
	uint32_t off;

	if (idx->version == 1)
		return get_be32(idx->ids + (size_t)pos * 24 - 4);
	off = get_be32(idx->off32 + (size_t)pos * 4);
	if (!(off & 0x80000000u))
		return off;
	off &= 0x7fffffffu;
	if (off >= idx->nr64)
		return UINT64_MAX;
	return get_be64(idx->off64 + (size_t)off * 8);
}

uint32_t pack_idx_crc(const struct pack_idx *idx, uint32_t pos)
{
	return idx->version == 2 ? get_be32(idx->crc + (size_t)pos * 4) : 0;
}
