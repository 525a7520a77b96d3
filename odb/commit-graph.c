/* commit-graph.c: the commit-graph file(s), mapped and checked once, then
 * read in place. Every chunk is bounds-checked against the file when it is
 * opened, so that lookups need no further checks but for the positions
 * stored in CDAT and EDGE, which are checked where they are read. */
#include "odb/commit-graph.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/stat.h>

#define GRAPH_SIGNATURE 0x43475048u  /* "CGPH" */
#define CHUNK_OIDF 0x4f494446u
#define CHUNK_OIDL 0x4f49444cu
#define CHUNK_CDAT 0x43444154u
#define CHUNK_EDGE 0x45444745u
#define CHUNK_BASE 0x42415345u
#define HEADER_SIZE 8
#define TOC_ENTRY 12
#define CDAT_WIDTH (RAW_SZ + 16)
#define MIN_SIZE (HEADER_SIZE + 4 * TOC_ENTRY + 1024 + RAW_SZ)
#define PARENT_EXTRA 0x80000000u
#define EDGE_LAST 0x80000000u

struct graph_layer {
	const unsigned char *map;
	size_t size;
	uint32_t nr;          /* commits in this layer */
	uint32_t base;        /* commits in the layers below */
	const unsigned char *fanout, *oids, *cdat, *edge;
	size_t edge_nr;
	unsigned nr_bases;
	const unsigned char *base_oids;
};

static struct graph_layer *layers;
static size_t nr_layers;
static uint32_t total;
static int prepared;


