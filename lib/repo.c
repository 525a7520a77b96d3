/* repo.c: repository discovery, git's rules, with as few system calls as
 * the checks need: HEAD is read once and kept for the refs code. */
#include "lib/repo.h"
#include "lib/config.h"
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/stat.h>

struct repository the_repo = { .head = STRBUF_INIT };
int repo_found;
/* Found from a .git directory in the cwd: the work tree is the cwd, its
 * absolute name not asked for yet (the_repo.worktree stays NULL until
 * repo_worktree() is called; nothing chdir()s after discovery). */
static int worktree_is_cwd;

static int valid_head(const struct strbuf *sb)
{
	const char *p;
	if (skip_prefix(sb->buf, "ref:", &p)) {
		while (*p == ' ' || *p == '\t')
			p++;
		return starts_with(p, "refs/");
	}
	for (int i = 0; i < 40; i++)
		if (!is_hex_digit(sb->buf[i]))
			return 0;
	return 1;
}

/* Read <dir>/HEAD into sb; 0 if it looks like a HEAD. */
static int read_head_file(const char *dir, struct strbuf *sb)
{
	char *path = xstrfmt("%s/HEAD", dir);
	ssize_t n;
	strbuf_reset(sb);
	n = strbuf_read_file(sb, path, 128);
	free(path);
	if (n < 0)
		return -1;
	return valid_head(sb) ? 0 : -1;
}

/* commondir file of a linked worktree: "<gitdir>/commondir". */
static char *read_commondir(const char *gitdir)
{
	struct strbuf sb = STRBUF_INIT, abs = STRBUF_INIT;
	char *path = xstrfmt("%s/commondir", gitdir);
	char *ret = NULL;
	if (strbuf_read_file(&sb, path, 64) >= 0) {
		strbuf_rtrim(&sb);
		if (sb.buf[0] == '/')
			ret = strbuf_detach(&sb, NULL);
		else {
			char *joined = xstrfmt("%s/%s", gitdir, sb.buf);
			strbuf_realpath_lexical(&abs, joined);
			free(joined);
			ret = strbuf_detach(&abs, NULL);
		}
	}
	free(path);
	strbuf_release(&sb);
	strbuf_release(&abs);
	return ret;
}

/* The commondir that the last successful is_git_directory_head() read,
 * so that set_paths() need not open the file again. */
static char *found_common;
/* The git dir is a linked worktree's (it has a "commondir" file). */
static int has_commondir;

/*
 * with_common: look for a "commondir" file. Only the git dir of a linked
 * worktree (.git/worktrees/<name>, reached through a gitdir file or
 * GIT_DIR) has one; a ".git" directory found by the upward walk never
 * does, so that walk skips the open().
 */
static int git_dir_check(const char *path, struct strbuf *head, int with_common)
{
	char *common = with_common ? read_commondir(path) : NULL;
	const char *base = common ? common : path;
	char *p;
	int ok;
	if (getenv("GIT_OBJECT_DIRECTORY"))
		ok = !access(getenv("GIT_OBJECT_DIRECTORY"), X_OK);
	else {
		p = xstrfmt("%s/objects", base);
		ok = !access(p, X_OK);
		free(p);
	}
	if (ok) {
		p = xstrfmt("%s/refs", base);
		ok = !access(p, X_OK);
		free(p);
	}
	ok = ok && !read_head_file(path, head);
	free(found_common);
	found_common = ok ? common : NULL;
	if (!ok)
		free(common);
	return ok;
}

static int is_git_directory_head(const char *path, struct strbuf *head)
{
	return git_dir_check(path, head, 1);
}

int is_git_directory(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int r = is_git_directory_head(path, &sb);
	strbuf_release(&sb);
	return r;
}

