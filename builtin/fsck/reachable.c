/* reachable.c: the full mode's connectivity: the missing ids numbered
 * after the table, the walk from the roots over the links verification
 * kept (in parallel when it can print nothing), and the typing of objects
 * by the links that name them. */
#include "builtin/fsck/fsck.h"
#include "lib/thread-pool.h"
#include "odb/odb.h"

uint32_t *fsck_pending;
size_t fsck_nr_pending;
static size_t alloc_pending;

static struct object_id *missing_oid(uint32_t i) { return &fsck_missing[i]; }

/* Unified numbering: table objects, then the distinct missing ids. */
size_t fsck_nr_virtual;
struct fobj *fsck_virt;
uint32_t *fsck_missing_map;   /* missing list index -> virt index */

static int cmp_missing(const void *a, const void *b)
{
	return oidcmp(&fsck_missing[*(const uint32_t *)a], &fsck_missing[*(const uint32_t *)b]);
}

void build_missing(void)
{
	uint32_t *perm = xmalloc((fsck_nr_missing + 1) * sizeof(*perm));
	fsck_missing_map = xmalloc((fsck_nr_missing + 1) * sizeof(*fsck_missing_map));
	for (size_t i = 0; i < fsck_nr_missing; i++)
		perm[i] = (uint32_t)i;
	QSORT(perm, fsck_nr_missing, cmp_missing);
	fsck_virt = xcalloc(fsck_nr_missing + 1, sizeof(*fsck_virt));
	for (size_t i = 0; i < fsck_nr_missing; i++) {
		uint32_t k = perm[i];
		if (!fsck_nr_virtual || !oideq(&fsck_virt[fsck_nr_virtual - 1].oid, missing_oid(k))) {
			oidcpy(&fsck_virt[fsck_nr_virtual].oid, missing_oid(k));
			fsck_virt[fsck_nr_virtual].type = fsck_missing_type[k];
			fsck_nr_virtual++;
		}
		fsck_missing_map[k] = (uint32_t)(fsck_nr_virtual - 1);
	}
	free(perm);
}

struct fobj *link_target(uint32_t l)
{
	if (l & LINK_MISSING)
		return &fsck_virt[fsck_missing_map[LINK_INDEX(l)]];
	return &fsck_objs[LINK_INDEX(l)];
}

static uint32_t obj_ref(struct fobj *o)
{
	if (o >= fsck_objs && o < fsck_objs + fsck_nr_objs)
		return (uint32_t)(o - fsck_objs);
	return (uint32_t)(o - fsck_virt) | LINK_MISSING;
}

void mark_reachable(struct fobj *o)
{
	if (o->flags & REACHABLE)
		return;
	o->flags |= REACHABLE;
	if (o >= fsck_objs && o < fsck_objs + fsck_nr_objs)
		fsck_reach_map[o - fsck_objs] = 1;
	/* A blob links nowhere: no need to visit it (most objects). */
	if (!(o->flags & HAS_OBJ) || o->type == OBJ_BLOB)
		return;
	ALLOC_GROW(fsck_pending, fsck_nr_pending + 1, alloc_pending);
	fsck_pending[fsck_nr_pending++] = obj_ref(o);
}

/* A reachable object that is stored but failed verification: git reads
 * it again while walking and dies on it; let the object store say how. */
void reread_broken(struct fobj *o)
{
	enum object_type t;
	size_t sz;
	void *d;
	if (o->flags & HAS_OBJ || !(o->flags & (IN_LOOSE | IN_PACK)))
		return;
	if (o->flags & IN_PACK) {
		/* git prints zlib's complaint again and gives up. */
		for (size_t i = 0; i < fsck_nr_bad_packed; i++)
			if (oideq(&fsck_bad_packed[i].oid, &o->oid)) {
				fflush(stdout);
				if (fsck_bad_packed[i].detail)
					error("inflate: data stream error (%s)", fsck_bad_packed[i].detail);
				die("packed object %s (stored in %s) is corrupt", thex(&o->oid),
				    fsck_bad_packed[i].pack);
			}
		return;
	}
	/* git asks for the type first, then the contents: both complain. */
	odb_read_header(&o->oid, &t, &sz);
	d = odb_read_object(&o->oid, &t, &sz);
	free(d);
}

/*
 * When every object in the table was verified and no link is missing,
 * the walk can print nothing: only the reachable set is wanted, and the
 * threads share the walk, claiming objects in reach_map. A task whose
 * stack grows hands half of it to another task while one is idle.
 */
int fsck_all_verified;
static void trav_task_run(void *arg, int worker);

struct trav_task {
	size_t n;
	uint32_t items[];
};

