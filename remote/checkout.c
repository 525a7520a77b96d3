/* checkout.c: a tree into the (new, empty) work tree. */
#include "remote/checkout.h"
#include "lib/strbuf.h"
#include "lib/thread-pool.h"
#include "odb/object.h"
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>

struct file_task;

struct co {
	struct index_entry *e;
	size_t nr, alloc;
	struct strbuf path;
	struct thread_pool *pool;
	struct file_task **tasks;
	size_t nr_tasks, alloc_tasks;
};

/* A directory we may write into: never follow a symlink a hostile tree
 * planted under the same name. */
static int make_dir(const char *path)
{
	struct stat st;
	if (!mkdir(path, 0777))
		return 0;
	if (errno == EEXIST && !lstat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	return -1;
}

static int valid_name(const char *name, size_t len)
{
	if (!len || memchr(name, '/', len) || memchr(name, 0, len))
		return 0;
	if ((len == 1 && name[0] == '.') || (len == 2 && !memcmp(name, "..", 2)))
		return 0;
	if (len == 4 && !strncasecmp(name, ".git", 4))
		return 0;
	return 1;
}

/* One file to write. Creating files is what a checkout waits on (each
 * open(O_CREAT) costs a journal update), so files are written by a pool of
 * threads while this thread reads the next blobs; the object store is
 * only touched from here. */
struct file_task {
	char *path;
	void *data;
	size_t size;
	unsigned mode;          /* as in the tree */
	size_t entry;           /* index entry to receive the stat data */
	struct stat st;
	int err;                /* errno of the failure, 0 when written */
	const char *what;       /* the failing step */
};

static void write_file_task(void *arg, int worker UNUSED)
{
	struct file_task *ft = arg;
	if (S_ISLNK(ft->mode)) {
		if (symlink(ft->data, ft->path) < 0) {
			ft->err = errno;
			ft->what = "unable to create symlink";
		}
	} else {
		int fd = open(ft->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			      (ft->mode & 0100) ? 0777 : 0666);
		if (fd < 0) {
			ft->err = errno;
			ft->what = "unable to create file";
		} else {
			if (write_in_full(fd, ft->data, ft->size) < 0) {
				ft->err = errno;
				ft->what = "unable to write file";
			}
			if (close(fd) < 0 && !ft->err) {
				ft->err = errno;
				ft->what = "unable to write file";
			}
		}
	}
	if (!ft->err && lstat(ft->path, &ft->st) < 0) {
		ft->err = errno;
		ft->what = "unable to stat just-written file";
	}
	free(ft->data);
	ft->data = NULL;
}

static int write_blob(struct co *c, const struct tree_entry *te)
{
	enum object_type type;
	size_t size;
	void *data = odb_read_object(te->oid, &type, &size);
	struct file_task *ft;
	struct index_entry *e;

	if (!data || type != OBJ_BLOB) {
		free(data);
		return error("unable to read sha1 file of %s (%s)", c->path.buf, oid_to_hex(te->oid));
	}
	ALLOC_GROW(c->e, c->nr + 1, c->alloc);
	e = &c->e[c->nr];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(c->path.buf);
	oidcpy(&e->oid, te->oid);
	e->mode = S_ISLNK(te->mode) ? 0120000 : (te->mode & 0100) ? 0100755 : 0100644;

	ft = xcalloc(1, sizeof(*ft));
	ft->path = e->path;
	ft->data = data;
	ft->size = size;
	ft->mode = te->mode;
	ft->entry = c->nr++;
	ALLOC_GROW(c->tasks, c->nr_tasks + 1, c->alloc_tasks);
	c->tasks[c->nr_tasks++] = ft;
	/* A backlog means the disk is behind: write this one here rather
	 * than hold more file contents in memory. */
	if (thread_pool_pending(c->pool) > 256)
		write_file_task(ft, 0);
	else
		thread_pool_add(c->pool, write_file_task, ft);
	return 0;
}

/* After the pool is idle: stat data into the entries, failures reported. */
static int finish_tasks(struct co *c)
{
	int ret = 0;
	for (size_t i = 0; i < c->nr_tasks; i++) {
		struct file_task *ft = c->tasks[i];
		if (ft->err && !ret) {
			errno = ft->err;
			ret = error_errno("%s '%s'", ft->what, ft->path);
		} else if (!ft->err) {
			index_entry_set_stat(&c->e[ft->entry], &ft->st);
		}
		free(ft);
	}
	free(c->tasks);
	c->tasks = NULL;
	c->nr_tasks = 0;
	return ret;
}

static int walk(struct co *c, const struct object_id *tree_oid, int depth)
{
	enum object_type type;
	size_t size, base = c->path.len;
	void *buf;
	struct tree_iter it;
	struct tree_entry te;
	int r, ret = 0;

	if (depth > 4096)
		return error("tree nesting too deep at '%s'", c->path.buf);
	buf = odb_read_object(tree_oid, &type, &size);
	if (!buf || type != OBJ_TREE) {
		free(buf);
		return error("unable to read tree %s", oid_to_hex(tree_oid));
	}
	tree_iter_init(&it, buf, size);
	while ((r = tree_iter_next(&it, &te)) > 0) {
		if (!valid_name(te.name, te.name_len)) {
			ret = error("invalid path '%s%.*s'", c->path.buf, (int)te.name_len, te.name);
			break;
		}
		strbuf_setlen(&c->path, base);
		strbuf_add(&c->path, te.name, te.name_len);
		if (S_ISDIR(te.mode)) {
			if (make_dir(c->path.buf) < 0) {
				ret = error_errno("cannot create directory '%s'", c->path.buf);
				break;
			}
			strbuf_addch(&c->path, '/');
			ret = walk(c, te.oid, depth + 1);
		} else if ((te.mode & 0170000) == 0160000) {
			/* a submodule: an empty directory, the commit in the index */
			if (make_dir(c->path.buf) < 0)
				ret = error_errno("cannot create directory '%s'", c->path.buf);
			else {
				ALLOC_GROW(c->e, c->nr + 1, c->alloc);
				struct index_entry *e = &c->e[c->nr++];
				memset(e, 0, sizeof(*e));
				e->path = xstrdup(c->path.buf);
				oidcpy(&e->oid, te.oid);
				e->mode = 0160000;
			}
		} else {
			ret = write_blob(c, &te);
		}
		if (ret)
			break;
	}
	if (r < 0 && !ret)
		ret = error("corrupt tree %s", oid_to_hex(tree_oid));
	strbuf_setlen(&c->path, base);
	free(buf);
	return ret;
}

int checkout_tree(const struct object_id *tree, struct index_entry **entries, size_t *nr)
{
	struct co c = { .path = STRBUF_INIT };
	int ret, threads = thread_pool_default_threads();
	/* Threads wait on the disk, not the CPU: more than the cores pay. */
	c.pool = thread_pool_new(threads < 4 ? 4 : threads);
	ret = walk(&c, tree, 0);
	thread_pool_wait(c.pool);
	thread_pool_free(c.pool);
	if (finish_tasks(&c) < 0)
		ret = -1;
	strbuf_release(&c.path);
	if (ret) {
		index_entries_free(c.e, c.nr);
		return -1;
	}
	*entries = c.e;
	*nr = c.nr;
	return 0;
}

void index_entries_free(struct index_entry *e, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(e[i].path);
	free(e);
}
