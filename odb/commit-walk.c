/* commit-walk.c: the commit cache and the reachability walks.
 *
 * Nodes live in slabs (stable addresses). Those of commits in the
 * commit-graph are indexed by graph position; the others are found through
 * an open-addressing table keyed by the first bytes of the id, which are
 * already uniformly distributed. A node costs 56 bytes plus its parent
 * pointers.
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

#define SLAB 1024
static struct commit_node **table;
static size_t table_size, table_nr;
static struct commit_node *slab;
static size_t slab_used = SLAB;

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
	if (slab_used == SLAB) {
		slab = xcalloc(SLAB, sizeof(*slab));
		slab_used = 0;
	}
	c = &slab[slab_used++];
	oidcpy(&c->oid, oid);
	c->generation = GENERATION_INFINITY;
	c->graph_pos = GRAPH_POS_NONE;
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
	if (n > left) {
		size_t sz = n > 4096 ? n : 4096;
		block = xmalloc(sz * sizeof(*block));
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

static int parse_head(struct commit_node *c)
{
	static unsigned char buf[HEAD_BYTES + ODB_HEAD_SLACK];
	struct object_id parents[HEAD_PARENTS], tree;
	enum object_type type;
	size_t size, nr = 0;
	ssize_t got = odb_read_object_head(&c->oid, &type, &size, buf, HEAD_BYTES);
	const char *p = (const char *)buf, *end, *next;
	timestamp_t date = 0;

	if (got < 0 || type != OBJ_COMMIT)
		return -1;
	end = p + got;
	if (end - p < 46 || memcmp(p, "tree ", 5) || p[45] != '\n' || get_oid_hex(p + 5, &tree))
		return -1;
	p += 46;
	while (end - p >= 48 && !memcmp(p, "parent ", 7)) {
		if (nr == HEAD_PARENTS || p[47] != '\n' || get_oid_hex(p + 7, &parents[nr]))
			return -1;
		nr++;
		p += 48;
	}
	/* A parent line cut short or malformed: the whole-object path judges. */
	if (end - p < 7 ? (size_t)got < size : !memcmp(p, "parent ", 7))
		return -1;
	/* As parse_commit_buffer(): the first committer line among the
	 * headers, up to the blank line that ends them. */
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl && (size_t)got < size)
			return -1;   /* the line goes on past what was read */
		next = nl ? nl + 1 : end;
		if (p == end || *p == '\n')
			break;
		if (next - p >= 10 && !memcmp(p, "committer ", 10)) {
			struct ident id;
			if (!parse_ident(p + 10, (size_t)((nl ? nl : end) - p - 10), &id))
				date = id.date;
			break;
		}
		p = next;
	}
	c->date = date;
	c->nr_parents = (uint16_t)nr;
	c->parents = alloc_parents(nr);
	for (size_t i = 0; i < nr; i++)
		c->parents[i] = commit_lookup(&parents[i]);
	c->parsed = 1;
	return 0;
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
	if (!parse_head(c))
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
