/* cat-file.c: show objects: type, size, existence, contents, pretty form,
 * and the --batch / --batch-check protocol (one object per input line, or
 * every object with --batch-all-objects, sorted like git's). */
#include "builtin/builtin.h"
#include "lib/repo.h"
#include "odb/odb.h"
#include "odb/object.h"
#include "odb/oid-name.h"

static const char *const cat_file_usage[] = {
	"git cat-file <type> <object>",
	"git cat-file (-e | -p) <object>",
	"git cat-file (-t | -s) [--allow-unknown-type] <object>",
	"git cat-file (--batch | --batch-check | --batch-command) [--batch-all-objects]\n"
	"                    [--buffer] [--follow-symlinks] [--unordered]\n"
	"                    [--textconv | --filters] [-z]",
	"git cat-file (--textconv | --filters)\n"
	"                    [<rev>:<path|tree-ish> | --path=<path|tree-ish> <rev>]",
	NULL
};

static const struct option *all_opts;
static int opt_mode;        /* 'e', 'p', 't', 's' or 0 */
static int batch_mode;      /* 0, 1 batch-check, 2 batch, 3 batch-command */
static const char *batch_format;

static int mode_cb(const struct option *opt, const char *arg UNUSED, int unset UNUSED)
{
	int m = (int)opt->defval;
	if (opt_mode && opt_mode != m) {
		/* As git: the message alone, no usage. */
		fprintf(stderr, "error: switch `%c' is incompatible with -%c\n", m, opt_mode);
		exit(129);
	}
	opt_mode = m;
	return 0;
}

static int batch_cb(const struct option *opt, const char *arg, int unset UNUSED)
{
	if (batch_mode) {
		fprintf(stderr, "error: only one batch option may be specified\n");
		exit(129);
	}
	batch_mode = (int)opt->defval;
	batch_format = arg;
	return 0;
}

/* <object> names, with git's revision syntax. 0, or -1 after git's
 * messages (ambiguous short ids and the like). One object named on the
 * command line is resolved as git does it there, to die: a path that is
 * not there is fatal, and ":/<regex>" is no name. */
static int resolve_name(const char *name, struct object_id *oid)
{
	return get_oid_with_flags(name, 0, oid);
}

static int resolve_arg(const char *name, struct object_id *oid)
{
	return get_oid_with_flags(name, GET_OID_ONLY_TO_DIE, oid);
}

/* For --batch: was a failed name an ambiguous short id? */
static int is_ambiguous(const char *name)
{
	size_t len = strlen(name);
	struct object_id oid;

	return len >= 4 && len < HEX_SZ && strspn(name, "0123456789abcdefABCDEF") == len &&
	       odb_find_prefix(name, len, &oid) < 0;
}

static void pretty_tree(const char *buf, size_t size)
{
	struct tree_iter it;
	struct tree_entry e;
	struct strbuf sb = STRBUF_INIT;
	int r;

	tree_iter_init(&it, buf, size);
	while ((r = tree_iter_next(&it, &e)) > 0) {
		const char *t = (e.mode & 0170000) == 0040000 ? "tree" :
				(e.mode & 0170000) == 0160000 ? "commit" : "blob";
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%06o %s %s\t", e.mode, t, oid_to_hex(e.oid));
		strbuf_add(&sb, e.name, e.name_len);
		strbuf_addch(&sb, '\n');
		fwrite(sb.buf, 1, sb.len, stdout);
	}
	strbuf_release(&sb);
	if (r < 0)
		die("corrupt tree file");
}

static void stream_blob(const struct object_id *oid)
{
	if (odb_stream_blob(oid, stdout) < 0)
		die("unable to stream %s to stdout", oid_to_hex(oid));
}

/* `cat-file <type> <object>`: the object, or what it leads to (a tag's
 * target, a commit's tree) when it has another type. */
