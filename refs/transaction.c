/* transaction.c: many ref changes that succeed or fail together
 * (refs/refs.h). Every ref is locked and checked before any is written;
 * deletions leave packed-refs in one rewrite. */
#include "refs/refs-internal.h"
#include "lib/strbuf.h"
#include "lib/repo.h"
#include "lib/lockfile.h"
#include "lib/sorted.h"
#include "lib/fd-batch.h"
#include <fcntl.h>

struct ref_transaction {
	struct ref_update *u;
	size_t nr, alloc;
	int prepared;
	int together;   /* synced at once: the lock files are closed as written */
};

/* Many new values are synced with one syncfs() of the repository's file
 * system, not one fsync() each; a few are fsynced as a single update is.
 * Written and closed as they are locked, many locks hold no descriptor. */
#define SYNC_ONE_BY_ONE 4

struct ref_transaction *ref_transaction_begin(void)
{
	return xcalloc(1, sizeof(struct ref_transaction));
}

void ref_transaction_add(struct ref_transaction *t, const char *name,
			 const struct object_id *new_oid, const struct object_id *old_oid,
			 unsigned flags, const char *msg)
{
	struct ref_update *u;
	ALLOC_GROW(t->u, t->nr + 1, t->alloc);
	u = &t->u[t->nr++];
	memset(u, 0, sizeof(*u));
	u->name = xstrdup(name);
	u->flags = flags;
	u->msg = msg ? xstrdup(msg) : NULL;
	if (new_oid) {
		u->has_new = 1;
		u->del = is_null_oid(new_oid);
		oidcpy(&u->new_oid, new_oid);
	}
	if (old_oid) {
		u->has_old = 1;
		oidcpy(&u->old_oid, old_oid);
	}
}

/*
 * The names a transaction changes: those asked for, sorted (binary
 * search), and the symref targets found on the way (few; a list).
 */
#define FREE_PREFIXES 16

struct ref_names {
	const char **sorted;
	size_t nr;
	char **extra;
	size_t nr_extra, alloc_extra;
	char *free_prefix[FREE_PREFIXES];   /* the last ones found to be no ref */
	unsigned next_free;
};

static int sync_repository(void)
{
	int fd = fd_open(common_path("refs"), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0), r;
	if (fd < 0)
		return -1;
	r = syncfs(fd);
	fd_close_batched(fd);
	return r;
}

static int cmp_name(const void *elem, const void *key)
{
	return strcmp(*(const char *const *)elem, key);
}

/* The first sorted name not below name (name itself or after it). */
static size_t first_from(const struct ref_names *set, const char *name)
{
	return lower_bound(set->sorted, set->nr, sizeof(*set->sorted), name, cmp_name);
}

static const char *names_find(const struct ref_names *set, const char *name)
{
	size_t at = first_from(set, name);
	if (at < set->nr && !strcmp(set->sorted[at], name))
		return set->sorted[at];
	for (size_t i = 0; i < set->nr_extra; i++)
		if (!strcmp(set->extra[i], name))
			return set->extra[i];
	return NULL;
}

const char *ref_names_conflict(const struct ref_names *set, const char *name)
{
	struct strbuf below = STRBUF_INIT;
	const char *found = NULL;
	size_t at;

	/* a name above: each leading part of name */
	for (const char *slash = strchr(name, '/'); slash && !found; slash = strchr(slash + 1, '/')) {
		strbuf_reset(&below);
		strbuf_add(&below, name, (size_t)(slash - name));
		found = names_find(set, below.buf);
	}
	/* a name below: one starting "name/" */
	strbuf_reset(&below);
	strbuf_addf(&below, "%s/", name);
	at = first_from(set, below.buf);
	if (!found && at < set->nr && starts_with(set->sorted[at], below.buf))
		found = set->sorted[at];
	for (size_t i = 0; !found && i < set->nr_extra; i++)
		if (starts_with(set->extra[i], below.buf))
			found = set->extra[i];
	strbuf_release(&below);
	return found;
}

int ref_names_known_free(const struct ref_names *set, const char *prefix)
{
	for (unsigned i = 0; i < FREE_PREFIXES; i++)
		if (set->free_prefix[i] && !strcmp(set->free_prefix[i], prefix))
			return 1;
	return 0;
}

