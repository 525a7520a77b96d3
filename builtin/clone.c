/* clone.c: a new repository from a remote one over a remote helper.
 *
 * Everything is written into a directory this command creates (or found
 * empty); any failure, fatal signal included, removes what was made, so
 * a failed clone leaves neither directory nor refs. The new repository is
 * ours alone until we return, so its refs and config are written whole
 * (each through <file>.lock and rename) rather than edited. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "odb/odb.h"
#include "odb/object.h"
#include "refs/refs.h"
#include "remote/checkout.h"
#include "remote/index-pack.h"
#include "lib/progress.h"
#include "remote/transport.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>

static const char *const clone_usage[] = {
	"git clone [<options>] [--] <repo> [<dir>]",
	NULL
};

static char *junk_dir;          /* absolute; removed unless clone_done */
static int junk_dir_created;
static volatile sig_atomic_t clone_done;

static int rm_entry(const char *path, const struct stat *st UNUSED, int flag UNUSED, struct FTW *ftw)
{
	if (ftw->level == 0 && !junk_dir_created)
		return 0;
	remove(path);
	return 0;
}

static void remove_junk(void)
{
	if (clone_done || !junk_dir)
		return;
	nftw(junk_dir, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
}

static void remove_junk_on_signal(int sig)
{
	remove_junk();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = 1;
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

/* path gets text through path.lock; dies on failure (the clone is undone). */
static void write_file_locked(const char *path, const char *text, size_t len)
{
	char *lock = xstrfmt("%s.lock", path);
	int fd;
	if (mkdir_leading(path) < 0)
		die_errno("unable to create directories for '%s'", path);
	fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		die_errno("unable to create '%s'", lock);
	if (write_in_full(fd, text, len) < 0 || close(fd) < 0 || rename(lock, path) < 0) {
		unlink(lock);
		die_errno("unable to write '%s'", path);
	}
	free(lock);
}

static void append_reflog(const char *gitdir, const char *ref, const struct object_id *oid,
			  const char *msg)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/logs/%s", gitdir, ref);
	int fd;
	strbuf_addf(&sb, "%s %s ", oid_to_hex(&(struct object_id){ { 0 } }), oid_to_hex(oid));
	reflog_ident(&sb);
	strbuf_addf(&sb, "\t%s\n", msg);
	if (mkdir_leading(path) < 0)
		die_errno("unable to create directories for '%s'", path);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0 || write_in_full(fd, sb.buf, sb.len) < 0 || close(fd) < 0)
		die_errno("unable to write reflog '%s'", path);
	free(path);
	strbuf_release(&sb);
}

/* A config value as git writes it: quoted when it would not survive. */
static void add_config_value(struct strbuf *sb, const char *v)
{
	int quote = !*v || git_isspace((unsigned char)v[0]) || git_isspace((unsigned char)v[strlen(v) - 1]) ||
		    strpbrk(v, ";#");
	if (quote)
		strbuf_addch(sb, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			strbuf_addch(sb, '\\');
		if (*v == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*v == '\t')
			strbuf_addstr(sb, "\\t");
		else
			strbuf_addch(sb, *v);
	}
	if (quote)
		strbuf_addch(sb, '"');
}

static int cmp_ref_name(const void *a, const void *b)
{
	const struct ref_entry *x = a, *y = b;
	return strcmp(x->name, y->name);
}

static void write_packed_refs(const char *gitdir, struct ref_entry *refs, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;
	QSORT(refs, nr, cmp_ref_name);
	strbuf_addstr(&sb, "# pack-refs with: peeled fully-peeled sorted \n");
	for (size_t i = 0; i < nr; i++) {
		strbuf_addf(&sb, "%s %s\n", oid_to_hex(&refs[i].oid), refs[i].name);
		if (refs[i].flags & REF_KNOWS_PEELED)
			strbuf_addf(&sb, "^%s\n", oid_to_hex(&refs[i].peeled));
	}
	path = xstrfmt("%s/packed-refs", gitdir);
	write_file_locked(path, sb.buf, sb.len);
	free(path);
	strbuf_release(&sb);
}

static const struct remote_ref *find_ref(const struct transport *t, const char *name)
{
	for (size_t i = 0; i < t->nr_refs; i++)
		if (!strcmp(t->refs[i].name, name))
			return &t->refs[i];
	return NULL;
}

static int cmp_oid(const void *a, const void *b)
{
	return oidcmp(a, b);
}

