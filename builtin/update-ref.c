/* update-ref: set or delete one ref, with an optional old-value check. */
#include "builtin/builtin.h"
#include "lib/repo.h"
#include "refs/refs.h"
#include "odb/oid-name.h"

static const char *const update_ref_usage[] = {
	"git update-ref [<options>] -d <refname> [<old-val>]",
	"git update-ref [<options>]    <refname> <new-val> [<old-val>]",
	"git update-ref [<options>] --stdin [-z]",
	NULL
};

int cmd_update_ref(int argc, const char **argv)
{
	const char *msg = NULL, *refname, *value, *oldval = NULL;
	int del = 0, no_deref = 0, read_stdin = 0, end_null = 0, create_reflog = 0;
	struct object_id oid, oldoid;
	struct strbuf err = STRBUF_INIT;
	unsigned flags;
	struct option opts[] = {
		OPT_STRING('m', NULL, &msg, "reason", "reason of the update"),
		OPT_BOOL('d', NULL, &del, "delete the reference"),
		OPT_BOOL(0, "no-deref", &no_deref, "update <refname> not the one it points to"),
		OPT_BOOL('z', NULL, &end_null, "stdin has NUL-terminated arguments"),
		OPT_BOOL(0, "stdin", &read_stdin, "read updates from stdin"),
		OPT_BOOL(0, "create-reflog", &create_reflog, "create a reflog"),
		OPT_END()
	};

	setup_git_directory();
	argc = parse_options(argc, argv, opts, update_ref_usage, 0);
	if (msg && !*msg)
		die("Refusing to perform update with empty message.");
	if (read_stdin)
		die("--stdin is not supported");
	if (end_null)
		usage_with_options(update_ref_usage, opts);
	flags = no_deref ? REF_NO_DEREF : 0;
	if (del) {
		if (argc < 1 || argc > 2)
			usage_with_options(update_ref_usage, opts);
		refname = argv[0];
		oldval = argc > 1 ? argv[1] : NULL;
	} else {
		if (argc < 2 || argc > 3)
			usage_with_options(update_ref_usage, opts);
		refname = argv[0];
		value = argv[1];
		oldval = argc > 2 ? argv[2] : NULL;
		if (get_oid(value, &oid))
			die("%s: not a valid SHA1", value);
	}
	if (oldval) {
		if (!*oldval)
			oidclr(&oldoid);
		else if (get_oid(oldval, &oldoid))
			die("%s: not a valid old SHA1", oldval);
	}
	if (!del && is_null_oid(&oid)) {
		/* as in git, the zero id as the new value deletes the ref */
		struct object_id cur;
		if (refs_read(refname, &cur) && !(flags & REF_NO_DEREF) && !(oldval && !is_null_oid(&oldoid)))
			return 0;
		if (refs_delete_err(refname, (oldval && !is_null_oid(&oldoid)) ? &oldoid : NULL,
				    flags, &err) < 0)
			die("update_ref failed for ref '%s': %s", refname, err.buf);
		return 0;
	}
	if (del) {
		struct object_id cur;
		/* a ref that is not there is already deleted */
		if (refs_read(refname, &cur) && !(flags & REF_NO_DEREF) && !(oldval && !is_null_oid(&oldoid)))
			return 0;
		if (refs_delete_err(refname, (oldval && !is_null_oid(&oldoid)) ? &oldoid : NULL,
				    flags, &err) < 0) {
			error("%s", err.buf);
			return 1;
		}
		return 0;
	}
	if (refs_update_err(refname, &oid, oldval ? &oldoid : NULL, msg,
			    flags | (create_reflog ? REF_FORCE_CREATE_REFLOG : 0), &err) < 0)
		die("update_ref failed for ref '%s': %s", refname, err.buf);
	return 0;
}
