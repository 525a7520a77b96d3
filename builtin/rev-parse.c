/* rev-parse.c: pick out and massage revision names and repository paths,
 * argument by argument in git's order: options print as they are met,
 * revisions are resolved, and anything else must be a file. */
#include "builtin/builtin.h"
#include "lib/quote.h"
#include "lib/repo.h"
#include "lib/config.h"
#include "lib/approxidate.h"
#include "odb/oid-name.h"
#include "odb/commit-walk.h"
#include "refs/refs.h"
#include <ctype.h>
#include <inttypes.h>
#include <sys/stat.h>

static const char rev_parse_usage[] =
	"usage: git rev-parse --parseopt [<options>] -- [<args>...]\n"
	"   or: git rev-parse --sq-quote [<arg>...]\n"
	"   or: git rev-parse [<options>] [<arg>...]\n"
	"\n"
	"Run \"git rev-parse --parseopt -h\" for more information on the first usage.\n";

enum { DO_REVS = 1, DO_NOREV = 2, DO_FLAGS = 4, DO_NONFLAGS = 8 };
enum { NORMAL, REVERSED };
enum { SHOW_SYMBOLIC_NONE, SHOW_SYMBOLIC_ASIS, SHOW_SYMBOLIC_FULL };

static unsigned filter = DO_REVS | DO_NOREV | DO_FLAGS | DO_NONFLAGS;
static const char *def;
static int symbolic, abbrev, abbrev_ref, abbrev_ref_strict, show_type = NORMAL;
static char *orig_cwd;

static void show(const char *s)
{
	puts(s);
}

/* "^" when the rev's own sense differs from the one --not set */
static void show_with_type(int type, const char *s)
{
	if (type != show_type)
		putchar('^');
	show(s);
}

static void show_rev(int type, const struct object_id *oid, const char *name)
{
	if (!(filter & DO_REVS))
		return;
	def = NULL;
	if ((symbolic || abbrev_ref) && name) {
		if (symbolic == SHOW_SYMBOLIC_FULL || abbrev_ref) {
			struct strbuf full = STRBUF_INIT;
			struct object_id discard;
			const char *n = name;
			size_t len = strlen(name);
			int found;
			if (len == 1 && name[0] == '@') {
				n = "HEAD";
				len = 4;
			}
			/* a branch's @{upstream} or @{push} is the ref it names */
			found = interpret_branch_mark(n, len, &full) > 0 &&
					!refs_read(full.buf, &discard) ? 1 :
				refs_dwim(n, len, &full, &discard);
			if (found == 1)
				show_with_type(type, abbrev_ref ? refs_shorten(full.buf, abbrev_ref_strict)
								 : full.buf);
			else if (found > 1)
				error("refname '%s' is ambiguous", name);
			strbuf_release(&full);
		} else
			show_with_type(type, name);
	} else if (abbrev)
		show_with_type(type, odb_abbrev(oid, abbrev < 0 ? 0 : abbrev));
	else
		show_with_type(type, oid_to_hex(oid));
}

static int show_default(void)
{
	const char *s = def;
	struct object_id oid;
	if (s) {
		def = NULL;
		if (!get_oid_with_flags(s, 0, &oid)) {
			show_rev(NORMAL, &oid, s);
			return 1;
		}
	}
	return 0;
}

static int show_file(const char *arg)
{
	show_default();
	if ((filter & (DO_NONFLAGS | DO_NOREV)) == (DO_NONFLAGS | DO_NOREV)) {
		show(arg);
		return 1;
	}
	return 0;
}

/* Options of the revision machinery: passed through with --revs-only. */
static int is_rev_argument(const char *arg)
{
	static const char *const rev_args[] = {
		"--all", "--bisect", "--dense", "--branches=", "--branches", "--header",
		"--ignore-missing", "--max-age=", "--max-count=", "--min-age=", "--no-merges",
		"--min-parents=", "--no-min-parents", "--max-parents=", "--no-max-parents",
		"--objects", "--objects-edge", "--parents", "--pretty", "--remotes=", "--remotes",
		"--glob=", "--sparse", "--tags=", "--tags", "--topo-order", "--date-order",
		"--unpacked", NULL
	};
	for (const char *const *p = rev_args; *p; p++) {
		size_t len = strlen(*p);
		if (!strncmp(arg, *p, len) && ((*p)[len - 1] == '=' || !arg[len]))
			return 1;
	}
	return 0;
}