/* Map and check one file. 0, or -1 after git's error (nothing for ENOENT). */
static int layer_open(const char *path, struct graph_layer *l, int quiet_enoent)
{
	struct stat st;
	const unsigned char *m;
	unsigned nr_chunks;
	uint64_t last = 0;
	int fd = fd_open(path, O_RDONLY | O_CLOEXEC, 0);

	memset(l, 0, sizeof(*l));
	if (fd < 0) {
		if (errno == ENOENT && quiet_enoent)
			return -1;
		return error_errno("could not open commit-graph '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		fd_close_batched(fd);
		return error_errno("could not stat commit-graph '%s'", path);
	}
	if ((uint64_t)st.st_size < MIN_SIZE) {
		fd_close_batched(fd);
		return error("commit-graph file is too small");
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	fd_close_batched(fd);
	if (m == MAP_FAILED)
		return error_errno("could not mmap commit-graph '%s'", path);
	l->map = m;
	l->size = st.st_size;

	if (get_be32(m) != GRAPH_SIGNATURE) {
		error("commit-graph signature %X does not match signature %X", get_be32(m), GRAPH_SIGNATURE);
		goto bad;
	}
	if (m[4] != 1) {
		error("commit-graph version %X does not match version %X", m[4], 1);
		goto bad;
	}
	if (m[5] != 1) {
		error("commit-graph hash version %X does not match version %X", m[5], 1);
		goto bad;
	}
	nr_chunks = m[6];
	l->nr_bases = m[7];
	if (l->size < (size_t)HEADER_SIZE + (nr_chunks + 1) * TOC_ENTRY + RAW_SZ) {
		error("commit-graph file is too small to hold %u chunks", nr_chunks);
		goto bad;
	}
	for (unsigned i = 0; i <= nr_chunks; i++) {
		const unsigned char *t = m + HEADER_SIZE + i * TOC_ENTRY;
		uint32_t id = get_be32(t);
		uint64_t off = get_be64(t + 4), next;
		if (i == nr_chunks) {
			if (id) {
				error("final chunk has non-zero id %" PRIx32, id);
				goto bad;
			}
			break;
		}
		if (!id) {
			error("terminating chunk id appears earlier than expected");
			goto bad;
		}
		next = get_be64(t + TOC_ENTRY + 4);
		if (off < last || next < off || next > l->size - RAW_SZ) {
			error("improper chunk offset(s) %" PRIx64 " and %" PRIx64, off, next);
			goto bad;
		}
		last = off;
		{
			const unsigned char *p = m + off;
			size_t len = next - off;
			const unsigned char **slot = NULL;
			switch (id) {
			case CHUNK_OIDF:
				slot = &l->fanout;
				if (len != 1024)
					slot = NULL;
				break;
			case CHUNK_OIDL:
				slot = &l->oids;
				l->nr = len / RAW_SZ;
				break;
			case CHUNK_CDAT:
				slot = &l->cdat;
				break;
			case CHUNK_EDGE:
				slot = &l->edge;
				l->edge_nr = len / 4;
				break;
			case CHUNK_BASE:
				if (len < (size_t)l->nr_bases * RAW_SZ) {
					error("commit-graph base graphs chunk is too small");
					goto bad;
				}
				l->base_oids = p;
				break;
			}
			if (slot) {
				if (*slot) {
					error("duplicate chunk ID %" PRIx32 " found", id);
					goto bad;
				}
				*slot = p;
			}
			if (id == CHUNK_CDAT && l->oids && len != (size_t)l->nr * CDAT_WIDTH)
				l->cdat = NULL;
		}
	}
	if (!l->fanout) {
		error("commit-graph is missing the OID Fanout chunk");
		goto bad;
	}
	if (!l->oids) {
		error("commit-graph is missing the OID Lookup chunk");
		goto bad;
	}
	if (!l->cdat) {
		error("commit-graph is missing the Commit Data chunk");
		goto bad;
	}
	/* CDAT may come before OIDL in the table: check its size now. */
	if ((size_t)(l->size - (l->cdat - m)) < (size_t)l->nr * CDAT_WIDTH) {
		error("commit-graph is missing the Commit Data chunk");
		goto bad;
	}
	/* git 2.39 does not check the fanout against OIDL; lookups clamp
	 * its values to the table instead. */
	return 0;
bad:
	munmap((void *)l->map, l->size);
	memset(l, 0, sizeof(*l));
	return -1;
}

static void add_layer(struct graph_layer *l)
{
	static size_t alloc;
	ALLOC_GROW(layers, nr_layers + 1, alloc);
	l->base = total;
	layers[nr_layers++] = *l;
	total += l->nr;
}

static void load_chain(const char *objdir)
{
	struct strbuf chain = STRBUF_INIT, path = STRBUF_INIT;
	char *file = xstrfmt("%s/info/commit-graphs/commit-graph-chain", objdir);
	const char *p;
	size_t count;

	if (strbuf_read_file(&chain, file, 256) < 0)
		goto out;
	/* As git: as many layers as 41-byte lines fit in the file. */
	count = chain.len / (HEX_SZ + 1);
	for (p = chain.buf; *p && count--;) {
		const char *nl = strchrnul(p, '\n');
		struct object_id oid;
		struct graph_layer l;
		/* git checks only that the line starts with 40 hex digits */
		if (nl - p < HEX_SZ || get_oid_hex(p, &oid)) {
			warning("invalid commit-graph chain: line '%.*s' not a hash", (int)(nl - p), p);
			break;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/info/commit-graphs/graph-%.*s.graph", objdir, (int)(nl - p), p);
		if (layer_open(path.buf, &l, 1) < 0) {
			warning("unable to find all commit-graph files");
			break;
		}
		/* Each layer names the layers below it, in order. */
		if (l.nr_bases != nr_layers || (nr_layers && !l.base_oids)) {
			munmap((void *)l.map, l.size);
			warning("commit-graph chain does not match");
			break;
		}
		add_layer(&l);
		p = *nl ? nl + 1 : nl;
	}
out:
	free(file);
	strbuf_release(&chain);
	strbuf_release(&path);
}

static void prepare(void)
{
	struct graph_layer l;
	char *path;

	if (prepared)
		return;
	prepared = 1;
	if (!config_get_bool("core.commitgraph", 1))
		return;
	path = xstrfmt("%s/info/commit-graph", odb_objdir());
	if (!layer_open(path, &l, 1))
		add_layer(&l);
	else
		load_chain(odb_objdir());
	free(path);
}

int commit_graph_available(void)
{
	prepare();
	return total > 0;
}

uint32_t commit_graph_nr(void)
{
	prepare();
	return total;
}

static const struct graph_layer *layer_of(uint32_t pos)
{
	size_t i = nr_layers;
	while (i > 1 && pos < layers[i - 1].base)
		i--;
	return &layers[i - 1];
}

int commit_graph_find(const struct object_id *oid, uint32_t *pos)
{
	prepare();
	for (size_t i = nr_layers; i-- > 0;) {
		const struct graph_layer *l = &layers[i];
		unsigned first = oid->hash[0];
		uint32_t lo = first ? get_be32(l->fanout + 4 * (first - 1)) : 0;
		uint32_t hi = get_be32(l->fanout + 4 * first);
		if (hi > l->nr)
			hi = l->nr;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int c = memcmp(oid->hash, l->oids + (size_t)mid * RAW_SZ, RAW_SZ);
			if (!c) {
				*pos = l->base + mid;
				return 1;
			}
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	return 0;
}

void commit_graph_oid(uint32_t pos, struct object_id *oid)
{
	const struct graph_layer *l = layer_of(pos);
	memcpy(oid->hash, l->oids + (size_t)(pos - l->base) * RAW_SZ, RAW_SZ);
}

/* git dies on these; so do we, with its words. */
static NORETURN void bad_position(uint32_t pos)
{
	die("invalid parent position %" PRIu32, pos);
}

int commit_graph_entry(uint32_t pos, struct commit_graph_entry *e)
{
	const struct graph_layer *l = layer_of(pos);
	const unsigned char *d = l->cdat + (size_t)(pos - l->base) * CDAT_WIDTH;
	uint32_t p1 = get_be32(d + RAW_SZ), p2 = get_be32(d + RAW_SZ + 4);
	uint32_t hi = get_be32(d + RAW_SZ + 8), lo = get_be32(d + RAW_SZ + 12);

	memcpy(e->tree.hash, d, RAW_SZ);
	e->generation = hi >> 2;
	e->date = (uint64_t)(hi & 3) << 32 | lo;
	e->nr_parents = 0;
	if (p1 == GRAPH_PARENT_NONE)
		return 0;
	if (p1 >= total)
		bad_position(p1);
	e->parents[e->nr_parents++] = p1;
	if (p2 == GRAPH_PARENT_NONE)
		return 0;
	if (!(p2 & PARENT_EXTRA)) {
		if (p2 >= total)
			bad_position(p2);
		e->parents[e->nr_parents++] = p2;
		return 0;
	}
	/* An octopus: the second and later parents are listed in EDGE. */
	{
		uint32_t i = p2 & ~PARENT_EXTRA;
		for (;;) {
			uint32_t v;
			if (!l->edge || i >= l->edge_nr)
				die("commit-graph extra-edges pointer out of bounds");
			v = get_be32(l->edge + 4 * (size_t)i);
			if ((v & ~EDGE_LAST) >= total)
				bad_position(v & ~EDGE_LAST);
			if (e->nr_parents < 2)
				e->parents[e->nr_parents] = v & ~EDGE_LAST;
			e->nr_parents++;
			if (v & EDGE_LAST)
				break;
			i++;
		}
	}
	return 0;
}

int64_t commit_graph_parent(uint32_t pos, uint32_t n)
{
	const struct graph_layer *l = layer_of(pos);
	const unsigned char *d = l->cdat + (size_t)(pos - l->base) * CDAT_WIDTH;
	uint32_t p1 = get_be32(d + RAW_SZ), p2 = get_be32(d + RAW_SZ + 4), i;

	if (p1 == GRAPH_PARENT_NONE)
		return -1;
	if (n == 0)
		return p1 < total ? (int64_t)p1 : -1;
	if (p2 == GRAPH_PARENT_NONE)
		return -1;
	if (!(p2 & PARENT_EXTRA))
		return n == 1 && p2 < total ? (int64_t)p2 : -1;
	i = p2 & ~PARENT_EXTRA;
	for (uint32_t k = 1;; k++, i++) {
		uint32_t v;
		if (!l->edge || i >= l->edge_nr)
			return -1;
		v = get_be32(l->edge + 4 * (size_t)i);
		if (k == n)
			return (v & ~EDGE_LAST) < total ? (int64_t)(v & ~EDGE_LAST) : -1;
		if (v & EDGE_LAST)
			return -1;
	}
}

void commit_graph_close(void)
{
	for (size_t i = 0; i < nr_layers; i++)
		munmap((void *)layers[i].map, layers[i].size);
	free(layers);
	layers = NULL;
	nr_layers = 0;
	total = 0;
	prepared = 0;
}
