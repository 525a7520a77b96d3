/* commit-walk.c: the commit cache and the reachability walks.
 *
 * Nodes live in slabs (stable addresses). Those of commits in the
 * commit-graph are indexed by graph position, those of a pack read ahead
 * (below) by rank; the others are found through an open-addressing table
 * keyed by the first bytes of the id, which are already uniformly
 * distributed. A node costs 56 bytes plus its parent pointers.
 *
 * Without a graph a commit is read from its object: only its start is
 * inflated (parse_head), and long --contains walks read ahead on a
 * second core (see "Reading ahead").
 *
 * Every walk pops commits from a heap ordered by generation, then date,
 * newest first. With a commit-graph a commit is always popped after all of
 * its descendants that the walk reached, so flags never need propagating
 * twice and walks stop exactly at a generation bound. Without one the
 * order is by committer date: a skewed clock can make a commit pop before
 * a descendant, and then the flags it gains later are propagated again
 * (it is pushed anew), so the answers stay exact; only the early-stop
 * bound of the "merged" walk is heuristic there, as in git. */
#include "odb/commit-walk.h"
#include "odb/commit-graph.h"
#include "odb/pack.h"
#include "odb/inflate.h"
#include "lib/thread-pool.h"
#include <pthread.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


/* Walk flags. The low bits name tips (up to TIP_BITS per walk). */
#define TIP_BITS 28
#define TIP_MASK ((1u << TIP_BITS) - 1)
#define BELOW (1u << 28)    /* reachable from the commit asked about */
#define IN_QUEUE (1u << 29)
#define TOUCHED (1u << 30)
#define SIDE_A 1u
#define SIDE_B 2u
#define SLOP 5

/* ---- the cache ---- */

/* Slabs of SLAB nodes, then (a long walk) of BIG_SLAB, populated. */
#define SLAB 1024
#define BIG_SLAB 16384
#define SMALL_SLABS 8
static struct commit_node **table;
static size_t table_size, table_nr;
static struct commit_node *slab;
static size_t slab_used = SLAB, slab_size = SLAB, slabs;

/*
 * Zeroed memory for long walks, its pages mapped in one call
 * (MAP_POPULATE): a page fault costs about 2 us on a virtual machine,
 * and a walk of 50,000 commits without a graph took 2,500 of them. Never
 * unmapped (what lives there lives as long as the cache; and each
 * munmap() would also interrupt the other thread's core to flush its
 * TLB).
 */
static void *alloc_populated(size_t size)
{
	void *m = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return m == MAP_FAILED ? xcalloc(1, size ? size : 1) : m;
}

static inline size_t hash_oid(const struct object_id *oid)
{
	uint32_t h;
	memcpy(&h, oid->hash, sizeof(h));
	return h;
}

static void table_grow(void)
{
	size_t nsize = table_size ? table_size * 2 : 4096;
	struct commit_node **nt = xcalloc(nsize, sizeof(*nt));
	for (size_t i = 0; i < table_size; i++) {
		struct commit_node *c = table[i];
		size_t j;
		if (!c)
			continue;
		for (j = hash_oid(&c->oid) & (nsize - 1); nt[j]; j = (j + 1) & (nsize - 1))
			;
		nt[j] = c;
	}
	free(table);
	table = nt;
	table_size = nsize;
}

static struct commit_node *new_node(const struct object_id *oid)
{
	struct commit_node *c;
	if (slab_used == slab_size) {
		slab_size = ++slabs > SMALL_SLABS ? BIG_SLAB : SLAB;
		slab = slab_size == SLAB ? xcalloc(SLAB, sizeof(*slab)) :
		       alloc_populated(BIG_SLAB * sizeof(*slab));
		slab_used = 0;
	}
	c = &slab[slab_used++];
	oidcpy(&c->oid, oid);
	c->generation = GENERATION_INFINITY;
	c->graph_pos = GRAPH_POS_NONE;
	c->pack_pos = 0xffffffffu;   /* RANK_NONE */
	return c;
}

/* Commits in the commit-graph are found by position, which a walk gets
 * from CDAT without any search; only the others go into the table. */
static struct commit_node **by_pos;
static int graph_checked;

static struct commit_node *node_at(uint32_t pos)
{
	struct commit_node *c = by_pos[pos];
	struct object_id oid;
	if (c)
		return c;
	commit_graph_oid(pos, &oid);
	c = new_node(&oid);
	c->graph_pos = pos;
	by_pos[pos] = c;
	return c;
}

static struct commit_node *lookup_by_rank(const struct object_id *oid);

struct commit_node *commit_lookup(const struct object_id *oid)
{
	size_t i;
	struct commit_node *c;
	uint32_t pos;

	if (!graph_checked) {
		graph_checked = 1;
		if (commit_graph_available())
			by_pos = xcalloc(commit_graph_nr(), sizeof(*by_pos));
	}
	if (table_size) {
		for (i = hash_oid(oid) & (table_size - 1); (c = table[i]); i = (i + 1) & (table_size - 1))
			if (oideq(&c->oid, oid))
				return c;
	}
	if (by_pos && commit_graph_find(oid, &pos))
		return node_at(pos);
	if ((c = lookup_by_rank(oid)))
		return c;
	if (2 * (table_nr + 1) > table_size)
		table_grow();
	for (i = hash_oid(oid) & (table_size - 1); table[i]; i = (i + 1) & (table_size - 1))
		;
	c = new_node(oid);
	table[i] = c;
	table_nr++;
	return c;
}

/* Parent pointer arrays, carved from large blocks: freed never. */
static struct commit_node **alloc_parents(size_t n)
{
	static struct commit_node **block;
	static size_t left;
	struct commit_node **p;
	static unsigned blocks;
	if (n > left) {
		size_t sz = n > 4096 ? n : 4096;
		if (++blocks > SMALL_SLABS && sz < BIG_SLAB * 4) {
			sz = BIG_SLAB * 4;
			block = alloc_populated(sz * sizeof(*block));
		} else {
			block = xmalloc(sz * sizeof(*block));
		}
		left = sz;
	}
	p = block;
	block += n;
	left -= n;
	return p;
}

