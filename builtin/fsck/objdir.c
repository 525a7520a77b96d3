/* objdir.c: the object directories (the repository's and its
 * alternates') and their paths as git prints them. */
#include "builtin/fsck/fsck.h"
#include "lib/repo.h"

struct objdir *fsck_dirs;
size_t fsck_nr_dirs;
static size_t alloc_dirs;

static void read_alternates(const char *objdir, int depth)
{
	struct strbuf sb = STRBUF_INIT, file = STRBUF_INIT;
	char *p, *line;

	strbuf_addf(&file, "%s/info/alternates", objdir);
	if (strbuf_read_file(&sb, file.buf, 0) < 0) {
		strbuf_release(&file);
		strbuf_release(&sb);
		return;
	}
	for (p = sb.buf; (line = strsep(&p, "\n"));) {
		struct strbuf path = STRBUF_INIT;
		if (!*line || *line == '#')
			continue;
		if (*line == '/')
			strbuf_addstr(&path, line);
		else
			strbuf_addf(&path, "%s/%s", objdir, line);
		add_objdir(path.buf, 0, depth + 1);
		strbuf_release(&path);
	}
	strbuf_release(&file);
	strbuf_release(&sb);
}

void add_objdir(const char *path, int local, int depth)
{
	struct strbuf norm = STRBUF_INIT;

	if (depth > 5)
		return;
	strbuf_realpath_lexical(&norm, path);
	for (size_t i = 0; i < fsck_nr_dirs; i++)
		if (!strcmp(fsck_dirs[i].path, norm.buf)) {
			strbuf_release(&norm);
			return;
		}
	if (!is_dir(norm.buf)) {
		strbuf_release(&norm);
		return;
	}
	ALLOC_GROW(fsck_dirs, fsck_nr_dirs + 1, alloc_dirs);
	fsck_dirs[fsck_nr_dirs].path = strbuf_detach(&norm, NULL);
	fsck_dirs[fsck_nr_dirs].local = local;
	fsck_nr_dirs++;
	read_alternates(fsck_dirs[fsck_nr_dirs - 1].path, depth);
}

/* The directory as git prints it: relative to the top of the work tree
 * when the objects live under it, else to the current directory. */
const char *display_dir(const char *dir, struct strbuf *cwd)
{
	const char *wt = repo_worktree();
	size_t n;
	if (wt) {
		n = strlen(wt);
		if (!strncmp(dir, wt, n) && dir[n] == '/')
			return dir + n + 1;
		return dir;
	}
	if (!cwd->len && strbuf_getcwd(cwd))
		return dir;
	n = cwd->len;
	if (!strncmp(dir, cwd->buf, n) && dir[n] == '/')
		return dir + n + 1;
	if (!strcmp(dir, cwd->buf))
		return ".";
	return dir;
}

char *display_path(const char *dir, const char *sub, const char *name)
{
	struct strbuf cwd = STRBUF_INIT;
	const char *rel = display_dir(dir, &cwd);
	char *r = sub ? xstrfmt("%s/%s/%s", rel, sub, name) : xstrfmt("%s/%s", rel, name);
	strbuf_release(&cwd);
	return r;
}
