/* refs-internal.h: what the pieces of refs/ share and nothing outside uses. */
#ifndef REFS_REFS_INTERNAL_H
#define REFS_REFS_INTERNAL_H

#include "refs/refs.h"

/* packed-refs, read once per process (re-read after we rewrite it). */
struct packed_refs {
	char *path;
	const char *buf;   /* the whole file, mmap'ed or read */
	size_t len;
	const char *start; /* first record, after the header */
	int mmapped;
	int sorted;        /* records sorted by name (header trait, or we sorted them) */
	int fully_peeled;  /* every tag record has its ^ line */
	int peeled;        /* tags under refs/tags/ have their ^ line */
	const char **recs; /* unsorted file: record starts, sorted by name */
	size_t nr;
};

/* NULL if there is no packed-refs file; dies on a malformed one. */
struct packed_refs *packed_refs_get(void);
void packed_refs_forget(void);
/* packed_refs_get(), read again only if the file changed since (a stat:
 * another inode, size or time), as under a lock before a change. */
struct packed_refs *packed_refs_get_fresh(void);
/* Iterate records whose names start with prefix, in name order. */
int packed_refs_for_each(struct packed_refs *pr, const char *prefix,
			 int (*fn)(struct ref_entry *e, void *data), void *data);
/* Look up one name: 0 and *e filled (e->name points into a static buffer), or -1. */
int packed_refs_find(struct packed_refs *pr, const char *name, struct ref_entry *e);

/* Parse a loose ref file's bytes: 0 = oid, 1 = symref (target in sb), -1 = garbage. */
int parse_loose_ref(const char *buf, size_t len, struct object_id *oid, struct strbuf *target);
/* Read a loose ref file: 0 oid, 1 symref, -1 garbage (errno EINVAL), -2 absent (errno set). */
int read_loose_ref(const char *name, struct object_id *oid, struct strbuf *target);
/* The same, always from the file (under a lock). */
int read_loose_ref_fresh(const char *name, struct object_id *oid, struct strbuf *target);
/* One read of a ref's loose file, kept so that a change looks at the
 * file once before its lock: read_loose_ref()'s answer r, errno when r
 * is negative, and the value (r 0) or the target (r 1). */
struct ref_file {
	int done, r, err;
	struct object_id oid;
	struct strbuf target;
};
void ref_file_read(const char *name, struct ref_file *f);
void ref_file_release(struct ref_file *f);
/* refs_resolve() (reading 0) or refs_resolve_reading() (1) of name, whose
 * loose file first holds what was read of it. */
const char *refs_resolve_from(const struct ref_file *first, const char *name, int reading,
			      struct object_id *oid, unsigned *flags);
/* The file of a ref: per-worktree names under the git dir, others under the common dir. */
void ref_path(struct strbuf *sb, const char *name);

/* The file of a ref's reflog (logs/<name>, per worktree or common as
 * the ref itself). */
void reflog_path(struct strbuf *sb, const char *name);
/* Reflog identity "Name <email> <time> <tz>" as git builds it. */
int reflog_append(const char *name, const struct object_id *old_oid,
		  const struct object_id *new_oid, const char *msg, int force_create);
int should_autocreate_reflog(const char *name);
/* Forget cached HEAD bytes and packed-refs after a write. */
void refs_invalidate(void);

/*
 * One change to one ref, in two halves (refs/update.c): ref_update_lock()
 * takes the lock and checks; ref_update_stage() then ref_update_write()
 * (an update) or, once packed_refs_remove() has dropped the ref,
 * ref_update_remove() (a deletion) finishes; ref_update_release() lets go of what is left. A
 * single update and a transaction of many go the same way.
 */
struct ref_update {
	const char *name;            /* as asked for */
	char *real;                  /* the file changed: the end of name's symref chain unless REF_NO_DEREF */
	int via;                     /* name is a symref to real */
	char **hops;                 /* the symrefs between name and real */
	size_t nhops;
	struct object_id new_oid, old_oid;
	int has_new, has_old, del;   /* has_new = 0: only verify; del: has_new, to nothing */
	unsigned flags;              /* REF_NO_DEREF, REF_FORCE_CREATE_REFLOG, REF_KEEP_LOG */
	const char *msg;
	const struct object_id *log_old;  /* the old value to log, if not the current one */
	struct lock_file *lk;
	struct object_id cur;        /* the value found under the lock */
	int exists, unchanged;
	int split;                   /* in a transaction: through a symref, so checked last, as git does */
	struct ref_file first;       /* name's file before the lock (ref_update_look) */
};
/* The names a transaction changes (refs/transaction.c). */
struct ref_names;
/* A name of the set below or above name ("a" and "a/b"), or NULL. */
const char *ref_names_conflict(const struct ref_names *set, const char *name);
/* Leading parts of names ("refs/heads/x" of "refs/heads/x/y") already
 * found to be no ref while this transaction is checked. */
int ref_names_known_free(const struct ref_names *set, const char *prefix);
void ref_names_mark_free(struct ref_names *set, const char *prefix);
/* Read name's loose file, once: what the lock's checks start from. */
void ref_update_look(struct ref_update *u);
int ref_update_lock(struct ref_update *u, struct ref_names *others, struct strbuf *err);
int ref_check_old_via(const char *symref, const struct object_id *old, struct strbuf *err);
int ref_update_stage(struct ref_update *u, int unsynced, struct strbuf *err);
int ref_update_write(struct ref_update *u, struct strbuf *err);
int ref_update_remove(struct ref_update *u, struct strbuf *err);
void ref_update_release(struct ref_update *u);
/* Rewrite packed-refs without these names, under packed-refs.lock. The lock
 * is always taken, as git's deletions take it (a stale one refuses even a
 * loose ref's deletion); the file is rewritten only if one of the names is
 * there, unless rewrite_always (branch -d). */
int packed_refs_remove(const char *const *names, size_t nr, int rewrite_always, struct strbuf *err);

#endif
