/* branch.c: list, create, delete, rename and copy branches, and set their
 * upstreams. Listing reads HEAD, refs/heads/ (refs/remotes/ with -r/-a)
 * and the matching slice of packed-refs; objects are read only for -v,
 * --contains, --merged, --points-at and object sort keys or atoms. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "refs/ref-filter.h"
#include "refs/ref-object.h"
#include "odb/oid-name.h"
#include <sys/stat.h>

static const char *const branch_usage[] = {
	"git branch [<options>] [-r | -a] [--merged] [--no-merged]",
	"git branch [<options>] [-f] [--recurse-submodules] <branch-name> [<start-point>]",
	"git branch [<options>] [-l] [<pattern>...]",
	"git branch [<options>] [-r] (-d | -D) <branch-name>...",
	"git branch [<options>] (-m | -M) [<old-branch>] <new-branch>",
	"git branch [<options>] (-c | -C) [<old-branch>] <new-branch>",
	"git branch [<options>] [-r | -a] [--points-at]",
	"git branch [<options>] [-r | -a] [--format]",
	NULL
};

enum color_slot { C_PLAIN, C_REMOTE, C_RESET, C_LOCAL, C_CURRENT, C_UPSTREAM, C_WORKTREE, C_NR };
static const char *const slot_names[C_NR] = {
	"plain", "remote", "reset", "local", "current", "upstream", "worktree"
};
static char *colors[C_NR];
static const char *const default_colors[C_NR] = {
	"", "\033[31m", "\033[m", "", "\033[32m", "\033[34m", "\033[36m"
};
static int use_color;

static const char *color(enum color_slot s)
{
	if (!use_color)
		return "";
	return colors[s] ? colors[s] : default_colors[s];
}

static int color_config_cb(const char *key, const char *value, void *data)
{
	const char *slot;
	(void)data;
	if (!skip_prefix(key, "color.branch.", &slot) || !value)
		return 0;
	for (int i = 0; i < C_NR; i++)
		if (!strcmp(slot, slot_names[i])) {
			struct strbuf sb = STRBUF_INIT;
			ref_object_color(&sb, value);
			free(colors[i]);
			colors[i] = strbuf_detach(&sb, NULL);
		}
	return 0;
}

/* --color[=when], color.branch, color.ui: "auto" means a terminal. */
static int want_color(const char *when)
{
	int b;
	if (!when || !strcasecmp(when, "always"))
		return 1;
	if (!strcasecmp(when, "never"))
		return 0;
	if (!strcasecmp(when, "auto"))
		return isatty(1);
	b = config_maybe_bool(when);
	if (b >= 0)
		return b ? isatty(1) : 0;
	return -1;
}

static const char *color_when;
static int color_given;

static int opt_color(const struct option *o, const char *arg, int unset)
{
	(void)o;
	color_given = 1;
	color_when = unset ? "never" : arg;
	if (!unset && arg && want_color(arg) < 0)
		return error("option `color' expects \"always\", \"auto\", or \"never\"");
	return 0;
}

struct oid_list {
	struct object_id *oids;
	size_t nr, alloc;
};

static void oid_list_add(struct oid_list *l, const char *name, const char *what)
{
	struct object_id oid;
	if (get_oid(name, &oid))
		die("malformed object name %s", name);
	(void)what;
	ALLOC_GROW(l->oids, l->nr + 1, l->alloc);
	oidcpy(&l->oids[l->nr++], &oid);
}

static struct oid_list contains, no_contains, merged, no_merged, points_at;
static int list_forced;

static int opt_commit(const struct option *o, const char *arg, int unset)
{
	struct oid_list *l = o->value;
	list_forced = 1;
	if (unset)
		return 0;
	oid_list_add(l, arg ? arg : "HEAD", o->long_name);
	return 0;
}

static int opt_points_at(const struct option *o, const char *arg, int unset)
{
	struct object_id oid;
	(void)o;
	list_forced = 1;
	if (unset)
		return 0;
	if (get_oid(arg, &oid))
		return error("malformed object name '%s'", arg);
	ALLOC_GROW(points_at.oids, points_at.nr + 1, points_at.alloc);
	oidcpy(&points_at.oids[points_at.nr++], &oid);
	return 0;
}

static struct ref_sorting *sorting;
static int sort_given;