/* A ".git" file: "gitdir: <path>", relative to the file's directory. */
static char *read_gitfile(const char *dir, const char *file)
{
	struct strbuf sb = STRBUF_INIT, abs = STRBUF_INIT;
	const char *p;
	char *joined;
	if (strbuf_read_file(&sb, file, 128) < 0)
		die_errno("error opening '%s'", file);
	strbuf_rtrim(&sb);
	if (!skip_prefix(sb.buf, "gitdir: ", &p))
		die("invalid gitfile format: %s", file);
	if (*p == '/')
		joined = xstrdup(p);
	else
		joined = xstrfmt("%s/%s", dir, p);
	strbuf_realpath_lexical(&abs, joined);
	free(joined);
	strbuf_release(&sb);
	if (!is_git_directory_head(abs.buf, &the_repo.head))
		die("not a git repository: %s", abs.buf);
	the_repo.head_valid = 1;
	return strbuf_detach(&abs, NULL);
}

/* GIT_CEILING_DIRECTORIES: the longest entry that is a proper prefix of cwd. */
static size_t ceiling_len(const char *cwd)
{
	const char *env = getenv("GIT_CEILING_DIRECTORIES");
	size_t best = 0;
	struct strbuf one = STRBUF_INIT, abs = STRBUF_INIT;
	if (!env)
		return 0;
	while (*env) {
		const char *colon = strchrnul(env, ':');
		strbuf_reset(&one);
		strbuf_add(&one, env, colon - env);
		env = *colon ? colon + 1 : colon;
		if (one.buf[0] != '/')
			continue;
		{
			char *real = realpath(one.buf, NULL);
			if (real) {
				strbuf_reset(&one);
				strbuf_addstr(&one, real);
				free(real);
			}
		}
		strbuf_realpath_lexical(&abs, one.buf);
		if (!strcmp(abs.buf, "/")) {
			best = best > 1 ? best : 1;
			continue;
		}
		if (!strncmp(cwd, abs.buf, abs.len) && cwd[abs.len] == '/' && abs.len > best)
			best = abs.len;
	}
	strbuf_release(&one);
	strbuf_release(&abs);
	return best;
}

struct format_check {
	long version;
	int bare; /* -1 unset */
	char *worktree;
	struct strbuf unknown;
	int n_unknown;
	int sha256;
};

static int check_format_cb(const char *key, const char *value, void *data)
{
	struct format_check *fc = data;
	const char *ext;
	if (!strcmp(key, "core.repositoryformatversion")) {
		char *end;
		errno = 0;
		fc->version = value ? strtol(value, &end, 10) : 0;
		if (value && errno == ERANGE)
			die("bad numeric config value '%s' for '%s' in file %s: out of range",
			    value, key, common_path("config"));
	}
	else if (!strcmp(key, "core.bare"))
		fc->bare = config_maybe_bool(value) == 1;
	else if (!strcmp(key, "core.worktree") && value) {
		free(fc->worktree);
		fc->worktree = xstrdup(value);
	} else if (skip_prefix(key, "extensions.", &ext)) {
		if (!strcmp(ext, "noop") || !strcmp(ext, "preciousobjects") ||
		    !strcmp(ext, "partialclone") || !strcmp(ext, "worktreeconfig"))
			return 0;
		if (!strcmp(ext, "objectformat")) {
			if (value && strcasecmp(value, "sha1"))
				fc->sha256 = 1;
			return 0;
		}
		strbuf_addf(&fc->unknown, "\n\t%s", ext);
		fc->n_unknown++;
	}
	return 0;
}

static void check_repository_format(struct format_check *fc)
{
	const char *v;
	memset(fc, 0, sizeof(*fc));
	fc->bare = -1;
	strbuf_init(&fc->unknown, 0);
	config_for_each(CONFIG_REPO, check_format_cb, fc);
	(void)v;
	/* As git: the shared config's core.bare and core.worktree describe
	 * the main worktree, not a linked one. */
	if (has_commondir) {
		fc->bare = -1;
		free(fc->worktree);
		fc->worktree = NULL;
	}
	the_repo.core_bare = fc->bare;
	if (fc->version > 1)
		die("Expected git repo version <= 1, found %ld", fc->version);
	if (fc->version == 1) {
		if (fc->n_unknown)
			die("unknown repository extension%s found:%s",
			    fc->n_unknown > 1 ? "s" : "", fc->unknown.buf);
		if (fc->sha256)
			die("this repository uses SHA-256 object names (extensions.objectformat); mini-git supports only SHA-1");
	}
	the_repo.format_version = fc->version;
}

