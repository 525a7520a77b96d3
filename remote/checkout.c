/* checkout.c: a tree into the (new, empty) work tree. */
#include "remote/checkout.h"
#include "lib/strbuf.h"
#include "odb/object.h"
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>

struct co {
	struct index_entry *e;
	size_t nr, alloc;
	struct strbuf path;
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

static int add_entry(struct co *c, const struct tree_entry *te, unsigned mode)
{
	struct stat st;
	struct index_entry *e;
	if (lstat(c->path.buf, &st) < 0)
		return error_errno("unable to stat just-written file '%s'", c->path.buf);
	ALLOC_GROW(c->e, c->nr + 1, c->alloc);
	e = &c->e[c->nr++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(c->path.buf);
	oidcpy(&e->oid, te->oid);
	e->mode = mode;
	index_entry_set_stat(e, &st);
	return 0;
}

static int write_blob(struct co *c, const struct tree_entry *te)
{
	enum object_type type;
	size_t size;
	void *data = odb_read_object(te->oid, &type, &size);
	int ret = 0;

	if (!data || type != OBJ_BLOB) {
		free(data);
		return error("unable to read sha1 file of %s (%s)", c->path.buf, oid_to_hex(te->oid));
	}
	if (S_ISLNK(te->mode)) {
		if (symlink(data, c->path.buf) < 0)
			ret = error_errno("unable to create symlink '%s'", c->path.buf);
	} else {
		int fd = open(c->path.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			      (te->mode & 0100) ? 0777 : 0666);
		if (fd < 0)
			ret = error_errno("unable to create file '%s'", c->path.buf);
		else {
			if (write_in_full(fd, data, size) < 0)
				ret = error_errno("unable to write file '%s'", c->path.buf);
			if (close(fd) < 0 && !ret)
				ret = error_errno("unable to write file '%s'", c->path.buf);
		}
	}
	free(data);
	if (ret)
		return ret;
	return add_entry(c, te, S_ISLNK(te->mode) ? 0120000 : (te->mode & 0100) ? 0100755 : 0100644);
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
	int ret = walk(&c, tree, 0);
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