/* Receives the pack for wants into objects/pack; exits 128 on failure. */
static void fetch_and_store(struct transport *t, struct object_id *wants, size_t nr)
{
	const char *dir = xstrfmt("%s/pack", odb_objdir());
	char *tmp = xstrfmt("%s/tmp_pack_XXXXXX", dir);
	/* git's "Receiving objects" and "Resolving deltas" when progress is on */
	struct index_pack_opts opts = { .receiving = 1, .receive_start_ns = progress_now_ns(),
					.check_links = LINKS_IN_PACK_OR_OURS };
	unsigned char hash[RAW_SZ];
	int fd = mkstemp(tmp);
	if (fd < 0)
		die_errno("unable to create temporary file '%s'", tmp);
	transport_fetch_pack(t, wants, nr, NULL, 0, 1, fd);
	if (fsync(fd) < 0 || close(fd) < 0)
		die_errno("unable to write '%s'", tmp);
	opts.verbose = transport_pack_meters(t, tmp, 1);
	if (index_pack_store(dir, tmp, &opts, NULL, hash) < 0)
		exit(128);
	odb_reprepare();
	for (size_t i = 0; i < nr; i++)
		if (!odb_has_object(&wants[i]))
			die("remote did not send all necessary objects");
	free(tmp);
	free((char *)dir);
}

static void checkout_head(const struct object_id *commit)
{
	enum object_type type;
	size_t size, nr;
	struct commit_info ci;
	struct index_entry *entries;
	void *buf = odb_read_object(commit, &type, &size);
	if (!buf)
		die("unable to read %s", oid_to_hex(commit));
	if (type == OBJ_TAG) {
		struct object_id peeled;
		free(buf);
		if (peel_to_non_tag(commit, &peeled, &type) < 0 || type != OBJ_COMMIT)
			die("unable to checkout %s", oid_to_hex(commit));
		buf = odb_read_object(&peeled, &type, &size);
	}
	if (!buf || type != OBJ_COMMIT || parse_commit_buffer(buf, size, &ci) < 0)
		die("unable to parse commit %s", oid_to_hex(commit));
	if (checkout_tree(&ci.tree, &entries, &nr) < 0)
		die("unable to checkout working tree");
	if (index_write(".git/index", entries, nr) < 0)
		die("unable to write new index file");
	index_entries_free(entries, nr);
	commit_info_release(&ci);
	free(buf);
}

