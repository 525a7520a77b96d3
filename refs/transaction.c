/* transaction.c: many ref changes that succeed or fail together
 * (refs/refs.h). Every ref is locked and checked before any is written;
 * deletions leave packed-refs in one rewrite. */
#include "refs/refs-internal.h"
#include "lib/strbuf.h"
#include "lib/repo.h"
#include "lib/lockfile.h"
#include "lib/sorted.h"
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
	int fd = open(common_path("refs"), O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;
	if (fd < 0)
		return -1;
	r = syncfs(fd);
	close(fd);
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

/*
 * Each ref of u's symref chain, to its end, claimed for u in set, as git
 * splits a change through a symref into one per ref it reaches: a ref
 * another change names or reaches (or u itself, in a loop) is refused.
 */
static int claim_chain(struct ref_update *u, struct ref_names *set, struct strbuf *err)
{
	struct strbuf prev = STRBUF_INIT, cur = STRBUF_INIT, next = STRBUF_INIT;
	struct object_id oid;
	int r = 0;

	strbuf_addstr(&prev, u->name);
	strbuf_addbuf(&cur, &u->first.target);
	for (;;) {
		if (names_find(set, cur.buf)) {
			strbuf_addf(err, "multiple updates for '%s' (including one via symref '%s') are not allowed",
				    cur.buf, prev.buf);
			r = -1;
			break;
		}
		ALLOC_GROW(set->extra, set->nr_extra + 1, set->alloc_extra);
		set->extra[set->nr_extra++] = xstrdup(cur.buf);
		u->split = 1;
		if (read_loose_ref_fresh(cur.buf, &oid, &next) != 1)
			break;
		strbuf_reset(&prev);
		strbuf_addbuf(&prev, &cur);
		strbuf_reset(&cur);
		strbuf_addbuf(&cur, &next);
		strbuf_reset(&next);
	}
	strbuf_release(&prev);
	strbuf_release(&cur);
	strbuf_release(&next);
	return r;
}

/*
 * Two changes may not reach one ref: not by name, not through a symref
 * (HEAD and the branch it points to), and not through HEAD's log, which
 * follows the branch HEAD points to. Fills set.
 */
static int check_overlaps(struct ref_transaction *t, struct ref_names *set, struct strbuf *err)
{
	struct strbuf head = STRBUF_INIT;
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
	if (!refs_read_symref("HEAD", &head))
		strbuf_reset(&head);
	for (size_t i = 0; i < t->nr && !r; i++) {
		struct ref_update *u = &t->u[i];
		if (strcmp(u->name, "HEAD") && head.len && !strcmp(head.buf, u->name) &&
		    names_find(set, "HEAD")) {
			strbuf_addf(err, "multiple updates for 'HEAD' (including one via its referent '%s') are not allowed",
				    u->name);
			r = -1;
			continue;
		}
		if (u->flags & REF_NO_DEREF)
			continue;
		/* the one look at the file before its lock */
		ref_update_look(u);
		if (u->first.r != 1)
			continue;
		r = claim_chain(u, set, err);
	}
	strbuf_release(&head);
	return r;
}

int ref_transaction_prepare(struct ref_transaction *t, struct strbuf *err)
{
	struct ref_names set = { 0 };
	int r;

	if (t->prepared)
		return 0;
	for (size_t i = 0, writes = 0; i < t->nr; i++)
		if (t->u[i].has_new && !t->u[i].del && ++writes > SYNC_ONE_BY_ONE)
			t->together = 1;
	r = check_overlaps(t, &set, err);
	/* git changes a symref's target as an extra change at the end: its
	 * checks come after every other change's */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < t->nr && !r; i++) {
			struct ref_update *u = &t->u[i];
			if (u->split != pass)
				continue;
			r = ref_update_lock(u, &set, err);
			if (!r && u->has_new && !u->del)
				r = ref_update_stage(u, t->together, err);
			else if (!r)
				lock_file_close_unsynced(u->lk);   /* the lock alone is what counts */
		}
	names_release(&set);
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
