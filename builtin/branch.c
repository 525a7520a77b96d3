/* branch.c: list, create, delete, rename and copy branches, and set their
 * upstreams. Listing reads HEAD, refs/heads/ (refs/remotes/ with -r/-a)
 * and the matching slice of packed-refs; objects are read only for -v,
 * --contains, --merged, --points-at and object sort keys or atoms. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/color.h"
#include "lib/column.h"
#include "lib/editor.h"
#include "lib/repo.h"
#include "refs/ref-filter.h"
#include "refs/ref-object.h"
#include "odb/oid-name.h"
#include "odb/commit-walk.h"
#include "lib/config-write.h"
#include "lib/worktree.h"
#include "lib/utf8-width.h"
#include "remote/remote.h"
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
static unsigned colopts;   /* column.ui, column.branch, --column */

static int opt_column(const struct option *o, const char *arg, int unset)
{
	(void)o;
	return column_option(&colopts, arg, unset);
}

static const char *color(enum color_slot s)
{
	if (!use_color)
		return "";
	return colors[s] ? colors[s] : default_colors[s];
}

static int propagate_branches, recurse_by_config;   /* submodule.* */

/* As git, every branch command reads its column and colour settings
 * first (a bad colour is fatal even where nothing is coloured). */
static int branch_config_cb(const char *key, const char *value, void *data)
{
	const char *slot;
	(void)data;
	/* a sort key is a string: git refuses one without a value as it
	 * reads the config, whatever the command */
	if (!strcmp(key, "branch.sort") && !value)
		config_die_missing_value(key);
	config_check_default(key, value, NULL);
	column_config(key, value, "branch", &colopts);
	if (!strcmp(key, "color.branch") || !strcmp(key, "color.ui"))
		config_parse_colorbool(key, value);
	else if (!strcmp(key, "submodule.propagatebranches"))
		propagate_branches = config_parse_bool(key, value);
	else if (!strcmp(key, "submodule.recurse"))
		recurse_by_config = config_parse_bool(key, value);
	if (!skip_prefix(key, "color.branch.", &slot))
		return 0;
	for (int i = 0; i < C_NR; i++)
		if (!strcmp(slot, slot_names[i])) {
			struct strbuf sb = STRBUF_INIT;
			if (!value)
				config_die_missing_value(key);
			if (color_parse(value, &sb) < 0)
				config_die_bad_variable();
			free(colors[i]);
			colors[i] = strbuf_detach(&sb, NULL);
		}
	return 0;
}

static int abbrev = -1;

/* -1 config default, 0 none, 1 direct, 2 inherit, 3 the old --set-upstream */
static int track_mode = -1;


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
		return error("option `--track' expects \"direct\" or \"inherit\"");
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

/* The line of a detached HEAD, as git words it: a rebase in progress
 * first (rebase-apply/ without "applying" is a rebase, with it git am),
 * then a bisect, whose start also names the branch of a rebase, then the
 * last checkout in HEAD's reflog. A name git lacks prints as "(null)".
 * *reads_head: whether git looks HEAD up by name while working it out
 * (it does when the reflog has a checkout, whatever else is going on). */
