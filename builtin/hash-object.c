/* hash-object.c: the id an object would have, optionally written as a
 * loose object. Works outside a repository unless -w is given. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "odb/odb.h"
#include "odb/object.h"
#include "sha1/object-hash.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <sys/stat.h>

static const char *const hash_object_usage[] = {
	"git hash-object [-t <type>] [-w] [--path=<file> | --no-filters]\n"
	"                       [--stdin [--literally]] [--] <file>...",
	"git hash-object [-t <type>] [-w] --stdin-paths [--no-filters]",
	NULL
};

/* git's format checks (without --literally): what its parsers reject. */
static void check_format(enum object_type t, const char *buf, size_t len)
{
	if (t == OBJ_COMMIT) {
		const char *p = buf, *end = buf + len;
		struct object_id oid;
		if (len < 5 + HEX_SZ + 1 || memcmp(p, "tree ", 5) ||
		    get_oid_hex(p + 5, &oid) || p[5 + HEX_SZ] != '\n') {
			error("bogus commit object %s", oid_to_hex(&(struct object_id){ { 0 } }));
			die("corrupt commit");
		}
		p += 5 + HEX_SZ + 1;
		while ((size_t)(end - p) >= 7 && !memcmp(p, "parent ", 7)) {
			if ((size_t)(end - p) < 7 + HEX_SZ + 1 || get_oid_hex(p + 7, &oid) ||
			    p[7 + HEX_SZ] != '\n') {
				error("bad parents in commit %s", oid_to_hex(&(struct object_id){ { 0 } }));
				die("corrupt commit");
			}
			p += 7 + HEX_SZ + 1;
		}
	} else if (t == OBJ_TAG) {
		const char *p = buf, *end = buf + len, *nl;
		struct object_id oid;
		if (len < HEX_SZ + 24 || memcmp(p, "object ", 7) || get_oid_hex(p + 7, &oid) ||
		    p[7 + HEX_SZ] != '\n')
			die("corrupt tag");
		p += 7 + HEX_SZ + 1;
		if ((size_t)(end - p) < 5 || memcmp(p, "type ", 5) ||
		    !(nl = memchr(p, '\n', (size_t)(end - p))) ||
		    type_from_string(p + 5, (size_t)(nl - p - 5)) == OBJ_BAD)
			die("corrupt tag");
		p = nl + 1;
		if ((size_t)(end - p) < 4 || memcmp(p, "tag ", 4) || !memchr(p, '\n', (size_t)(end - p)))
			die("corrupt tag");
	} else if (t == OBJ_TREE) {
		struct tree_iter it;
		struct tree_entry e;
		int r;
		if (len && len < 23)
			die("too-short tree object");
		tree_iter_init(&it, buf, len);
		while ((r = tree_iter_next(&it, &e)) > 0)
			if (!e.name_len)
				die("empty filename in tree entry");
		if (r < 0)
			die("too-short tree file");
	}
}

struct opts {
	const char *type;
	int write, literally;
};

static void hash_buf(const struct opts *o, const char *buf, size_t len)
{
	struct object_id oid;
	enum object_type t = type_from_string(o->type, strlen(o->type));

	if (o->literally) {
		if (o->write && t == OBJ_BAD)
			die("invalid object type \"%s\"", o->type);
		hash_object_buf(o->type, buf, len, &oid);
		if (o->write && odb_write_loose(t, buf, len, &oid) < 0)
			die("unable to add %s to database", o->type);
	} else {
		if (t == OBJ_BAD)
			die("invalid object type \"%s\"", o->type);
		check_format(t, buf, len);
		if (o->write) {
			if (odb_write_loose(t, buf, len, &oid) < 0)
				die("unable to add to database");
		} else {
			odb_hash_object(t, buf, len, &oid);
		}
	}
	printf("%s\n", oid_to_hex(&oid));
}

static void hash_fd(const struct opts *o, int fd, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_fd(&sb, fd, 0) < 0)
		die_errno("unable to read from %s", path);
	hash_buf(o, sb.buf, sb.len);
	strbuf_release(&sb);
}

static void hash_path(const struct opts *o, const char *path)
{
	struct stat st;
	int fd = fd_open(path, O_RDONLY | O_CLOEXEC, 0);

	if (fd < 0)
		die_errno("could not open '%s' for reading", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fd_close_batched(fd);
		die("Unable to hash %s", path);
	}
	hash_fd(o, fd, path);
	fd_close_batched(fd);
}

int cmd_hash_object(int argc, const char **argv)
{
	struct opts o = { .type = "blob" };
	int from_stdin = 0, stdin_paths = 0, no_filters = 0;
	const char *vpath = NULL;
	const char *prefix = NULL;
	struct option opts[] = {
		OPT_STRING('t', NULL, &o.type, "type", "object type"),
		OPT_BOOL('w', NULL, &o.write, "write the object into the object database"),
		OPT_BOOL(0, "stdin", &from_stdin, "read the object from stdin"),
		OPT_BOOL(0, "stdin-paths", &stdin_paths, "read file names from stdin"),
		OPT_BOOL(0, "no-filters", &no_filters, "store file as is without filters"),
		OPT_BOOL(0, "literally", &o.literally,
			 "just hash any random garbage to create corrupt objects for debugging Git"),
		OPT_STRING(0, "path", &vpath, "file", "process file as it were from this path"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, hash_object_usage, 0);

	if (o.write)
		setup_git_directory();
	else if (!setup_git_directory_gently())
		prefix = the_repo.prefix;
	else
		prefix = NULL;
	if (o.write)
		prefix = the_repo.prefix;
	else
		config_check_default_all();   /* setup_git_directory() checks it */

	if (stdin_paths) {
		if (from_stdin) {
			fputs("error: Can't use --stdin-paths with --stdin\n", stderr);
			usage_with_options(hash_object_usage, opts);
		}
		if (argc) {
			fputs("error: Can't specify files with --stdin-paths\n", stderr);
			usage_with_options(hash_object_usage, opts);
		}
		if (vpath) {
			fputs("error: Can't use --path with --stdin-paths\n", stderr);
			usage_with_options(hash_object_usage, opts);
		}
	} else if (vpath && no_filters) {
		fputs("error: Can't use --path with --no-filters\n", stderr);
		usage_with_options(hash_object_usage, opts);
	}

	if (from_stdin)
		hash_fd(&o, 0, "<stdin>");
	for (int i = 0; i < argc; i++) {
		char *path = (prefix && argv[i][0] != '/') ? xstrfmt("%s%s", prefix, argv[i])
							   : xstrdup(argv[i]);
		hash_path(&o, path);
		free(path);
	}
	if (stdin_paths) {
		/* As git: these names are not made relative to the prefix. */
		struct strbuf line = STRBUF_INIT;
		while (strbuf_getline(&line, stdin, '\n') != -1) {
			hash_path(&o, line.buf);
			fflush(stdout);
		}
		strbuf_release(&line);
	}
	return 0;
}