static int cat_typed(const char *want_name, const char *name)
{
	enum object_type want = type_from_string(want_name, strlen(want_name));
	struct object_id oid;
	enum object_type t;
	size_t size;
	char *buf;

	if (want == OBJ_BAD)
		die("invalid object type \"%s\"", want_name);
	if (resolve_arg(name, &oid) < 0)
		die("Not a valid object name %s", name);
	if (want == OBJ_BLOB) {
		/* As git: a blob, or a tag of one, is streamed. */
		struct object_id blob = oid;
		if (odb_read_header(&oid, &t, &size) == 0 && t == OBJ_TAG) {
			struct tag_info ti;
			buf = odb_read_object(&oid, &t, &size);
			if (!buf || parse_tag_buffer(buf, size, &ti) < 0)
				die("%s not a valid tag", oid_to_hex(&oid));
			oidcpy(&blob, &ti.object);
			free(buf);
		}
		if (odb_read_header(&blob, &t, &size) == 0 && t == OBJ_BLOB) {
			stream_blob(&blob);
			return 0;
		}
	}
	for (;;) {
		buf = odb_read_object(&oid, &t, &size);
		if (!buf)
			break;
		if (t == want) {
			fwrite(buf, 1, size, stdout);
			free(buf);
			return 0;
		}
		if (t == OBJ_TAG) {
			struct tag_info ti;
			if (parse_tag_buffer(buf, size, &ti) < 0)
				break;
			oidcpy(&oid, &ti.object);
		} else if (t == OBJ_COMMIT && want == OBJ_TREE) {
			struct commit_info ci;
			if (parse_commit_buffer(buf, size, &ci) < 0)
				break;
			oidcpy(&oid, &ci.tree);
			commit_info_release(&ci);
		} else {
			break;
		}
		free(buf);
	}
	free(buf);
	die("git cat-file %s: bad file", name);
}

static int cat_one(int mode, const char *name)
{
	struct object_id oid;
	enum object_type t;
	size_t size;
	char *buf;

	if (resolve_arg(name, &oid) < 0)
		die("Not a valid object name %s", name);
	switch (mode) {
	case 'e':
		return !odb_has_object(&oid);
	case 't':
	case 's':
		if (odb_read_header(&oid, &t, &size) < 0)
			die("git cat-file: could not get object info");
		if (mode == 't')
			printf("%s\n", type_name(t));
		else
			printf("%zu\n", size);
		return 0;
	case 'p':
		if (odb_read_header(&oid, &t, &size) < 0)
			die("Not a valid object name %s", name);
		if (t == OBJ_BLOB) {
			stream_blob(&oid);
			return 0;
		}
		buf = odb_read_object(&oid, &t, &size);
		if (!buf)
			die("Not a valid object name %s", name);
		if (t == OBJ_TREE)
			pretty_tree(buf, size);
		else
			fwrite(buf, 1, size, stdout);
		free(buf);
		return 0;
	}
	return 0;
}

/* --- batch --- */

enum atom { A_LITERAL, A_NAME, A_TYPE, A_SIZE, A_REST };
struct fmt_part {
	enum atom atom;
	const char *text;
	size_t len;
};
struct batch {
	struct fmt_part *parts;
	size_t nr, alloc;
	int need_info, need_rest, contents, buffer;
	struct strbuf out;
};

static void parse_format(struct batch *b, const char *fmt)
{
	const char *p = fmt;

	while (*p) {
		const char *start = strstr(p, "%(");
		const char *end;
		struct fmt_part part = { A_LITERAL, p, 0 };
		if (!start) {
			part.len = strlen(p);
			ALLOC_GROW(b->parts, b->nr + 1, b->alloc);
			b->parts[b->nr++] = part;
			break;
		}
		if (start > p) {
			part.len = (size_t)(start - p);
			ALLOC_GROW(b->parts, b->nr + 1, b->alloc);
			b->parts[b->nr++] = part;
		}
		end = strchr(start, ')');
		if (!end) {
			part.len = strlen(start);
			part.text = start;
			ALLOC_GROW(b->parts, b->nr + 1, b->alloc);
			b->parts[b->nr++] = part;
			break;
		}
		part.text = start + 2;
		part.len = (size_t)(end - start - 2);
		if (part.len == 10 && !memcmp(part.text, "objectname", 10))
			part.atom = A_NAME;
		else if (part.len == 10 && !memcmp(part.text, "objecttype", 10))
			part.atom = A_TYPE, b->need_info = 1;
		else if (part.len == 10 && !memcmp(part.text, "objectsize", 10))
			part.atom = A_SIZE, b->need_info = 1;
		else if (part.len == 4 && !memcmp(part.text, "rest", 4))
			part.atom = A_REST, b->need_rest = 1;
		else
			die("unknown format element: %.*s", (int)part.len, part.text);
		ALLOC_GROW(b->parts, b->nr + 1, b->alloc);
		b->parts[b->nr++] = part;
		p = end + 1;
	}
}

static void batch_flush(struct batch *b)
{
	if (b->out.len) {
		fwrite(b->out.buf, 1, b->out.len, stdout);
		strbuf_reset(&b->out);
	}
	if (!b->buffer)
		fflush(stdout);
}