/* safe.directory, as git: only system, global and command-line config count. */
struct safe_dir {
	const char *path;
	int ok;
};

static int safe_dir_cb(const char *key, const char *value, void *data)
{
	struct safe_dir *sd = data;
	if (strcmp(key, "safe.directory"))
		return 0;
	if (!value || !*value) {
		sd->ok = 0;
		return 0;
	}
	if (!strcmp(value, "*") || !strcmp(value, sd->path))
		sd->ok = 1;
	return 0;
}

static uid_t expected_owner(void)
{
	/* The kernel passes the effective uid in the auxiliary vector:
	 * reading it there costs no system call. */
	uid_t euid = (uid_t)getauxval(AT_EUID);
	const char *sudo;
	if (euid == 0 && (sudo = getenv("SUDO_UID")) && *sudo) {
		char *end;
		unsigned long u = strtoul(sudo, &end, 10);
		if (!*end)
			return (uid_t)u;
	}
	return euid;
}

/* git's test: the path itself (a symbolic link is not followed) is
 * owned by the expected user; a path that cannot be examined is not. */
static int owned_by_user(const char *path, const struct stat *known)
{
	struct stat st;
	if (!known) {
		if (lstat(path, &st) < 0)
			return 0;
		known = &st;
	}
	return known->st_uid == expected_owner();
}

/*
 * As git, for a repository found by discovery (GIT_DIR is trusted as
 * given): the ".git" file that led to the git dir if any, the work tree if
 * any, and the git dir must all be the user's, unless safe.directory
 * names the work tree (or the git dir of a bare repository). gitdir_st is
 * the discovery's lstat() of the git dir when it has one.
 */
static void ensure_ownership(const char *gitfile, const char *worktree,
			     const char *gitdir, const struct stat *gitdir_st)
{
	struct safe_dir sd;
	const char *path = worktree ? worktree : gitdir;
	char *real;
	if (!env_bool("GIT_TEST_ASSUME_DIFFERENT_OWNER", 0) &&
	    (!gitfile || owned_by_user(gitfile, NULL)) &&
	    (!worktree || owned_by_user(worktree, NULL)) &&
	    owned_by_user(gitdir, gitdir_st))
		return;
	real = realpath(path, NULL);
	sd.path = real ? real : path;
	sd.ok = 0;
	config_for_each(CONFIG_SYSTEM | CONFIG_GLOBAL, safe_dir_cb, &sd);
	if (sd.ok) {
		free(real);
		return;
	}
	die("detected dubious ownership in repository at '%s'\n"
	    "To add an exception for this directory, call:\n"
	    "\n"
	    "\tgit config --global --add safe.directory %s", sd.path, sd.path);
}

static void set_paths(const char *gitdir)
{
	char *common;
	const char *objenv = getenv("GIT_OBJECT_DIRECTORY");
	the_repo.gitdir = xstrdup(gitdir);
	common = found_common;
	found_common = NULL;
	the_repo.commondir = common ? common : xstrdup(gitdir);
	has_commondir = !!common;
	the_repo.objdir = objenv ? xstrdup(objenv) : xstrfmt("%s/objects", the_repo.commondir);
	repo_found = 1;
}

/* The same git dir under another spelling (relative or absolute); a
 * commondir that was the git dir itself follows it. */
