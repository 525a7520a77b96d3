/* worktree.c: listing work trees. Nothing is read until a caller asks;
 * the current work tree's HEAD comes from what discovery already read. */
#include "lib/worktree.h"
#include "lib/repo.h"
#include "lib/config.h"
#include "lib/dir-read.h"
#include <ctype.h>
#include <limits.h>

static struct worktree **list;
static size_t list_nr, list_alloc;
static int listed;

/* HEAD's bytes: a symref target, a detached id, or neither (garbage). */
static void parse_head(struct worktree *wt, const char *buf, size_t len)
{
	const char *p;
	while (len && git_isspace((unsigned char)buf[len - 1]))
		len--;
	if (len >= 4 && !memcmp(buf, "ref:", 4)) {
		p = buf + 4;
		while (p < buf + len && git_isspace((unsigned char)*p))
			p++;
		if (p < buf + len)
			wt->head_ref = xstrndup(p, buf + len - p);
		return;
	}
	if (len >= HEX_SZ && !get_oid_hex(buf, &wt->head_oid) &&
	    (len == HEX_SZ || git_isspace((unsigned char)buf[HEX_SZ])))
		wt->is_detached = 1;
}

static void read_head(struct worktree *wt)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;
	if (wt->is_current && the_repo.head_valid) {
		parse_head(wt, the_repo.head.buf, the_repo.head.len);
		return;
	}
	path = xstrfmt("%s/HEAD", wt->gitdir);
	if (strbuf_read_file(&sb, path, 128) >= 0)
		parse_head(wt, sb.buf, sb.len);
	free(path);
	strbuf_release(&sb);
}

static void add(struct worktree *wt)
{
	ALLOC_GROW(list, list_nr + 2, list_alloc);
	list[list_nr++] = wt;
	list[list_nr] = NULL;
}

/* Is dir (the current git dir) the git dir of linked work tree id? */
static int current_is(const char *id)
{
	const char *g = the_repo.gitdir, *slash;
	size_t n = strlen(g);
	if (!strcmp(g, the_repo.commondir))
		return 0;
	while (n > 1 && g[n - 1] == '/')
		n--;
	slash = memrchr(g, '/', n);
	slash = slash ? slash + 1 : g;
	return (size_t)(g + n - slash) == strlen(id) && !memcmp(slash, id, n - (slash - g));
}

static int add_linked(const char *id, unsigned type, void *data)
{
	struct strbuf sb = STRBUF_INIT;
	struct worktree *wt;
	char *gitdir, *file;
	(void)type; (void)data;
	gitdir = xstrfmt("%s/worktrees/%s", the_repo.commondir, id);
	file = xstrfmt("%s/gitdir", gitdir);
	/* git skips a work tree whose gitdir file is missing or empty */
	if (strbuf_read_file(&sb, file, 256) <= 0) {
		free(gitdir);
		free(file);
		strbuf_release(&sb);
		return 0;
	}
	free(file);
	strbuf_rtrim(&sb);
	if (sb.len >= 5 && !strcmp(sb.buf + sb.len - 5, "/.git"))
		strbuf_setlen(&sb, sb.len - 5);
	wt = xcalloc(1, sizeof(*wt));
	wt->id = xstrdup(id);
	wt->gitdir = gitdir;
	/* git 2.39 takes the path as written, relative or not */
	wt->path = strbuf_detach(&sb, NULL);
	wt->is_current = current_is(id);
	read_head(wt);
	add(wt);
	return 0;
}

struct worktree **worktrees_get(void)
{
	struct worktree *main_wt;
	char *dir;
	if (listed)
		return list;
	listed = 1;
	main_wt = xcalloc(1, sizeof(*main_wt));
	main_wt->gitdir = xstrdup(the_repo.commondir);
	main_wt->is_current = !strcmp(the_repo.gitdir, the_repo.commondir);
	read_head(main_wt);
	add(main_wt);
	dir = xstrfmt("%s/worktrees", the_repo.commondir);
	dir_read(dir, add_linked, NULL);
	free(dir);
	return list;
}

void worktrees_forget(void)
{
	for (size_t i = 0; i < list_nr; i++) {
		free(list[i]->id);
		free(list[i]->gitdir);
		free(list[i]->path);
		free(list[i]->head_ref);
		free(list[i]);
	}
	free(list);
	list = NULL;
	list_nr = list_alloc = 0;
	listed = 0;
}