static void batch_one(struct batch *b, const struct object_id *oid, const char *input,
		      const char *rest)
{
	enum object_type t = OBJ_NONE;
	size_t size = 0;
	char *data = NULL;

	if ((b->contents || b->need_info) && odb_read_header(oid, &t, &size) < 0) {
		strbuf_addf(&b->out, "%s missing\n", input ? input : oid_to_hex(oid));
		batch_flush(b);
		return;
	} else if (!b->contents && !b->need_info && !odb_has_object(oid)) {
		strbuf_addf(&b->out, "%s missing\n", input ? input : oid_to_hex(oid));
		batch_flush(b);
		return;
	}
	for (size_t i = 0; i < b->nr; i++) {
		const struct fmt_part *p = &b->parts[i];
		switch (p->atom) {
		case A_LITERAL: strbuf_add(&b->out, p->text, p->len); break;
		case A_NAME: strbuf_addstr(&b->out, oid_to_hex(oid)); break;
		case A_TYPE: strbuf_addstr(&b->out, type_name(t)); break;
		case A_SIZE: strbuf_addf(&b->out, "%zu", size); break;
		case A_REST: if (rest) strbuf_addstr(&b->out, rest); break;
		}
	}
	strbuf_addch(&b->out, '\n');
	if (b->contents && t == OBJ_BLOB) {
		fwrite(b->out.buf, 1, b->out.len, stdout);
		strbuf_reset(&b->out);
		stream_blob(oid);
		strbuf_addch(&b->out, '\n');
	} else if (b->contents) {
		/* The header line goes out first: git prints it before reading
		 * the contents (and so before dying on a corrupt object). */
		fwrite(b->out.buf, 1, b->out.len, stdout);
		strbuf_reset(&b->out);
		data = odb_read_object(oid, &t, &size);
		if (!data)
			die("object %s disappeared", oid_to_hex(oid));
		fwrite(data, 1, size, stdout);
		strbuf_addch(&b->out, '\n');
		free(data);
	}
	batch_flush(b);
}

struct oid_list {
	struct object_id *oids;
	size_t nr, alloc;
};

static int collect(const struct object_id *oid, void *data)
{
	struct oid_list *l = data;
	ALLOC_GROW(l->oids, l->nr + 1, l->alloc);
	oidcpy(&l->oids[l->nr++], oid);
	return 0;
}

static int cmp_oid(const void *a, const void *b)
{
	return oidcmp(a, b);
}

static int batch_all(struct batch *b)
{
	struct oid_list l = { 0 };

	odb_for_each_object(collect, &l, 0);
	QSORT(l.oids, l.nr, cmp_oid);
	for (size_t i = 0; i < l.nr; i++)
		if (!i || !oideq(&l.oids[i - 1], &l.oids[i]))
			batch_one(b, &l.oids[i], NULL, NULL);
	free(l.oids);
	fflush(stdout);
	return 0;
}

static int batch_objects(int all, int buffer)
{
	struct batch b = { .buffer = buffer || all, .contents = batch_mode == 2 };
	struct strbuf line = STRBUF_INIT;

	strbuf_init(&b.out, 0);
	parse_format(&b, batch_format ? batch_format : "%(objectname) %(objecttype) %(objectsize)");
	if (all) {
		batch_all(&b);
		strbuf_release(&b.out);
		free(b.parts);
		return 0;
	}
	while (strbuf_getline(&line, stdin, '\n') != -1) {
		struct object_id oid;
		const char *rest = NULL;
		if (b.need_rest) {
			char *sp = line.buf + strcspn(line.buf, " \t");
			if (*sp) {
				*sp++ = 0;
				rest = sp + strspn(sp, " \t");
			}
		}
		/* A full id is taken as it is: git's batch mode does not check
		 * for refs of that name either (no ref files opened per line). */
		if ((line.len != HEX_SZ || get_oid_hex(line.buf, &oid)) &&
		    resolve_name(line.buf, &oid) < 0) {
			strbuf_addf(&b.out, "%s %s\n", line.buf,
				    is_ambiguous(line.buf) ? "ambiguous" : "missing");
			batch_flush(&b);
			continue;
		}
		batch_one(&b, &oid, line.buf, rest);
	}
	batch_flush(&b);
	fflush(stdout);
	strbuf_release(&line);
	strbuf_release(&b.out);
	free(b.parts);
	return 0;
}

