/* for-each-ref: every ref under refs/ (or matching the patterns), sorted
 * and formatted with git's %(atom) language. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "refs/ref-filter.h"
#include "odb/oid-name.h"

static const char *const for_each_ref_usage[] = {
	"git for-each-ref [<options>] [<pattern>]",
	"git for-each-ref [--points-at <object>]",
	"git for-each-ref [--merged [<commit>]] [--no-merged [<commit>]]",
	"git for-each-ref [--contains [<commit>]] [--no-contains [<commit>]]",
	NULL
};

struct oids {
	struct object_id *v;
	size_t nr, alloc;
};

static struct oids contains, no_contains, merged, no_merged, points_at;
static struct ref_sorting *sorting;
static const char *color_when;
static int color_given;

static int opt_commit(const struct option *o, const char *arg, int unset)
{
	struct oids *l = o->value;
	struct object_id oid;
	if (unset)
		return 0;
	if (!arg)
		arg = "HEAD";
	if (get_oid(arg, &oid))
		return error("malformed object name %s", arg);
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	oidcpy(&l->v[l->nr++], &oid);
	return 0;
}

static int opt_points_at(const struct option *o, const char *arg, int unset)
{
	struct object_id oid;
	(void)o;
	if (unset)
		return 0;
	if (get_oid(arg, &oid))
		return error("malformed object name '%s'", arg);
	ALLOC_GROW(points_at.v, points_at.nr + 1, points_at.alloc);
	oidcpy(&points_at.v[points_at.nr++], &oid);
	return 0;
}

static int opt_sort(const struct option *o, const char *arg, int unset)
{
	(void)o;
	if (unset)
		sorting = NULL;
	else
		ref_sorting_add(&sorting, arg);
	return 0;
}

static int opt_color(const struct option *o, const char *arg, int unset)
{
	(void)o;
	color_given = 1;
	color_when = unset ? "never" : arg ? arg : "always";
	if (strcmp(color_when, "always") && strcmp(color_when, "never") && strcmp(color_when, "auto"))
		return error("option `color' expects \"always\", \"auto\", or \"never\"");
	return 0;
}

/* git's --contains, --merged...: the commit is optional only as the last
 * word of the command line (HEAD then). "--no-merged" and "--no-contains"
 * are renamed so that the option parser does not read them as negated
 * "--merged" and "--contains". */
static const char **last_arg_default(int *argc, const char **argv)
{
	static const char *const names[] = { "--contains", "--no-contains", "--merged", "--no-merged" };
	static const char **v; /* lives as long as argv does */
	v = xcalloc(*argc + 2, sizeof(*v));
	memcpy(v, argv, *argc * sizeof(*v));
	int n = *argc;
	for (size_t i = 0; n >= 2 && i < ARRAY_SIZE(names); i++)
		if (!strcmp(argv[n - 1], names[i]))
			v[(*argc)++] = "HEAD";
	for (int i = 1; i < *argc; i++) {
		const char *rest;
		if (!strcmp(v[i], "--"))
			break;
		if (skip_prefix(v[i], "--no-merged", &rest) && (!*rest || *rest == '='))
			v[i] = xstrfmt("--x-no-merged%s", rest);
		else if (skip_prefix(v[i], "--no-contains", &rest) && (!*rest || *rest == '='))
			v[i] = xstrfmt("--x-no-contains%s", rest);
	}
	return v;
}

