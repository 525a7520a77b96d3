/* repo.h: finding the repository (as git does) and paths inside it. */
#ifndef LIB_REPO_H
#define LIB_REPO_H

#include "lib/strbuf.h"

struct repository {
	char *gitdir;     /* as rev-parse --git-dir prints it */
	char *commondir;  /* shared part of a linked worktree; else == gitdir */
	char *objdir;     /* GIT_OBJECT_DIRECTORY or <commondir>/objects */
	char *worktree;   /* use repo_worktree(): filled when first asked */
	char *prefix;     /* cwd below the work tree top, "a/b/", or NULL */
	int bare;
	/* set up as GIT_DIR names one (GIT_DIR, or a discovered one with
	 * GIT_WORK_TREE or core.worktree): git keeps such a git dir as named,
	 * absolute once it moved to the work tree */
	int explicit_gitdir;
	/* core.bare of the repository's own config: -1 unset, 0 or 1 (a
	 * linked worktree ignores the shared one) */
	int core_bare;
	int format_version;
	/* HEAD's bytes as read while validating the repository (saves the
	 * refs code a second open); valid until this process writes HEAD. */
	struct strbuf head;
	int head_valid;
};

extern struct repository the_repo;
extern int repo_found;

/* Find the repository and chdir to the top of its work tree (or into the
 * git dir when bare). Dies like git when there is none. */
void setup_git_directory(void);
/* The same, for a command whose own pass over its config calls
 * config_check_default() on every key: the core keys are then checked in
 * the order of the config, among the command's own, as git checks them. */
void setup_git_directory_own_config(void);
/* What git does before a command that needs a repository: find it, and
 * check the default config (config_check_default()) over every scope;
 * when the command is asked only for its usage (a lone -h), no
 * repository is looked for and the config checked is what is left. */
void setup_for_command(int argc, const char **argv);
/* setup_git_directory(), but returns -1 instead of dying when no
 * repository is found. */
int setup_git_directory_gently(void);

/* git's is_bare_repository(): no work tree, and core.bare not false.
 * (A git dir entered directly is not bare when its core.bare says so.) */
int repo_is_bare(void);

/* The absolute top of the work tree; NULL when bare. */
const char *repo_worktree(void);

/* Paths: git_path for per-worktree files (HEAD, index, logs/HEAD);
 * common_path for shared ones (refs/, packed-refs, config, logs/refs/). */
void git_path_buf(struct strbuf *sb, const char *fmt, ...) FORMAT_PRINTF(2, 3);
void common_path_buf(struct strbuf *sb, const char *fmt, ...) FORMAT_PRINTF(2, 3);
/* Rotating static buffers (4 live at once); copy if you keep them. */
const char *git_path(const char *fmt, ...) FORMAT_PRINTF(1, 2);
const char *common_path(const char *fmt, ...) FORMAT_PRINTF(1, 2);

/* Does path look like a git directory (HEAD, objects/, refs/)? */
int is_git_directory(const char *path);

#endif