void ref_names_mark_free(struct ref_names *set, const char *prefix)
{
	char **slot = &set->free_prefix[set->next_free++ % FREE_PREFIXES];
	free(*slot);
	*slot = xstrdup(prefix);
}

static void names_release(struct ref_names *set)
{
	for (unsigned i = 0; i < FREE_PREFIXES; i++)
		free(set->free_prefix[i]);
	free(set->sorted);
	for (size_t i = 0; i < set->nr_extra; i++)
		free(set->extra[i]);
	free(set->extra);
}

static void claim(struct ref_names *set, const char *name)
{
	ALLOC_GROW(set->extra, set->nr_extra + 1, set->alloc_extra);
	set->extra[set->nr_extra++] = xstrdup(name);
}

/*
 * Two changes may not name one ref (that one reaches a ref through a
 * symref another names is found in git's order, as the changes are
 * locked). Fills set with the names, and looks at each ref's file once
 * before its lock: a change through a symref is split.
 */
static int check_overlaps(struct ref_transaction *t, struct ref_names *set, struct strbuf *err)
{
	int r = 0;

	set->sorted = xmalloc(st_mult(t->nr ? t->nr : 1, sizeof(*set->sorted)));
	for (size_t i = 0; i < t->nr; i++)
		set->sorted[set->nr++] = t->u[i].name;
	qsort(set->sorted, set->nr, sizeof(*set->sorted), cmp_strings);
	for (size_t i = 1; i < set->nr && !r; i++)
		if (!strcmp(set->sorted[i - 1], set->sorted[i])) {
			strbuf_addf(err, "multiple updates for ref '%s' not allowed", set->sorted[i]);
			r = -1;
		}
	for (size_t i = 0; i < t->nr && !r; i++) {
		struct ref_update *u = &t->u[i];
		if (u->flags & REF_NO_DEREF)
			continue;
		/* the one look at the file before its lock */
		ref_update_look(u);
		u->split = u->first.r == 1;
	}
	return r;
}

/*
 * The order of git's checks. git splits a change through a symref into
 * one change per ref on the way, each added at the end of its list when
 * the one before it is locked, and beside a change of the ref HEAD points
 * to it adds one of HEAD's log, with the old value asked. So a change's
 * own checks come first, then, ring by ring, the steps of every chain:
 * HEAD's check beside a step, a ref reached twice (a loop too), and the
 * checks of the ref at a chain's end.
 */
struct step {
	struct ref_update *u;
	char *name;         /* the ref this step reaches */
	int head;           /* HEAD's check beside a change of name */
};

struct steps {
	struct step *v;
	size_t nr, alloc;
};

static void add_step(struct steps *q, struct ref_update *u, const char *name, int head)
{
	ALLOC_GROW(q->v, q->nr + 1, q->alloc);
	q->v[q->nr].u = u;
	q->v[q->nr].name = xstrdup(name);
	q->v[q->nr++].head = head;
}

/* HEAD's check beside a change reaching name, when HEAD points there
 * (run only where name is a symref: for the end of a chain it could only
 * repeat what that ref's own check, already made, found). */
static int add_head_step(struct steps *q, struct ref_update *u, const char *name, int symref,
			 const struct strbuf *head, struct ref_names *set, struct strbuf *err)
{
	if (!head->len || strcmp(head->buf, name) || !strcmp(u->name, "HEAD"))
		return 0;
	if (names_find(set, "HEAD")) {
		strbuf_addf(err, "multiple updates for 'HEAD' (including one via its referent '%s') are not allowed",
			    name);
		return -1;
	}
	claim(set, "HEAD");
	if (symref)
		add_step(q, u, name, 1);
	return 0;
}

/* The symref at name (a step of u's chain) leads on: its target claimed
 * for u, or refused when another change names or reaches it. */
static int follow(struct steps *q, struct ref_update *u, const char *name, const char *target,
		  struct ref_names *set, struct strbuf *err)
{
	if (names_find(set, target)) {
		strbuf_addf(err, "multiple updates for '%s' (including one via symref '%s') are not allowed",
			    target, name);
		return -1;
	}
	claim(set, target);
	add_step(q, u, target, 0);
	return 0;
}

