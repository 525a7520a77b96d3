/* worktree.h: the main work tree and the linked ones (git worktree add),
 * as git lists them: the main one first, then each
 * $GIT_COMMON_DIR/worktrees/<id>/ in directory order. */
#ifndef LIB_WORKTREE_H
#define LIB_WORKTREE_H

#include "lib/hex.h"

struct worktree {
	char *id;            /* NULL for the main work tree */
	char *gitdir;        /* its git dir: the common dir, or worktrees/<id> */
	char *path;          /* use worktree_path(): the main one's is found lazily */
	char *head_ref;      /* HEAD's target when HEAD is a symref (maybe unborn);
			      * refs_worktrees() follows it to the chain's end */
	int head_followed;   /* ... and sets this once it has */
	struct object_id head_oid; /* HEAD's value when detached */
	int is_detached;
	int is_current;      /* the work tree this process runs in */
};

/*
 * Every work tree, NULL-terminated; read once per process. A repository
 * without linked work trees costs one failed open() of worktrees/, as in
 * git; a linked one whose gitdir file cannot be read is left out, as git
 * leaves it out. HEAD is read from its file; refs_worktrees() (refs.h)
 * follows a symref chain beyond HEAD's target, as git does.
 */
struct worktree **worktrees_get(void);
/* Drop the list (after this process rewrote a HEAD). */
void worktrees_forget(void);
/* Absolute path, as git prints it: the main one's is the real path of the
 * common dir without "/.git". */
const char *worktree_path(struct worktree *wt);
/* A main work tree of a bare repository (core.bare, or no work tree). */
int worktree_is_bare(const struct worktree *wt);
/* 1 if a rebase (rebase-apply/ without "applying", or rebase-merge/), or
 * a bisect, is in progress in that work tree, else 0. *branch (free it)
 * is then what its state file names, as git reads it: a branch without
 * refs/heads/, another ref whole, an object id as written (see
 * worktree_state_names_id), or NULL for a detached HEAD or no name. */
int worktree_rebase_state(const struct worktree *wt, char **branch);
int worktree_bisect_state(const struct worktree *wt, char **branch);
/* The name a state file gave is an object id (git shows it abbreviated). */
int worktree_state_names_id(const char *branch);
/* The branch ("x" of refs/heads/x) a rebase in that work tree works on,
 * or that a bisect started from; NULL if none (an id names none). Free
 * the result. */
char *worktree_rebase_branch(const struct worktree *wt);
char *worktree_bisect_branch(const struct worktree *wt);
/* Refs an interactive rebase there will update (rebase-merge/update-refs);
 * calls fn for each until it returns non-zero. */
int worktree_for_each_update_ref(const struct worktree *wt,
				 int (*fn)(const char *refname, void *data), void *data);

#endif