static int opt_sort(const struct option *o, const char *arg, int unset)
{
	(void)o;
	list_forced = 1;
	if (unset) {
		sorting = NULL;
		sort_given = 1;
		return 0;
	}
	ref_sorting_add(&sorting, arg);
	sort_given = 1;
	return 0;
}

static int abbrev = -1;

static int opt_abbrev(const struct option *o, const char *arg, int unset)
{
	(void)o;
	if (unset)
		abbrev = 0;
	else if (!arg)
		abbrev = -1;
	else {
		char *end;
		long v = strtol(arg, &end, 10);
		if (!*arg || *end)
			return error("option `abbrev' expects a numerical value");
		abbrev = v < 4 ? (v ? 4 : 0) : v > 40 ? 40 : (int)v;
	}
	return 0;
}

static int track_mode = -1; /* -1 config default, 0 none, 1 direct, 2 inherit */

static int opt_track(const struct option *o, const char *arg, int unset)
{
	(void)o;
	if (unset)
		track_mode = 0;
	else if (!arg || !strcmp(arg, "direct"))
		track_mode = 1;
	else if (!strcmp(arg, "inherit"))
		track_mode = 2;
	else
		return error("option `track' expects \"direct\" or \"inherit\"");
	return 0;
}

/* What a detached HEAD is called in the listing, as git works it out. */
struct switch_cb {
	struct object_id noid;
	struct strbuf target;
	int found;
};

static int grab_switch(const struct object_id *o, const struct object_id *n, const char *ident,
		       uint64_t when, int tz, const char *msg, void *data)
{
	struct switch_cb *cb = data;
	const char *p, *to;
	(void)o; (void)ident; (void)when; (void)tz;
	if (!skip_prefix(msg, "checkout: moving from ", &p))
		return 0;
	to = strstr(p, " to ");
	if (!to)
		return 0;
	to += 4;
	strbuf_reset(&cb->target);
	strbuf_add(&cb->target, to, strchrnul(to, '\n') - to);
	oidcpy(&cb->noid, n);
	if (!strcmp(cb->target.buf, "HEAD")) {
		strbuf_reset(&cb->target);
		strbuf_addstr(&cb->target, odb_abbrev(n, 0));
	}
	cb->found = 1;
	return 0;
}

static char *read_trimmed(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_read_file(&sb, path, 64) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_trim(&sb);
	return strbuf_detach(&sb, NULL);
}

static char *head_description(void)
{
	struct strbuf desc = STRBUF_INIT, full = STRBUF_INIT;
	struct switch_cb cb = { .target = STRBUF_INIT };
	struct object_id oid, head;
	char *s;
	int rebase = is_dir(git_path("rebase-merge")) ||
		     (is_dir(git_path("rebase-apply")) && !file_exists(git_path("rebase-apply/applying")));

	refs_for_each_reflog_entry("HEAD", grab_switch, &cb);
	if (rebase) {
		s = read_trimmed(git_path(is_dir(git_path("rebase-merge")) ? "rebase-merge/head-name" : "rebase-apply/head-name"));
		if (s && strcmp(s, "detached HEAD")) {
			const char *b = s;
			skip_prefix(s, "refs/heads/", &b);
			strbuf_addf(&desc, "(no branch, rebasing %s)", b);
			free(s);
			return strbuf_detach(&desc, NULL);
		}
		free(s);
	} else if (file_exists(git_path("BISECT_LOG"))) {
		s = read_trimmed(git_path("BISECT_START"));
		const char *b = s ? s : "";
		skip_prefix(b, "refs/heads/", &b);
		strbuf_addf(&desc, "(no branch, bisect started on %s)", b);
		free(s);
		return strbuf_detach(&desc, NULL);
	}
	if (cb.found) {
		const char *from;
		struct object_id peeled;
		enum object_type t;
		if (refs_dwim(cb.target.buf, cb.target.len, &full, &oid) == 1 &&
		    (oideq(&cb.noid, &oid) ||
		     (!peel_to_non_tag(&oid, &peeled, &t) && t == OBJ_COMMIT && oideq(&cb.noid, &peeled)))) {
			from = full.buf;
			if (!skip_prefix(from, "refs/tags/", &from))
				skip_prefix(from, "refs/remotes/", &from);
		} else
			from = odb_abbrev(&cb.noid, 0);
		from = xstrdup(from);
		if (rebase) {
			strbuf_addf(&desc, "(no branch, rebasing detached HEAD %s)", from);
		} else {
			int at = !refs_read("HEAD", &head) && oideq(&head, &cb.noid);
			strbuf_addf(&desc, at ? "(HEAD detached at %s)" : "(HEAD detached from %s)", from);
		}
		free((char *)from);
	} else if (rebase)
		strbuf_addstr(&desc, "(no branch, rebasing detached HEAD )");
	else
		strbuf_addstr(&desc, "(no branch)");
	strbuf_release(&cb.target);
	strbuf_release(&full);
	return strbuf_detach(&desc, NULL);
}

