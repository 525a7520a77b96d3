/* table.c: the object table. All ids are collected first (loose file
 * names, the .idx tables) as sorted runs, merged into one sorted table
 * without duplicates, then found through a fan-out on the first two bytes
 * and a key of the next eight beside the table. */
#include "builtin/fsck/fsck.h"
#include <sys/mman.h>

struct fobj *fsck_objs;
size_t fsck_nr_objs;
static size_t alloc_objs;
/* Per table object, beside the table so that the scattered writes and
 * tests of millions of links stay within a small array: set when a
 * verified object links to it (USED), when it is marked REACHABLE. */
uint8_t *fsck_used_map, *fsck_reach_map;
/* The verified type, beside the table for the connectivity walk, which
 * would otherwise fetch a table entry (a cache miss) per object reached. */
uint8_t *fsck_type_map;
/* The table holds one run of ids, already sorted, none twice. */
int fsck_table_in_run_order;

static int cmp_fobj(const void *a, const void *b)
{
	return oidcmp(&((const struct fobj *)a)->oid, &((const struct fobj *)b)->oid);
}

/*
 * Zeroed memory for the big tables (tens of megabytes), with transparent
 * huge pages where the kernel gives them on request: filling them a 4 KiB
 * fault at a time cost more than the filling, often on one thread.
 * NULL below 4 MiB or when the mapping fails: use malloc then. Those
 * that live as long as the command are never unmapped.
 */
