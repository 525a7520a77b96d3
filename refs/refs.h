/* refs.h: HEAD, loose refs and packed-refs behind one interface.
 * Reading opens only what the question needs: listing refs/heads/ opens
 * that directory and the refs/heads/ slice of packed-refs, nothing else,
 * and no object is looked up. */
#ifndef REFS_REFS_H
#define REFS_REFS_H

#include "lib/hex.h"
#include "lib/worktree.h"
#include "lib/strbuf.h"

enum {
	REF_ISSYMREF = 1,   /* a symbolic ref (HEAD -> refs/heads/x) */
	REF_ISPACKED = 2,   /* the value came from packed-refs */
	REF_ISBROKEN = 4,   /* garbage in the file, or a dangling symref */
	REF_KNOWS_PEELED = 8, /* packed-refs told us the peeled value */
	REF_BAD_NAME = 16,  /* a loose file whose name check-ref-format rejects */
};

struct ref_entry {
	const char *name;          /* "refs/heads/main" */
	struct object_id oid;
	struct object_id peeled;   /* valid if flags & REF_KNOWS_PEELED and not null */
	unsigned flags;
	const char *symref_target; /* for symrefs under refs/ (e.g. origin/HEAD) */
};

/* Called in ref-name order. Return non-zero to stop (returned to caller). */
typedef int (*ref_cb)(const struct ref_entry *ref, void *data);

/* Every ref whose name starts with prefix ("refs/heads/", "refs/", ...),
 * loose overriding packed, sorted by name. A ref file with garbage (or a
 * bad name) is skipped unless REFS_INCLUDE_BROKEN, which passes it with
 * REF_ISBROKEN and a null oid (callers print git's warning); a dangling
 * symref is left out, as git does, unless REFS_INCLUDE_DANGLING too (the
 * refs that stand in the way of a new name: git counts every file). */
enum { REFS_INCLUDE_BROKEN = 1, REFS_INCLUDE_DANGLING = 2 };
int refs_for_each(const char *prefix, unsigned flags, ref_cb cb, void *data);

/* Read the loose refs under dir_prefix ("refs/heads/") once and keep
 * them: later lookups of names under it and a listing of exactly that
 * prefix use what was read. Dropped by any write. */
void refs_prime(const char *dir_prefix);

/*
 * Resolve a ref name ("HEAD", "refs/heads/x") following symrefs.
 * Returns the final ref name (static storage, valid until the next call)
 * and fills *oid (null oid for an unborn branch) and *flags; NULL if the
 * ref does not exist and is not an unborn symref target.
 */
const char *refs_resolve(const char *name, struct object_id *oid, unsigned *flags);
/* worktrees_get(), with each HEAD's branch found as git finds it: a
 * target that is itself a symref is followed to the end of the chain. */
struct worktree **refs_worktrees(void);
/* Like refs_resolve, but an unborn target is "not found" too (git's
 * RESOLVE_REF_READING); *flags still tells a dangling symref or garbage. */
const char *refs_resolve_reading(const char *name, struct object_id *oid, unsigned *flags);
/* Just the value: 0 and *oid, or -1. */
int refs_read(const char *name, struct object_id *oid);
/* Target of a symbolic ref without following further (NULL if not one). */
const char *refs_read_symref(const char *name, struct strbuf *target);

/* git's short-name rules: "x" tries refs/x, refs/tags/x, refs/heads/x,
 * refs/remotes/x, refs/remotes/x/HEAD (and HEAD-like names at the top).
 * Returns how many matched; the first match's full name and oid are set. */
int refs_dwim(const char *name, size_t len, struct strbuf *full, struct object_id *oid);
/* The shortest unambiguous short name of a full ref name ("refs/heads/x" -> "x"). */
const char *refs_shorten(const char *full, int strict);

/* check-ref-format rules; flags as git's (allow one level, refspec patterns). */
enum { REFNAME_ALLOW_ONELEVEL = 1, REFNAME_REFSPEC_PATTERN = 2 };
int check_refname_format(const char *name, unsigned flags);
/* A name that may be written at all: under refs/ without "..", or all
 * capitals and underscores (HEAD, FETCH_HEAD). */
int refname_is_safe(const char *name);