static void respell_gitdir(const char *gitdir)
{
	int same = !strcmp(the_repo.commondir, the_repo.gitdir);
	char *copy = xstrdup(gitdir);
	free(the_repo.gitdir);
	the_repo.gitdir = copy;
	if (same) {
		free(the_repo.commondir);
		the_repo.commondir = xstrdup(gitdir);
		if (!getenv("GIT_OBJECT_DIRECTORY")) {
			free(the_repo.objdir);
			the_repo.objdir = xstrfmt("%s/objects", gitdir);
		}
	}
}

static int setup_explicit(const char *gitdir_env)
{
	struct format_check fc;
	the_repo.explicit_gitdir = 1;
	const char *wt = getenv("GIT_WORK_TREE");
	struct stat st;
	char *from_file = NULL;
	/* GIT_DIR may name a gitdir file (a linked worktree's .git) */
	if (!stat(gitdir_env, &st) && S_ISREG(st.st_mode)) {
		char *slash = strrchr(gitdir_env, '/');
		char *dir = slash ? xstrndup(gitdir_env, slash - gitdir_env) : xstrdup(".");
		from_file = read_gitfile(dir, gitdir_env);
		free(dir);
		gitdir_env = from_file;
	} else if (!is_git_directory_head(gitdir_env, &the_repo.head))
		die("not a git repository: '%s'", gitdir_env);
	the_repo.head_valid = 1;
	set_paths(gitdir_env);
	free(from_file);
	gitdir_env = the_repo.gitdir;
	check_repository_format(&fc);
	/* GIT_WORK_TREE first, then core.bare, then core.worktree */
	if (!wt && fc.bare == 1 && fc.worktree)
		warning("core.bare and core.worktree do not make sense");
	if (!wt && fc.bare != 1)
		wt = fc.worktree;
	if (wt) {
		struct strbuf abs = STRBUF_INIT, cwd = STRBUF_INIT;
		char *relative_gitdir = NULL;
		/* a relative GIT_DIR must survive the chdir */
		if (gitdir_env[0] != '/') {
			relative_gitdir = xstrdup(gitdir_env);
			strbuf_realpath_lexical(&abs, gitdir_env);
			respell_gitdir(abs.buf);
		}
		if (fc.worktree && !getenv("GIT_WORK_TREE") && wt[0] != '/') {
			char *j = xstrfmt("%s/%s", the_repo.gitdir, wt);
			strbuf_realpath_lexical(&abs, j);
			free(j);
		} else
			strbuf_realpath_lexical(&abs, wt);
		if (strbuf_getcwd(&cwd) < 0)
			die_errno("unable to get current working directory");
		the_repo.worktree = strbuf_detach(&abs, NULL);
		{
			/* Inside the work tree: go to its top, as git does.
			 * Outside it: stay, and keep GIT_DIR as given. */
			size_t n = strlen(the_repo.worktree);
			int inside = !strncmp(cwd.buf, the_repo.worktree, n) &&
				     (cwd.buf[n] == '/' || !cwd.buf[n] || n == 1);
			if (inside) {
				if (cwd.buf[n] == '/' && n > 1)
					the_repo.prefix = xstrfmt("%s/", cwd.buf + n + 1);
				if (chdir(the_repo.worktree) < 0)
					die_errno("cannot chdir to '%s'", the_repo.worktree);
				if (!the_repo.prefix && relative_gitdir)
					respell_gitdir(relative_gitdir);
			} else if (relative_gitdir)
				respell_gitdir(relative_gitdir);
		}
		strbuf_release(&cwd);
		free(relative_gitdir);
	} else if (fc.bare == 1) {
		the_repo.bare = 1;
	} else {
		struct strbuf cwd = STRBUF_INIT;
		if (strbuf_getcwd(&cwd) < 0)
			die_errno("unable to get current working directory");
		the_repo.worktree = strbuf_detach(&cwd, NULL);
	}
	strbuf_release(&fc.unknown);
	free(fc.worktree);
	return 0;
}