static int parse_from_graph(struct commit_node *c)
{
	struct commit_graph_entry e;
	if (commit_graph_entry(c->graph_pos, &e) < 0 || e.nr_parents > UINT16_MAX) {
		c->parsed = 2;
		return error("commit-graph entry of %s is corrupt", oid_to_hex(&c->oid));
	}
	c->date = e.date;
	c->generation = e.generation;
	c->nr_parents = e.nr_parents;
	c->parents = alloc_parents(e.nr_parents);
	for (uint32_t i = 0; i < e.nr_parents; i++) {
		int64_t p = i < 2 ? (int64_t)e.parents[i] : commit_graph_parent(c->graph_pos, i);
		if (p < 0)
			return -1;
		c->parents[i] = node_at((uint32_t)p);
	}
	c->parsed = 1;
	return 0;
}

/*
 * A walk needs a commit's parents and committer date, which come before
 * the message and, in git's order of headers, before any signature: so
 * only the start of the object is inflated, HEAD_BYTES of it, enough for a
 * few parents and ordinary idents. Anything this cannot settle (the
 * header goes on past what was read, too many parents, a header that
 * does not parse) is left to the whole-object path below, which reads,
 * checks and reports as before.
 */
#define HEAD_BYTES 512
#define HEAD_PARENTS 8

struct head_info {
	timestamp_t date;
	size_t nr;
	struct object_id parents[HEAD_PARENTS];
};

/* The date parse_ident() finds in an ident line, without the rest: the
 * number after the line's last '>', when a '<' comes before that '>'
 * (else 0, as for a date that is missing or overflows). */
static timestamp_t ident_date(const char *line, size_t len)
{
	const char *end = line + len, *gt = memrchr(line, '>', len), *p;
	timestamp_t v = 0;

	if (!gt || !memchr(line, '<', (size_t)(gt - line)))
		return 0;
	for (p = gt + 1; p < end && *p == ' '; p++)
		;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	return v;
}

/*
 * get_oid_hex() for the ids of a commit's header, 16 digits at a time
 * with SSE2 (the two ids of each commit were a twentieth of a walk's
 * time, one table look-up per digit). The same digits are accepted (0-9,
 * a-f, A-F); hex must be readable for 40 bytes.
 */
#if defined(__SSE2__)
static inline __m128i hex_pairs(__m128i c, __m128i *bad)
{
	const __m128i nine = _mm_set1_epi8(9), five = _mm_set1_epi8(5);
	__m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));
	__m128i l = _mm_sub_epi8(_mm_or_si128(c, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
	__m128i isd = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
	__m128i isl = _mm_cmpeq_epi8(_mm_min_epu8(l, five), l);
	__m128i v = _mm_or_si128(_mm_and_si128(isd, d),
				 _mm_andnot_si128(isd, _mm_add_epi8(l, _mm_set1_epi8(10))));

	*bad = _mm_or_si128(*bad, _mm_andnot_si128(_mm_or_si128(isd, isl), _mm_set1_epi8(-1)));
	/* Each 16-bit lane: the first digit is the high nibble. */
	return _mm_or_si128(_mm_slli_epi16(_mm_and_si128(v, _mm_set1_epi16(0xff)), 4),
			    _mm_srli_epi16(v, 8));
}

static int hex_id(const char *hex, struct object_id *oid)
{
	__m128i bad = _mm_setzero_si128();
	__m128i a = hex_pairs(_mm_loadu_si128((const __m128i *)hex), &bad);
	__m128i b = hex_pairs(_mm_loadu_si128((const __m128i *)(hex + 16)), &bad);
	__m128i c = hex_pairs(_mm_loadu_si128((const __m128i *)(hex + 24)), &bad);

	if (_mm_movemask_epi8(bad))
		return -1;
	_mm_storeu_si128((__m128i *)oid->hash, _mm_packus_epi16(a, b));
	_mm_storel_epi64((__m128i *)(oid->hash + 12), _mm_packus_epi16(c, c));
	return 0;
}
#else
#define hex_id get_oid_hex
#endif

/* The header in buf[0..got) of a commit of size bytes: 0, or -1 when
 * what was read cannot settle it. */
static int parse_header(const char *p, size_t got, size_t size, struct head_info *h)
{
	const char *end = p + got, *next;
	struct object_id tree;

	h->nr = 0;
	h->date = 0;
	if (end - p < 46 || memcmp(p, "tree ", 5) || p[45] != '\n' || hex_id(p + 5, &tree))
		return -1;
	p += 46;
	while (end - p >= 48 && !memcmp(p, "parent ", 7)) {
		if (h->nr == HEAD_PARENTS || p[47] != '\n' || hex_id(p + 7, &h->parents[h->nr]))
			return -1;
		h->nr++;
		p += 48;
	}
	/* A parent line cut short or malformed: the whole-object path judges. */
	if (end - p < 7 ? got < size : !memcmp(p, "parent ", 7))
		return -1;
	/* As parse_commit_buffer(): the first committer line among the
	 * headers, up to the blank line that ends them. */
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl && got < size)
			return -1;   /* the line goes on past what was read */
		next = nl ? nl + 1 : end;
		if (p == end || *p == '\n')
			break;
		if (next - p >= 10 && !memcmp(p, "committer ", 10)) {
			h->date = ident_date(p + 10, (size_t)((nl ? nl : end) - p - 10));
			break;
		}
		p = next;
	}
	return 0;
}

/* A parsed commit header's date and parents into c. */
static void fill_from_head(struct commit_node *c, const struct head_info *h)
{
	c->date = h->date;
	c->nr_parents = (uint16_t)h->nr;
	c->parents = alloc_parents(h->nr);
	for (size_t i = 0; i < h->nr; i++)
		c->parents[i] = commit_lookup(&h->parents[i]);
}

