/* oid-name.h: from a revision name to an object id, with git's syntax:
 * 40 hex digits, abbreviated ids (4+ digits), ref names by git's dwim rules,
 * "@" for HEAD, describe output (x-g<hex>), <rev>^N, <rev>~N, <rev>^{type},
 * <rev>^{}, <rev>^{/regex}, <rev>:<path> and chains of them. */
#ifndef ODB_OID_NAME_H
#define ODB_OID_NAME_H

#include "odb/object.h"

enum {
	GET_OID_QUIETLY = 1,     /* no ambiguity error, hints or warnings */
	GET_OID_COMMITTISH = 2,  /* an ambiguous short id prefers commit-ish objects */
	GET_OID_TREEISH = 4,     /* ... tree-ish ones */
	/* Resolution failed before: say why, with git's fatal message, for
	 * <rev>:<path> forms (what git prints after "unknown revision"). */
	GET_OID_ONLY_TO_DIE = 8,
	/* rev-parse --verify -q: where git dies on a name (a reflog with
	 * too few entries), exit 128 without a word */
	GET_OID_DIE_QUIETLY = 16,
};

/* 0 and *oid, or -1: git's plain lookup of a name given to update-ref or
 * to --merged/--contains/--points-at, with its warnings and its report of
 * an ambiguous short id ("refname 'HEAD' is ambiguous." when a branch is
 * named HEAD), but no message of its own when the name is unknown. */
int get_oid(const char *name, struct object_id *oid);
int refname_ambiguous(const char *name);
/* 0 and *oid, or -1 after git's messages (unless GET_OID_QUIETLY). Some
 * messages git prints however quiet: "X: expected blob type, but the
 * object dereferences to tree type", "object X is a tree, not a commit". */
int get_oid_with_flags(const char *name, unsigned flags, struct object_id *oid);

/* Follow tags and commits (to their tree) until an object of type want
 * (OBJ_NONE: the first non-tag). name, if not NULL, is used in git's error
 * "<name>: expected <want> type, but the object dereferences to <t> type". */
int peel_to_type(const struct object_id *oid, enum object_type want, const char *name,
		 struct object_id *out);

/* "@{-N}", the branch (or, after a detached HEAD, the object id) checked
 * out N switches ago, from "checkout: moving from A to B" entries of HEAD's
 * reflog. Returns the length of "@{-N}" with the answer in buf, 0 if the
 * reflog has fewer switches, -1 if name does not start with that form. */
int interpret_nth_prior_checkout(const char *name, size_t len, struct strbuf *buf);
/* A branch name as git's commands take one: "@{-N}" expanded, the rest
 * kept as given. */
void expand_branch_name(struct strbuf *sb, const char *name);
/* "<branch>@{upstream}" (or @{u}) and "<branch>@{push}": 1 and the
 * remote-tracking ref in ref, 0 for a name without such an ending, -1
 * when "@{-N}" before it names no branch. git's reasons ("no upstream
 * configured for branch 'x'") are fatal, as in git. */
int interpret_branch_mark(const char *name, size_t len, struct strbuf *ref);

#endif