static int show_flag(const char *arg)
{
	if (!(filter & DO_FLAGS))
		return 0;
	if (filter & (is_rev_argument(arg) ? DO_REVS : DO_NOREV)) {
		show(arg);
		return 1;
	}
	return 0;
}

/* --since=<date> and the like, as the revision machinery's --max-age or
 * --min-age; printed only while both flags and revisions are. */
static void show_datestring(const char *flag, const char *date)
{
	if ((filter & (DO_FLAGS | DO_REVS)) != (DO_FLAGS | DO_REVS))
		return;
	printf("%s%" PRIu64 "\n", flag, approxidate(date));
}

/*
 * <a>..<b> (b, then ^a) and <a>...<b> (b, a, then ^ each merge base),
 * an empty side being HEAD, as git's rev-parse shows a range: printed at
 * once, --verify or not. 0 when arg is none, or a side does not resolve
 * (or, for "...", is no commit).
 */
static int show_range(const char *arg)
{
	const char *dots = strstr(arg, ".."), *b;
	char *a;
	struct object_id ao, bo, *bases = NULL;
	int symmetric, ok = 0, n;

	if (!dots || !strcmp(arg, ".."))  /* ".." alone is a path */
		return 0;
	symmetric = dots[2] == '.';
	b = dots + 2 + symmetric;
	a = dots == arg ? xstrdup("HEAD") : xstrndup(arg, dots - arg);
	if (!*b)
		b = "HEAD";
	/* as git, -q or not */
	if (get_oid_with_flags(a, GET_OID_COMMITTISH, &ao) ||
	    get_oid_with_flags(b, GET_OID_COMMITTISH, &bo))
		goto out;
	show_rev(NORMAL, &bo, b);
	show_rev(symmetric ? NORMAL : REVERSED, &ao, a);
	if (symmetric) {
		/* then git looks both up as commits (saying which are not,
		 * and taking arg for no range after all) */
		struct object_id ac, bc;
		int bad = peel_to_commit(&ao, &ac) < 0;
		if ((peel_to_commit(&bo, &bc) < 0) | bad ||
		    (n = commit_merge_bases(&ac, &bc, &bases)) < 0)
			goto out;
		for (int i = 0; i < n; i++)
			show_rev(REVERSED, &bases[i], NULL);
	}
	ok = 1;
out:
	free(bases);
	free(a);
	return ok;
}

/*
 * <rev>^@ (its parents), <rev>^! (it, not its parents) and <rev>^-[<n>]
 * (it, not its nth parent), shown at once as git shows them; --symbolic
 * names a parent <rev>^<n>. 0 when arg is none of these, or they do not
 * apply.
 */
static int show_parents(const char *arg)
{
	const char *mark = strrchr(arg, '^');
	char *rev, *end;
	struct object_id oid, c;
	struct commit_node *node;
	long exclude = 0;
	int with_parents = 0, with_rev = 0, ok = 0;

	if (!mark || mark == arg)
		return 0;
	if (!strcmp(mark, "^@")) {
		with_parents = 1;
	} else if (!strcmp(mark, "^!")) {
		with_rev = 1;
	} else if (mark[1] == '-') {
		with_rev = 1;
		exclude = 1;
		if (mark[2]) {
			exclude = strtol(mark + 2, &end, 10);
			if (*end || exclude <= 0 || !isdigit((unsigned char)mark[2]))
				return 0;
		}
	} else {
		return 0;
	}
	rev = xstrndup(arg, mark - arg);
	if (get_oid_with_flags(rev, GET_OID_COMMITTISH, &oid) || peel_to_commit(&oid, &c) < 0 ||
	    !(node = commit_lookup(&c)) || commit_parse(node) < 0 ||
	    exclude > node->nr_parents)
		goto out;
	if (with_rev)
		show_rev(NORMAL, &oid, rev);
	for (int i = 0; i < node->nr_parents; i++) {
		char *name = NULL;
		if (exclude && i + 1 != exclude)
			continue;
		if (symbolic)
			name = xstrfmt("%s^%d", rev, i + 1);
		show_rev(with_parents ? NORMAL : REVERSED, &node->parents[i]->oid, name);
		free(name);
	}
	ok = 1;
out:
	free(rev);
	return ok;
}

static NORETURN void die_no_single_rev(int quiet)
{
	if (quiet)
		exit(1);
	die("Needed a single revision");
}