/* As git: a repository found by discovery is set up as if GIT_DIR named
 * it when GIT_WORK_TREE or its core.worktree gives the work tree. The
 * caller has not left the directory it started in. */
static int setup_discovered_explicit(struct format_check *fc)
{
	char *gitdir = xstrdup(the_repo.gitdir);
	int ret;

	strbuf_release(&fc->unknown);
	free(fc->worktree);
	free(the_repo.gitdir);
	free(the_repo.commondir);
	free(the_repo.objdir);
	free(the_repo.worktree);
	the_repo.gitdir = the_repo.commondir = the_repo.objdir = the_repo.worktree = NULL;
	the_repo.bare = 0;
	worktree_is_cwd = 0;
	ret = setup_explicit(gitdir);
	free(gitdir);
	return ret;
}

int setup_git_directory_gently(void)
{
	struct strbuf cwd = STRBUF_INIT, path = STRBUF_INIT;
	const char *env = getenv("GIT_DIR");
	size_t ceil, top;
	struct format_check fc;
	struct stat st;
	int here;

	if (repo_found)
		return 0;
	if (env)
		return setup_explicit(env);
	/* The usual case first: a .git directory right here. The work tree's
	 * absolute name (getcwd) is then found only if something asks for
	 * it (repo_worktree()); listing branches never does. */
	here = lstat(".git", &st);
	if (!here && S_ISDIR(st.st_mode) && git_dir_check(".git", &the_repo.head, 0)) {
		the_repo.head_valid = 1;
		set_paths(".git");
		worktree_is_cwd = 1;
		ensure_ownership(NULL, ".", ".git", &st);
		check_repository_format(&fc);
		if (getenv("GIT_WORK_TREE") || fc.worktree)
			return setup_discovered_explicit(&fc);
		if (fc.bare == 1) {
			/* core.bare = true in a .git directory: treat as bare */
			worktree_is_cwd = 0;
			the_repo.bare = 1;
		}
		strbuf_release(&fc.unknown);
		free(fc.worktree);
		return 0;
	}
	if (strbuf_getcwd(&cwd) < 0)
		die_errno("unable to get current working directory");
	ceil = ceiling_len(cwd.buf);
	top = cwd.len;
	for (;;) {
		/* dir/.git: a directory or a gitdir file. lstat() first: its
		 * owner is the one git checks, and only a symbolic link needs
		 * the stat() that follows it. (Here, it was asked above.) */
		strbuf_reset(&path);
		strbuf_add(&path, cwd.buf, top);
		strbuf_addstr(&path, top == 1 ? ".git" : "/.git");
		if (top == cwd.len && here < 0)
			;
		else if (!lstat(path.buf, &st)) {
			struct stat target = st;
			if (S_ISLNK(st.st_mode) && stat(path.buf, &target) < 0)
				target.st_mode = 0;
			if (S_ISREG(target.st_mode)) {
				char *dir = xstrndup(cwd.buf, top);
				char *gd = read_gitfile(dir, path.buf);
				set_paths(gd);
				free(gd);
				the_repo.worktree = dir;
				ensure_ownership(path.buf, dir, the_repo.gitdir, NULL);
				break;
			}
			if (S_ISDIR(target.st_mode) && git_dir_check(path.buf, &the_repo.head, 0)) {
				the_repo.head_valid = 1;
				set_paths(path.buf);
				the_repo.worktree = xstrndup(cwd.buf, top);
				ensure_ownership(NULL, the_repo.worktree, path.buf, &st);
				break;
			}
		}
		/* dir itself: a bare repository */
		strbuf_setlen(&path, top);
		if (is_git_directory_head(top ? path.buf : "/", &the_repo.head)) {
			the_repo.head_valid = 1;
			set_paths(top ? path.buf : "/");
			the_repo.bare = 1;
			ensure_ownership(NULL, NULL, the_repo.gitdir, NULL);
			break;
		}
		/* up one level, unless a ceiling stops us */
		if (top <= 1)
			goto not_found;
		{
			char *slash = memrchr(cwd.buf, '/', top);
			size_t up = slash - cwd.buf;
			if (up == 0)
				up = 1;
			if (ceil && up <= ceil)
				goto not_found;
			top = up;
		}
	}
	/* Found from its top: git names it relatively (".git", or "." when
	 * bare), in rev-parse's answers and in messages about its files. */
	if (top == cwd.len) {
		if (the_repo.bare)
			respell_gitdir(".");
		else if (!strcmp(the_repo.gitdir + strlen(the_repo.worktree), "/.git"))
			respell_gitdir(".git");
	}
	check_repository_format(&fc);
	if (getenv("GIT_WORK_TREE") || fc.worktree) {
		strbuf_release(&cwd);
		strbuf_release(&path);
		return setup_discovered_explicit(&fc);
	}
	if (fc.bare == 1 && !the_repo.bare) {
		/* core.bare = true in a .git directory: treat as bare */
		free(the_repo.worktree);
		the_repo.worktree = NULL;
		the_repo.bare = 1;
	}
	if (the_repo.worktree) {
		if (top < cwd.len) {
			const char *rest = cwd.buf + top + (top > 1);
			the_repo.prefix = xstrfmt("%s/", rest);
			if (chdir(the_repo.worktree) < 0)
				die_errno("cannot come back to cwd");
			/* git prints an absolute git dir from a subdirectory */
		}
	} else if (top < cwd.len && chdir(the_repo.gitdir) < 0) {
		die_errno("cannot chdir to '%s'", the_repo.gitdir);
	}
	strbuf_release(&fc.unknown);
	free(fc.worktree);
	strbuf_release(&cwd);
	strbuf_release(&path);
	return 0;
not_found:
	strbuf_release(&cwd);
	strbuf_release(&path);
	return -1;
}