static int parse_head(struct commit_node *c)
{
	static unsigned char buf[HEAD_BYTES + ODB_HEAD_SLACK];
	static struct head_info h;
	enum object_type type;
	size_t size;
	ssize_t got = odb_read_object_head(&c->oid, &type, &size, buf, HEAD_BYTES);

	if (got < 0 || type != OBJ_COMMIT || parse_header((const char *)buf, (size_t)got, size, &h))
		return -1;
	fill_from_head(c, &h);
	c->parsed = 1;
	return 0;
}

/*
 * Reading ahead on a second core. A long walk without a commit-graph
 * spends its time inflating commits one after the other, each found from
 * its child, so the chain itself cannot be split. But a pack keeps
 * commits roughly in date order (newest first from git, oldest first from
 * fast-import), and a --contains walk runs from the tips down to the
 * commit asked about. So once a walk has read AHEAD_AFTER commits, a
 * second thread lists the pack's commits by offset and reads them,
 * starting at that commit and heading towards the tips, while the walk
 * comes down to meet it.
 *
 * Commits are numbered by their rank in that list. Each one's state says
 * who reads it: the first to claim it (TODO -> BUSY); the helper
 * publishes its result with DONE; the walk never waits: a commit the
 * helper is reading at that moment it reads too, for itself. What the
 * helper cannot settle (a delta, a long header, more than AHEAD_PARENTS
 * parents, a parent that is not a commit of this pack) it hands back as
 * TODO, and the walk reads it the usual way. Results stay for later
 * walks; the helper is stopped and joined when each walk ends. Cost: 4
 * bytes per object of the pack and about 50 per commit, allocated when
 * the first long walk starts.
 *
 * The list pays on one thread too: a commit read by rank needs no index
 * search for itself (its neighbours hold its parent) nor the hash table.
 * Without a second thread the walk lists the pack itself, once it has
 * read a sixteenth as many commits as the pack has objects.
 */
#define AHEAD_AFTER 256
#define AHEAD_PARENTS 2
#define RANK_NONE 0xffffffffu
#define POS_TAG 0x80000000u   /* pack_pos holds an index position */

enum { AH_TODO, AH_BUSY, AH_DONE };

struct ahead_result {
	timestamp_t date;
	uint32_t parents[AHEAD_PARENTS];  /* ranks */
	uint32_t nr;
};

static struct {
	struct packed_git *pack;      /* NULL: not set up */
	/* Written by the helper before it sets ready; read-only after. */
	uint64_t *order;              /* the pack's commits by offset: offset
				       * << pos_bits | index position */
	unsigned pos_bits;
	size_t nr;
	uint32_t *rank;               /* by index position: rank, or RANK_NONE */
	int ready;
	uint8_t *state;               /* AH_*, by rank */
	struct ahead_result *res;     /* by rank */
	struct commit_node **node;    /* by rank (walk thread only) */
	uint64_t start;               /* offset to start at */
	int from_end;                 /* start at the end dir leads away from */
	int dir;                      /* +1: towards higher offsets */
	int stop;
	int running;
	pthread_t thread;
	size_t done;                  /* results the helper published */
	int filed;                    /* nodes are found by rank (walk thread) */
	void *list_map;               /* the helper's listing space */
} ah;

static inline uint64_t order_offset(size_t k)
{
	return ah.order[k] >> ah.pos_bits;
}

static inline uint32_t order_pos(size_t k)
{
	return (uint32_t)(ah.order[k] & ((1ull << ah.pos_bits) - 1));
}

/* The commit of rank k: 0 and *r filled, or -1. Its neighbours in the
 * pack usually include its parent: one id compared instead of a search. */
static int read_at(size_t k, struct ahead_result *r)
{
	unsigned char buf[HEAD_BYTES + FAST_INFLATE_SLACK];
	const struct packed_git *p = ah.pack;
	struct pack_entry e;
	struct head_info h;
	size_t n;

	/* The ids beside it are compared once the parents are known:
	 * fetch them while the commit inflates. */
	if (k > 0)
		__builtin_prefetch(pack_idx_id(&p->idx, order_pos(k - 1)));
	if (k + 1 < ah.nr)
		__builtin_prefetch(pack_idx_id(&p->idx, order_pos(k + 1)));
	if (pack_entry_header(p, order_offset(k), &e) < 0 || e.type != OBJ_COMMIT ||
	    e.size >= SIZE_MAX)
		return -1;
	n = e.size < HEAD_BYTES ? (size_t)e.size : HEAD_BYTES;
	if (pack_inflate_head(p, &e, buf, n) < 0 ||
	    parse_header((const char *)buf, n, (size_t)e.size, &h) < 0 || h.nr > AHEAD_PARENTS)
		return -1;
	for (size_t i = 0; i < h.nr; i++) {
		const unsigned char *id = h.parents[i].hash;
		uint32_t pos;
		if (k > 0 && !memcmp(pack_idx_id(&p->idx, order_pos(k - 1)), id, RAW_SZ))
			r->parents[i] = (uint32_t)(k - 1);
		else if (k + 1 < ah.nr && !memcmp(pack_idx_id(&p->idx, order_pos(k + 1)), id, RAW_SZ))
			r->parents[i] = (uint32_t)(k + 1);
		else if (pack_idx_lookup(&p->idx, id, &pos) && ah.rank[pos] != RANK_NONE)
			r->parents[i] = ah.rank[pos];
		else
			return -1;
	}
	r->date = h.date;
	r->nr = (uint32_t)h.nr;
	return 0;
}

static int stopped(void)
{
	return __atomic_load_n(&ah.stop, __ATOMIC_RELAXED);
}

