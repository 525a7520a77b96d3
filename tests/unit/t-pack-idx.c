/* t-pack-idx.c: pack index parsing and lookup on synthetic indexes: v1
 * and v2 (with a 64-bit offset table), every id found by both searches at
 * its position, absent ids give the insertion point, broken indexes are
 * refused, and interpolation makes few probes (counted through
 * MINI_GIT_DEBUG_LOOKUP). Prints TAP. */
#include "lib/util.h"
#include "odb/pack-idx.h"
#include "sha1/sha1.h"
#include "tests/unit/tap.h"
#include <sys/wait.h>

#define NR 200000

#define ok(cond, what) check((cond), "%s", (what))

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static int cmp_id(const void *a, const void *b)
{
	return memcmp(a, b, 20);
}

static unsigned char (*ids)[20];

/* ids: SHA-1 of "<i>", sorted: as uniform as real object ids. */
static void make_ids(void)
{
	ids = xmalloc(sizeof(*ids) * NR);
	for (uint32_t i = 0; i < NR; i++) {
		char s[16];
		int n = snprintf(s, sizeof(s), "%u", i);
		sha1_buf(ids[i], s, (size_t)n);
	}
	qsort(ids, NR, 20, cmp_id);
}

static void fanout(unsigned char *p)
{
	uint32_t c = 0, i = 0;
	for (int b = 0; b < 256; b++) {
		while (i < NR && ids[i][0] == b)
			i++, c++;
		put32(p + 4 * b, c);
	}
}

/* v2: entry i at offset 12 + i, except every 1000th beyond 4 GiB. */
static size_t nr64;
static unsigned char *make_v2(size_t *len)
{
	size_t n64 = 0, sz;
	unsigned char *m, *p;

	for (uint32_t i = 0; i < NR; i++)
		n64 += i % 1000 == 0;
	nr64 = n64;
	sz = 8 + 1024 + (size_t)NR * 28 + n64 * 8 + 40;
	m = xcalloc(1, sz);
	memcpy(m, "\377tOc\0\0\0\2", 8);
	fanout(m + 8);
	p = m + 8 + 1024;
	for (uint32_t i = 0; i < NR; i++)
		memcpy(p + (size_t)i * 20, ids[i], 20);
	p += (size_t)NR * 20 + (size_t)NR * 4;
	n64 = 0;
	for (uint32_t i = 0; i < NR; i++) {
		if (i % 1000 == 0) {
			unsigned char *q = m + 8 + 1024 + (size_t)NR * 28 + n64 * 8;
			uint64_t off = ((uint64_t)5 << 32) + i;
			put32(q, (uint32_t)(off >> 32));
			put32(q + 4, (uint32_t)off);
			put32(p + (size_t)i * 4, 0x80000000u | (uint32_t)n64++);
		} else {
			put32(p + (size_t)i * 4, 12 + i);
		}
	}
	*len = sz;
	return m;
}

static unsigned char *make_v1(size_t *len)
{
	size_t sz = 1024 + (size_t)NR * 24 + 40;
	unsigned char *m = xcalloc(1, sz), *p;

	fanout(m);
	p = m + 1024;
	for (uint32_t i = 0; i < NR; i++) {
		put32(p + (size_t)i * 24, 12 + i);
		memcpy(p + (size_t)i * 24 + 4, ids[i], 20);
	}
	*len = sz;
	return m;
}

static int check_all(const struct pack_idx *idx, enum pack_lookup_mode mode, int v2)
{
	for (uint32_t i = 0; i < NR; i++) {
		uint32_t pos;
		uint64_t want = v2 && i % 1000 == 0 ? ((uint64_t)5 << 32) + i : 12 + i;
		if (!pack_idx_lookup_mode(idx, ids[i], mode, &pos) || pos != i ||
		    pack_idx_offset(idx, pos) != want)
			return 0;
	}
	return 1;
}

/* Ids not in the index: each neighbour with its last byte bumped. */
static int check_absent(const struct pack_idx *idx, enum pack_lookup_mode mode)
{
	for (uint32_t i = 0; i < NR; i += 7) {
		unsigned char id[20];
		uint32_t pos;
		memcpy(id, ids[i], 20);
		if (id[19] == 0xff)
			continue;
		id[19]++;
		if (i + 1 < NR && !memcmp(id, ids[i + 1], 20))
			continue;
		if (pack_idx_lookup_mode(idx, id, mode, &pos) || pos != i + 1)
			return 0;
	}
	return 1;
}

/* Average probes over a sample, counted from the debug lines. */
static double probes(const struct pack_idx *idx, enum pack_lookup_mode mode, FILE *log)
{
	long before = ftell(log), lines = 0;
	uint32_t pos, n = 0;
	int c;

	for (uint32_t i = 0; i < NR; i += 97, n++)
		pack_idx_lookup_mode(idx, ids[i], mode, &pos);
	fflush(log);
	fseek(log, before, SEEK_SET);
	while ((c = fgetc(log)) != EOF)
		lines += c == '\n';
	return (double)lines / n;
}