static size_t max_width(struct ref_array *a, size_t remote_bonus)
{
	size_t max = 0;
	for (size_t i = 0; i < a->nr; i++) {
		struct ref_item *it = a->items[i];
		const char *d = it->refname;
		size_t w = 0;
		if (!skip_prefix(d, "refs/heads/", &d))
			skip_prefix(d, "refs/remotes/", &d);
		for (const char *p = d; *p; p++)
			if (((unsigned char)*p & 0xc0) != 0x80)
				w++;
		if (it->kind == FILTER_REFS_REMOTES)
			w += remote_bonus;
		if (w > max)
			max = w;
	}
	return max;
}

static char *build_format(int verbose, size_t maxwidth, const char *remote_prefix)
{
	struct strbuf local = STRBUF_INIT, remote = STRBUF_INIT, fmt = STRBUF_INIT, obname = STRBUF_INIT;

	strbuf_addf(&local, "%%(if)%%(HEAD)%%(then)* %s%%(else)%%(if)%%(worktreepath)%%(then)+ %s%%(else)  %s%%(end)%%(end)",
		    color(C_CURRENT), color(C_WORKTREE), color(C_LOCAL));
	strbuf_addf(&remote, "  %s", color(C_REMOTE));
	if (verbose) {
		if (abbrev < 0)
			strbuf_addstr(&obname, "%(objectname:short)");
		else if (!abbrev)
			strbuf_addstr(&obname, "%(objectname)");
		else
			strbuf_addf(&obname, "%%(objectname:short=%d)", abbrev);
		strbuf_addf(&local, "%%(align:%zu,left)%%(refname:lstrip=2)%%(end)", maxwidth);
		strbuf_addstr(&local, color(C_RESET));
		strbuf_addf(&local, " %s ", obname.buf);
		if (verbose > 1)
			strbuf_addf(&local, "%%(if:notequals=*)%%(HEAD)%%(then)%%(if)%%(worktreepath)%%(then)(%s%%(worktreepath)%s) %%(end)%%(end)"
				    "%%(if)%%(upstream)%%(then)[%s%%(upstream:short)%s%%(if)%%(upstream:track)"
				    "%%(then): %%(upstream:track,nobracket)%%(end)] %%(end)%%(contents:subject)",
				    color(C_WORKTREE), color(C_RESET), color(C_UPSTREAM), color(C_RESET));
		else
			strbuf_addstr(&local, "%(if)%(upstream:track)%(then)%(upstream:track) %(end)%(contents:subject)");
		strbuf_addf(&remote, "%%(align:%zu,left)%s%%(refname:lstrip=2)%%(end)%s"
			    "%%(if)%%(symref)%%(then) -> %%(symref:short)"
			    "%%(else) %s %%(contents:subject)%%(end)",
			    maxwidth, remote_prefix, color(C_RESET), obname.buf);
	} else {
		strbuf_addf(&local, "%%(refname:lstrip=2)%s%%(if)%%(symref)%%(then) -> %%(symref:short)%%(end)",
			    color(C_RESET));
		strbuf_addf(&remote, "%s%%(refname:lstrip=2)%s%%(if)%%(symref)%%(then) -> %%(symref:short)%%(end)",
			    remote_prefix, color(C_RESET));
	}
	strbuf_addf(&fmt, "%%(if:notequals=refs/remotes)%%(refname:rstrip=-2)%%(then)%s%%(else)%s%%(end)",
		    local.buf, remote.buf);
	strbuf_release(&local);
	strbuf_release(&remote);
	strbuf_release(&obname);
	return strbuf_detach(&fmt, NULL);
}