/* Is dir (absolute, lexically clean) equal to or above path? */
static int path_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static char *real_path(const char *p)
{
	char *r = realpath(p, NULL);
	if (!r) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_realpath_lexical(&sb, p);
		r = strbuf_detach(&sb, NULL);
	}
	return r;
}

static int is_inside_work_tree(void)
{
	char *wt;
	int r;
	if (!repo_worktree())
		return 0;
	wt = real_path(repo_worktree());
	r = path_inside(orig_cwd, wt);
	free(wt);
	return r;
}

/* As git: where the git dir was named by GIT_DIR (or set up as if), its
 * name as kept is compared with the directory the command runs in (after
 * setup moved to the work tree), so a relative one is never "inside". */
static int is_inside_git_dir(void)
{
	char *gd;
	int r;

	if (the_repo.explicit_gitdir) {
		struct strbuf sb = STRBUF_INIT;
		if (strbuf_getcwd(&sb) < 0)
			die_errno("unable to get current working directory");
		r = the_repo.gitdir[0] == '/' && path_inside(sb.buf, the_repo.gitdir);
		strbuf_release(&sb);
		return r;
	}
	gd = real_path(the_repo.gitdir);
	r = path_inside(orig_cwd, gd);
	free(gd);
	return r;
}

/* Wildcards or long pathspec magic: the user means paths, not revisions. */
static int looks_like_pathspec(const char *arg)
{
	if (strpbrk(arg, "*?[\\"))
		return 1;
	return starts_with(arg, ":(");
}

static int check_filename(const char *arg)
{
	const char *prefix = the_repo.prefix;
	struct stat st;
	char *name;
	int r;
	if (skip_prefix(arg, ":/", &arg)) {
		if (!*arg)
			return 1;
		prefix = NULL;
	} else if (skip_prefix(arg, ":!", &arg) || skip_prefix(arg, ":^", &arg)) {
		if (!*arg)
			return 1;
	}
	name = prefix ? xstrfmt("%s%s", prefix, arg) : xstrdup(arg);
	r = !lstat(name, &st);
	if (!r && errno != ENOENT && errno != ENOTDIR)
		die_errno("failed to stat '%s'", arg);
	free(name);
	return r;
}

static void verify_filename(const char *arg, int diagnose_misspelt_rev)
{
	struct object_id oid;
	if (*arg == '-')
		die("option '%s' must come before non-option arguments", arg);
	if (looks_like_pathspec(arg) || check_filename(arg))
		return;
	if (!diagnose_misspelt_rev)
		die("%s: no such path in the working tree.\n"
		    "Use 'git <command> -- <path>...' to specify paths that do not exist locally.", arg);
	if (!(arg[0] == ':' && !isalnum((unsigned char)arg[1])))
		get_oid_with_flags(arg, GET_OID_ONLY_TO_DIE | GET_OID_QUIETLY, &oid);
	die("ambiguous argument '%s': unknown revision or path not in the working tree.\n"
	    "Use '--' to separate paths from revisions, like this:\n"
	    "'git <command> [<revision>...] -- [<file>...]'", arg);
}

static int opt_with_value(const char *arg, const char *opt, const char **value)
{
	if (skip_prefix(arg, opt, &arg)) {
		if (!*arg) {
			*value = NULL;
			return 1;
		}
		if (*arg == '=') {
			*value = arg + 1;
			return 1;
		}
	}
	return 0;
}

static const char *const local_env[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE",
	"GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS",
	"GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE",
	"GIT_COMMON_DIR",
};

/* data: the prefix git's iteration takes off the names (--branches gives
 * "main", --all "refs/heads/main"), as --symbolic then prints them */
static int show_reference(const struct ref_entry *ref, void *data)
{
	const char *name = ref->name;
	skip_prefix(name, data, &name);
	show_rev(NORMAL, &ref->oid, name);
	return 0;
}

static void print_abs_git_dir(const char *gitdir)
{
	char *r = real_path(gitdir);
	puts(r);
	free(r);
}

/* With $GIT_DIR, git prints it as given, unless it moved from a
 * subdirectory to the top of the work tree: then it is made absolute. */
static void print_git_dir(void)
{
	const char *env = getenv("GIT_DIR");
	if (env && !the_repo.prefix)
		puts(the_repo.gitdir);
	else if (env)
		print_abs_git_dir(the_repo.gitdir);
	else
		puts(the_repo.gitdir);
}

/* git keeps the common dir of a discovered repository as ".git", relative
 * to the top, and prints it relative to the current directory; one found
 * through a gitfile or a linked worktree is absolute and printed as is. */