int main(void)
{
	struct pack_idx idx;
	unsigned char *m;
	size_t len;
	FILE *log = tmpfile();
	double pi, pb;
	char msg[128];

	make_ids();
	m = make_v2(&len);
	/* Probe counts, in a child, first: the debug switch is read once
	 * per process (at its first lookup), and its lines go to a
	 * temporary file there. */
	{
		int fds[2];
		pid_t pid;
		if (pipe(fds) < 0)
			return 1;
		pid = fork();
		if (!pid) {
			char out[64];
			setenv("MINI_GIT_DEBUG_LOOKUP", "1", 1);
			dup2(fileno(log), 2);
			pack_idx_init(&idx, m, len, "v2.idx");
			pi = probes(&idx, PACK_LOOKUP_INTERP, log);
			pb = probes(&idx, PACK_LOOKUP_BSEARCH, log);
			snprintf(out, sizeof(out), "%f %f", pi, pb);
			if (write(fds[1], out, strlen(out) + 1) < 0)
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		{
			char in[64] = "";
			if (read(fds[0], in, sizeof(in) - 1) <= 0 || sscanf(in, "%lf %lf", &pi, &pb) != 2)
				pi = pb = -1;
		}
		close(fds[0]);
		waitpid(pid, NULL, 0);
	}
	snprintf(msg, sizeof(msg), "interp probes %.2f per lookup, bsearch %.2f", pi, pb);
	ok(pi > 0 && pi < 5 && pb > 8 && pi < pb * 0.6, msg);
	{
		char line[200] = "";
		rewind(log);
		ok(fgets(line, sizeof(line), log) && !strncmp(line, "lookup: v2.idx pos=", 19) &&
		   strstr(line, " lo=") && strstr(line, " hi="), "debug line format");
	}
	ok(!pack_idx_init(&idx, m, len, "v2.idx") && idx.version == 2 && idx.nr == NR &&
	   idx.nr64 == nr64, "v2 index with a 64-bit offset table opens");
	ok(check_all(&idx, PACK_LOOKUP_BSEARCH, 1), "bsearch finds every id, offsets right");
	ok(check_all(&idx, PACK_LOOKUP_INTERP, 1), "interp finds every id, offsets right");
	ok(check_absent(&idx, PACK_LOOKUP_BSEARCH), "bsearch: absent ids give the insertion point");
	ok(check_absent(&idx, PACK_LOOKUP_INTERP), "interp: absent ids give the insertion point");
	{
		unsigned char lo[20] = { 0 }, hi[20];
		uint32_t pos;
		memset(hi, 0xff, 20);
		ok(!pack_idx_lookup_mode(&idx, lo, PACK_LOOKUP_INTERP, &pos) && pos == 0 &&
		   !pack_idx_lookup_mode(&idx, hi, PACK_LOOKUP_INTERP, &pos) && pos == NR,
		   "interp: ids below and above everything");
	}
	/* an 8-byte table index out of range */
	put32(m + 8 + 1024 + (size_t)NR * 24 + 4, 0x80000000u | 0x7fff0000u);
	ok(pack_idx_offset(&idx, 1) == UINT64_MAX, "64-bit table index out of range is refused");
	pack_idx_close(&idx);

	free(m);

	m = make_v1(&len);
	ok(!pack_idx_init(&idx, m, len, "v1.idx") && idx.version == 1 && idx.nr == NR, "v1 index opens");
	ok(check_all(&idx, PACK_LOOKUP_BSEARCH, 0) && check_all(&idx, PACK_LOOKUP_INTERP, 0),
	   "v1: both searches find every id");
	ok(check_absent(&idx, PACK_LOOKUP_INTERP), "v1: absent ids");
	pack_idx_close(&idx);

	/* Broken indexes (the errors go to stderr, as git's). */
	ok(pack_idx_init(&idx, m, 1000, "small.idx") < 0, "too small");
	ok(pack_idx_init(&idx, m, len - 4, "short.idx") < 0, "v1 of the wrong size");
	put32(m + 4 * 100, 0xffffffffu);
	ok(pack_idx_init(&idx, m, len, "mono.idx") < 0, "non-monotonic fan-out");
	free(m);
	m = make_v2(&len);
	ok(pack_idx_init(&idx, m, len + 0, "ok.idx") == 0, "v2 control");
	pack_idx_close(&idx);
	ok(pack_idx_init(&idx, m, len - 8 * nr64 - 4, "short2.idx") < 0, "v2 shorter than its ids");
	put32(m + 4, 3);
	ok(pack_idx_init(&idx, m, len, "v3.idx") < 0, "unknown version");
	free(m);
	free(ids);
	return tap_done();
}