const char *worktree_path(struct worktree *wt)
{
	if (!wt->path) {
		char buf[PATH_MAX];
		struct strbuf sb = STRBUF_INIT;
		if (realpath(wt->gitdir, buf))
			strbuf_addstr(&sb, buf);
		else
			strbuf_realpath_lexical(&sb, wt->gitdir);
		if (sb.len > 5 && !strcmp(sb.buf + sb.len - 5, "/.git"))
			strbuf_setlen(&sb, sb.len - 5);
		wt->path = strbuf_detach(&sb, NULL);
	}
	return wt->path;
}

int worktree_is_bare(const struct worktree *wt)
{
	if (wt->id)
		return 0;
	return (wt->is_current && repo_is_bare()) || config_get_bool("core.bare", 0) == 1;
}

/* The branch a rebase's or bisect's state file names, as git's status
 * reads it: newlines trimmed, refs/heads/ dropped, another ref kept whole,
 * an object id as it is (git shows it abbreviated); NULL for no file, an
 * empty one, or "detached HEAD". */
static char *state_branch(const struct worktree *wt, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", wt->gitdir, name);
	const char *b;
	ssize_t n = strbuf_read_file(&sb, path, 128);
	free(path);
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		strbuf_setlen(&sb, sb.len - 1);
	if (n <= 0 || !sb.len || !strcmp(sb.buf, "detached HEAD")) {
		strbuf_release(&sb);
		return NULL;
	}
	if (skip_prefix(sb.buf, "refs/heads/", &b)) {
		char *r = xstrdup(b);
		strbuf_release(&sb);
		return r;
	}
	return strbuf_detach(&sb, NULL);
}

static int exists_in(const struct worktree *wt, const char *name)
{
	char *path = xstrfmt("%s/%s", wt->gitdir, name);
	int r = !access(path, F_OK);
	free(path);
	return r;
}

int worktree_state_names_id(const char *branch)
{
	struct object_id oid;
	return branch && !starts_with(branch, "refs/") && !get_oid_hex(branch, &oid);
}

int worktree_rebase_state(const struct worktree *wt, char **branch)
{
	*branch = NULL;
	if (exists_in(wt, "rebase-apply")) {
		if (exists_in(wt, "rebase-apply/applying"))
			return 0;   /* git am, not a rebase */
		*branch = state_branch(wt, "rebase-apply/head-name");
		return 1;
	}
	if (exists_in(wt, "rebase-merge")) {
		*branch = state_branch(wt, "rebase-merge/head-name");
		return 1;
	}
	return 0;
}

int worktree_bisect_state(const struct worktree *wt, char **branch)
{
	*branch = NULL;
	if (!exists_in(wt, "BISECT_LOG"))
		return 0;
	*branch = state_branch(wt, "BISECT_START");
	return 1;
}

/* A branch name, not an id (which names no branch). */
static char *branch_only(char *b)
{
	if (worktree_state_names_id(b)) {
		free(b);
		return NULL;
	}
	return b;
}

char *worktree_rebase_branch(const struct worktree *wt)
{
	char *b;
	worktree_rebase_state(wt, &b);
	return branch_only(b);
}

char *worktree_bisect_branch(const struct worktree *wt)
{
	char *b;
	worktree_bisect_state(wt, &b);
	return branch_only(b);
}

int worktree_for_each_update_ref(const struct worktree *wt,
				 int (*fn)(const char *refname, void *data), void *data)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/rebase-merge/update-refs", wt->gitdir);
	int ret = 0;
	if (strbuf_read_file(&sb, path, 0) > 0) {
		/* records of three lines: the ref, its old and its new id */
		const char *p = sb.buf, *end = sb.buf + sb.len;
		for (int line = 0; p < end && !ret; line++) {
			const char *nl = memchr(p, '\n', end - p);
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			if (line % 3 == 0) {
				char *ref = xstrndup(p, n);
				ret = fn(ref, data);
				free(ref);
			}
			p += n + (nl != NULL);
		}
	}
	free(path);
	strbuf_release(&sb);
	return ret;
}