int cmd_for_each_ref(int argc, const char **argv)
{
	int quote = 0, q_shell = 0, q_perl = 0, q_python = 0, q_tcl = 0, maxcount = 0, icase = 0, use_color;
	const char *format = "%(objectname) %(objecttype)\t%(refname)", *v;
	struct ref_filter f = { 0 };
	struct ref_array a = { 0 };
	struct ref_format *rf;
	struct strbuf out = STRBUF_INIT;
	struct option opts[] = {
		OPT_BOOL('s', "shell", &q_shell, "quote placeholders suitably for shells"),
		OPT_BOOL('p', "perl", &q_perl, "quote placeholders suitably for perl"),
		OPT_BOOL(0, "python", &q_python, "quote placeholders suitably for python"),
		OPT_BOOL(0, "tcl", &q_tcl, "quote placeholders suitably for Tcl"),
		OPT_GROUP(""),
		OPT_INTEGER(0, "count", &maxcount, "show only <n> matched refs"),
		OPT_STRING(0, "format", &format, "format", "format to use for the output"),
		OPT_CALLBACK_F(0, "color", NULL, "when", "respect format colors", PARSE_OPT_OPTARG, opt_color),
		OPT_CALLBACK_F(0, "sort", NULL, "key", "field name to sort on", 0, opt_sort),
		OPT_CALLBACK_F(0, "points-at", NULL, "object", "print only refs which points at the given object", 0, opt_points_at),
		OPT_CALLBACK_F(0, "merged", &merged, "commit", "print only refs that are merged", PARSE_OPT_NONEG, opt_commit),
		OPT_CALLBACK_F(0, "no-merged", &no_merged, "commit", "print only refs that are not merged", PARSE_OPT_NONEG, opt_commit),
		OPT_CALLBACK_F(0, "contains", &contains, "commit", "print only refs which contain the commit", PARSE_OPT_NONEG, opt_commit),
		OPT_CALLBACK_F(0, "no-contains", &no_contains, "commit", "print only refs which don't contain the commit", PARSE_OPT_NONEG, opt_commit),
		OPT_BOOL(0, "ignore-case", &icase, "sorting and filtering are case insensitive"),
		/* "--no-merged" and "--no-contains" arrive here renamed (see below) */
		OPT_CALLBACK_F(0, "x-no-merged", &no_merged, "commit", NULL, PARSE_OPT_NONEG | PARSE_OPT_HIDDEN, opt_commit),
		OPT_CALLBACK_F(0, "x-no-contains", &no_contains, "commit", NULL, PARSE_OPT_NONEG | PARSE_OPT_HIDDEN, opt_commit),
		OPT_END()
	};

	setup_git_directory();
	argv = last_arg_default(&argc, argv);
	argc = parse_options(argc, argv, opts, for_each_ref_usage, 0);
	argv[argc] = NULL;
	if (maxcount < 0) {
		error("invalid --count argument: `%d'", maxcount);
		usage_with_options(for_each_ref_usage, opts);
	}
	if (q_shell + q_perl + q_python + q_tcl > 1) {
		error("more than one quoting style?");
		usage_with_options(for_each_ref_usage, opts);
	}
	quote = q_shell ? QUOTE_SHELL : q_perl ? QUOTE_PERL : q_python ? QUOTE_PYTHON : q_tcl ? QUOTE_TCL : 0;
	if (color_given)
		use_color = !strcmp(color_when, "always") || (!strcmp(color_when, "auto") && isatty(1));
	else if (config_get("color.ui", &v))
		use_color = config_maybe_bool(v) == 1 ? isatty(1) : (v && !strcmp(v, "always"));
	else
		use_color = isatty(1);
	rf = ref_format_parse(format, use_color);
	if (!rf)
		usage_with_options(for_each_ref_usage, opts);
	ref_format_set_quote(rf, quote);
	if (!sorting)
		ref_sorting_add(&sorting, "refname");

	f.kind = FILTER_REFS_ALL;
	f.patterns = argv;
	f.match_as_path = 1;
	f.ignore_case = icase;
	f.points_at = points_at.v;
	f.points_at_nr = points_at.nr;
	f.with_commit = contains.v;
	f.with_commit_nr = contains.nr;
	f.no_commit = no_contains.v;
	f.no_commit_nr = no_contains.nr;
	f.merged = merged.v;
	f.merged_nr = merged.nr;
	f.no_merged = no_merged.v;
	f.no_merged_nr = no_merged.nr;
	filter_refs(&a, &f);
	ref_array_sort(sorting, &a);
	if (!maxcount || a.nr < (size_t)maxcount)
		maxcount = a.nr;
	for (int i = 0; i < maxcount; i++) {
		strbuf_reset(&out);
		ref_format_item(&out, a.items[i], rf);
		strbuf_addch(&out, '\n');
		fwrite(out.buf, 1, out.len, stdout);
	}
	strbuf_release(&out);
	ref_array_clear(&a);
	ref_format_free(rf);
	ref_sorting_free(sorting);
	return 0;
}