/*
 * Updates. Each goes through <ref>.lock (O_EXCL), fsync, rename, with a
 * reflog entry when core.logAllRefUpdates says so (and for HEAD when it
 * points at the ref). old: if non-NULL, the ref must have that value
 * (null oid: must not exist). Returns 0, or -1 after printing git's error
 * ("cannot lock ref ...").
 */
int refs_update(const char *name, const struct object_id *new_oid,
		const struct object_id *old_oid, const char *reflog_msg);
int refs_delete(const char *name, const struct object_id *old_oid);
/* The same with flags, leaving git's message in err ("cannot lock ref
 * 'x': ...") for the caller to print its own way. refs_delete does not
 * follow symrefs; refs_delete_err does unless REF_NO_DEREF. */
enum {
	REF_NO_DEREF = 1,             /* write the symref itself, not its target */
	REF_FORCE_CREATE_REFLOG = 2,  /* create the reflog whatever the config says */
	REF_KEEP_LOG = 4,             /* deleting: leave the reflog */
	REF_SKIP_LOG = 8,             /* writing (a rename's rollback): the file written even with
				       * its value, no log entry but HEAD's if HEAD resolves to it */
	REF_AS_RENAME = 16,           /* as git writes a rename's new name: the lock's own error, the
				       * log lines before the ref, "couldn't set" if it fails */
};
int refs_update_err(const char *name, const struct object_id *new_oid,
		    const struct object_id *old_oid, const char *msg, unsigned flags,
		    struct strbuf *err);
int refs_delete_err(const char *name, const struct object_id *old_oid, unsigned flags,
		    const char *msg, struct strbuf *err);
/* Delete names as git's branch -d deletes them: all from packed-refs at
 * once, under packed-refs.lock (taken whatever the names), then each
 * loose file on its own. Prints git's errors; 0 if all went. Whether a
 * name is gone is for the caller to ask: one that was only packed is,
 * even if its loose deletion failed. */
int refs_delete_many(const char *const *names, size_t nr, unsigned flags);
/*
 * A transaction: changes added, then all locked and checked (prepare),
 * then all made (commit), or none (free without commit). new_oid NULL
 * only verifies; the null id deletes. old_oid NULL checks nothing; the
 * null id means the ref must not exist. Errors leave git's message in err.
 */
struct ref_transaction;
struct ref_transaction *ref_transaction_begin(void);
void ref_transaction_add(struct ref_transaction *t, const char *name,
			 const struct object_id *new_oid, const struct object_id *old_oid,
			 unsigned flags, const char *msg);
int ref_transaction_prepare(struct ref_transaction *t, struct strbuf *err);
int ref_transaction_commit(struct ref_transaction *t, struct strbuf *err);
void ref_transaction_free(struct ref_transaction *t);

/* branch -c: copy a ref and its reflog (copy = 1), or rename (copy = 0). */
int refs_copy_or_rename(const char *from, const char *to, const char *msg, int copy);
/* Rename a ref (and its reflog), as branch -m does. */
int refs_rename(const char *from, const char *to, const char *reflog_msg);
int refs_update_symref(const char *name, const char *target, const char *reflog_msg);
/* Write several refs into packed-refs at once (clone), under packed-refs.lock. */
int refs_write_packed(const struct ref_entry *refs, size_t nr);

/* Reflogs: each entry of logs/<name>, oldest first; msg without its newline.
 * Lines git would skip as malformed are skipped. */
typedef int (*reflog_cb)(const struct object_id *old_oid, const struct object_id *new_oid,
			 const char *ident, uint64_t when, int tz, const char *msg, void *data);
int refs_for_each_reflog_entry(const char *name, reflog_cb cb, void *data);
int refs_reflog_exists(const char *name);
/* The reflog a short name means, by the ref rules: the first rule whose
 * ref exists and has a log (or whose symref target has one). Returns how
 * many rules found one; *log holds the first. */
int refs_dwim_log(const char *name, size_t len, struct strbuf *log);
/* Names of all refs that have a reflog (logs/HEAD, logs/refs/...). */
int refs_for_each_reflog(ref_cb cb, void *data);

/* "Name <email> <time> <tz>" of the committer, for reflog entries:
 * GIT_COMMITTER_NAME/EMAIL/DATE, else user.name/user.email, else the
 * passwd entry and user@host, at the current time. */
void reflog_ident(struct strbuf *sb);

#endif