static char *head_description(int *reads_head)
{
	struct strbuf desc = STRBUF_INIT, full = STRBUF_INIT;
	struct switch_cb cb = { .target = STRBUF_INIT };
	struct object_id oid, head;
	struct worktree **wt = worktrees_get(), *cur = NULL;
	char *branch = NULL, *bisected;
	int rebase, bisect;

	refs_for_each_reflog_entry("HEAD", grab_switch, &cb);
	*reads_head = cb.found;
	for (size_t i = 0; wt[i]; i++)
		if (wt[i]->is_current)
			cur = wt[i];
	rebase = cur && worktree_rebase_state(cur, &branch);
	bisect = cur && worktree_bisect_state(cur, &bisected);
	if (bisect) {
		free(branch);
		branch = bisected;
	}
	if (worktree_state_names_id(branch)) {
		struct object_id id;
		get_oid_hex(branch, &id);
		free(branch);
		branch = xstrdup(odb_abbrev(&id, 0));
	}
	if (bisect && !rebase) {
		strbuf_addf(&desc, "(no branch, bisect started on %s)", branch ? branch : "(null)");
		free(branch);
		strbuf_release(&cb.target);
		return strbuf_detach(&desc, NULL);
	}
	if (branch) {
		strbuf_addf(&desc, "(no branch, rebasing %s)", branch);
		free(branch);
		strbuf_release(&cb.target);
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
		strbuf_addstr(&desc, "(no branch, rebasing detached HEAD (null))");
	else
		strbuf_addstr(&desc, "(no branch)");
	strbuf_release(&cb.target);
	strbuf_release(&full);
	return strbuf_detach(&desc, NULL);
}

/*
 * How many times listing the detached HEAD warns that the name HEAD is
 * ambiguous (a branch named HEAD, say): git works its description out
 * once for each %(refname...) atom, and once more for -v's column width,
 * looking HEAD up by name each time. The lookups agree, so one answers
 * for all.
 */
static size_t head_lookups(const struct ref_format *rf, const struct ref_sorting *sorting,
			   int verbose)
{
	size_t n = ref_refname_atoms(rf, sorting) + !!verbose;
	return n && refname_ambiguous("HEAD") ? n : 0;
}

static size_t max_width(struct ref_array *a, size_t remote_bonus)
{
	size_t max = 0;
	for (size_t i = 0; i < a->nr; i++) {
		struct ref_item *it = a->items[i];
		const char *d = it->refname;
		size_t w;
		if (!skip_prefix(d, "refs/heads/", &d))
			skip_prefix(d, "refs/remotes/", &d);
		w = utf8_width(d, strlen(d), 0);
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

static int list_branches(struct ref_filter *filter, const struct ref_sort_keys *keys,
			 unsigned kind, int detached, const char **patterns, int verbose,
			 int icase, const char *format)
{
	struct ref_filter f = *filter;
	struct ref_array a = { 0 };
	struct ref_sorting *sorting;
	const char **conf = NULL;
	size_t conf_nr;
	struct ref_format *rf;
	char *desc = NULL, *fmt = NULL;
	const char *remote_prefix = "";
	int reads_head = 0;

	f.kind = kind;
	f.patterns = patterns;
	f.ignore_case = icase;
	f.verbose = verbose;
	if ((kind & FILTER_REFS_BRANCHES) && detached) {
		f.kind |= FILTER_REFS_DETACHED_HEAD;
		desc = head_description(&reads_head);
		f.head_desc = desc;
	}
	if ((kind & (FILTER_REFS_BRANCHES | FILTER_REFS_REMOTES)) ==
	    (FILTER_REFS_BRANCHES | FILTER_REFS_REMOTES))
		remote_prefix = "remotes/";
	/* git sorts by branch.sort, then the --sort keys (a later key
	 * ranks first); --no-sort drops both. A bad key is fatal before any
	 * ref is read. */
	conf_nr = keys->cleared ? 0 : config_get_all("branch.sort", &conf);
	sorting = ref_sorting_from_keys(keys, conf, conf_nr);
	free(conf);
	ref_sorting_detached_first(sorting);
	if (icase)
		ref_sorting_ignore_case(sorting);
	filter_refs(&a, &f);
	if (!format)
		format = fmt = build_format(verbose, verbose ? max_width(&a, strlen(remote_prefix)) : 0,
					    remote_prefix);
	rf = ref_format_parse(format, use_color, 0);
	if (!rf)
		die("unable to parse format string");
	ref_array_populate(rf, sorting, reads_head ? head_lookups(rf, sorting, verbose) : 0, 1);
	ref_array_sort(sorting, &a);
	if (column_active(colopts)) {
		size_t n;
		char **lines = ref_array_lines(&a, rf, fmt != NULL, &n);
		column_print((const char *const *)lines, n, colopts);
		for (size_t i = 0; i < n; i++)
			free(lines[i]);
		free(lines);
	} else {
		ref_array_print(&a, a.nr, rf, fmt != NULL);
	}
	ref_array_clear(&a);
	ref_format_free(rf);
	ref_sorting_free(sorting);
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

/* --- changes --- */

enum track { TRACK_UNSPECIFIED = -1, TRACK_NEVER, TRACK_REMOTE, TRACK_ALWAYS, TRACK_EXPLICIT,
	     TRACK_OVERRIDE, TRACK_INHERIT, TRACK_SIMPLE };

static const char upstream_missing[] = "the requested upstream branch '%s' does not exist";
static const char upstream_not_branch[] =
	"cannot set up tracking information; starting point '%s' is not a branch";
static const char upstream_advice[] =
	"hint: \n"
	"hint: If you are planning on basing your work on an upstream\n"
	"hint: branch that already exists at the remote, you may need to\n"
	"hint: run \"git fetch\" to retrieve it.\n"
	"hint: \n"
	"hint: If you are planning to push out a new local branch that\n"
	"hint: will track its remote counterpart, you may want to use\n"
	"hint: \"git push -u\" to set the upstream config as you push.\n"
	"hint: Disable this message with \"git config advice.setUpstreamFailure false\"\n";

static const char *cur_head;
static struct object_id cur_head_oid;
static int cur_detached;

static int is_branch(const char *refname, const char *name)
{
	return name && starts_with(refname, "refs/heads/") && !strcmp(refname + 11, name);
}

struct in_use {
	char **refs;
	const char **paths;
	size_t nr, alloc;
};

static void mark_in_use(struct in_use *u, char *refname, const char *path)
{
	ALLOC_GROW(u->refs, u->nr + 1, u->alloc);
	u->paths = xrealloc(u->paths, u->alloc * sizeof(*u->paths));
	u->refs[u->nr] = refname;
	u->paths[u->nr++] = path;
}

struct update_ref_cb {
	struct in_use *u;
	const char *path;
};

static int mark_update_ref(const char *refname, void *data)
{
	struct update_ref_cb *cb = data;
	mark_in_use(cb->u, xstrdup(refname), cb->path);
	return 0;
}

/*
 * Where a branch is in use, or NULL: the HEAD of a work tree (the bare
 * main one aside), the branch a rebase or a bisect there works on, or a
 * ref an interactive rebase there will update. Like git, the last work
 * tree that uses it is named. Work trees are read once, at the first
 * question.
 */
static const char *checked_out_at(const char *refname)
{
	static struct in_use u;
	static int loaded;
	if (!loaded) {
		struct worktree **wt = refs_worktrees();
		loaded = 1;
		for (size_t i = 0; wt[i]; i++) {
			const char *path;
			struct update_ref_cb cb = { &u, NULL };
			char *b;
			if (worktree_is_bare(wt[i]))
				continue;
			path = cb.path = worktree_path(wt[i]);
			if (wt[i]->head_ref)
				mark_in_use(&u, xstrdup(wt[i]->head_ref), path);
			if ((b = worktree_rebase_branch(wt[i])))
				mark_in_use(&u, xstrfmt("refs/heads/%s", b), path);
			free(b);
			if ((b = worktree_bisect_branch(wt[i])))
				mark_in_use(&u, xstrfmt("refs/heads/%s", b), path);
			free(b);
			worktree_for_each_update_ref(wt[i], mark_update_ref, &cb);
		}
	}
	for (size_t i = u.nr; i-- > 0;)
		if (!strcmp(u.refs[i], refname))
			return u.paths[i];
	return NULL;
}

/* A branch being rebased or bisected in a detached work tree cannot be
 * renamed or copied. */
static void reject_rebase_or_bisect_branch(const char *refname)
{
	struct worktree **wt = refs_worktrees();
	for (size_t i = 0; wt[i]; i++) {
		char *b;
		if (!wt[i]->is_detached)
			continue;
		b = worktree_rebase_branch(wt[i]);
		if (is_branch(refname, b))
			die("Branch %s is being rebased at %s", refname, worktree_path(wt[i]));
		free(b);
		b = worktree_bisect_branch(wt[i]);
		if (is_branch(refname, b))
			die("Branch %s is being bisected at %s", refname, worktree_path(wt[i]));
		free(b);
	}
}

/* After a rename, every HEAD that named the old branch names the new one,
 * with an entry in that work tree's HEAD reflog. */
static int replace_worktree_heads(const char *oldref, const char *newref, const char *msg)
{
	struct worktree **wt = refs_worktrees();
	int ret = 0;
	for (size_t i = 0; wt[i]; i++) {
		char *saved = the_repo.gitdir;
		int r;
		if (wt[i]->is_detached || !wt[i]->head_ref || strcmp(wt[i]->head_ref, oldref))
			continue;
		/* the refs code writes the HEAD of the git dir it is given;
		 * the cached HEAD bytes belong to ours, so drop them first */
		if (!wt[i]->is_current) {
			the_repo.head_valid = 0;
			the_repo.gitdir = wt[i]->gitdir;
		}
		r = refs_update_symref("HEAD", newref, msg);
		the_repo.gitdir = saved;
		if (r)
			ret = error("HEAD of working tree %s is not updated", worktree_path(wt[i]));
	}
	return ret;
}

/* "refs/heads/<name>" (@{-N} expanded), or -1 if that is not a valid
 * branch name. */
static int branch_ref(struct strbuf *ref, const char *name)
{
	struct strbuf b = STRBUF_INIT;
	expand_branch_name(&b, name);
	strbuf_reset(ref);
	strbuf_addf(ref, "refs/heads/%s", b.buf);
	strbuf_release(&b);
	if (*name == '-' || !strcmp(ref->buf, "refs/heads/HEAD"))
		return -1;
	return check_refname_format(ref->buf, 0);
}

static int ref_exists(const char *name)
{
	struct object_id oid;
	return !refs_read(name, &oid);
}

static int validate_branchname(const char *name, struct strbuf *ref)
{
	if (branch_ref(ref, name))
		die("'%s' is not a valid branch name", name);
	return ref_exists(ref->buf);
}

static int validate_new_branchname(const char *name, struct strbuf *ref, int force)
{
	const char *path;
	if (!validate_branchname(name, ref))
		return 0;
	if (!force)
		die("a branch named '%s' already exists", ref->buf + 11);
	if ((path = checked_out_at(ref->buf)))
		die("cannot force update the branch '%s' checked out at '%s'", ref->buf + 11, path);
	return 1;
}

struct remote_match {
	const char *dst;          /* the tracking ref we look for */
	struct strbuf remote, src;
	int matches;              /* remotes with a refspec to dst */
	struct strbuf seen;       /* those remotes, between newlines */
};

/* src side of a fetch refspec whose dst side matches want. */
static int reverse_refspec(const char *spec, const char *want, struct strbuf *src)
{
	const char *colon, *rstar, *lstar;
	if (*spec == '+')
		spec++;
	colon = strchr(spec, ':');
	if (!colon)
		return 0;
	rstar = strchr(colon + 1, '*');
	lstar = memchr(spec, '*', colon - spec);
	if (!rstar) {
		if (strcmp(colon + 1, want))
			return 0;
		strbuf_add(src, spec, colon - spec);
		return 1;
	}
	if (!lstar)
		return 0;
	{
		size_t pre = rstar - colon - 1, post = strlen(rstar + 1), wlen = strlen(want);
		if (wlen < pre + post || strncmp(want, colon + 1, pre) ||
		    strcmp(want + wlen - post, rstar + 1))
			return 0;
		strbuf_add(src, spec, lstar - spec);
		strbuf_add(src, want + pre, wlen - pre - post);
		strbuf_add(src, lstar + 1, colon - lstar - 1);
	}
	return 1;
}

static int find_tracked_cb(const char *key, const char *value, void *data)
{
	struct remote_match *m = data;
	const char *rest, *dot;
	struct strbuf src = STRBUF_INIT;
	if (!value || !skip_prefix(key, "remote.", &rest) || !ends_with(rest, ".fetch"))
		return 0;
	dot = rest + strlen(rest) - 6;
	if (reverse_refspec(value, m->dst, &src)) {
		/* as git, a remote counts once, by its first such refspec */
		struct strbuf name = STRBUF_INIT;
		strbuf_addf(&name, "\n%.*s\n", (int)(dot - rest), rest);
		if (!m->seen.len || !memmem(m->seen.buf, m->seen.len, name.buf, name.len)) {
			if (!m->matches++) {
				strbuf_add(&m->remote, rest, dot - rest);
				strbuf_addbuf(&m->src, &src);
			}
			/* "\na\nb\n": each name between newlines */
			strbuf_add(&m->seen, name.buf + !!m->seen.len, name.len - !!m->seen.len);
		}
		strbuf_release(&name);
	}
	strbuf_release(&src);
	return 0;
}

static int is_remote_tracking(const char *ref)
{
	struct remote_match m = { ref, STRBUF_INIT, STRBUF_INIT, 0, STRBUF_INIT };
	remote_config_check();
	config_for_each(CONFIG_ALL, find_tracked_cb, &m);
	strbuf_release(&m.remote);
	strbuf_release(&m.src);
	strbuf_release(&m.seen);
	return m.matches > 0;
}

static int config_set_or_die(const char *key, const char *value)
{
	return config_set(key, value);
}

static void upstream_failure_hint(const char *branch, const char *upstream)
{
	(void)branch;
	fprintf(stderr, "hint: \n"
		"hint: After fixing the error cause you may try to fix up\n"
		"hint: the remote tracking information by invoking:\n"
		"hint:   git branch --set-upstream-to=%s\n", upstream);
}

/* branch.<local>.remote (origin, or "." for NULL) and branch.<local>.merge,
 * one value for each of the n refs in merges (several when --track=inherit
 * copies them), written and reported as git does. */
static void install_branch_config(const char *local_, const char *origin_,
				  const char *const *merges_, size_t n, int quiet)
{
	/* config values die with the next write: keep copies */
	char *local = xstrdup(local_), *origin = origin_ ? xstrdup(origin_) : NULL;
	char **merges = xcalloc(n, sizeof(*merges));
	struct strbuf key = STRBUF_INIT, friendly = STRBUF_INIT;
	const char *shortname = NULL, *v;
	int rebasing = 0;
	size_t i;

	for (i = 0; i < n; i++)
		merges[i] = xstrdup(merges_[i]);
	for (i = 0; !origin && i < n; i++)
		if (skip_prefix(merges[i], "refs/heads/", &shortname) && !strcmp(local, shortname)) {
			warning("not setting branch '%s' as its own upstream", local);
			goto out;
		}
	if (config_get("branch.autosetuprebase", &v) && v) {
		if (!strcmp(v, "always") || (!strcmp(v, "local") && !origin) ||
		    (!strcmp(v, "remote") && origin))
			rebasing = 1;
	}
	if (rebasing && n > 1)
		die("cannot inherit upstream tracking configuration of multiple refs when rebasing is requested");
	strbuf_addf(&key, "branch.%s.remote", local);
	if (config_set_or_die(key.buf, origin ? origin : ".") < 0)
		goto fail;
	strbuf_reset(&key);
	strbuf_addf(&key, "branch.%s.merge", local);
	if (config_set(key.buf, NULL) < 0)
		goto fail;
	for (i = 0; i < n; i++)
		if (config_add(key.buf, merges[i]) < 0)
			goto fail;
	if (rebasing) {
		strbuf_reset(&key);
		strbuf_addf(&key, "branch.%s.rebase", local);
		if (config_set(key.buf, "true") < 0)
			goto fail;
	}
	if (!quiet && n > 1)
		printf("branch '%s' set up to track:\n", local);
	for (i = 0; !quiet && i < n; i++) {
		const char *s = merges[i];
		skip_prefix(s, "refs/heads/", &s);
		strbuf_reset(&friendly);
		if (origin)
			strbuf_addf(&friendly, "%s/%s", origin, s);
		else
			strbuf_addstr(&friendly, s);
		if (n > 1)
			printf("  %s\n", friendly.buf);
		else
			printf(rebasing ? "branch '%s' set up to track '%s' by rebasing.\n"
					: "branch '%s' set up to track '%s'.\n", local, friendly.buf);
	}
out:
	strbuf_release(&key);
	strbuf_release(&friendly);
	for (i = 0; i < n; i++)
		free(merges[i]);
	free(merges);
	free(local);
	free(origin);
	return;
fail:
	error("unable to write upstream branch configuration");
	upstream_failure_hint(local, origin ? xstrfmt("%s/%s", origin, merges[0]) : merges[0]);
	exit(1);
}

static void setup_tracking(const char *new_ref, const char *orig_ref, int track, int quiet)
{
	struct remote_match m = { orig_ref, STRBUF_INIT, STRBUF_INIT, 0, STRBUF_INIT };
	remote_config_check();
	if (track == TRACK_INHERIT) {
		/* the start point's own branch.*.remote and .merge; without
		 * them git warns and sets up nothing */
		const char *b = orig_ref, *r, **mg;
		struct strbuf k = STRBUF_INIT;
		size_t n;
		skip_prefix(orig_ref, "refs/heads/", &b);
		strbuf_addf(&k, "branch.%s.remote", b);
		if (!config_get(k.buf, &r))
			r = NULL;
		strbuf_reset(&k);
		strbuf_addf(&k, "branch.%s.merge", b);
		n = config_get_all(k.buf, &mg);
		strbuf_release(&k);
		/* copied as they are: a remote of "." is named in the report */
		if (!r)
			warning("asked to inherit tracking from '%s', but no remote is set", b);
		else if (!n || !mg[0])
			warning("asked to inherit tracking from '%s', but no merge configuration is set", b);
		else
			install_branch_config(new_ref, r, mg, n, quiet);
		free(mg);
		goto out;
	}
	config_for_each(CONFIG_ALL, find_tracked_cb, &m);
	if (!m.matches && track != TRACK_ALWAYS && track != TRACK_EXPLICIT && track != TRACK_OVERRIDE)
		goto out;
	if (m.matches > 1) {
		fprintf(stderr, "fatal: not tracking: ambiguous information for ref '%s'\n", orig_ref);
		if (config_get_bool("advice.ambiguousfetchrefspec", 1)) {
			const char *p = m.seen.buf + 1, *nl;
			fprintf(stderr, "hint: There are multiple remotes whose fetch refspecs map to the remote\n"
				"hint: tracking ref '%s':\n", orig_ref);
			for (; (nl = strchr(p, '\n')); p = nl + 1)
				fprintf(stderr, "hint:   %.*s\n", (int)(nl - p), p);
			fputs("hint: \n"
			      "hint: This is typically a configuration error.\n"
			      "hint: \n"
			      "hint: To support setting up tracking branches, ensure that\n"
			      "hint: different remotes' fetch refspecs map into different\n"
			      "hint: tracking namespaces.\n", stderr);
		}
		exit(128);
	}
	if (track == TRACK_SIMPLE) {
		const char *tail = strrchr(orig_ref, '/');
		if (!m.matches || !tail || strcmp(tail + 1, new_ref))
			goto out;
	}
	{
		const char *src = m.matches ? m.src.buf : orig_ref;
		install_branch_config(new_ref, m.matches ? m.remote.buf : NULL, &src, 1, quiet);
	}
out:
	strbuf_release(&m.remote);
	strbuf_release(&m.src);
	strbuf_release(&m.seen);
}

static int explicit_tracking(int track)
{
	return track == TRACK_EXPLICIT || track == TRACK_OVERRIDE;
}

/* The commit a new branch starts at, and the ref it came from (if a branch). */
static char *dwim_start(const char *start, int track, struct object_id *oid)
{
	struct strbuf full = STRBUF_INIT;
	struct object_id ref_oid, commit;
	char *real = NULL;
	if (get_oid_with_flags(start, 0, oid)) {
		if (explicit_tracking(track)) {
			fprintf(stderr, "fatal: ");
			fprintf(stderr, upstream_missing, start);
			fputc('\n', stderr);
			if (config_get_bool("advice.setupstreamfailure", 1))
				fputs(upstream_advice, stderr);
			exit(128);
		}
		die("not a valid object name: '%s'", start);
	}
	switch (refs_dwim(start, strlen(start), &full, &ref_oid)) {
	case 0:
		if (explicit_tracking(track))
			die(upstream_not_branch, start);
		break;
	case 1:
		real = strbuf_detach(&full, NULL);
		if (!starts_with(real, "refs/heads/") && !is_remote_tracking(real)) {
			if (explicit_tracking(track))
				die(upstream_not_branch, start);
			free(real);
			real = NULL;
		}
		break;
	default:
		die("ambiguous object name: '%s'", start);
	}
	if (peel_to_commit(oid, &commit) < 0)
		die("not a valid branch point: '%s'", start);
	oidcpy(oid, &commit);
	strbuf_release(&full);
	return real;
}

static int default_track(void)
{
	const char *v;
	if (!config_get("branch.autosetupmerge", &v))
		return TRACK_REMOTE;
	if (v && !strcmp(v, "always"))
		return TRACK_ALWAYS;
	if (v && !strcmp(v, "inherit"))
		return TRACK_INHERIT;
	if (v && !strcmp(v, "simple"))
		return TRACK_SIMPLE;
	return config_parse_bool("branch.autosetupmerge", v) ? TRACK_REMOTE : TRACK_NEVER;
}

static void create_branch(const char *name, const char *start, int force, int reflog,
			  int quiet, int track)
{
	struct strbuf ref = STRBUF_INIT, err = STRBUF_INIT;
	struct object_id oid;
	char *real, *msg;
	int forcing;

	forcing = (track == TRACK_OVERRIDE) ? validate_branchname(name, &ref)
					    : validate_new_branchname(name, &ref, force);
	real = dwim_start(start, track, &oid);
	msg = forcing ? xstrfmt("branch: Reset to %s", start) : xstrfmt("branch: Created from %s", start);
	/* as git, a branch that is a symref moves the branch it points to */
	if (refs_update_err(ref.buf, &oid, forcing ? NULL : &(struct object_id){ { 0 } }, msg,
			    reflog ? REF_FORCE_CREATE_REFLOG : 0, &err)) {
		free(msg);
		free(real);
		die("%s", err.buf);
	}
	if (real && track != TRACK_NEVER)
		setup_tracking(ref.buf + 11, real, track, quiet);
	free(real);
	free(msg);
	strbuf_release(&ref);
	strbuf_release(&err);
}

static int in_merge_bases(const struct object_id *rev, const struct object_id *ref)
{
	return commit_is_ancestor(rev, ref) == 1;
}

static int branch_merged(unsigned kind, const char *name, const struct object_id *rev,
			 const struct object_id *head_rev)
{
	struct object_id ref_oid, commit;
	const struct object_id *reference = NULL;
	const char *upstream = NULL;
	char *upstream_name = NULL;
	int merged;
	if (kind == FILTER_REFS_BRANCHES) {
		upstream = branch_upstream(name, NULL, NULL);
		if (upstream) {
			upstream_name = xstrdup(upstream);
			if (!refs_read(upstream_name, &ref_oid) && !peel_to_commit(&ref_oid, &commit))
				reference = &commit;
		}
	}
	if (!reference)
		reference = head_rev;
	merged = reference ? in_merge_bases(rev, reference) : 0;
	if (reference != head_rev && (head_rev ? in_merge_bases(rev, head_rev) : 0) != merged) {
		if (merged)
			warning("deleting branch '%s' that has been merged to\n"
				"         '%s', but not yet merged to HEAD.", name, upstream_name);
		else
			warning("not deleting branch '%s' that is not yet merged to\n"
				"         '%s', even though it is merged to HEAD.", name, upstream_name);
	}
	free(upstream_name);
	return merged;
}

static int delete_branches(int argc, const char **argv, int force, unsigned kind, int quiet)
{
	struct object_id head_commit, *head_rev = NULL;
	const char *fmt;
	int remote = 0, ret = 0;
	size_t pos, nr = 0;
	struct strbuf name = STRBUF_INIT, expanded = STRBUF_INIT;
	char **gone, **describe;   /* the refs to delete, and what they were */

	if (kind == FILTER_REFS_REMOTES) {
		fmt = "refs/remotes/%s";
		remote = 1;
		force = 1;
	} else if (kind == FILTER_REFS_BRANCHES)
		fmt = "refs/heads/%s";
	else
		die("cannot use -a with -d");
	pos = strcspn(fmt, "%");
	if (!force && !is_null_oid(&cur_head_oid) && !peel_to_commit(&cur_head_oid, &head_commit))
		head_rev = &head_commit;
	gone = xcalloc(argc ? (size_t)argc : 1, sizeof(*gone));
	describe = xcalloc(argc ? (size_t)argc : 1, sizeof(*describe));

	for (int i = 0; i < argc; i++) {
		struct object_id oid, commit;
		unsigned flags;
		const char *target, *path;
		struct strbuf symtarget = STRBUF_INIT;
		const char *bname = argv[i];

		if (!remote) {
			expand_branch_name(&expanded, argv[i]);
			bname = expanded.buf;
		}
		strbuf_reset(&name);
		strbuf_addf(&name, fmt, bname);
		if (!remote && (path = checked_out_at(name.buf))) {
			error("Cannot delete branch '%s' checked out at '%s'", bname, path);
			ret = 1;
			continue;
		}
		target = refs_read_symref(name.buf, &symtarget);
		if (target) {
			flags = REF_ISSYMREF;
			oidclr(&oid);
		} else if (!refs_resolve_reading(name.buf, &oid, &flags)) {
			/* as in git, a ref that does not resolve (garbage, an
			 * unsafe name) is not there for -d */
			if (remote)
				error("remote-tracking branch '%s' not found.", bname);
			else
				error("branch '%s' not found.", bname);
			ret = 1;
			strbuf_release(&symtarget);
			continue;
		}
		if (!(flags & (REF_ISSYMREF | REF_ISBROKEN))) {
			/* a missing object is only "no commit" for git, unnamed */
			if (!odb_has_object(&oid) || peel_to_commit(&oid, &commit) < 0) {
				if (!force) {
					error("Couldn't look up commit object for '%s'", name.buf);
					ret = 1;
					strbuf_release(&symtarget);
					continue;
				}
			} else if (!force && !branch_merged(kind, bname, &commit, head_rev)) {
				error("The branch '%s' is not fully merged.\n"
				      "If you are sure you want to delete it, run 'git branch -D %s'.",
				      bname, bname);
				ret = 1;
				strbuf_release(&symtarget);
				continue;
			}
		}
		gone[nr] = strbuf_detach(&name, NULL);
		describe[nr++] = xstrdup((flags & REF_ISBROKEN) ? "broken" : (flags & REF_ISSYMREF)
					 ? symtarget.buf : odb_abbrev(&oid, 0));
		strbuf_release(&symtarget);
	}
	/* as git: all at once, then each that is no more is reported */
	if (refs_delete_many((const char *const *)gone, nr, REF_NO_DEREF) < 0)
		ret = 1;
	for (size_t i = 0; i < nr; i++) {
		if (!ref_exists(gone[i])) {
			struct strbuf sec = STRBUF_INIT;
			if (!quiet)
				printf(remote ? "Deleted remote-tracking branch %s (was %s).\n"
					      : "Deleted branch %s (was %s).\n", gone[i] + pos, describe[i]);
			strbuf_addf(&sec, "branch.%s", gone[i] + pos);
			if (config_rename_section(sec.buf, NULL) < 0)
				warning("update of config-file failed");
			strbuf_release(&sec);
		}
		free(gone[i]);
		free(describe[i]);
	}
	free(gone);
	free(describe);
	strbuf_release(&name);
	strbuf_release(&expanded);
	return ret;
}

static void copy_or_rename(const char *oldname, const char *newname, int copy, int force)
{
	struct strbuf oldref = STRBUF_INIT, newref = STRBUF_INIT, msg = STRBUF_INIT;
	struct strbuf oldsec = STRBUF_INIT, newsec = STRBUF_INIT;
	int recovery = 0;

	if (branch_ref(&oldref, oldname)) {
		if (ref_exists(oldref.buf))
			recovery = 1;
		else
			die("Invalid branch name: '%s'", oldname);
	}
	if ((copy || strcmp(cur_head ? cur_head : "", oldname)) && !ref_exists(oldref.buf)) {
		if (copy && cur_head && !strcmp(cur_head, oldname))
			die("No commit on branch '%s' yet.", oldname);
		die("No branch named '%s'.", oldname);
	}
	if (!strcmp(oldname, newname))
		validate_branchname(newname, &newref);
	else
		validate_new_branchname(newname, &newref, force);
	reject_rebase_or_bisect_branch(oldref.buf);
	if (copy)
		strbuf_addf(&msg, "Branch: copied %s to %s", oldref.buf, newref.buf);
	else
		strbuf_addf(&msg, "Branch: renamed %s to %s", oldref.buf, newref.buf);
	if (!copy && (!cur_head || strcmp(oldname, cur_head) || !is_null_oid(&cur_head_oid)) &&
	    refs_copy_or_rename(oldref.buf, newref.buf, msg.buf, 0))
		die("Branch rename failed");
	if (copy && refs_copy_or_rename(oldref.buf, newref.buf, msg.buf, 1))
		die("Branch copy failed");
	if (recovery) {
		if (copy)
			warning("Created a copy of a misnamed branch '%s'", oldref.buf + 11);
		else
			warning("Renamed a misnamed branch '%s' away", oldref.buf + 11);
	}
	if (!copy && replace_worktree_heads(oldref.buf, newref.buf, msg.buf))
		die("Branch renamed to %s, but HEAD is not updated!", newname);
	strbuf_addf(&oldsec, "branch.%s", oldref.buf + 11);
	strbuf_addf(&newsec, "branch.%s", newref.buf + 11);
	if (!copy && config_rename_section(oldsec.buf, newsec.buf) < 0)
		die("Branch is renamed, but update of config-file failed");
	if (copy && strcmp(oldref.buf, newref.buf) && config_copy_section(oldsec.buf, newsec.buf) < 0)
		die("Branch is copied, but update of config-file failed");
	strbuf_release(&oldref);
	strbuf_release(&newref);
	strbuf_release(&msg);
	strbuf_release(&oldsec);
	strbuf_release(&newsec);
}

/* git's --edit-description: the description (if any) and a commented
 * note in .git/EDIT_DESCRIPTION, the editor, then what is left after
 * stripspace into branch.<name>.description (removed when left empty). */
static int edit_description(const char *name)
{
	struct strbuf buf = STRBUF_INIT, key = STRBUF_INIT;
	const char *desc, *path = git_path("EDIT_DESCRIPTION");
	int exists, fd, ret = 0;

	strbuf_addf(&key, "branch.%s.description", name);
	exists = config_get(key.buf, &desc);
	if (exists && desc)
		strbuf_addstr(&buf, desc);
	if (!buf.len || buf.buf[buf.len - 1] != '\n')
		strbuf_addch(&buf, '\n');
	strbuf_addf(&buf, "# Please edit the description for the branch\n#   %s\n"
		    "# Lines starting with '#' will be stripped.\n", name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		die_errno("could not open '%s' for writing", path);
	if (write_in_full(fd, buf.buf, buf.len) < 0 || close(fd) < 0)
		die_errno("could not write to '%s'", path);
	strbuf_reset(&buf);
	if (launch_editor(path, &buf) < 0) {
		ret = -1;
	} else {
		strbuf_stripspace(&buf, 1);
		/* as git_config_set(): any failure is fatal */
		if ((buf.len || exists) && config_set(key.buf, buf.len ? buf.buf : NULL)) {
			if (buf.len)
				die("could not set '%s' to '%s'", key.buf, buf.buf);
			die("could not unset '%s'", key.buf);
		}
	}
	strbuf_release(&buf);
	strbuf_release(&key);
	return ret;
}

/* The one branch an option acts on: the named one, or HEAD's; git's
 * message when HEAD is detached or when more than one is named. */
static const char *one_branch(int argc, const char **argv, int detached, const char *head,
			      struct strbuf *expanded, const char *when_detached,
			      const char *when_many)
{
	if (argc > 1)
		die("%s", when_many);
	if (argc == 1) {
		expand_branch_name(expanded, argv[0]);
		return expanded->buf;
	}
	if (detached)
		die("%s", when_detached);
	return head;
}

static int branch_change(int argc, const char **argv, int del, int rename, int copy, int force,
			 int quiet, unsigned kind, const char *head, const struct object_id *head_oid,
			 int detached, const char *new_upstream, int unset_upstream,
			 int create_reflog, int edit_desc, int noncreate, const struct option *opts,
			 int recurse)
{
	struct strbuf buf = STRBUF_INIT;
	static struct strbuf expanded = STRBUF_INIT;
	cur_head = detached ? NULL : head;
	oidcpy(&cur_head_oid, head_oid);
	cur_detached = detached;
	if (del) {
		if (!argc)
			die("branch name required");
		return delete_branches(argc, argv, del > 1, kind, quiet);
	}
	if (edit_desc) {
		const char *name = one_branch(argc, argv, detached, head, &expanded,
					      "Cannot give description to detached HEAD",
					      "cannot edit description of more than one branch");
		int missing;
		strbuf_addf(&buf, "refs/heads/%s", name);
		missing = !ref_exists(buf.buf);
		strbuf_release(&buf);
		if (missing) {
			error(!argc || !strcmp(head, name) ? "No commit on branch '%s' yet."
							    : "No branch named '%s'.", name);
			return 1;
		}
		return edit_description(name) ? 1 : 0;
	}
	if (copy || rename) {
		if (!argc)
			die("branch name required");
		else if (argc == 1 && detached)
			die(copy ? "cannot copy the current branch while not on any."
				 : "cannot rename the current branch while not on any.");
		else if (argc == 1)
			copy_or_rename(head, argv[0], copy != 0, copy + rename > 1);
		else if (argc == 2)
			copy_or_rename(argv[0], argv[1], copy != 0, copy + rename > 1);
		else
			die(copy ? "too many branches for a copy operation"
				 : "too many arguments for a rename operation");
		return 0;
	}
	if (new_upstream) {
		const char *b;
		struct object_id oid;
		char *real;
		remote_config_check();   /* git reads the remotes to find the branch */
		if (!argc) {
			if (detached)
				die("could not set upstream of HEAD to %s when it does not point to any branch.",
				    new_upstream);
			b = head;
		} else if (argc == 1) {
			/* as git, "" is the current branch too */
			if (!strcmp(argv[0], "HEAD") || !*argv[0]) {
				if (detached && *argv[0])
					die("could not set upstream of HEAD to %s when it does not point to any branch.",
					    new_upstream);
				if (detached)
					die("no such branch '%s'", argv[0]);
				b = head;
			} else {
				expand_branch_name(&expanded, argv[0]);
				b = expanded.buf;
			}
		} else
			die("too many arguments to set new upstream");
		strbuf_addf(&buf, "refs/heads/%s", b);
		if (!ref_exists(buf.buf)) {
			if (!argc || (cur_head && !strcmp(cur_head, b)))
				die("No commit on branch '%s' yet.", b);
			die("branch '%s' does not exist", b);
		}
		real = dwim_start(new_upstream, TRACK_OVERRIDE, &oid);
		setup_tracking(b, real, TRACK_OVERRIDE, quiet);
		free(real);
		strbuf_release(&buf);
		return 0;
	}
	if (unset_upstream) {
		/* as git, "HEAD" and "" are the branch HEAD is on */
		int on_head = argc == 1 && (!strcmp(argv[0], "HEAD") || !*argv[0]);
		const char *v, *b;
		remote_config_check();
		if (on_head && detached && !*argv[0])
			die("no such branch ''");
		b = one_branch(on_head ? 0 : argc, argv, detached, head, &expanded,
			"could not unset upstream of HEAD when it does not point to any branch.",
			"too many arguments to unset upstream");
		/* git's upstream needs both: a remote (even empty) and a merge */
		strbuf_addf(&buf, "branch.%s.merge", b);
		if (!config_get(buf.buf, &v))
			die("Branch '%s' has no upstream information", b);
		strbuf_reset(&buf);
		strbuf_addf(&buf, "branch.%s.remote", b);
		if (!config_get(buf.buf, &v))
			die("Branch '%s' has no upstream information", b);
		/* as git: .remote, then .merge; .pushremote stays */
		for (int i = 0; i < 2; i++) {
			strbuf_reset(&buf);
			strbuf_addf(&buf, "branch.%s.%s", b, i ? "merge" : "remote");
			if (config_unset_all(buf.buf))
				die("could not unset '%s'", buf.buf);
		}
		strbuf_release(&buf);
		return 0;
	}
	if (!noncreate && argc > 0 && argc <= 2) {
		int track = track_mode == 1 ? TRACK_EXPLICIT : track_mode == 2 ? TRACK_INHERIT
			  : track_mode == 0 ? TRACK_NEVER : default_track();
		if (kind != FILTER_REFS_BRANCHES)
			die("The -a, and -r, options to 'git branch' do not take a branch name.\n"
			    "Did you mean to use: -a|-r --list <pattern>?");
		if (track_mode == 3)
			die("the '--set-upstream' option is no longer supported. Please use '--track' or '--set-upstream-to' instead.");
		if (recurse)
			die("--recurse-submodules is not supported");
		create_branch(argv[0], argc == 2 ? argv[1] : head, force, create_reflog, quiet, track);
		return 0;
	}
	usage_with_options(branch_usage, opts);
}
/* Only a guess, to order the reads well: no non-option argument and no
 * option of a change. */
static int looks_like_listing(int argc, const char **argv)
{
	static const char *const change[] = { "-d", "-D", "-m", "-M", "-c", "-C", "-u",
		"--delete", "--move", "--copy", "--set-upstream-to", "--unset-upstream",
		"--show-current", "--edit-description", "--track", "-t", "-f", "--force" };
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-')
			return 0;
		for (size_t j = 0; j < ARRAY_SIZE(change); j++)
			if (starts_with(argv[i], change[j]))
				return 0;
	}
	return 1;
}

int cmd_branch(int argc, const char **argv)
{
	int verbose = 0, quiet = 0, del = 0, rename = 0, copy = 0, force = 0, list = 0;
	int show_current = 0, unset_upstream = 0, create_reflog = 0, icase = 0, edit_desc = 0;
	int recurse = 0, noncreate;
	unsigned kind = FILTER_REFS_BRANCHES;
	const char *new_upstream = NULL, *format = NULL, *color_when = NULL;
	const char *head;
	static struct ref_filter filter;
	static struct ref_sort_keys keys;
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
		OPT_SET_INT_F(0, "set-upstream", &track_mode, "do not use", 3, PARSE_OPT_HIDDEN),
		OPT_STRING('u', "set-upstream-to", &new_upstream, "upstream", "change the upstream info"),
		OPT_BOOL(0, "unset-upstream", &unset_upstream, "unset the upstream info"),
		OPT_REF_COLOR(&color_when, "use colored output"),
		OPT_SET_INT('r', "remotes", &kind, "act on remote-tracking branches", FILTER_REFS_REMOTES),
		OPT_REF_COMMIT("contains", &filter, "print only branches that contain the commit"),
		OPT_REF_COMMIT("no-contains", &filter, "print only branches that don't contain the commit"),
		OPT_REF_COMMIT_F("with", &filter, "print only branches that contain the commit", PARSE_OPT_HIDDEN),
		OPT_REF_COMMIT_F("without", &filter, "print only branches that don't contain the commit", PARSE_OPT_HIDDEN),
		OPT__ABBREV(&abbrev),
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
		OPT_REF_COMMIT("merged", &filter, "print only branches that are merged"),
		OPT_REF_COMMIT("no-merged", &filter, "print only branches that are not merged"),
		OPT_CALLBACK_F(0, "column", NULL, "style", "list branches in columns", PARSE_OPT_OPTARG,
			       opt_column),
		OPT_REF_SORT(&keys),
		OPT_REF_POINTS_AT(&filter, "print only branches of the object"),
		OPT_BOOL('i', "ignore-case", &icase, "sorting and filtering are case insensitive"),
		OPT_BOOL(0, "recurse-submodules", &recurse, "recurse through submodules"),
		OPT_STRING(0, "format", &format, "format", "format to use for the output"),
		OPT_END()
	};

	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options(branch_usage, opts);
	setup_git_directory_own_config();
	config_for_each(CONFIG_ALL, branch_config_cb, NULL);

	/* a listing reads refs/heads/ anyway: read it before resolving HEAD,
	 * whose branch is then found in what was read */
	if (looks_like_listing(argc, argv))
		refs_prime("refs/heads/");
	head = refs_resolve("HEAD", &head_oid, &head_flags);
	if (!head)
		die("Failed to resolve HEAD as a valid ref.");
	if (!strcmp(head, "HEAD"))
		detached = 1;
	else if (!skip_prefix(head, "refs/heads/", &head))
		die("HEAD not found below refs/heads!");
	{
		static struct strbuf head_copy = STRBUF_INIT;
		strbuf_addstr(&head_copy, head);
		head = head_copy.buf;
	}

	argc = parse_options(argc, argv, opts, branch_usage, 0);

	if (!del && !rename && !copy && !edit_desc && !new_upstream && !show_current &&
	    !unset_upstream && argc == 0)
		list = 1;
	if (filter.with_commit_nr || filter.no_commit_nr || filter.merged_nr || filter.no_merged_nr ||
	    filter.points_at_nr)
		list = 1;
	noncreate = !!del + !!rename + !!copy + !!new_upstream + !!show_current + !!list +
		    !!edit_desc + !!unset_upstream;
	if (noncreate > 1)
		usage_with_options(branch_usage, opts);
	if (recurse) {
		if (!propagate_branches)
			die("branch with --recurse-submodules can only be used if submodule.propagateBranches is enabled");
		if (noncreate)
			die("--recurse-submodules can only be used to create branches");
	}
	recurse = (recurse || recurse_by_config) && propagate_branches;
	column_finalize(&colopts);
	if (verbose) {
		if ((colopts & COL_PARSEOPT) && column_active(colopts))
			die("options '%s' and '%s' cannot be used together", "--column", "--verbose");
		colopts = 0;
	}
	if (force) {
		del *= 2;
		rename *= 2;
		copy *= 2;
	}

	if (list) {
		int ret;
		use_color = ref_filter_use_color(color_when, "color.branch");
		ret = list_branches(&filter, &keys, kind, detached, argv, verbose, icase, format);
		ref_filter_release(&filter);
		free(keys.v);
		return ret;
	}
	if (show_current) {
		print_current();
		return 0;
	}
	return branch_change(argc, argv, del, rename, copy, force, quiet, kind, head, &head_oid,
			     detached, new_upstream, unset_upstream, create_reflog, edit_desc,
			     noncreate, opts, recurse);
}