int cmd_cat_file(int argc, const char **argv)
{
	int unknown_type = 0, mailmap = 0, all = 0, buffer = 0, follow = 0, unordered = 0, nul = 0;
	int textconv = 0, filters = 0;
	const char *path = NULL;
	struct option opts[] = {
		OPT_GROUP("Check object existence or emit object contents"),
		OPT_CALLBACK_F('e', NULL, NULL, NULL, "check if <object> exists",
			       PARSE_OPT_NOARG | PARSE_OPT_NONEG, mode_cb),
		OPT_CALLBACK_F('p', NULL, NULL, NULL, "pretty-print <object> content",
			       PARSE_OPT_NOARG | PARSE_OPT_NONEG, mode_cb),
		OPT_GROUP("Emit [broken] object attributes"),
		OPT_CALLBACK_F('t', NULL, NULL, NULL,
			       "show object type (one of 'blob', 'tree', 'commit', 'tag', ...)",
			       PARSE_OPT_NOARG | PARSE_OPT_NONEG, mode_cb),
		OPT_CALLBACK_F('s', NULL, NULL, NULL, "show object size",
			       PARSE_OPT_NOARG | PARSE_OPT_NONEG, mode_cb),
		OPT_BOOL(0, "allow-unknown-type", &unknown_type,
			 "allow -s and -t to work with broken/corrupt objects"),
		OPT_BOOL(0, "use-mailmap", &mailmap, "use mail map file"),
		OPT_BOOL(0, "mailmap", &mailmap, "alias of --use-mailmap"),
		OPT_GROUP("Batch objects requested on stdin (or --batch-all-objects)"),
		OPT_CALLBACK_F(0, "batch", NULL, "format", "show full <object> or <rev> contents",
			       PARSE_OPT_OPTARG | PARSE_OPT_NONEG, batch_cb),
		OPT_CALLBACK_F(0, "batch-check", NULL, "format",
			       "like --batch, but don't emit <contents>",
			       PARSE_OPT_OPTARG | PARSE_OPT_NONEG, batch_cb),
		OPT_BOOL('z', NULL, &nul, "stdin is NUL-terminated"),
		OPT_CALLBACK_F(0, "batch-command", NULL, "format", "read commands from stdin",
			       PARSE_OPT_OPTARG | PARSE_OPT_NONEG, batch_cb),
		OPT_BOOL(0, "batch-all-objects", &all,
			 "with --batch[-check]: ignores stdin, batches all known objects"),
		OPT_GROUP("Change or optimize batch output"),
		OPT_BOOL(0, "buffer", &buffer, "buffer --batch output"),
		OPT_BOOL(0, "follow-symlinks", &follow, "follow in-tree symlinks"),
		OPT_BOOL(0, "unordered", &unordered, "do not order objects before emitting them"),
		OPT_GROUP("Emit object (blob or tree) with conversion or filter (stand-alone, or with batch)"),
		OPT_BOOL(0, "textconv", &textconv, "run textconv on object's content"),
		OPT_BOOL(0, "filters", &filters, "run filters on object's content"),
		OPT_STRING_F(0, "path", &path, "blob|tree",
			     "use a <path> for (--textconv | --filters); Not with 'batch'",
			     PARSE_OPT_LITERAL_ARGHELP),
		OPT_END()
	};

	/* The option callbacks tell which option each is by defval. */
	for (struct option *o = opts; o->type != OPTION_END; o++) {
		if (o->callback == mode_cb)
			o->defval = o->short_name;
		else if (o->callback == batch_cb)
			o->defval = !strcmp(o->long_name, "batch-check") ? 1 :
				    !strcmp(o->long_name, "batch") ? 2 : 3;
	}
	all_opts = opts;
	setup_for_command(argc, argv);
	argc = parse_options(argc, argv, opts, cat_file_usage, 0);

	if (batch_mode) {
		if (opt_mode) {
			char msg[64];
			snprintf(msg, sizeof(msg), "'-%c' is incompatible with batch mode", opt_mode);
			usage_msg_opt(msg, cat_file_usage, opts);
		}
		if (argc)
			usage_msg_opt("batch modes take no arguments", cat_file_usage, opts);
		if (batch_mode == 3 || nul || textconv || filters || follow || unordered)
			die("this form of cat-file is not supported yet");
		setup_git_directory();
		return batch_objects(all, buffer);
	}
	if (all)
		usage_msg_opt("'--batch-all-objects' requires a batch mode", cat_file_usage, opts);
	if (opt_mode) {
		char msg[64];
		if (!argc) {
			snprintf(msg, sizeof(msg), "<object> required with '-%c'", opt_mode);
			usage_msg_opt(msg, cat_file_usage, opts);
		}
		if (argc > 1)
			usage_msg_opt("too many arguments", cat_file_usage, opts);
		setup_git_directory();
		return cat_one(opt_mode, argv[0]);
	}
	if (argc != 2) {
		char msg[80];
		if (!argc)
			usage_with_options(cat_file_usage, opts);
		snprintf(msg, sizeof(msg), "only two arguments allowed in <type> <object> mode, not %d", argc);
		usage_msg_opt(msg, cat_file_usage, opts);
	}
	setup_git_directory();
	return cat_typed(argv[0], argv[1]);
}