static int list_branches(unsigned kind, int detached, const char **patterns, int verbose,
			 int icase, const char *format)
{
	struct ref_filter f = { 0 };
	struct ref_array a = { 0 };
	struct ref_format *rf;
	struct strbuf out = STRBUF_INIT;
	char *desc = NULL, *fmt = NULL;
	const char *remote_prefix = "";

	f.kind = kind;
	f.patterns = patterns;
	f.ignore_case = icase;
	f.points_at = points_at.oids;
	f.points_at_nr = points_at.nr;
	f.with_commit = contains.oids;
	f.with_commit_nr = contains.nr;
	f.no_commit = no_contains.oids;
	f.no_commit_nr = no_contains.nr;
	f.merged = merged.oids;
	f.merged_nr = merged.nr;
	f.no_merged = no_merged.oids;
	f.no_merged_nr = no_merged.nr;
	if ((kind & FILTER_REFS_BRANCHES) && detached) {
		f.kind |= FILTER_REFS_DETACHED_HEAD;
		desc = head_description();
		f.head_desc = desc;
	}
	if ((kind & (FILTER_REFS_BRANCHES | FILTER_REFS_REMOTES)) ==
	    (FILTER_REFS_BRANCHES | FILTER_REFS_REMOTES))
		remote_prefix = "remotes/";
	filter_refs(&a, &f);
	if (!sort_given && !sorting) {
		const char **keys;
		size_t n = config_get_all("branch.sort", &keys);
		for (size_t i = 0; i < n; i++)
			if (keys[i])
				ref_sorting_add(&sorting, keys[i]);
		free(keys);
		if (!sorting)
			ref_sorting_add(&sorting, "refname");
	} else if (!sorting)
		ref_sorting_add(&sorting, "refname");
	ref_sorting_detached_first(sorting);
	ref_array_sort(sorting, &a);

	if (!format)
		format = fmt = build_format(verbose, verbose ? max_width(&a, strlen(remote_prefix)) : 0,
					    remote_prefix);
	rf = ref_format_parse(format, use_color);
	for (size_t i = 0; i < a.nr; i++) {
		strbuf_reset(&out);
		ref_format_item(&out, a.items[i], rf);
		if (out.len || !fmt)
			strbuf_addch(&out, '\n');
		fwrite(out.buf, 1, out.len, stdout);
	}
	strbuf_release(&out);
	ref_array_clear(&a);
	free(desc);
	free(fmt);
	return 0;
}

static void print_current(void)
{
	struct object_id oid;
	unsigned flags;
	const char *r = refs_resolve("HEAD", &oid, &flags), *b;
	if (r && (flags & REF_ISSYMREF) && skip_prefix(r, "refs/heads/", &b))
		printf("%s\n", b);
}