/* pack_idx_offset() without a call for the common case. */
static inline uint64_t offset_at(const struct pack_idx *idx, uint32_t i)
{
	if (idx->version == 2) {
		uint32_t o = get_be32(idx->off32 + 4 * (size_t)i);
		if (!(o & 0x80000000u))
			return o;
	}
	return pack_idx_offset(idx, i);
}

/* Bits needed for values below n. */
static unsigned bits_for(uint64_t n)
{
	unsigned b = 0;
	while (b < 64 && (n - 1) >> b)
		b++;
	return b;
}

/*
 * The helper's first task: every commit of the pack, by offset. Each
 * object's offset and index position go into one word; the words are
 * bucketed by offset straight from the index (one counting pass, one
 * filling pass, about four objects a bucket), each bucket sorted in
 * place, and the types read in pack order, so the pack is read front to
 * back rather than all over (that took twice as long). 0, or -1 for a
 * pack too large for the words (its walks read no commits ahead).
 */
static int list_commits(void)
{
	const struct packed_git *p = ah.pack;
	uint32_t n = p->idx.nr;
	unsigned pos_bits = bits_for(n ? n : 1), off_bits = bits_for(p->map_size);
	unsigned nb_bits = pos_bits > 2 ? pos_bits - 2 : 0;
	unsigned shift = off_bits > nb_bits ? off_bits - nb_bits : 0;
	uint64_t *from, pos_mask = (1ull << pos_bits) - 1;
	size_t nb, nr = 0;
	uint32_t *end;

	if (pos_bits + off_bits > 64 || p->map_size < 32)
		return -1;
	/* Buckets of 2^shift bytes of the pack, about four objects each:
	 * counted, then filled, straight from the index. */
	nb = (size_t)((p->map_size - 1) >> shift) + 1;
	/* The bucket ends, then the words: one mapping, kept for the next
	 * try when a walk ends before the list is done (the pack stays the
	 * same: see ahead_start()). */
	if (!ah.list_map)
		ah.list_map = alloc_populated(st_add(st_mult(nb + 1, sizeof(*end)),
						 st_mult(n ? n : 1, sizeof(*from))) + 8);
	else
		memset(ah.list_map, 0, (nb + 1) * sizeof(*end));
	end = ah.list_map;
	from = (uint64_t *)(void *)((char *)end + ((st_mult(nb + 1, sizeof(*end)) + 7) & ~(size_t)7));
	/* A walk that ends waits for the helper to see it: stopped() is
	 * asked every 16,384 objects (a tenth of a millisecond or so), and
	 * the list is made again by the next long walk. */
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = offset_at(&p->idx, i);
		if (!(i & 16383) && stopped())
			return 0;
		if (off >= 12 && off < p->map_size - 20)
			end[(off >> shift) + 1]++;
	}
	for (size_t b = 1; b <= nb; b++)
		end[b] += end[b - 1];
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = offset_at(&p->idx, i);
		if (!(i & 16383) && stopped())
			return 0;
		if (off >= 12 && off < p->map_size - 20)
			from[end[off >> shift]++] = off << pos_bits | i;
	}
	/* Each bucket now ends where the next began: sorted in place, then
	 * its commits kept, front to back through the pack. */
	for (size_t b = 0, lo = 0; b < nb; lo = end[b++]) {
		size_t hi = end[b];
		if (!(b & 4095) && stopped())
			return 0;
		if (hi + 8 <= end[nb])
			__builtin_prefetch(p->map + (from[hi + 7] >> pos_bits));
		for (size_t j = lo + 1; j < hi; j++) {
			uint64_t v = from[j];
			size_t i = j;
			for (; i > lo && from[i - 1] > v; i--)
				from[i] = from[i - 1];
			from[i] = v;
		}
		for (size_t j = lo; j < hi; j++)
			if (((p->map[from[j] >> pos_bits] >> 4) & 7) == OBJ_COMMIT)
				from[nr++] = from[j];
	}
	ah.order = from;
	ah.pos_bits = pos_bits;
	ah.nr = nr;
	{
		/* Results, nodes, ranks and states: one mapping, in that
		 * order (each keeps its alignment). */
		size_t rs = st_mult(nr, sizeof(*ah.res)), ns = st_mult(nr, sizeof(*ah.node));
		char *m = alloc_populated(st_add(st_add(rs, ns), st_add(st_mult(n, sizeof(*ah.rank)), nr)));
		ah.res = (struct ahead_result *)(void *)m;
		ah.node = (struct commit_node **)(void *)(m + rs);
		ah.rank = (uint32_t *)(void *)(m + rs + ns);
		ah.state = (uint8_t *)(m + rs + ns + (size_t)n * sizeof(*ah.rank));
	}
	memset(ah.rank, 0xff, (size_t)n * sizeof(*ah.rank));
	for (size_t k = 0; k < nr; k++)
		ah.rank[ah.order[k] & pos_mask] = (uint32_t)k;
	__atomic_store_n(&ah.ready, 1, __ATOMIC_RELEASE);
	return 0;
}

static int ahead_mode(void);

