/* transaction.c: many ref changes that succeed or fail together
 * (refs/refs.h). Every ref is locked and checked before any is written;
 * deletions leave packed-refs in one rewrite. */
#include "refs/refs-internal.h"
#include "lib/strbuf.h"

struct ref_transaction {
	struct ref_update *u;
	size_t nr, alloc;
	int prepared;
};

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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int has_name(const char *const *names, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/*
 * Two changes may not reach one ref: not by name, not through a symref
 * (HEAD and the branch it points to), and not through HEAD's log, which
 * follows the branch HEAD points to.
 */
static int check_overlaps(struct ref_transaction *t, const char ***names, size_t *nr,
			  struct strbuf *err)
{
	struct strbuf target = STRBUF_INIT, head = STRBUF_INIT;
	size_t alloc = 0;
	int r = 0;

	*names = NULL;
	*nr = 0;
	for (size_t i = 0; i < t->nr; i++) {
		ALLOC_GROW(*names, *nr + 1, alloc);
		(*names)[(*nr)++] = t->u[i].name;
	}
	{
		const char **sorted = xmalloc(st_mult(*nr ? *nr : 1, sizeof(*sorted)));
		memcpy(sorted, *names, *nr * sizeof(*sorted));
		qsort(sorted, *nr, sizeof(*sorted), cmp_str);
		for (size_t i = 1; i < *nr && !r; i++)
			if (!strcmp(sorted[i - 1], sorted[i])) {
				strbuf_addf(err, "multiple updates for ref '%s' not allowed", sorted[i]);
				r = -1;
			}
		free(sorted);
	}
	if (refs_read_symref("HEAD", &head) == NULL)
		strbuf_reset(&head);
	for (size_t i = 0; i < t->nr && !r; i++) {
		struct ref_update *u = &t->u[i];
		if (strcmp(u->name, "HEAD") && head.len && !strcmp(head.buf, u->name) &&
		    has_name(*names, *nr, "HEAD")) {
			strbuf_addf(err, "multiple updates for 'HEAD' (including one via its referent '%s') are not allowed",
				    u->name);
			r = -1;
		} else if (!(u->flags & REF_NO_DEREF) && refs_read_symref(u->name, &target)) {
			if (has_name(*names, *nr, target.buf)) {
				strbuf_addf(err, "multiple updates for '%s' (including one via symref '%s') are not allowed",
					    target.buf, u->name);
				r = -1;
			} else {
				ALLOC_GROW(*names, *nr + 1, alloc);
				(*names)[(*nr)++] = xstrdup(target.buf);
			}
		}
	}
	strbuf_release(&target);
	strbuf_release(&head);
	return r;
}

int ref_transaction_prepare(struct ref_transaction *t, struct strbuf *err)
{
	const char **names, **others;
	size_t nr, nr_orig = t->nr;
	int r;

	if (t->prepared)
		return 0;
	r = check_overlaps(t, &names, &nr, err);
	others = xmalloc(st_mult(nr ? nr : 1, sizeof(*others)));
	for (size_t i = 0; i < t->nr && !r; i++) {
		size_t n = 0;
		for (size_t k = 0; k < nr; k++)
			if (k != i)
				others[n++] = names[k];
		r = ref_update_lock(&t->u[i], others, n, err);
	}
	for (size_t k = nr_orig; k < nr; k++)
		free((char *)names[k]);
	free(names);
	free(others);
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