void *huge_zalloc(size_t bytes)
{
	void *p;

	if (bytes < (4u << 20))
		return NULL;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

/* First-two-bytes fan-out over the sorted table: a lookup (one per tree
 * entry, so millions) compares against a handful of ids. */
uint32_t *fsck_fan;
/* Bytes 2-9 of each id as one integer, beside the table: the ids of one
 * fan-out bucket then share a cache line or two, and only a key that
 * matches costs a look at the table entry itself. */
uint64_t *fsck_keys;

static void build_fanout(void)
{
	size_t i = 0;
	fsck_fan = xmalloc(65537 * sizeof(*fsck_fan));
	fsck_keys = huge_zalloc((fsck_nr_objs + 1) * sizeof(*fsck_keys));
	if (!fsck_keys)
		fsck_keys = xmalloc((fsck_nr_objs + 1) * sizeof(*fsck_keys));
	for (uint32_t k = 0; k < 65536; k++) {
		while (i < fsck_nr_objs &&
		       (uint32_t)(fsck_objs[i].oid.hash[0] << 8 | fsck_objs[i].oid.hash[1]) < k) {
			fsck_keys[i] = key64(fsck_objs[i].oid.hash);
			i++;
		}
		fsck_fan[k] = (uint32_t)i;
	}
	for (; i < fsck_nr_objs; i++)
		fsck_keys[i] = key64(fsck_objs[i].oid.hash);
	fsck_fan[65536] = (uint32_t)fsck_nr_objs;
}

struct fobj *find_obj(const struct object_id *oid)
{
	uint32_t k = oid->hash[0] << 8 | oid->hash[1];
	size_t lo = fsck_fan[k], hi = fsck_fan[k + 1], end = hi;
	uint64_t key = key64(oid->hash);

	/* A bucket holds a handful of ids unless the table is huge: narrow
	 * it (keys before lo are smaller, from hi on not) before scanning. */
	while (hi - lo > 16) {
		size_t mid = lo + (hi - lo) / 2;
		if (fsck_keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < end && fsck_keys[lo] <= key; lo++)
		if (fsck_keys[lo] == key &&
		    !memcmp(fsck_objs[lo].oid.hash + 10, oid->hash + 10, RAW_SZ - 10))
			return &fsck_objs[lo];
	return NULL;
}

static int table_mapped;  /* fsck_objs was mapped: it must not be realloc'ed */

void add_id(const unsigned char *id, uint8_t where)
{
	if (table_mapped && fsck_nr_objs + 1 > alloc_objs)
		BUG("fsck table full");
	ALLOC_GROW(fsck_objs, fsck_nr_objs + 1, alloc_objs);
	memset(&fsck_objs[fsck_nr_objs], 0, sizeof(fsck_objs[0]));
	memcpy(fsck_objs[fsck_nr_objs].oid.hash, id, RAW_SZ);
	fsck_objs[fsck_nr_objs].flags = where;
	fsck_objs[fsck_nr_objs].stage = NO_STAGE;
	fsck_nr_objs++;
}

/* Run boundaries: loose ids arrive sorted, and so does each .idx. */
static size_t *runs;
static size_t nr_runs, alloc_runs;

void end_run(void)
{
	/* No empty runs: one would cost a merge pass over the table. */
	if ((nr_runs ? runs[nr_runs - 1] : 0) == fsck_nr_objs)
		return;
	ALLOC_GROW(runs, nr_runs + 1, alloc_runs);
	runs[nr_runs++] = fsck_nr_objs;
}

/* Merges the sorted runs pairwise (a few runs: packs and the loose
 * objects), then folds duplicates. qsort over 20-byte keys cost more than
 * the rest of the set-up together. */
void sort_table(void)
{
	size_t i, j = 0;
	struct fobj *tmp;

	end_run();
	tmp = nr_runs > 1 ? xmalloc((fsck_nr_objs + 1) * sizeof(*tmp)) : NULL;
	fsck_table_in_run_order = nr_runs <= 1;
	for (i = 0; i < nr_runs; i++) {
		size_t a = i ? runs[i - 1] : 0, b = runs[i];
		for (size_t k = a + 1; k < b; k++) {
			int c = oidcmp(&fsck_objs[k - 1].oid, &fsck_objs[k].oid);
			if (c > 0) {
				QSORT(fsck_objs + a, b - a, cmp_fobj);
				fsck_table_in_run_order = 0;
				break;
			}
			if (!c)
				fsck_table_in_run_order = 0;
		}
	}
	while (nr_runs > 1) {
		size_t out = 0;
		for (i = 0; i < nr_runs; i += 2) {
			size_t a = i ? runs[i - 1] : 0, m = runs[i];
			size_t b = i + 1 < nr_runs ? runs[i + 1] : m, x = a, y = m, d = a;
			while (x < m && y < b)
				tmp[d++] = oidcmp(&fsck_objs[x].oid, &fsck_objs[y].oid) <= 0 ?
					   fsck_objs[x++] : fsck_objs[y++];
			while (x < m)
				tmp[d++] = fsck_objs[x++];
			while (y < b)
				tmp[d++] = fsck_objs[y++];
			memcpy(fsck_objs + a, tmp + a, (b - a) * sizeof(*fsck_objs));
			runs[out++] = b;
		}
		nr_runs = out;
	}
	free(tmp);
	/* One run, strictly increasing: nothing to fold. */
	for (i = fsck_table_in_run_order ? fsck_nr_objs : 0, j = i; i < fsck_nr_objs; i++) {
		if (j && oideq(&fsck_objs[j - 1].oid, &fsck_objs[i].oid)) {
			fsck_objs[j - 1].flags |= fsck_objs[i].flags;
			continue;
		}
		if (j != i)
			fsck_objs[j] = fsck_objs[i];
		j++;
	}
	fsck_nr_objs = j;
	build_fanout();
	fsck_used_map = xcalloc(fsck_nr_objs + 1, 1);
	fsck_reach_map = xcalloc(fsck_nr_objs + 1, 1);
	fsck_type_map = xcalloc(fsck_nr_objs + 1, 1);
}

/* Room for all ids at once (loose ones are in already). */
void table_reserve(size_t total)
{
	struct fobj *t;

	if (total <= alloc_objs)
		return;
	t = huge_zalloc((total + 1) * sizeof(*fsck_objs));
	if (!t) {
		ALLOC_GROW(fsck_objs, total, alloc_objs);
		return;
	}
	if (fsck_nr_objs)
		memcpy(t, fsck_objs, fsck_nr_objs * sizeof(*fsck_objs));
	free(fsck_objs);
	fsck_objs = t;
	alloc_objs = total;
	table_mapped = 1;
}