int cmd_clone(int argc, const char **argv)
{
	int quiet = 0, verbose = 0, bare = 0, no_checkout = 0, progress = -1, depth = 0;
	const char *branch = NULL, *origin = "origin";
	const char *url, *dir, *gitdir;
	struct strbuf abs = STRBUF_INIT, cfg = STRBUF_INIT, msg = STRBUF_INIT;
	struct transport *t;
	struct object_id *wants = NULL;
	size_t nr_wants = 0, alloc_wants = 0, nr_packed = 0, alloc_packed = 0;
	struct ref_entry *packed = NULL;
	const struct remote_ref *head, *chosen = NULL;
	const char *head_target = NULL;
	char *default_branch = NULL;
	char *anon;
	struct stat st;
	const char *init_argv[5];
	int init_argc = 0;
	struct option opts[] = {
		OPT__VERBOSE(&verbose, "be more verbose"),
		OPT__QUIET(&quiet, "be more quiet"),
		OPT_BOOL(0, "progress", &progress, "force progress reporting"),
		OPT_BOOL('n', "no-checkout", &no_checkout, "don't create a checkout"),
		OPT_BOOL(0, "bare", &bare, "create a bare repository"),
		OPT_STRING('o', "origin", &origin, "name", "use <name> instead of 'origin' to track upstream"),
		OPT_STRING('b', "branch", &branch, "branch", "checkout <branch> instead of the remote's HEAD"),
		OPT_INTEGER(0, "depth", &depth, "create a shallow clone of that depth"),
		OPT_END()
	};

	config_check_default_all();
	argc = parse_options(argc, argv, opts, clone_usage, 0);
	if (argc == 0)
		usage_msg_opt("You must specify a repository to clone.", clone_usage, opts);
	if (argc > 2)
		usage_msg_opt("Too many arguments.", clone_usage, opts);
	if (depth)
		die("shallow clones (--depth) are not supported");
	if (bare)
		no_checkout = 1;
	if (check_refname_format(origin, REFNAME_ALLOW_ONELEVEL) || strchr(origin, '/'))
		die("'%s' is not a valid remote name", origin);
	url = argv[0];
	if (!url_helper_scheme(url)) {
		if (!strstr(url, "://") && stat(url, &st) < 0)
			die("repository '%s' does not exist", url);
		/* fall through: transport_open says what is unsupported */
	}
	dir = argc > 1 ? argv[1] : url_guess_dir(url, bare);
	if (!*dir)
		die("No directory name could be guessed.\nPlease specify a directory on the command line");
	if (!stat(dir, &st) && !(S_ISDIR(st.st_mode) && dir_is_empty(dir)))
		die("destination path '%s' already exists and is not an empty directory.", dir);
	if (!url_helper_scheme(url))
		transport_open(url, quiet, progress);  /* dies: no helper for this URL */

	strbuf_realpath_lexical(&abs, dir);
	junk_dir = strbuf_detach(&abs, NULL);
	junk_dir_created = stat(dir, &st) < 0;
	atexit(remove_junk);
	signal(SIGINT, remove_junk_on_signal);
	signal(SIGTERM, remove_junk_on_signal);
	signal(SIGHUP, remove_junk_on_signal);
	signal(SIGQUIT, remove_junk_on_signal);

	if (!quiet)
		fprintf(stderr, bare ? "Cloning into bare repository '%s'...\n" : "Cloning into '%s'...\n", dir);

	/* The repository skeleton, as init makes it; cwd becomes dir. */
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	{
		char *slash = xstrfmt("%s/", junk_dir);
		if (mkdir_leading(slash) < 0)
			die_errno("could not create leading directories of '%s'", dir);
		free(slash);
		if (chdir(junk_dir) < 0)
			die_errno("cannot chdir to %s", dir);
	}
	init_argv[init_argc++] = "init";
	init_argv[init_argc++] = "-q";
	if (bare)
		init_argv[init_argc++] = "--bare";
	init_argv[init_argc] = NULL;
	if (cmd_init(init_argc, init_argv))
		exit(128);
	setup_git_directory();
	gitdir = bare ? "." : ".git";

	t = transport_open(url, quiet, progress);
	{
		const char *prefixes[] = { "HEAD", "refs/heads/", "refs/tags/" };
		transport_list_refs(t, prefixes, ARRAY_SIZE(prefixes));
	}
	anon = url_strip_credentials(url);
	strbuf_addf(&msg, "clone: from %s", anon);

	/* What to ask for, and the refs to write once the pack is stored. */
	for (size_t i = 0; i < t->nr_refs; i++) {
		const struct remote_ref *r = &t->refs[i];
		const char *b;
		struct ref_entry *e;
		if (r->unborn)
			continue;
		if (skip_prefix(r->name, "refs/heads/", &b) || starts_with(r->name, "refs/tags/")) {
			ALLOC_GROW(wants, nr_wants + 1, alloc_wants);
			oidcpy(&wants[nr_wants++], &r->oid);
			ALLOC_GROW(packed, nr_packed + 1, alloc_packed);
			e = &packed[nr_packed++];
			memset(e, 0, sizeof(*e));
			if (starts_with(r->name, "refs/heads/") && !bare)
				e->name = xstrfmt("refs/remotes/%s/%s", origin, b);
			else
				e->name = xstrdup(r->name);
			oidcpy(&e->oid, &r->oid);
			if (r->has_peeled) {
				oidcpy(&e->peeled, &r->peeled);
				e->flags |= REF_KNOWS_PEELED;
			}
		}
	}
	QSORT(wants, nr_wants, cmp_oid);
	{
		size_t j = 0;
		for (size_t i = 0; i < nr_wants; i++)
			if (!j || !oideq(&wants[j - 1], &wants[i]))
				oidcpy(&wants[j++], &wants[i]);
		nr_wants = j;
	}

	/* Which branch HEAD names. */
	head = find_ref(t, "HEAD");
	if (head && head->symref && starts_with(head->symref, "refs/heads/") &&
	    find_ref(t, head->symref))
		head_target = head->symref;
	if (branch) {
		char *name = xstrfmt("refs/heads/%s", branch);
		chosen = find_ref(t, name);
		free(name);
		if (!chosen) {
			name = xstrfmt("refs/tags/%s", branch);
			chosen = find_ref(t, name);
			free(name);
		}
		if (!chosen)
			die("Remote branch %s not found in upstream %s", branch, origin);
	} else if (head && head->symref && starts_with(head->symref, "refs/heads/")) {
		chosen = find_ref(t, head->symref);
	} else if (head && !head->unborn) {
		/* No symref: the branch pointing where HEAD does, master first. */
		const struct remote_ref *m = find_ref(t, "refs/heads/master");
		if (m && oideq(&m->oid, &head->oid))
			chosen = m;
		for (size_t i = 0; !chosen && i < t->nr_refs; i++)
			if (starts_with(t->refs[i].name, "refs/heads/") &&
			    oideq(&t->refs[i].oid, &head->oid))
				chosen = &t->refs[i];
		if (!chosen)
			chosen = head;
	}

	if (nr_wants)
		fetch_and_store(t, wants, nr_wants);
	if (nr_packed)
		write_packed_refs(gitdir, packed, nr_packed);

	/* HEAD, the local branch, origin/HEAD, their reflogs. */
	{
		struct strbuf sb = STRBUF_INIT;
		char *path;
		const char *b = NULL;
		if (chosen && skip_prefix(chosen->name, "refs/heads/", &b)) {
			strbuf_addf(&sb, "ref: refs/heads/%s\n", b);
		} else if (chosen) {
			strbuf_addf(&sb, "%s\n", oid_to_hex(&chosen->oid));
		} else {
			/* an empty repository: the remote's unborn branch, if told */
			if (head && head->unborn && head->symref && skip_prefix(head->symref, "refs/heads/", &b))
				strbuf_addf(&sb, "ref: %s\n", head->symref);
		}
		if (sb.len) {
			path = xstrfmt("%s/HEAD", gitdir);
			write_file_locked(path, sb.buf, sb.len);
			free(path);
		}
		if (!b) {
			/* HEAD as init wrote it names the default branch */
			struct strbuf target = STRBUF_INIT;
			char *p = xstrfmt("%s/HEAD", gitdir);
			if (strbuf_read_file(&target, p, 64) > 0) {
				strbuf_rtrim(&target);
				const char *v;
				if (skip_prefix(target.buf, "ref: refs/heads/", &v))
					b = default_branch = xstrdup(v);
			}
			free(p);
			strbuf_release(&target);
			if (chosen)
				b = NULL;  /* detached at a tag or commit */
		}
		if (chosen && !bare) {
			if (b) {
				char *ref = xstrfmt("refs/heads/%s", b);
				path = xstrfmt("%s/%s", gitdir, ref);
				strbuf_reset(&sb);
				strbuf_addf(&sb, "%s\n", oid_to_hex(&chosen->oid));
				write_file_locked(path, sb.buf, sb.len);
				append_reflog(gitdir, ref, &chosen->oid, msg.buf);
				free(path);
				free(ref);
			}
			append_reflog(gitdir, "HEAD", &chosen->oid, msg.buf);
		}
		if (!bare && head_target) {
			const struct remote_ref *hr = find_ref(t, head_target);
			char *ref = xstrfmt("refs/remotes/%s/HEAD", origin);
			path = xstrfmt("%s/%s", gitdir, ref);
			strbuf_reset(&sb);
			strbuf_addf(&sb, "ref: refs/remotes/%s/%s\n", origin, head_target + 11);
			write_file_locked(path, sb.buf, sb.len);
			if (hr)
				append_reflog(gitdir, ref, &hr->oid, msg.buf);
			free(path);
			free(ref);
		}

		/* config */
		strbuf_addf(&cfg, "[remote \"%s\"]\n\turl = ", origin);
		add_config_value(&cfg, url);
		strbuf_addch(&cfg, '\n');
		if (!bare)
			strbuf_addf(&cfg, "\tfetch = +refs/heads/*:refs/remotes/%s/*\n", origin);
		if (!bare && b)
			strbuf_addf(&cfg, "[branch \"%s\"]\n\tremote = %s\n\tmerge = refs/heads/%s\n",
				    b, origin, b);
		path = xstrfmt("%s/config", gitdir);
		int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0 || write_in_full(fd, cfg.buf, cfg.len) < 0 || close(fd) < 0)
			die_errno("unable to write '%s'", path);
		free(path);
		config_invalidate();
		strbuf_release(&sb);
	}

	if (!nr_wants)
		warning("You appear to have cloned an empty repository.");
	else if (!no_checkout && chosen)
		checkout_head(&chosen->oid);
	if (transport_close(t))
		exit(128);

	clone_done = 1;
	(void)verbose;
	for (size_t i = 0; i < nr_packed; i++)
		free((char *)packed[i].name);
	free(packed);
	free(wants);
	free(default_branch);
	free(anon);
	strbuf_release(&msg);
	strbuf_release(&cfg);
	return 0;
}