static void *ahead_run(void *unused)
{
	size_t lo = 0, hi, k;

	(void)unused;
	if (!ah.ready)
		list_commits();
	if (!ah.ready)
		return NULL;
	hi = ah.nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (order_offset(mid) < ah.start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (ah.from_end)
		lo = ah.dir > 0 ? 0 : ah.nr - 1;
	for (k = lo; k < ah.nr && !stopped(); k += (size_t)(ssize_t)ah.dir) {
		uint8_t todo = AH_TODO;
		struct ahead_result r;
		if (!__atomic_compare_exchange_n(&ah.state[k], &todo, AH_BUSY, 0,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		if (ahead_mode() == 3)
			continue;   /* claims and never reads: for tests */
		if (read_at(k, &r)) {
			__atomic_store_n(&ah.state[k], AH_TODO, __ATOMIC_RELEASE);
			continue;
		}
		ah.res[k] = r;
		__atomic_store_n(&ah.state[k], AH_DONE, __ATOMIC_RELEASE);
		ah.done++;
	}
	return NULL;
}

size_t commit_walk_read_ahead(void)
{
	return ah.done;   /* written by the helper, read after the join */
}

/* MINI_GIT_READ_AHEAD=0 turns the helper off (so does MINI_GIT_THREADS=1);
 * =wait makes the walk wait until the helper has read all it would, for
 * tests that count what it did; =claim, for tests too, has the helper
 * claim commits without ever reading them (the walk waits for that), so
 * that the walk reads every one of them for itself; =late, for tests as
 * well, has the walk read LATE_COMMITS more the way it does while the
 * pack is being listed (parse_head_pack) before it looks for the list,
 * however soon that is ready. 1 on, 2 wait, 3 claim, 4 late, 0 off. */
#define LATE_COMMITS 300
static size_t late_left;

static int ahead_mode(void)
{
	static int mode = -1;
	if (mode < 0) {
		const char *e = getenv("MINI_GIT_READ_AHEAD");
		mode = !e ? 1 : !strcmp(e, "0") ? 0 : !strcmp(e, "wait") ? 2 :
		       !strcmp(e, "claim") ? 3 : !strcmp(e, "late") ? 4 : 1;
		if (mode && thread_pool_default_threads() < 2)
			mode = 0;
	}
	return mode;
}

static void ahead_stop_when_done(void)
{
	pthread_join(ah.thread, NULL);
	ah.running = 0;
}

/* Start the helper at the commit x (its entry in the pack), heading
 * towards the commit from, which the walk is coming down from. */
static size_t ahead_start(struct commit_node *x, struct commit_node *from, size_t popped)
{
	uint64_t xoff, foff;
	struct packed_git *p;

	if (by_pos || !(p = odb_pack_of(&x->oid, &xoff)) || odb_pack_of(&from->oid, &foff) != p ||
	    xoff == foff || (ah.pack && ah.pack != p) ||
	    bits_for(p->idx.nr ? p->idx.nr : 1) + bits_for(p->map_size) > 64)
		return 0;
	if (!ahead_mode()) {
		/* One thread: listing the pack pays only on a walk that
		 * reads a good share of its commits. */
		if (!ah.ready && popped < p->idx.nr / 16)
			return p->idx.nr / 16;
		ah.pack = p;
		if (!ah.ready)
			list_commits();
		return 0;
	}
	ah.pack = p;
	ah.start = xoff;
	ah.dir = foff > xoff ? 1 : -1;
	/* The walk has already passed x (a recent commit: which branches
	 * contain my last commit?), so from x the helper would trail the
	 * walk and read what it reads. It starts at the far end of the pack
	 * instead and comes up to meet it. */
	ah.from_end = !(x->flags & IN_QUEUE);
	if (ah.from_end)
		ah.dir = -ah.dir;
	ah.stop = 0;
	if (thread_start(&ah.thread, ahead_run, NULL))
		return 0;
	ah.running = 1;
	if (ahead_mode() == 2 || ahead_mode() == 3)
		ahead_stop_when_done();
	if (ahead_mode() == 4)
		late_left = LATE_COMMITS;
	return 0;
}

static void ahead_stop(void)
{
	if (!ah.running)
		return;
	__atomic_store_n(&ah.stop, 1, __ATOMIC_RELAXED);
	pthread_join(ah.thread, NULL);
	ah.running = 0;
}

/* Like the commit-graph's, the commits of the list are found by rank once
 * it is ready, outside the hash table: nodes made before then are filed
 * by rank first (ahead_file_nodes), and commit_lookup() asks the pack's
 * index for the others. */
static struct commit_node *node_at_rank(uint32_t k)
{
	struct commit_node *c = ah.node[k];
	struct object_id oid;

	if (c)
		return c;
	memcpy(oid.hash, pack_idx_id(&ah.pack->idx, order_pos(k)), RAW_SZ);
	c = new_node(&oid);
	c->pack_pos = k;
	ah.node[k] = c;
	return c;
}

static void ahead_file_nodes(void)
{
	for (size_t i = 0; i < table_size; i++) {
		struct commit_node *c = table[i];
		uint32_t pos;
		if (!c)
			continue;
		if (c->pack_pos == RANK_NONE) {
			if (!pack_idx_lookup(&ah.pack->idx, c->oid.hash, &pos))
				continue;
		} else if (c->pack_pos & POS_TAG) {
			pos = c->pack_pos & ~POS_TAG;   /* parse_head_pack() */
		} else {
			continue;
		}
		c->pack_pos = ah.rank[pos];
		if (c->pack_pos == RANK_NONE)
			continue;
		ah.node[c->pack_pos] = c;
		/* Read already: the helper need not (it would, coming up the
		 * pack at the end of the walk). */
		if (c->parsed) {
			uint8_t todo = AH_TODO;
			__atomic_compare_exchange_n(&ah.state[c->pack_pos], &todo, AH_BUSY, 0,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		}
	}
	ah.filed = 1;
}

/*
 * parse_head() for a commit of the pack being listed, while the list is
 * not ready: the same reading, from the index position found here, which
 * the node keeps (tagged, in pack_pos) so that filing it by rank needs no
 * second search of the index. -1 leaves it to parse_head().
 */
static int parse_head_pack(struct commit_node *c)
{
	const struct packed_git *p = ah.pack;
	unsigned char buf[HEAD_BYTES + FAST_INFLATE_SLACK];
	struct pack_entry e;
	struct head_info h;
	uint32_t pos;
	size_t n;

	if (p->idx.nr > POS_TAG || c->pack_pos != RANK_NONE ||
	    !pack_idx_lookup(&p->idx, c->oid.hash, &pos) ||
	    pack_entry_header(p, offset_at(&p->idx, pos), &e) < 0 || e.type != OBJ_COMMIT ||
	    e.size >= SIZE_MAX)
		return -1;
	n = e.size < HEAD_BYTES ? (size_t)e.size : HEAD_BYTES;
	if (pack_inflate_head(p, &e, buf, n) < 0 ||
	    parse_header((const char *)buf, n, (size_t)e.size, &h) < 0)
		return -1;
	fill_from_head(c, &h);
	c->pack_pos = POS_TAG | pos;
	c->parsed = 1;
	return 0;
}

static struct commit_node *lookup_by_rank(const struct object_id *oid)
{
	uint32_t pos;

	if (!ah.filed || !pack_idx_lookup(&ah.pack->idx, oid->hash, &pos) || ah.rank[pos] == RANK_NONE)
		return NULL;
	return node_at_rank(ah.rank[pos]);
}

/* c from the helper's result, or read here by rank; -1 leaves it to the
 * usual path. */
static int parse_ahead(struct commit_node *c)
{
	uint32_t k = c->pack_pos;
	struct ahead_result *r, mine;

	if (!ah.filed) {
		if (late_left) {
			late_left--;
			return -1;
		}
		if (!__atomic_load_n(&ah.ready, __ATOMIC_ACQUIRE))
			return -1;
		ahead_file_nodes();
		k = c->pack_pos;
	}
	if (k == RANK_NONE) {
		uint32_t pos;
		if (!pack_idx_lookup(&ah.pack->idx, c->oid.hash, &pos) || ah.rank[pos] == RANK_NONE)
			return -1;
		k = c->pack_pos = ah.rank[pos];
		ah.node[k] = c;
	}
	/* The walk comes down the pack against the helper's direction: the
	 * commits it takes next are usually a rank or two further that way.
	 * Their result, node slot, id (which node_at_rank() copies from the
	 * index, all over it) and data are fetched while this one is
	 * handled. */
	{
		size_t kn = k - 2 * (size_t)(ssize_t)ah.dir;
		if (kn < ah.nr) {
			uint64_t at = order_offset(kn);
			__builtin_prefetch(&ah.res[kn]);
			__builtin_prefetch(&ah.node[kn]);
			__builtin_prefetch(pack_idx_id(&ah.pack->idx, order_pos(kn)));
			/* Its data, should the walk read it itself (the list's
			 * offsets are 20 bytes short of the end at least). */
			for (unsigned l = 0; l < 3 && at + 64 * l < ah.pack->map_size; l++)
				__builtin_prefetch(ah.pack->map + at + 64 * l);
		}
	}
	r = &ah.res[k];
	for (;;) {
		uint8_t st = __atomic_load_n(&ah.state[k], __ATOMIC_ACQUIRE);
		if (st == AH_DONE)
			break;
		if (st == AH_TODO) {
			if (!__atomic_compare_exchange_n(&ah.state[k], &st, AH_BUSY, 0,
							 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				continue;
			/* Claimed for good: on failure it stays BUSY, and the
			 * usual path reads it. */
			if (read_at(k, r))
				return -1;
			__atomic_store_n(&ah.state[k], AH_DONE, __ATOMIC_RELAXED);
			break;
		}
		/* The helper is reading it (or could not): rather than wait
		 * for a thread that may not even be running, read it here
		 * too, into a result of our own. */
		if (read_at(k, &mine))
			return -1;
		r = &mine;
		break;
	}
	c->date = r->date;
	c->nr_parents = (uint16_t)r->nr;
	c->parents = alloc_parents(r->nr);
	for (uint32_t i = 0; i < r->nr; i++)
		c->parents[i] = node_at_rank(r->parents[i]);
	c->parsed = 1;
	return 0;
}

int commit_parse_quiet(struct commit_node *c)
{
	if (c->parsed)
		return c->parsed == 1 ? 0 : -1;
	if (c->graph_pos != GRAPH_POS_NONE)
		return parse_from_graph(c);
	if (ah.pack && !parse_ahead(c))
		return 0;
	if (ah.pack && !ah.filed && !parse_head_pack(c))
		return 0;
	return parse_head(c);
}

int commit_parse(struct commit_node *c)
{
	struct commit_info ci;
	enum object_type type;
	size_t size;
	char *buf;

	if (c->parsed)
		return c->parsed == 1 ? 0 : -1;
	if (c->graph_pos != GRAPH_POS_NONE)
		return parse_from_graph(c);
	if (!commit_parse_quiet(c))
		return 0;
	c->parsed = 2;
	buf = odb_read_object(&c->oid, &type, &size);
	if (!buf)
		return error("Could not read %s", oid_to_hex(&c->oid));
	if (type != OBJ_COMMIT) {
		free(buf);
		return error("object %s is a %s, not a commit", oid_to_hex(&c->oid), type_name(type));
	}
	if (parse_commit_buffer(buf, size, &ci) < 0 || ci.nr_parents > UINT16_MAX) {
		free(buf);
		return error("could not parse commit %s", oid_to_hex(&c->oid));
	}
	c->date = ci.committer_date;
	c->nr_parents = ci.nr_parents;
	c->parents = alloc_parents(ci.nr_parents);
	for (size_t i = 0; i < ci.nr_parents; i++)
		c->parents[i] = commit_lookup(&ci.parents[i]);
	commit_info_release(&ci);
	free(buf);
	c->parsed = 1;
	return 0;
}

int peel_to_commit(const struct object_id *oid, struct object_id *out)
{
	enum object_type t;
	if (peel_to_non_tag(oid, out, &t) < 0)
		return error("Could not read %s", oid_to_hex(oid));
	if (t != OBJ_COMMIT)
		return error("object %s is a %s, not a commit", oid_to_hex(out), type_name(t));
	return 0;
}

/* ---- the heap and per-walk state ---- */

struct walk {
	struct commit_node **heap;
	size_t nr, alloc;
	struct commit_node **touched;
	size_t touched_nr, touched_alloc;
};

/* Newest first: higher generation, then later date. */
static inline int before(const struct commit_node *a, const struct commit_node *b)
{
	if (a->generation != b->generation)
		return a->generation > b->generation;
	return a->date > b->date;
}

static void touch(struct walk *w, struct commit_node *c)
{
	if (c->flags & TOUCHED)
		return;
	c->flags |= TOUCHED;
	ALLOC_GROW(w->touched, w->touched_nr + 1, w->touched_alloc);
	w->touched[w->touched_nr++] = c;
}

static void push(struct walk *w, struct commit_node *c)
{
	size_t i;
	touch(w, c);
	c->flags |= IN_QUEUE;
	ALLOC_GROW(w->heap, w->nr + 1, w->alloc);
	i = w->nr++;
	while (i) {
		size_t parent = (i - 1) / 2;
		if (!before(c, w->heap[parent]))
			break;
		w->heap[i] = w->heap[parent];
		i = parent;
	}
	w->heap[i] = c;
}

static struct commit_node *pop(struct walk *w)
{
	struct commit_node *top = w->heap[0], *last = w->heap[--w->nr];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, best;
		if (l >= w->nr)
			break;
		best = l;
		if (l + 1 < w->nr && before(w->heap[l + 1], w->heap[l]))
			best = l + 1;
		if (!before(w->heap[best], last))
			break;
		w->heap[i] = w->heap[best];
		i = best;
	}
	if (w->nr)
		w->heap[i] = last;
	top->flags &= ~IN_QUEUE;
	return top;
}

static void walk_end(struct walk *w)
{
	for (size_t i = 0; i < w->touched_nr; i++)
		w->touched[i]->flags = 0;
	free(w->touched);
	free(w->heap);
	memset(w, 0, sizeof(*w));
}

static struct commit_node *lookup_parsed(const struct object_id *oid)
{
	struct commit_node *c = commit_lookup(oid);
	return commit_parse(c) ? NULL : c;
}

/* ---- --contains ---- */

/* Up to TIP_BITS tips at once: which of them reach x? */
static int contains_chunk(struct commit_node *x, struct commit_node **tips, size_t nr,
			  unsigned char *result)
{
	struct walk w = { 0 };
	size_t live = 0;   /* queued commits not reachable from x */
	size_t popped = 0, ahead_at = AHEAD_AFTER;
	uint32_t gx = x->generation;
	int ret = 0;

	x->flags |= BELOW;
	push(&w, x);
	for (size_t i = 0; i < nr; i++) {
		struct commit_node *t = tips[i];
		if (!t)
			continue;
		if (t == x) {
			result[i] = 1;
			continue;
		}
		if (!(t->flags & IN_QUEUE))
			live++;
		t->flags |= 1u << i;
		if (!(t->flags & IN_QUEUE))
			push(&w, t);
	}
	while (w.nr && live) {
		struct commit_node *c = pop(&w);
		uint32_t bits = c->flags & TIP_MASK;
		int below = !!(c->flags & BELOW);
		if (!below)
			live--;
		if (++popped == ahead_at)
			ahead_at = ahead_start(x, c, popped);
		if (commit_parse(c)) {
			ret = -1;
			break;
		}
		for (uint16_t i = 0; i < c->nr_parents; i++) {
			struct commit_node *p = c->parents[i];
			if (commit_parse(p)) {
				ret = -1;
				goto out;
			}
			/* Below x's generation nothing can reach x. */
			if (p->generation < gx)
				continue;
			touch(&w, p);
			if (below) {
				if (p->flags & BELOW)
					continue;
				p->flags |= BELOW;
				if (p->flags & IN_QUEUE)
					live--;
				else
					push(&w, p);
			} else if (p == x) {
				x->flags |= bits;
			} else if (!(p->flags & BELOW) && (bits & ~p->flags)) {
				p->flags |= bits;
				if (!(p->flags & IN_QUEUE)) {
					push(&w, p);
					live++;
				}
			}
		}
	}
	for (size_t i = 0; i < nr; i++)
		if (tips[i] && (x->flags & (1u << i)))
			result[i] = 1;
out:
	ahead_stop();
	walk_end(&w);
	return ret;
}

static struct commit_node *lookup_commitish(const struct object_id *oid)
{
	struct object_id c;
	if (peel_to_commit(oid, &c))
		return NULL;
	return lookup_parsed(&c);
}

int commits_containing(const struct object_id *commit, const struct object_id *tips,
		       size_t nr, unsigned char *result)
{
	struct commit_node *x = lookup_commitish(commit), *chunk[TIP_BITS];
	int ret = 0;

	memset(result, 0, nr);
	if (!x)
		return -1;
	for (size_t i = 0; i < nr; i += TIP_BITS) {
		size_t n = nr - i < TIP_BITS ? nr - i : TIP_BITS;
		for (size_t j = 0; j < n; j++) {
			chunk[j] = lookup_commitish(&tips[i + j]);
			if (!chunk[j])
				ret = -1;
		}
		if (contains_chunk(x, chunk, n, result + i))
			ret = -1;
	}
	return ret;
}

int commit_is_ancestor(const struct object_id *ancestor, const struct object_id *descendant)
{
	unsigned char r = 0;
	if (commits_containing(ancestor, descendant, 1, &r) < 0)
		return -1;
	return r;
}

/* ---- --merged ---- */

int commits_merged_into(const struct object_id *base, const struct object_id *tips,
			size_t nr, unsigned char *result)
{
	struct commit_node *b = lookup_commitish(base), **t;
	struct walk w = { 0 };
	size_t unresolved = 0;
	uint32_t min_gen = GENERATION_INFINITY;
	timestamp_t min_date = UINT64_MAX;
	int ret = 0, slop = 0;

	memset(result, 0, nr);
	if (!b)
		return -1;
	t = xcalloc(nr ? nr : 1, sizeof(*t));
	for (size_t i = 0; i < nr; i++) {
		t[i] = lookup_commitish(&tips[i]);
		if (!t[i]) {
			ret = -1;
			continue;
		}
		/* Bounds below which no tip can be. */
		if (t[i]->generation != GENERATION_INFINITY && t[i]->generation < min_gen)
			min_gen = t[i]->generation;
		if (t[i]->date < min_date)
			min_date = t[i]->date;
		if (t[i]->flags & SIDE_A)
			continue;   /* the same commit twice */
		touch(&w, t[i]);
		t[i]->flags |= SIDE_A;
		unresolved++;
	}
	b->flags |= BELOW;
	if (b->flags & SIDE_A)
		unresolved--;
	push(&w, b);
	while (w.nr && unresolved) {
		struct commit_node *c = pop(&w);
		/* Graph commits below every tip's generation reach none. */
		if (c->generation != GENERATION_INFINITY && c->generation < min_gen)
			break;
		/* Without generations: git's everybody-is-older heuristic,
		 * with a few commits of slop for skewed clocks. */
		if (c->generation == GENERATION_INFINITY && c->date < min_date) {
			if (++slop > 5)
				break;
		} else
			slop = 0;
		for (uint16_t i = 0; i < c->nr_parents; i++) {
			struct commit_node *p = c->parents[i];
			if (p->flags & BELOW)
				continue;
			if (commit_parse(p)) {
				ret = -1;
				goto out;
			}
			if (p->flags & SIDE_A)
				unresolved--;
			p->flags |= BELOW;
			push(&w, p);
		}
	}
out:
	for (size_t i = 0; i < nr; i++)
		if (t[i] && (t[i]->flags & BELOW))
			result[i] = 1;
	walk_end(&w);
	free(t);
	return ret;
}

/* ---- ahead and behind ---- */

/* Paint from a (SIDE_A) and b (SIDE_B) until every queued commit has both:
 * then nothing left below can be on one side only. A commit that gains a
 * flag after it was popped (dates out of order) is queued again. */
static int paint_both(struct walk *w, struct commit_node *a, struct commit_node *b)
{
	size_t live;
	timestamp_t last_date = UINT64_MAX;
	int slop = SLOP;

	a->flags |= SIDE_A;
	push(w, a);
	b->flags |= SIDE_B;
	if (!(b->flags & IN_QUEUE))
		push(w, b);
	live = a == b ? 0 : 2;
	while (w->nr) {
		struct commit_node *c = w->heap[0];
		uint32_t f;
		if (!live) {
			/* In generation order nothing below can change. */
			if (c->generation != GENERATION_INFINITY)
				break;
			/* By date, go on while commits as recent as the last one
			 * remain (equal dates are common), then a few more. */
			if (c->date < last_date) {
				if (--slop < 0)
					break;
			} else
				slop = SLOP;
		}
		c = pop(w);
		last_date = c->date;
		f = c->flags & (SIDE_A | SIDE_B);
		if (f != (SIDE_A | SIDE_B))
			live--;
		if (commit_parse(c))
			return -1;
		for (uint16_t i = 0; i < c->nr_parents; i++) {
			struct commit_node *p = c->parents[i];
			uint32_t old = p->flags & (SIDE_A | SIDE_B);
			if ((old | f) == old)
				continue;
			if (commit_parse(p))
				return -1;
			touch(w, p);
			p->flags |= f;
			if (p->flags & IN_QUEUE) {
				if ((p->flags & (SIDE_A | SIDE_B)) == (SIDE_A | SIDE_B))
					live--;
			} else {
				push(w, p);
				if ((p->flags & (SIDE_A | SIDE_B)) != (SIDE_A | SIDE_B))
					live++;
			}
		}
	}
	return 0;
}

int commit_ahead_behind(const struct object_id *a, const struct object_id *b,
			size_t *ahead, size_t *behind)
{
	struct commit_node *ca = lookup_commitish(a), *cb = lookup_commitish(b);
	struct walk w = { 0 };
	int ret;

	*ahead = *behind = 0;
	if (!ca || !cb)
		return -1;
	ret = paint_both(&w, ca, cb);
	for (size_t i = 0; i < w.touched_nr; i++) {
		uint32_t f = w.touched[i]->flags & (SIDE_A | SIDE_B);
		if (f == SIDE_A)
			(*ahead)++;
		else if (f == SIDE_B)
			(*behind)++;
	}
	walk_end(&w);
	return ret;
}

/* ---- merge bases ---- */

int commit_merge_bases(const struct object_id *a, const struct object_id *b,
		       struct object_id **out)
{
	struct commit_node *ca = lookup_commitish(a), *cb = lookup_commitish(b);
	struct commit_node **cand = NULL;
	size_t nr = 0, alloc = 0, n = 0;
	struct walk w = { 0 };

	*out = NULL;
	if (!ca || !cb)
		return -1;
	if (paint_both(&w, ca, cb) < 0) {
		walk_end(&w);
		return -1;
	}
	/* Common commits none of whose children (among those seen) is common. */
	for (size_t i = 0; i < w.touched_nr; i++) {
		struct commit_node *c = w.touched[i];
		if ((c->flags & (SIDE_A | SIDE_B)) == (SIDE_A | SIDE_B)) {
			ALLOC_GROW(cand, nr + 1, alloc);
			cand[nr++] = c;
		}
	}
	walk_end(&w);
	*out = xcalloc(nr ? nr : 1, sizeof(**out));
	for (size_t i = 0; i < nr; i++) {
		int redundant = 0;
		for (size_t j = 0; j < nr && !redundant; j++)
			if (i != j && commit_is_ancestor(&cand[i]->oid, &cand[j]->oid) == 1)
				redundant = 1;
		if (!redundant)
			oidcpy(&(*out)[n++], &cand[i]->oid);
	}
	free(cand);
	return (int)n;
}
