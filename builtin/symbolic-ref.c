/* symbolic-ref: read, set or delete a symbolic ref. */
#include "builtin/builtin.h"
#include "lib/repo.h"
#include "refs/refs.h"

static const char *const symbolic_ref_usage[] = {
	"git symbolic-ref [-m <reason>] <name> <ref>",
	"git symbolic-ref [-q] [--short] [--no-recurse] <name>",
	"git symbolic-ref --delete [-q] <name>",
	NULL
};

static int check_symref(const char *name, int quiet, int shorten, int recurse, int print)
{
	struct object_id oid;
	struct strbuf target = STRBUF_INIT;
	unsigned flags = 0;
	const char *r;
	/* as git, a badly formed name resolves to nothing */
	if (check_refname_format(name, REFNAME_ALLOW_ONELEVEL) < 0)
		die("No such ref: %s", name);
	if (recurse)
		r = refs_resolve(name, &oid, &flags);
	else {
		r = refs_read_symref(name, &target);
		if (r)
			flags = REF_ISSYMREF;
		else
			r = refs_resolve(name, &oid, &flags);
	}
	if (!r && (flags & REF_ISBROKEN))
		die("No such ref: %s", name);
	if (!r || !(flags & REF_ISSYMREF)) {
		if (!quiet)
			die("ref %s is not a symbolic ref", name);
		return 1;
	}
	if (print)
		puts(shorten ? refs_shorten(r, 0) : r);
	strbuf_release(&target);
	return 0;
}

int cmd_symbolic_ref(int argc, const char **argv)
{
	int quiet = 0, del = 0, shorten = 0, recurse = 1;
	const char *msg = NULL;
	struct option opts[] = {
		OPT__QUIET(&quiet, "suppress error message for non-symbolic (detached) refs"),
		OPT_BOOL('d', "delete", &del, "delete symbolic ref"),
		OPT_BOOL(0, "short", &shorten, "shorten ref output"),
		OPT_BOOL(0, "recurse", &recurse, "recursively dereference (default)"),
		OPT_STRING('m', NULL, &msg, "reason", "reason of the update"),
		OPT_END()
	};

	setup_for_command(argc, argv);
	argc = parse_options(argc, argv, opts, symbolic_ref_usage, 0);
	if (msg && !*msg)
		die("Refusing to perform update with empty message");
	if (del) {
		struct strbuf err = STRBUF_INIT;
		if (argc != 1)
			usage_with_options(symbolic_ref_usage, opts);
		if (check_symref(argv[0], 1, 0, 0, 0))
			die("Cannot delete %s, not a symbolic ref", argv[0]);
		if (!strcmp(argv[0], "HEAD"))
			die("deleting '%s' is not allowed", argv[0]);
		if (refs_delete_err(argv[0], NULL, REF_NO_DEREF, NULL, &err) < 0) {
			error("%s", err.buf);
			return 1;
		}
		return 0;
	}
	switch (argc) {
	case 1:
		return check_symref(argv[0], quiet, shorten, recurse, 1);
	case 2:
		if (!strcmp(argv[0], "HEAD") && !starts_with(argv[1], "refs/"))
			die("Refusing to point HEAD outside of refs/");
		if (check_refname_format(argv[1], REFNAME_ALLOW_ONELEVEL) < 0)
			die("Refusing to set '%s' to invalid ref '%s'", argv[0], argv[1]);
		return !!refs_update_symref(argv[0], argv[1], msg);
	default:
		usage_with_options(symbolic_ref_usage, opts);
	}
}