int repo_is_bare(void)
{
	return the_repo.core_bare != 0 && !repo_worktree();
}

const char *repo_worktree(void)
{
	if (worktree_is_cwd && !the_repo.worktree) {
		struct strbuf cwd = STRBUF_INIT;
		if (strbuf_getcwd(&cwd) < 0)
			die_errno("unable to get current working directory");
		the_repo.worktree = strbuf_detach(&cwd, NULL);
	}
	return the_repo.worktree;
}

void setup_git_directory_own_config(void)
{
	if (setup_git_directory_gently() < 0)
		die("not a git repository (or any of the parent directories): .git");
}

void setup_git_directory(void)
{
	static int checked;
	setup_git_directory_own_config();
	/* once: a second call (a command's own, after setup_for_command())
	 * must not repeat the check's warnings */
	if (!checked++)
		config_check_default_all();
}

void setup_for_command(int argc, const char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "-h"))
		config_check_default_all();
	else
		setup_git_directory();
}

static void vpath(struct strbuf *sb, const char *base, const char *fmt, va_list ap)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, base);
	strbuf_addch(sb, '/');
	strbuf_vaddf(sb, fmt, ap);
}

void git_path_buf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vpath(sb, the_repo.gitdir, fmt, ap);
	va_end(ap);
}

void common_path_buf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vpath(sb, the_repo.commondir, fmt, ap);
	va_end(ap);
}

static struct strbuf path_bufs[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
static int path_next;

const char *git_path(const char *fmt, ...)
{
	struct strbuf *sb = &path_bufs[path_next++ & 3];
	va_list ap;
	va_start(ap, fmt);
	vpath(sb, the_repo.gitdir, fmt, ap);
	va_end(ap);
	return sb->buf;
}

const char *common_path(const char *fmt, ...)
{
	struct strbuf *sb = &path_bufs[path_next++ & 3];
	va_list ap;
	va_start(ap, fmt);
	vpath(sb, the_repo.commondir, fmt, ap);
	va_end(ap);
	return sb->buf;
}
