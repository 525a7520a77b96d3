/* for-each-ref: every ref under refs/ (or matching the patterns), sorted
 * and formatted with git's %(atom) language. */
#include "builtin/builtin.h"
#include "lib/repo.h"
#include "refs/ref-filter.h"

static const char *const for_each_ref_usage[] = {
	"git for-each-ref [<options>] [<pattern>]",
	"git for-each-ref [--points-at <object>]",
	"git for-each-ref [--merged [<commit>]] [--no-merged [<commit>]]",
	"git for-each-ref [--contains [<commit>]] [--no-contains [<commit>]]",
	NULL
};

int cmd_for_each_ref(int argc, const char **argv)
{
	int quote = 0, q_shell = 0, q_perl = 0, q_python = 0, q_tcl = 0, maxcount = 0, icase = 0;
	const char *format = "%(objectname) %(objecttype)\t%(refname)", *color_when = NULL;
	struct ref_filter f = { 0 };
	struct ref_array a = { 0 };
	struct ref_format *rf;
	struct ref_sort_keys keys = { 0 };
	struct ref_sorting *sorting;
	struct option opts[] = {
		OPT_BOOL('s', "shell", &q_shell, "quote placeholders suitably for shells"),
		OPT_BOOL('p', "perl", &q_perl, "quote placeholders suitably for perl"),
		OPT_BOOL(0, "python", &q_python, "quote placeholders suitably for python"),
		OPT_BOOL(0, "tcl", &q_tcl, "quote placeholders suitably for Tcl"),
		OPT_GROUP(""),
		OPT_INTEGER(0, "count", &maxcount, "show only <n> matched refs"),
		OPT_STRING(0, "format", &format, "format", "format to use for the output"),
		OPT_REF_COLOR(&color_when, "respect format colors"),
		OPT_REF_SORT(&keys),
		OPT_REF_POINTS_AT(&f, "print only refs which points at the given object"),
		OPT_REF_COMMIT("merged", &f, "print only refs that are merged"),
		OPT_REF_COMMIT("no-merged", &f, "print only refs that are not merged"),
		OPT_REF_COMMIT("contains", &f, "print only refs which contain the commit"),
		OPT_REF_COMMIT("no-contains", &f, "print only refs which don't contain the commit"),
		OPT_BOOL(0, "ignore-case", &icase, "sorting and filtering are case insensitive"),
		OPT_END()
	};

	setup_for_command(argc, argv);
	argc = parse_options(argc, argv, opts, for_each_ref_usage, 0);
	if (maxcount < 0) {
		error("invalid --count argument: `%d'", maxcount);
		usage_with_options(for_each_ref_usage, opts);
	}
	if (q_shell + q_perl + q_python + q_tcl > 1) {
		error("more than one quoting style?");
		usage_with_options(for_each_ref_usage, opts);
	}
	quote = q_shell ? QUOTE_SHELL : q_perl ? QUOTE_PERL : q_python ? QUOTE_PYTHON : q_tcl ? QUOTE_TCL : 0;
	rf = ref_format_parse(format, ref_filter_use_color(color_when, NULL), quote);
	if (!rf)
		usage_with_options(for_each_ref_usage, opts);
	sorting = ref_sorting_from_keys(&keys, NULL, 0);

	f.kind = FILTER_REFS_ALL;
	f.patterns = argv;
	f.match_as_path = 1;
	f.ignore_case = icase;
	filter_refs(&a, &f);
	ref_array_populate(rf, sorting, 0, 0);
	if (icase)
		ref_sorting_ignore_case(sorting);
	ref_array_sort(sorting, &a);
	if (!maxcount || a.nr < (size_t)maxcount)
		maxcount = a.nr;
	ref_array_print(&a, maxcount, rf, 0);
	ref_array_clear(&a);
	ref_format_free(rf);
	ref_sorting_free(sorting);
	ref_filter_release(&f);
	free(keys.v);
	return 0;
}