static int lock_and_stage(struct ref_transaction *t, struct ref_update *u, struct ref_names *set,
			  struct strbuf *err)
{
	int r = ref_update_lock(u, set, err);
	if (!r && u->has_new && !u->del)
		r = ref_update_stage(u, t->together, err);
	else if (!r)
		lock_file_close_unsynced(u->lk);   /* the lock alone is what counts */
	return r;
}

static int run_step(struct ref_transaction *t, struct steps *q, struct step *st,
		    const struct strbuf *head, struct ref_names *set, struct strbuf *err)
{
	struct strbuf target = STRBUF_INIT;
	struct object_id oid;
	int r;

	if (st->head) {
		size_t base = err->len;
		if (!st->u->has_old)
			return 0;
		strbuf_addstr(err, "cannot lock ref 'HEAD': ");
		if (ref_check_old_via(st->name, &st->u->old_oid, err) < 0)
			return -1;
		strbuf_setlen(err, base);
		return 0;
	}
	r = read_loose_ref_fresh(st->name, &oid, &target) == 1;
	if (add_head_step(q, st->u, st->name, r, head, set, err) < 0)
		r = -1;
	else if (r)
		r = follow(q, st->u, st->name, target.buf, set, err);
	else
		r = lock_and_stage(t, st->u, set, err);
	strbuf_release(&target);
	return r;
}

int ref_transaction_prepare(struct ref_transaction *t, struct strbuf *err)
{
	struct ref_names set = { 0 };
	struct strbuf head = STRBUF_INIT;
	struct steps q = { 0 };
	int r;

	if (t->prepared)
		return 0;
	for (size_t i = 0, writes = 0; i < t->nr; i++)
		if (t->u[i].has_new && !t->u[i].del && ++writes > SYNC_ONE_BY_ONE)
			t->together = 1;
	if (!refs_read_symref("HEAD", &head))
		strbuf_reset(&head);
	r = check_overlaps(t, &set, err);
	for (size_t i = 0; i < t->nr && !r; i++) {
		struct ref_update *u = &t->u[i];
		r = add_head_step(&q, u, u->name, u->split, &head, &set, err);
		if (!r && u->split)
			r = follow(&q, u, u->name, u->first.target.buf, &set, err);
		else if (!r)
			r = lock_and_stage(t, u, &set, err);
	}
	for (size_t i = 0; i < q.nr && !r; i++)
		r = run_step(t, &q, &q.v[i], &head, &set, err);
	for (size_t i = 0; i < q.nr; i++)
		free(q.v[i].name);
	free(q.v);
	names_release(&set);
	strbuf_release(&head);
	if (r)
		return -1;
	t->prepared = 1;
	return 0;
}

int ref_transaction_commit(struct ref_transaction *t, struct strbuf *err)
{
	const char **gone;
	size_t nr_gone = 0;
	int r = 0;

	if (ref_transaction_prepare(t, err) < 0)
		return -1;
	if (t->together && sync_repository() < 0) {
		strbuf_addf(err, "unable to sync the new values of refs: %s", strerror(errno));
		return -1;
	}
	gone = xmalloc(st_mult(t->nr ? t->nr : 1, sizeof(*gone)));
	for (size_t i = 0; i < t->nr; i++)
		if (t->u[i].del)
			gone[nr_gone++] = t->u[i].real;
	if (nr_gone && packed_refs_remove(gone, nr_gone, 0, err) < 0)
		r = -1;
	free(gone);
	for (size_t i = 0; i < t->nr && !r; i++) {
		struct ref_update *u = &t->u[i];
		if (u->del)
			r = ref_update_remove(u, err);
		else if (u->has_new)
			r = ref_update_write(u, err);
	}
	return r;
}

void ref_transaction_free(struct ref_transaction *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++) {
		ref_update_release(&t->u[i]);
		free((char *)t->u[i].name);
		free((char *)t->u[i].msg);
	}
	free(t->u);
	free(t);
}