static void trav_add(const uint32_t *items, size_t n)
{
	struct trav_task *t = xmalloc(sizeof(*t) + n * sizeof(uint32_t));
	t->n = n;
	memcpy(t->items, items, n * sizeof(uint32_t));
	thread_pool_add(fsck_pool, trav_task_run, t);
}

static void trav_task_run(void *arg, int worker UNUSED)
{
	struct trav_task *t = arg;
	uint32_t *st = NULL;
	size_t sp = 0, alloc = 0;

	ALLOC_GROW(st, t->n, alloc);
	memcpy(st, t->items, t->n * sizeof(uint32_t));
	sp = t->n;
	free(t);
	while (sp) {
		uint32_t *l = fsck_objs[st[--sp]].links;
		/* The next object's links, whose entry was fetched when it
		 * was pushed: the walk's cache misses overlap. */
		if (sp && fsck_objs[st[sp - 1]].links)
			__builtin_prefetch(fsck_objs[st[sp - 1]].links);
		if (!l)
			continue;
		ALLOC_GROW(st, sp + l[0], alloc);
		for (uint32_t i = 1; i <= l[0]; i++) {
			uint32_t x = LINK_INDEX(l[i]);
			if (__atomic_load_n(&fsck_reach_map[x], __ATOMIC_RELAXED) ||
			    __atomic_exchange_n(&fsck_reach_map[x], 1, __ATOMIC_RELAXED))
				continue;
			if (fsck_type_map[x] != OBJ_BLOB) {
				__builtin_prefetch(&fsck_objs[x].links);
				st[sp++] = x;
			}
		}
		if (sp >= 64 && thread_pool_pending(fsck_pool) < (size_t)thread_pool_threads(fsck_pool)) {
			trav_add(st, sp / 2);
			memmove(st, st + sp / 2, (sp - sp / 2) * sizeof(uint32_t));
			sp -= sp / 2;
		}
	}
	free(st);
}

static void traverse_parallel(void)
{
	for (size_t i = 0; i < fsck_nr_pending; i += 64)
		trav_add(fsck_pending + i, fsck_nr_pending - i < 64 ? fsck_nr_pending - i : 64);
	fsck_nr_pending = 0;
	thread_pool_wait(fsck_pool);
}

void traverse(void)
{
	if (fsck_all_verified && fsck_pool && thread_pool_threads(fsck_pool) > 1) {
		traverse_parallel();
		return;
	}
	while (fsck_nr_pending) {
		uint32_t r = fsck_pending[--fsck_nr_pending];
		struct fobj *p = link_target(r);
		uint32_t *l = p->links;
		if (p->flags & WALK_BAD)
			walk_bad_say(p);
		if (!l)
			continue;
		for (uint32_t i = 1; i <= l[0]; i++) {
			struct fobj *t;
			if (!(l[i] & LINK_MISSING) && fsck_reach_map[LINK_INDEX(l[i])])
				continue;
			t = link_target(l[i]);
			if (t->flags & REACHABLE)
				continue;
			if (!(t->flags & HAS_OBJ) && LINK_TYPE(l[i]) != OBJ_BLOB)
				reread_broken(t);
			if (!(t->flags & HAS_OBJ) && !(t->flags & (IN_LOOSE | IN_PACK))) {
				printf("broken link from %7s %s\n              to %7s %s\n",
				       printable_type(p->type), thex(&p->oid),
				       printable_type(t->type), thex(&t->oid));
				fsck_errors_found |= ERROR_REACHABLE;
			}
			mark_reachable(t);
		}
	}
}

/*
 * Verification marked what verified objects link to in used_map. What is
 * left is git's typing of objects by the links that name them, which
 * only objects never read need: when there are none, nothing to do.
 */
void mark_used_links(void)
{
	int need = 0;
	for (size_t i = 0; i < fsck_nr_objs && !need; i++)
		need = !(fsck_objs[i].flags & HAS_OBJ);
	for (size_t i = 0; i < fsck_nr_virtual && !need; i++)
		need = !fsck_virt[i].type;
	/* The parallel walk says nothing: trees to complain about take
	 * the ordered one. */
	fsck_all_verified = !need && !fsck_nr_virtual && !fsck_nr_walk_bad;
	if (!need)
		return;
	for (size_t i = 0; i < fsck_nr_objs; i++) {
		uint32_t *l = fsck_objs[i].links;
		if (!l)
			continue;
		for (uint32_t k = 1; k <= l[0]; k++) {
			struct fobj *t = link_target(l[k]);
			t->flags |= USED;
			/* git's lookup_tree() and friends give an object it has
			 * not read the type of the link that named it. */
			if (!t->type)
				t->type = LINK_TYPE(l[k]);
		}
	}
}