static void print_common_dir(void)
{
	const char *cd = the_repo.commondir, *rest, *p = the_repo.prefix;
	if (the_repo.explicit_gitdir && !strcmp(cd, the_repo.gitdir)) {
		print_git_dir();
		return;
	}
	if (p && repo_worktree() && !strcmp(cd, the_repo.gitdir) &&
	    skip_prefix(cd, repo_worktree(), &rest) &&
	    !strcmp(rest, "/.git")) {
		while ((p = strchr(p, '/'))) {
			p++;
			fputs("../", stdout);
		}
		puts(".git");
		return;
	}
	puts(cd);
}

int cmd_rev_parse(int argc, const char **argv)
{
	int i, as_is = 0, verify = 0, quiet = 0, revs_count = 0, has_dashdash = 0;
	int did_setup = 0, seen_end_of_options = 0;
	unsigned flags = 0;
	int last_type = NORMAL;   /* of the last rev, for --verify */
	struct object_id oid;
	const char *name = NULL;
	struct strbuf cwd = STRBUF_INIT;

	if (argc > 1 && !strcmp(argv[1], "--sq-quote")) {
		struct strbuf sb = STRBUF_INIT;
		for (i = 2; i < argc; i++) {
			strbuf_addch(&sb, ' ');
			sq_quote_buf(&sb, argv[i], strlen(argv[i]));
		}
		puts(sb.buf);
		strbuf_release(&sb);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "-h")) {
		fputs(rev_parse_usage, stderr);
		exit(129);
	}
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			has_dashdash = 1;
			break;
		}
	if (argc == 1) {
		setup_git_directory();
		return 0;
	}

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val;
		int type;

		if (as_is) {
			if (show_file(arg) && as_is < 2)
				verify_filename(arg, 0);
			continue;
		}
		if (!seen_end_of_options && !strcmp(arg, "--local-env-vars")) {
			for (size_t k = 0; k < ARRAY_SIZE(local_env); k++)
				puts(local_env[k]);
			continue;
		}
		if (!did_setup) {
			/* The cwd before setup moves us: only for the options
			 * that ask where we are (getcwd() has no symlinks). */
			for (int k = i; k < argc; k++)
				if (!strcmp(argv[k], "--is-inside-work-tree") ||
				    !strcmp(argv[k], "--is-inside-git-dir") ||
				    !strcmp(argv[k], "--show-cdup")) {
					if (strbuf_getcwd(&cwd) < 0)
						die_errno("unable to get current working directory");
					orig_cwd = strbuf_detach(&cwd, NULL);
					break;
				}
			setup_git_directory();
			/* git reads these at its setup too, objects or not */
			config_check_repo_settings();
			did_setup = 1;
		}
		if (!strcmp(arg, "--")) {
			as_is = 2;
			if (filter & (DO_FLAGS | DO_REVS))
				show_file(arg);
			continue;
		}
		if (!seen_end_of_options && *arg == '-') {
			if (!strcmp(arg, "--default")) {
				def = argv[++i];
				if (!def)
					die("--default requires an argument");
				continue;
			}
			if (!strcmp(arg, "--end-of-options")) {
				seen_end_of_options = 1;
				if (filter & (DO_FLAGS | DO_REVS))
					show_file(arg);
				continue;
			}
			if (!strcmp(arg, "--revs-only")) {
				filter &= ~DO_NOREV;
				continue;
			}
			if (!strcmp(arg, "--no-revs")) {
				filter &= ~DO_REVS;
				continue;
			}
			if (!strcmp(arg, "--flags")) {
				filter &= ~DO_NONFLAGS;
				continue;
			}
			if (!strcmp(arg, "--no-flags")) {
				filter &= ~DO_FLAGS;
				continue;
			}
			if (!strcmp(arg, "--verify")) {
				filter &= ~(DO_FLAGS | DO_NOREV);
				verify = 1;
				continue;
			}
			if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
				quiet = 1;
				flags |= GET_OID_QUIETLY | GET_OID_DIE_QUIETLY;
				continue;
			}
			if (opt_with_value(arg, "--short", &val)) {
				filter &= ~(DO_FLAGS | DO_NOREV);
				verify = 1;
				abbrev = -1;   /* git's default: core.abbrev or auto */
				if (!val)
					continue;
				abbrev = strtoul(val, NULL, 10);
				if (abbrev < 4)
					abbrev = 4;
				else if (abbrev > HEX_SZ)
					abbrev = HEX_SZ;
				continue;
			}
			if (!strcmp(arg, "--symbolic")) {
				symbolic = SHOW_SYMBOLIC_ASIS;
				continue;
			}
			if (!strcmp(arg, "--not")) {
				show_type ^= REVERSED;
				continue;
			}
			if (!strcmp(arg, "--symbolic-full-name")) {
				symbolic = SHOW_SYMBOLIC_FULL;
				continue;
			}
			if (opt_with_value(arg, "--abbrev-ref", &val)) {
				abbrev_ref = 1;
				/* config read only now: no other option needs it */
				abbrev_ref_strict = config_get_bool("core.warnambiguousrefs", 1);
				if (val) {
					if (!strcmp(val, "strict"))
						abbrev_ref_strict = 1;
					else if (!strcmp(val, "loose"))
						abbrev_ref_strict = 0;
					else
						die("unknown mode for --abbrev-ref: %s", val);
				}
				continue;
			}
			if (!strcmp(arg, "--all")) {
				refs_for_each("refs/", 0, show_reference, "");
				continue;
			}
			if (!strcmp(arg, "--branches")) {
				refs_for_each("refs/heads/", 0, show_reference, "refs/heads/");
				continue;
			}
			if (!strcmp(arg, "--tags")) {
				refs_for_each("refs/tags/", 0, show_reference, "refs/tags/");
				continue;
			}
			if (!strcmp(arg, "--remotes")) {
				refs_for_each("refs/remotes/", 0, show_reference, "refs/remotes/");
				continue;
			}
			if (skip_prefix(arg, "--since=", &val) || skip_prefix(arg, "--after=", &val)) {
				show_datestring("--max-age=", val);
				continue;
			}
			if (skip_prefix(arg, "--until=", &val) || skip_prefix(arg, "--before=", &val)) {
				show_datestring("--min-age=", val);
				continue;
			}
			if (!strcmp(arg, "--show-toplevel")) {
				if (!repo_worktree())
					die("this operation must be run in a work tree");
				puts(repo_worktree());
				continue;
			}
			if (!strcmp(arg, "--show-prefix")) {
				puts(the_repo.prefix ? the_repo.prefix : "");
				continue;
			}
			if (!strcmp(arg, "--show-cdup")) {
				const char *p = the_repo.prefix;
				if (!is_inside_work_tree()) {
					if (repo_worktree())
						puts(repo_worktree());
					continue;
				}
				while (p && (p = strchr(p, '/'))) {
					p++;
					fputs("../", stdout);
				}
				putchar('\n');
				continue;
			}
			if (!strcmp(arg, "--git-dir")) {
				print_git_dir();
				continue;
			}
			if (!strcmp(arg, "--absolute-git-dir")) {
				print_abs_git_dir(the_repo.gitdir);
				continue;
			}
			if (!strcmp(arg, "--git-common-dir")) {
				print_common_dir();
				continue;
			}
			if (!strcmp(arg, "--is-inside-git-dir")) {
				puts(is_inside_git_dir() ? "true" : "false");
				continue;
			}
			if (!strcmp(arg, "--is-inside-work-tree")) {
				puts(is_inside_work_tree() ? "true" : "false");
				continue;
			}
			if (!strcmp(arg, "--is-bare-repository")) {
				puts(!repo_worktree() && config_get_bool("core.bare", 1) ? "true" : "false");
				continue;
			}
			if (show_flag(arg) && verify)
				die_no_single_rev(quiet);
			continue;
		}

		/* Not a flag: a range, parents, a revision, or else a file. */
		if (show_range(arg) || show_parents(arg))
			continue;
		name = arg;
		type = NORMAL;
		if (*arg == '^') {
			name++;
			type = REVERSED;
		}
		if (!get_oid_with_flags(name, flags, &oid)) {
			if (verify)
				revs_count++;
			else
				show_rev(type, &oid, name);
			last_type = type;
			continue;
		}
		if (verify)
			die_no_single_rev(quiet);
		if (has_dashdash)
			die("bad revision '%s'", arg);
		as_is = 1;
		if (!show_file(arg))
			continue;
		verify_filename(arg, 1);
	}
	strbuf_release(&cwd);
	if (verify) {
		if (revs_count == 1) {
			show_rev(last_type, &oid, name);
			return 0;
		} else if (revs_count == 0 && show_default())
			return 0;
		die_no_single_rev(quiet);
	} else
		show_default();
	return 0;
}