int cmd_branch(int argc, const char **argv)
{
	int verbose = 0, quiet = 0, del = 0, rename = 0, copy = 0, force = 0, list = 0;
	int show_current = 0, unset_upstream = 0, create_reflog = 0, icase = 0, edit_desc = 0;
	int recurse = 0, noncreate;
	unsigned kind = FILTER_REFS_BRANCHES;
	const char *new_upstream = NULL, *format = NULL, *column = NULL;
	const char *head;
	struct object_id head_oid;
	unsigned head_flags;
	int detached = 0;
	struct option opts[] = {
		OPT_GROUP("Generic options"),
		OPT__VERBOSE(&verbose, "show hash and subject, give twice for upstream branch"),
		OPT__QUIET(&quiet, "suppress informational messages"),
		{ .type = OPTION_CALLBACK, .short_name = 't', .long_name = "track", .argh = "(direct|inherit)",
		  .help = "set branch tracking configuration", .flags = PARSE_OPT_OPTARG | PARSE_OPT_LITERAL_ARGHELP,
		  .callback = opt_track },
		OPT_STRING('u', "set-upstream-to", &new_upstream, "upstream", "change the upstream info"),
		OPT_BOOL(0, "unset-upstream", &unset_upstream, "unset the upstream info"),
		OPT_CALLBACK_F(0, "color", NULL, "when", "use colored output", PARSE_OPT_OPTARG, opt_color),
		OPT_SET_INT('r', "remotes", &kind, "act on remote-tracking branches", FILTER_REFS_REMOTES),
		OPT_CALLBACK_F(0, "contains", &contains, "commit", "print only branches that contain the commit", PARSE_OPT_NONEG, opt_commit),
		OPT_CALLBACK_F(0, "no-contains", &no_contains, "commit", "print only branches that don't contain the commit", PARSE_OPT_NONEG, opt_commit),
		OPT_CALLBACK_F(0, "abbrev", NULL, "n", "use <n> digits to display object names", PARSE_OPT_OPTARG, opt_abbrev),
		OPT_GROUP("Specific git-branch actions:"),
		OPT_SET_INT('a', "all", &kind, "list both remote-tracking and local branches", FILTER_REFS_REMOTES | FILTER_REFS_BRANCHES),
		OPT_BOOL('d', "delete", &del, "delete fully merged branch"),
		OPT_SET_INT_F('D', NULL, &del, "delete branch (even if not merged)", 2, PARSE_OPT_NONEG),
		OPT_BOOL('m', "move", &rename, "move/rename a branch and its reflog"),
		OPT_SET_INT_F('M', NULL, &rename, "move/rename a branch, even if target exists", 2, PARSE_OPT_NONEG),
		OPT_BOOL('c', "copy", &copy, "copy a branch and its reflog"),
		OPT_SET_INT_F('C', NULL, &copy, "copy a branch, even if target exists", 2, PARSE_OPT_NONEG),
		OPT_BOOL('l', "list", &list, "list branch names"),
		OPT_BOOL(0, "show-current", &show_current, "show current branch name"),
		OPT_BOOL(0, "create-reflog", &create_reflog, "create the branch's reflog"),
		OPT_BOOL(0, "edit-description", &edit_desc, "edit the description for the branch"),
		OPT_BOOL_F('f', "force", &force, "force creation, move/rename, deletion", 0),
		OPT_CALLBACK_F(0, "merged", &merged, "commit", "print only branches that are merged", PARSE_OPT_NONEG, opt_commit),
		OPT_CALLBACK_F(0, "no-merged", &no_merged, "commit", "print only branches that are not merged", PARSE_OPT_NONEG, opt_commit),
		OPT_STRING_F(0, "column", &column, "style", "list branches in columns", PARSE_OPT_OPTARG),
		OPT_CALLBACK_F(0, "sort", NULL, "key", "field name to sort on", 0, opt_sort),
		OPT_CALLBACK_F(0, "points-at", NULL, "object", "print only branches of the object", PARSE_OPT_NONEG, opt_points_at),
		OPT_BOOL('i', "ignore-case", &icase, "sorting and filtering are case insensitive"),
		OPT_BOOL(0, "recurse-submodules", &recurse, "recurse through submodules"),
		OPT_STRING(0, "format", &format, "format", "format to use for the output"),
		OPT_END()
	};

	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options(branch_usage, opts);
	setup_git_directory();

	head = refs_resolve("HEAD", &head_oid, &head_flags);
	if (!head)
		die("Failed to resolve HEAD as a valid ref.");
	if (!strcmp(head, "HEAD"))
		detached = 1;
	else if (!skip_prefix(head, "refs/heads/", &head))
		die("HEAD not found below refs/heads!");
	head = xstrdup(head);

	argc = parse_options(argc, argv, opts, branch_usage, 0);

	if (!del && !rename && !copy && !edit_desc && !new_upstream && !show_current &&
	    !unset_upstream && argc == 0)
		list = 1;
	if (contains.nr || no_contains.nr || merged.nr || no_merged.nr || points_at.nr || sort_given)
		list = 1;
	noncreate = !!del + !!rename + !!copy + !!new_upstream + !!show_current + !!list +
		    !!edit_desc + !!unset_upstream;
	if (noncreate > 1)
		usage_with_options(branch_usage, opts);
	if (verbose && column && strcmp(column, "never"))
		die("options '%s' and '%s' cannot be used together", "--column", "--verbose");
	if (force) {
		del *= 2;
		rename *= 2;
		copy *= 2;
	}

	if (list) {
		const char *v;
		if (color_given)
			use_color = want_color(color_when);
		else if (config_get("color.branch", &v) || config_get("color.ui", &v))
			use_color = want_color(v ? v : "true") > 0;
		else
			use_color = isatty(1);
		if (use_color)
			config_for_each(CONFIG_ALL, color_config_cb, NULL);
		argv[argc] = NULL;
		return list_branches(kind, detached, argv, verbose, icase, format);
	}
	if (show_current) {
		print_current();
		return 0;
	}
	die("not yet");
	(void)quiet; (void)noncreate; (void)create_reflog; (void)recurse; (void)unset_upstream;
}
