/* update.c: writing refs. Each update locks <ref>.lock (O_EXCL, with
 * git's retry timeout), checks the old value under the lock, writes,
 * fsyncs and renames; deleting a packed ref rewrites packed-refs under
 * packed-refs.lock. Reflog lines are appended as git writes them. */
#include "refs/refs-internal.h"
#include "lib/config.h"
#include "lib/lockfile.h"
#include "lib/repo.h"
#include "lib/sorted.h"
#include "odb/odb.h"
#include "odb/object.h"
#include "lib/fd-batch.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <netdb.h>
#include <pwd.h>
#include <sys/stat.h>
#include <time.h>

static struct lock_file *new_lock(void)
{
	/* locks stay reachable from the cleanup list, so they live on the heap */
	struct lock_file *lk = xcalloc(1, sizeof(*lk));
	lk->fd = -1;
	return lk;
}

/* --- identity and reflog lines --- */

static void parse_date_env(const char *s, uint64_t *t, int *tz)
{
	char *end;
	if (*s == '@')
		s++;
	*t = strtoull(s, &end, 10);
	if (end != s && *end == ' ' && (end[1] == '+' || end[1] == '-')) {
		*tz = (int)strtol(end + 1, NULL, 10);
		return;
	}
	{
		time_t now = time(NULL);
		struct tm lt;
		localtime_r(&now, &lt);
		*t = now;
		*tz = (int)(lt.tm_gmtoff / 3600 * 100 + (lt.tm_gmtoff % 3600) / 60);
	}
}

/* The host part of a default e-mail address, as git makes it: the host
 * name if it has a dot, else its canonical name if that has one, else
 * the name followed by ".(none)". */
static void add_mail_domain(struct strbuf *sb)
{
	struct addrinfo hints = { .ai_flags = AI_CANONNAME }, *ai;
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) < 0) {
		strbuf_addstr(sb, "(none)");
		return;
	}
	strbuf_addstr(sb, host);
	if (strchr(host, '.'))
		return;
	if (!getaddrinfo(host, NULL, &hints, &ai)) {
		int done = ai && ai->ai_canonname && strchr(ai->ai_canonname, '.');
		if (done) {
			strbuf_setlen(sb, sb->len - strlen(host));
			strbuf_addstr(sb, ai->ai_canonname);
		}
		freeaddrinfo(ai);
		if (done)
			return;
	}
	strbuf_addstr(sb, ".(none)");
}

void reflog_ident(struct strbuf *sb)
{
	const char *name = getenv("GIT_COMMITTER_NAME");
	const char *email = getenv("GIT_COMMITTER_EMAIL");
	const char *date = getenv("GIT_COMMITTER_DATE");
	uint64_t t;
	int tz;
	struct passwd *pw = NULL;
	struct strbuf gecos = STRBUF_INIT;
	if (!name && !config_get("user.name", &name))
		name = NULL;
	if (!email && !config_get("user.email", &email)) {
		email = getenv("EMAIL");
		if (email && !*email)
			email = NULL;
	}
	if (!name || !email)
		pw = getpwuid(getuid());
	if (!name && pw && pw->pw_gecos && *pw->pw_gecos && *pw->pw_gecos != ',') {
		/* as git: the GECOS field up to its first comma, with "&"
		 * standing for the user name, capitalised */
		for (const char *g = pw->pw_gecos; *g && *g != ','; g++) {
			if (*g != '&')
				strbuf_addch(&gecos, *g);
			else if (pw->pw_name && *pw->pw_name) {
				strbuf_addch(&gecos, toupper((unsigned char)*pw->pw_name));
				strbuf_addstr(&gecos, pw->pw_name + 1);
			}
		}
		name = gecos.buf;
	}
	if (!name)
		name = pw ? pw->pw_name : "unknown";
	if (date && *date)
		parse_date_env(date, &t, &tz);
	else
		parse_date_env("", &t, &tz);
	strbuf_addf(sb, "%s <", name);
	if (email)
		strbuf_addstr(sb, email);
	else {
		strbuf_addf(sb, "%s@", pw ? pw->pw_name : "unknown");
		add_mail_domain(sb);
	}
	strbuf_addf(sb, "> %llu %c%04d", (unsigned long long)t, tz < 0 ? '-' : '+', tz < 0 ? -tz : tz);
	strbuf_release(&gecos);
}

static int log_all_updates(void)
{
	const char *v;
	if (config_get("core.logallrefupdates", &v)) {
		if (v && !strcasecmp(v, "always"))
			return 2;
		return config_parse_bool("core.logallrefupdates", v);
	}
	return !repo_is_bare();
}

int should_autocreate_reflog(const char *name)
{
	int mode = log_all_updates();
	if (mode == 2)
		return 1;
	if (!mode)
		return 0;
	return starts_with(name, "refs/heads/") || starts_with(name, "refs/remotes/") ||
	       starts_with(name, "refs/notes/") || !strcmp(name, "HEAD");
}

/* git folds a message onto one line: runs of whitespace become one space. */
static void clean_msg(struct strbuf *sb, const char *msg)
{
	int space = 0;
	while (*msg == ' ' || *msg == '\t' || *msg == '\n')
		msg++;
	for (; *msg; msg++) {
		if (*msg == ' ' || *msg == '\t' || *msg == '\n' || *msg == '\r') {
			space = 1;
			continue;
		}
		if (space)
			strbuf_addch(sb, ' ');
		space = 0;
		strbuf_addch(sb, *msg);
	}
}

/* Remove path if it is a directory holding only directories: 0 when it
 * is gone. As git, the walk stops at the first entry that stays, so the
 * directories read after it stay too, empty or not. */
static int remove_empty_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct strbuf sub = STRBUF_INIT;
	int r = 0;

	if (!d)
		return -1;
	while (!r && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", path, e->d_name);
		r = remove_empty_tree(sub.buf);
	}
	closedir(d);
	strbuf_release(&sub);
	return r ? r : rmdir(path);
}

int reflog_append(const char *name, const struct object_id *old_oid,
		  const struct object_id *new_oid, const char *msg, int force_create)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	int fd, flags = O_WRONLY | O_APPEND | O_CLOEXEC, ret = 0;
	static const struct object_id null_oid;
	if (!old_oid)
		old_oid = &null_oid;
	reflog_path(&path, name);
	if (force_create || should_autocreate_reflog(name))
		flags |= O_CREAT;
	fd = fd_open(path.buf, flags, 0666);
	if (fd < 0 && errno == ENOENT && (flags & O_CREAT)) {
		/* the directory is made only when it is missing */
		mkdir_leading(path.buf);
		fd = fd_open(path.buf, flags, 0666);
	}
	if (fd < 0 && errno == EISDIR && (flags & O_CREAT)) {
		/* as git: the empty directories of old logs give way */
		remove_empty_tree(path.buf);
		fd = fd_open(path.buf, flags, 0666);
		if (fd < 0 && errno == EISDIR) {
			ret = error("there are still logs under '%s'", path.buf);
			strbuf_release(&path);
			return ret;
		}
	}
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT && !(flags & O_CREAT)) {
			strbuf_release(&path);
			return 0;
		}
		ret = error("unable to append to '%s': %s", path.buf, strerror(e));
		strbuf_release(&path);
		return ret;
	}
	strbuf_addf(&line, "%s %s ", oid_to_hex(old_oid), oid_to_hex(new_oid));
	reflog_ident(&line);
	if (msg && *msg) {
		strbuf_addch(&line, '\t');
		clean_msg(&line, msg);
	}
	strbuf_addch(&line, '\n');
	if (write_in_full(fd, line.buf, line.len) < 0)
		ret = error("unable to append to '%s': %s", path.buf, strerror(errno));
	close(fd);
	strbuf_release(&path);
	strbuf_release(&line);
	return ret;
}

/* 0 when there was a reflog and it is gone. */
static int delete_reflog(const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int r;
	reflog_path(&path, name);
	r = unlink(path.buf);
	strbuf_release(&path);
	return r;
}

/* --- checks before writing --- */

struct conflict {
	const char *skip;
	char *found;
};

static int find_below(const struct ref_entry *e, void *data)
{
	struct conflict *c = data;
	if (c->skip && !strcmp(e->name, c->skip))
		return 0;
	c->found = xstrdup(e->name);
	return 1;
}

/* A ref as git reads one without following it: a loose file that holds
 * an id or a symref (whether or not it leads anywhere), else a packed
 * entry if there is no loose file; a loose file of garbage is none. */
static int raw_ref_exists(const char *name)
{
	struct strbuf target = STRBUF_INIT;
	struct object_id oid;
	struct packed_refs *pr;
	struct ref_entry e;
	int r = read_loose_ref(name, &oid, &target);

	strbuf_release(&target);
	if (r >= 0)
		return 1;
	if (r == -1)
		return 0;
	pr = packed_refs_get();
	return pr && !packed_refs_find(pr, name, &e);
}

/* No ref may be a path prefix of another: 'refs/heads/a' blocks
 * 'refs/heads/a/b' and the other way round; skip, if not NULL, is a ref
 * about to go (a rename's old name). memo: a transaction's names, which
 * remember the leading parts found to be no ref. As in git, a ref above
 * is one read without following it, and every ref file below counts,
 * broken or dangling. */
static int check_available(const char *name, const char *skip, struct ref_names *memo,
			   struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *slash = name;
	struct conflict c = { skip, NULL };
	while ((slash = strchr(slash + 1, '/'))) {
		strbuf_reset(&sb);
		strbuf_add(&sb, name, slash - name);
		/* a transaction asks about the same directories again and again */
		if ((memo && ref_names_known_free(memo, sb.buf)) || (skip && !strcmp(sb.buf, skip)))
			continue;
		if (raw_ref_exists(sb.buf)) {
			strbuf_addf(err, "'%s' exists; cannot create '%s'", sb.buf, name);
			strbuf_release(&sb);
			return -1;
		}
		if (memo)
			ref_names_mark_free(memo, sb.buf);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/", name);
	refs_for_each(sb.buf, REFS_INCLUDE_BROKEN | REFS_INCLUDE_DANGLING, find_below, &c);
	strbuf_release(&sb);
	if (c.found) {
		strbuf_addf(err, "'%s' exists; cannot create '%s'", c.found, name);
		free(c.found);
		return -1;
	}
	return 0;
}

static int first_packed_below(struct ref_entry *e, void *data)
{
	*(char **)data = xstrdup(e->name);
	return 1;
}

/* check_available() against packed-refs alone, as git checks a symref
 * it creates: a loose ref in the way stops the lock file instead. */
static int check_packed_available(const char *name, struct strbuf *err)
{
	struct packed_refs *pr = packed_refs_get();
	struct strbuf sb = STRBUF_INIT;
	struct ref_entry e;
	char *found = NULL;

	for (const char *slash = strchr(name, '/'); pr && slash && !found;
	     slash = strchr(slash + 1, '/')) {
		strbuf_reset(&sb);
		strbuf_add(&sb, name, (size_t)(slash - name));
		if (!packed_refs_find(pr, sb.buf, &e))
			found = xstrdup(sb.buf);
	}
	if (pr && !found) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/", name);
		packed_refs_for_each(pr, sb.buf, first_packed_below, &found);
	}
	strbuf_release(&sb);
	if (!found)
		return 0;
	strbuf_addf(err, "'%s' exists; cannot create '%s'", found, name);
	free(found);
	return -1;
}

/* Once a ref is gone (and its log, with log), the directories that held
 * nothing else go too, as in git: up to the name's first two parts
 * ("refs/heads"), each as long as the one below it could go. */
static void prune_dirs(const char *name, int log)
{
	struct strbuf part = STRBUF_INIT, path = STRBUF_INIT;
	const char *second = strchr(name, '/');
	size_t keep;
	int ref = 1;

	if (!second || !(second = strchr(second + 1, '/')))
		return;
	keep = (size_t)(second - name);
	strbuf_addstr(&part, name);
	while (ref || log) {
		char *slash = strrchr(part.buf, '/');
		if ((size_t)(slash - part.buf) <= keep)
			break;
		strbuf_setlen(&part, (size_t)(slash - part.buf));
		if (ref) {
			ref_path(&path, part.buf);
			ref = !rmdir(path.buf);
		}
		if (log) {
			reflog_path(&path, part.buf);
			log = !rmdir(path.buf);
		}
	}
	strbuf_release(&part);
	strbuf_release(&path);
}

/* Current value under the lock: 0 found, -1 absent, -2 a loose file that
 * holds no ref; symref targets followed. */
static int read_current(const char *name, struct object_id *oid)
{
	struct strbuf target = STRBUF_INIT;
	int r = read_loose_ref_fresh(name, oid, &target);
	struct packed_refs *pr;
	struct ref_entry e;
	if (r == 1) {
		unsigned flags;
		const char *res = refs_resolve_reading(target.buf, oid, &flags);
		strbuf_release(&target);
		return res ? 0 : -1;
	}
	strbuf_release(&target);
	if (r == 0)
		return 0;
	if (r == -1)
		return -2;
	pr = packed_refs_get_fresh();
	if (pr && starts_with(name, "refs/") && !packed_refs_find(pr, name, &e)) {
		oidcpy(oid, &e.oid);
		return 0;
	}
	oidclr(oid);
	return -1;
}

static long lock_timeout(const char *key, long def)
{
	return config_get_int(key, def);
}

/* Lock the loose file of name, creating leading directories. */
static struct lock_file *lock_ref(const char *name, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct lock_file *lk = new_lock();
	long timeout = lock_timeout("core.filesreflocktimeout", 100);
	int r;
	ref_path(&path, name);
	/* the directory is made only when it is missing */
	r = lock_file_acquire(lk, path.buf, timeout);
	/* (a name ending in '/' has no file to make a directory for) */
	if (r < 0 && errno == ENOENT && !ends_with(name, "/")) {
		if (mkdir_leading(path.buf) < 0) {
			strbuf_addf(err, "unable to create directory for '%s'", path.buf);
			strbuf_release(&path);
			return NULL;
		}
		r = lock_file_acquire(lk, path.buf, timeout);
	}
	if (r < 0) {
		int e = errno;
		if (e == EISDIR || (e == EEXIST && is_dir(path.buf))) {
			struct strbuf rel = STRBUF_INIT;
			strbuf_addf(err, "there is a non-empty directory '%s' blocking reference '%s'",
				    path.buf, name);
			strbuf_release(&rel);
		} else
			lock_file_error(err, path.buf, e);
		strbuf_release(&path);
		return NULL;
	}
	strbuf_release(&path);
	return lk;
}

/* Whether a leading directory of the ref file path (whose last name_len
 * bytes are the ref's name) is a file instead. */
static int file_in_the_way(struct strbuf *path, size_t name_len)
{
	struct stat st;
	char *slash = strchr(path->buf + path->len - name_len, '/');

	for (; slash; slash = strchr(slash + 1, '/')) {
		int r;
		*slash = '\0';
		r = stat(path->buf, &st);
		*slash = '/';
		if (r < 0)
			return 0;   /* nothing below a missing directory */
		if (!S_ISDIR(st.st_mode))
			return 1;
	}
	return 0;
}

/*
 * The checks of a name that is no ref, before its lock, in git's order
 * and with git's side effects: a file where a directory should be stops
 * everything (blame a ref in the way if there is one); otherwise the
 * directories are made for the lock, and they stay when a check fails.
 * A ref that must exist fails there. A directory of empty directories in
 * the ref's place goes; one that holds more is in the way of the ref.
 * The name may not sit below or above another ref, nor another name of
 * the same transaction (whatever the change: a verify or a deletion too).
 */
static int check_missing(const char *name, int must_exist, struct ref_names *others,
			 struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	size_t base = err->len;
	const char *with = NULL;
	int r = -1;

	ref_path(&path, name);
	if (file_in_the_way(&path, strlen(name))) {
		if (check_available(name, NULL, others, err) < 0 ||
		    (others && (with = ref_names_conflict(others, name)))) {
			if (must_exist) {
				strbuf_setlen(err, base);
				strbuf_addf(err, "unable to resolve reference '%s'", name);
			} else if (with)
				strbuf_addf(err, "cannot process '%s' and '%s' at the same time", name, with);
		} else {
			strbuf_addf(err, "unable to create lock file %s.lock; non-directory in the way",
				    path.buf);
		}
		goto out;
	}
	if (!ends_with(name, "/"))
		mkdir_leading(path.buf);
	if (must_exist) {
		strbuf_addf(err, "unable to resolve reference '%s'", name);
		goto out;
	}
	if (is_dir(path.buf))
		remove_empty_tree(path.buf);
	if (check_available(name, NULL, others, err) < 0)
		goto out;
	if (others && (with = ref_names_conflict(others, name))) {
		strbuf_addf(err, "cannot process '%s' and '%s' at the same time", name, with);
		goto out;
	}
	if (is_dir(path.buf)) {
		strbuf_addf(err, "there is a non-empty directory '%s' blocking reference '%s'",
			    path.buf, name);
		goto out;
	}
	r = 0;
out:
	strbuf_release(&path);
	return r;
}

void ref_update_look(struct ref_update *u)
{
	if (!u->first.done) {
		strbuf_init(&u->first.target, 0);
		ref_file_read(u->name, &u->first);
	}
}

/*
 * What to write: the end of u->name's symref chain unless REF_NO_DEREF,
 * as git finds it: followed however long it is, to a ref that is no
 * symref (a plain one, a missing one, a file of garbage, which is then
 * refused as broken, never the symref before it). Every symref on the
 * way gets a log line. A chain that comes back on itself would change
 * one ref twice, and git refuses it so.
 */
static int update_target(struct ref_update *u, struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT, target = STRBUF_INIT;
	struct object_id oid;
	size_t alloc = 0;
	int r = 0;

	if (u->real)
		return 0;
	u->via = 0;
	if ((u->flags & REF_NO_DEREF) || u->first.r != 1) {
		u->real = xstrdup(u->name);
		return 0;
	}
	u->via = 1;
	strbuf_addbuf(&name, &u->first.target);
	for (;;) {
		int seen = !strcmp(name.buf, u->name);
		for (size_t i = 0; i < u->nhops && !seen; i++)
			seen = !strcmp(name.buf, u->hops[i]);
		if (seen) {
			strbuf_addf(err, "multiple updates for '%s' (including one via symref '%s') are not allowed",
				    name.buf, u->nhops ? u->hops[u->nhops - 1] : u->name);
			r = -1;
			break;
		}
		if (read_loose_ref_fresh(name.buf, &oid, &target) != 1)
			break;
		ALLOC_GROW(u->hops, u->nhops + 1, alloc);
		u->hops[u->nhops++] = strbuf_detach(&name, NULL);
		strbuf_addbuf(&name, &target);
	}
	strbuf_release(&target);
	u->real = strbuf_detach(&name, NULL);
	return r;
}

/* HEAD's log line for an update: as git, when HEAD points to the ref
 * changed or to a symref on the way to it (and is not itself the name
 * changed, which log_via() logs). */
static void log_head_of(struct ref_update *u, const struct object_id *old_oid,
			const struct object_id *new_oid, const char *msg)
{
	struct strbuf target = STRBUF_INIT;
	struct object_id dummy;
	int on = 0;

	if (!strcmp(u->name, "HEAD") || !strcmp(u->real, "HEAD"))
		return;
	if (read_loose_ref_fresh("HEAD", &dummy, &target) == 1) {
		on = !strcmp(target.buf, u->real) || (u->via && !strcmp(target.buf, u->name));
		for (size_t i = 0; i < u->nhops && !on; i++)
			on = !strcmp(target.buf, u->hops[i]);
	}
	if (on)
		reflog_append("HEAD", old_oid, new_oid, msg, 0);
	strbuf_release(&target);
}

/* The log lines of the symrefs an update went through. */
static void log_via(struct ref_update *u, const struct object_id *old_oid,
		    const struct object_id *new_oid)
{
	if (!u->via)
		return;
	reflog_append(u->name, old_oid, new_oid, u->msg, 0);
	for (size_t i = 0; i < u->nhops; i++)
		reflog_append(u->hops[i], old_oid, new_oid, u->msg, 0);
}

static int is_symref_file(const char *name)
{
	struct strbuf target = STRBUF_INIT;
	struct object_id oid;
	int r = read_loose_ref_fresh(name, &oid, &target);
	strbuf_release(&target);
	return r == 1;
}

/*
 * git's check of an old value against a ref's current one (cur, when
 * exists): "already exists" when none was asked for, "is at ... but
 * expected ..." when they differ; a missing ref is named (unresolved)
 * where git's lock found no file, else "missing".
 */
static int check_old_value(const struct object_id *cur, int exists, const struct object_id *old,
			   const char *unresolved, struct strbuf *err)
{
	if (exists ? oideq(cur, old) : is_null_oid(old))
		return 0;
	if (is_null_oid(old))
		strbuf_addstr(err, "reference already exists");
	else if (!exists && unresolved)
		strbuf_addf(err, "unable to resolve reference '%s'", unresolved);
	else if (!exists)
		strbuf_addf(err, "reference is missing but expected %s", oid_to_hex(old));
	else
		strbuf_addf(err, "is at %s but expected %s", oid_to_hex(cur), oid_to_hex(old));
	return -1;
}

/*
 * The check of the old value asked of a symref that is not followed
 * (no-deref, or HEAD beside a change of the symref it points to): the
 * value at the end of its chain, none for a missing end; a chain that
 * cannot be followed is an error. err has the "cannot lock ref" start.
 */
int ref_check_old_via(const char *symref, const struct object_id *old, struct strbuf *err)
{
	struct object_id cur;
	unsigned flags;

	if (!refs_resolve(symref, &cur, &flags)) {
		strbuf_addstr(err, "error reading reference");
		return -1;
	}
	return check_old_value(&cur, !is_null_oid(&cur), old, NULL, err);
}

/* HEAD's log line for a ref changed outside an update (a rename's
 * rollback): log_head_of() for that name alone. */
static void log_head_too(const char *real, const struct object_id *old_oid,
			 const struct object_id *new_oid, const char *msg)
{
	struct ref_update u = { .name = real, .real = (char *)real };
	log_head_of(&u, old_oid, new_oid, msg);
}

/* As git checks a value before writing it: the object must exist, and a
 * branch (or HEAD) may hold only a commit. */
static int check_new_value(const char *name, const struct object_id *oid, struct strbuf *err)
{
	enum object_type type;
	size_t size;

	if (odb_read_header(oid, &type, &size) < 0) {
		strbuf_addf(err, "cannot update ref '%s': trying to write ref '%s' with nonexistent object %s",
			    name, name, oid_to_hex(oid));
		return -1;
	}
	if (type != OBJ_COMMIT && (!strcmp(name, "HEAD") || starts_with(name, "refs/heads/"))) {
		strbuf_addf(err, "cannot update ref '%s': trying to write non-commit object %s to branch '%s'",
			    name, oid_to_hex(oid), name);
		return -1;
	}
	return 0;
}

/*
 * The first half of a change: u->real found, its lock taken and its
 * current value read and checked against u->old_oid; for an update, the
 * new value checked too. On failure err holds git's message and the
 * caller releases u. others: the names a transaction changes, which no
 * new ref may sit below or above (NULL for a change on its own).
 */
int ref_update_lock(struct ref_update *u, struct ref_names *others, struct strbuf *err)
{
	size_t base = err->len;
	int writes = u->has_new && !u->del, r;

	ref_update_look(u);
	if (update_target(u, err) < 0)
		return -1;
	if (!(u->flags & REF_AS_RENAME))
		strbuf_addf(err, "cannot lock ref '%s': ", u->name);
	/* as git: a ref that is not there must not be asked for an old value,
	 * and may not sit below or above another ref, nor another name of the
	 * same transaction (whatever the change: a verify or a deletion too) */
	if (!refs_resolve_from(u->via ? NULL : &u->first, u->real, 1, &u->cur, NULL)) {
		struct strbuf target = STRBUF_INIT;
		struct object_id oid;
		/* a file of garbage can be neither changed nor deleted */
		r = read_loose_ref_fresh(u->real, &oid, &target);
		strbuf_release(&target);
		if (r == -1) {
			strbuf_addf(err, "unable to resolve reference '%s': reference broken", u->real);
			return -1;
		}
		if (r == 1 && (u->flags & REF_NO_DEREF)) {
			;  /* a symref changed itself: its old value is checked below */
		} else if (u->flags & REF_AS_RENAME) {
			/* a rename has checked the name: empty directories
			 * in its place go, and the lock says what else is
			 * in the way */
			struct strbuf path = STRBUF_INIT;
			ref_path(&path, u->real);
			if (is_dir(path.buf))
				remove_empty_tree(path.buf);
			strbuf_release(&path);
		} else if (check_missing(u->real, u->has_old && !is_null_oid(&u->old_oid), others,
					 err) < 0) {
			return -1;
		}
	}
	if (!(u->lk = lock_ref(u->real, err)))
		return -1;
	r = read_current(u->real, &u->cur);
	u->exists = !r;
	if (r == -2 && writes) {
		strbuf_addf(err, "unable to resolve reference '%s': reference broken", u->real);
		return -1;
	}
	if (u->has_old && (u->flags & REF_NO_DEREF) && is_symref_file(u->real)) {
		if (ref_check_old_via(u->real, &u->old_oid, err) < 0)
			return -1;
	} else if (u->has_old && check_old_value(&u->cur, u->exists, &u->old_oid, u->real, err) < 0) {
		return -1;
	}
	if (!u->exists)
		oidclr(&u->cur);
	strbuf_setlen(err, base);
	if (!writes)
		return 0;
	/* already there: git neither writes nor logs */
	u->unchanged = u->exists && oideq(&u->cur, &u->new_oid) && !u->log_old &&
		       !is_symref_file(u->real) && !(u->flags & REF_SKIP_LOG);
	if (!u->unchanged && check_new_value(u->real, &u->new_oid, err) < 0)
		return -1;
	return 0;
}

/* The second half of an update (not a deletion): write, rename, log. */
/* An update's new value into its lock file; unsynced, the file is closed
 * for the caller to sync with others. */
int ref_update_stage(struct ref_update *u, int unsynced, struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT;
	int r = 0;

	if (u->unchanged)
		return unsynced ? lock_file_close_unsynced(u->lk) : 0;
	strbuf_addf(&line, "%s\n", oid_to_hex(&u->new_oid));
	if (write_in_full(u->lk->fd, line.buf, line.len) < 0 ||
	    (unsynced && lock_file_close_unsynced(u->lk) < 0)) {
		strbuf_addf(err, "cannot update ref '%s': %s", u->name, strerror(errno));
		r = -1;
	}
	strbuf_release(&line);
	return r;
}

/* The second half of an update (not a deletion), once staged: rename,
 * log. */
int ref_update_write(struct ref_update *u, struct strbuf *err)
{
	struct object_id old;

	if (u->unchanged) {
		/* a symref we went through still gets its log line, and so
		 * does HEAD when it is on the ref, as in git */
		lock_file_rollback(u->lk);
		log_via(u, &u->cur, &u->new_oid);
		log_head_of(u, &u->cur, &u->new_oid, u->msg);
		return 0;
	}
	oidcpy(&old, u->log_old ? u->log_old : &u->cur);
	if (u->flags & REF_AS_RENAME) {
		/* git writes a rename's new name as it writes no other ref:
		 * the log lines first, then the ref, which may then fail;
		 * HEAD's only when HEAD resolves to the name then, which a
		 * rename (the name deleted first) or a new name never does */
		reflog_append(u->real, &old, &u->new_oid, u->msg, 0);
		if (u->exists)
			log_head_of(u, &old, &u->new_oid, u->msg);
		if (lock_file_commit(u->lk) < 0) {
			strbuf_addf(err, "couldn't set '%s'", u->real);
			lock_file_rollback(u->lk);
			return -1;
		}
		refs_invalidate();
		return 0;
	}
	if (lock_file_commit(u->lk) < 0) {
		strbuf_addf(err, "cannot update ref '%s': %s", u->name, strerror(errno));
		lock_file_rollback(u->lk);
		return -1;
	}
	refs_invalidate();
	if (!(u->flags & REF_SKIP_LOG)) {
		reflog_append(u->real, &old, &u->new_oid, u->msg,
			      u->flags & REF_FORCE_CREATE_REFLOG);
		log_via(u, &old, &u->new_oid);
		log_head_of(u, &old, &u->new_oid, u->msg);
	} else if (u->exists) {
		/* a rollback: HEAD, resolving to the ref, still logs it */
		log_head_of(u, &old, &u->new_oid, u->msg);
	}
	return 0;
}

/* The second half of a deletion, once packed-refs has lost the ref. */
int ref_update_remove(struct ref_update *u, struct strbuf *err)
{
	static const struct object_id null_oid;
	struct strbuf path = STRBUF_INIT;
	int log_gone;

	ref_path(&path, u->real);
	if (unlink(path.buf) < 0 && errno != ENOENT) {
		strbuf_addf(err, "unable to unlink '%s': %s", path.buf, strerror(errno));
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&path);
	/* the log's empty directories go when it is gone, deleted here or
	 * moved away before (a rename's) */
	if (!(u->flags & REF_KEEP_LOG))
		delete_reflog(u->real);
	reflog_path(&path, u->real);
	log_gone = !file_exists(path.buf);
	strbuf_release(&path);

	/* as git: HEAD's log follows its branch to its end, even one that
	 * was not there (an unborn branch: null to null) */
	log_via(u, &u->cur, &null_oid);
	log_head_of(u, &u->cur, &null_oid, u->msg);
	lock_file_rollback(u->lk);
	prune_dirs(u->real, log_gone);
	refs_invalidate();
	return 0;
}

void ref_update_release(struct ref_update *u)
{
	if (u->lk)
		lock_file_rollback(u->lk);
	free(u->real);
	u->real = NULL;
	for (size_t i = 0; i < u->nhops; i++)
		free(u->hops[i]);
	free(u->hops);
	u->hops = NULL;
	u->nhops = 0;
	ref_file_release(&u->first);
}

static int do_update(const char *name, const struct object_id *new_oid,
		     const struct object_id *old_oid, const char *msg, unsigned flags,
		     struct strbuf *err, const struct object_id *log_old)
{
	struct ref_update u = { .name = name, .has_new = 1, .flags = flags, .msg = msg,
				.log_old = log_old };
	int r = -1;

	/* as git: a new value needs a well-formed name, a deletion a safe one */
	if (is_null_oid(new_oid) ? !refname_is_safe(name)
				 : check_refname_format(name, REFNAME_ALLOW_ONELEVEL) < 0) {
		strbuf_addf(err, "refusing to update ref with bad name '%s'", name);
		return -1;
	}
	oidcpy(&u.new_oid, new_oid);
	if (old_oid) {
		u.has_old = 1;
		oidcpy(&u.old_oid, old_oid);
	}
	if (ref_update_lock(&u, NULL, err) < 0)
		r = u.lk ? -1 : -2;
	else if (!ref_update_stage(&u, 0, err) && !ref_update_write(&u, err))
		r = 0;
	ref_update_release(&u);
	return r;
}

int refs_update_err(const char *name, const struct object_id *new_oid,
		    const struct object_id *old_oid, const char *msg, unsigned flags,
		    struct strbuf *err)
{
	return do_update(name, new_oid, old_oid, msg, flags, err, NULL);
}

int refs_update(const char *name, const struct object_id *new_oid,
		const struct object_id *old_oid, const char *reflog_msg)
{
	struct strbuf err = STRBUF_INIT;
	int r = refs_update_err(name, new_oid, old_oid, reflog_msg, 0, &err);
	if (r)
		error("%s", err.buf);
	strbuf_release(&err);
	return r;
}

/* --- packed-refs rewrites --- */

struct rewrite {
	struct strbuf *out;
	struct packed_refs *pr;
	const char **gone;    /* sorted */
	size_t gone_nr;
};

static int rewrite_one(struct ref_entry *e, void *data)
{
	struct rewrite *rw = data;
	struct object_id oid, peeled;
	enum object_type t;

	if (bsearch(&e->name, rw->gone, rw->gone_nr, sizeof(*rw->gone), cmp_strings))
		return 0;
	oidcpy(&oid, &e->oid);
	if (e->flags & REF_BAD_NAME) {
		/* git writes the null id for a badly named record here; we
		 * keep what the file said */
		struct ref_entry raw;
		if (!packed_refs_find(rw->pr, e->name, &raw))
			oidcpy(&oid, &raw.oid);
	}
	strbuf_addf(rw->out, "%s %s\n", oid_to_hex(&oid), e->name);
	if (e->flags & REF_KNOWS_PEELED) {
		if (!is_null_oid(&e->peeled))
			strbuf_addf(rw->out, "^%s\n", oid_to_hex(&e->peeled));
	} else if (!(e->flags & REF_ISBROKEN) && !peel_to_non_tag(&oid, &peeled, &t) &&
		   !oideq(&peeled, &oid)) {
		/* a file without the traits: peeled here, as git does */
		strbuf_addf(rw->out, "^%s\n", oid_to_hex(&peeled));
	}
	return 0;
}

/*
 * As git, a rewrite writes the whole file anew: git's header, every
 * record in name order (an unsorted file comes out sorted), and a ^ line
 * for each tag, looked up where the old file's traits did not promise
 * them. So branch -d, which always rewrites, also creates a file of just
 * the header where there was none.
 */
int packed_refs_remove(const char *const *names, size_t nr, int rewrite_always,
		       struct strbuf *err)
{
	struct packed_refs *pr;
	struct lock_file *lk;
	struct strbuf out = STRBUF_INIT;
	struct rewrite rw = { &out, NULL, NULL, 0 };
	int found = 0;
	char *path;

	path = xstrdup(common_path("packed-refs"));
	lk = new_lock();
	if (lock_file_acquire(lk, path, lock_timeout("core.packedrefstimeout", 1000)) < 0) {
		lock_file_error(err, path, errno);
		free(path);
		return -1;
	}
	/* read under the lock: the file may have changed since any look */
	pr = packed_refs_get_fresh();
	for (size_t i = 0; pr && i < nr; i++) {
		struct ref_entry e;
		if (!packed_refs_find(pr, names[i], &e))
			found = 1;
	}
	if (!found && !rewrite_always) {
		lock_file_rollback(lk);
		free(path);
		return 0;
	}
	strbuf_addstr(&out, "# pack-refs with: peeled fully-peeled sorted \n");
	if (pr) {
		rw.pr = pr;
		rw.gone = xmalloc(st_mult(nr ? nr : 1, sizeof(*rw.gone)));
		memcpy(rw.gone, names, nr * sizeof(*names));
		rw.gone_nr = nr;
		qsort(rw.gone, nr, sizeof(*rw.gone), cmp_strings);
		packed_refs_for_each(pr, "", rewrite_one, &rw);
		free(rw.gone);
	}
	if (write_in_full(lk->fd, out.buf, out.len) < 0 || lock_file_commit(lk) < 0) {
		strbuf_addf(err, "unable to write '%s': %s", path, strerror(errno));
		lock_file_rollback(lk);
		strbuf_release(&out);
		free(path);
		return -1;
	}
	strbuf_release(&out);
	free(path);
	packed_refs_forget();
	return 0;
}

int refs_delete_err(const char *name, const struct object_id *old_oid, unsigned flags,
		    const char *msg, struct strbuf *err)
{
	struct ref_update u = { .name = name, .has_new = 1, .del = 1, .flags = flags, .msg = msg };
	int r = -1;

	if (!refname_is_safe(name)) {
		strbuf_addf(err, "refusing to update ref with bad name '%s'", name);
		return -1;
	}
	/* an old value to check, the null id for "must not exist", as for
	 * an update */
	if (old_oid) {
		u.has_old = 1;
		oidcpy(&u.old_oid, old_oid);
	}
	if (!ref_update_lock(&u, NULL, err)) {
		strbuf_reset(err);
		if (!packed_refs_remove((const char *const *)&u.real, 1, 0, err) &&
		    !ref_update_remove(&u, err))
			r = 0;
	}
	ref_update_release(&u);
	return r;
}

int refs_delete_many(const char *const *names, size_t nr, unsigned flags)
{
	struct strbuf err = STRBUF_INIT;
	const char **sorted;
	int r = 0;

	if (!nr)
		return 0;
	/* git's packed-refs transaction refuses a name given twice, and
	 * then says so twice, the second time with nothing more */
	sorted = xmalloc(st_mult(nr, sizeof(*sorted)));
	memcpy(sorted, names, nr * sizeof(*sorted));
	qsort(sorted, nr, sizeof(*sorted), cmp_strings);
	for (size_t i = 1; i < nr; i++)
		if (!strcmp(sorted[i - 1], sorted[i])) {
			error("could not delete references: multiple updates for ref '%s' not allowed",
			      sorted[i]);
			error("could not delete references: ");
			free(sorted);
			return -1;
		}
	free(sorted);
	if (packed_refs_remove(names, nr, 1, &err) < 0) {
		if (nr == 1)
			error("could not delete reference %s: %s", names[0], err.buf);
		else
			error("could not delete references: %s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&err);
		if (refs_delete_err(names[i], NULL, flags, NULL, &err) < 0) {
			error("%s", err.buf);
			r = error("could not remove reference %s", names[i]);
		}
	}
	strbuf_release(&err);
	return r;
}

int refs_delete(const char *name, const struct object_id *old_oid)
{
	struct strbuf err = STRBUF_INIT;
	int r = refs_delete_err(name, old_oid, REF_NO_DEREF, NULL, &err);
	if (r)
		error("could not delete reference %s: %s", name, err.buf);
	strbuf_release(&err);
	return r;
}

/* --- symbolic refs --- */

int refs_update_symref(const char *name, const char *target, const char *reflog_msg)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT, path = STRBUF_INIT;
	struct lock_file *lk;
	struct object_id old, new_oid;
	struct ref_file f = { .target = STRBUF_INIT };
	int had_old;

	/* as git: a name that is no ref yet may not sit below or above a
	 * packed one (a loose one is in the way of the lock file) */
	ref_file_read(name, &f);
	if (f.r != 1 && !refs_resolve_from(&f, name, 1, &old, NULL) &&
	    check_packed_available(name, &err) < 0) {
		ref_file_release(&f);
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	ref_file_release(&f);
	if (!(lk = lock_ref(name, &err))) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	had_old = !read_current(name, &old);
	if (!had_old)
		oidclr(&old);
	strbuf_addf(&line, "ref: %s\n", target);
	/* as git, the log first (a failure there is only reported) */
	if (!refs_read(target, &new_oid))
		reflog_append(name, &old, &new_oid, reflog_msg, 0);
	/* as git: empty directories in the ref's place give way to it */
	ref_path(&path, name);
	if (is_dir(path.buf))
		remove_empty_tree(path.buf);
	if (write_in_full(lk->fd, line.buf, line.len) < 0 || lock_file_commit(lk) < 0) {
		error("unable to write symref for %s: %s", name, strerror(errno));
		lock_file_rollback(lk);
		strbuf_release(&line);
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&line);
	strbuf_release(&path);
	refs_invalidate();
	strbuf_release(&err);
	return 0;
}

/* --- rename and copy --- */

/* A log on its way from one name to another, as git moves it: aside
 * first, so that the old name may be a directory of the new or the other
 * way round. */
#define TMP_RENAMED_LOG "refs/.tmp-renamed-log"

/* Moves (or copies) from's log aside: 1, or 0 if it has none, or -1. */
static int stash_log(const char *from, int copy)
{
	struct strbuf a = STRBUF_INIT, tmp = STRBUF_INIT, buf = STRBUF_INIT;
	int ret = 1;

	reflog_path(&a, from);
	reflog_path(&tmp, TMP_RENAMED_LOG);
	if (!file_exists(a.buf)) {
		ret = 0;
	} else if (copy) {
		int fd = -1;
		if (strbuf_read_file(&buf, a.buf, 0) < 0 ||
		    (fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0 ||
		    write_in_full(fd, buf.buf, buf.len) < 0)
			ret = error("unable to copy logfile logs/%s to logs/" TMP_RENAMED_LOG ": %s",
				    from, strerror(errno));
		if (fd >= 0)
			close(fd);
	} else if (rename(a.buf, tmp.buf) < 0) {
		ret = error("unable to move logfile logs/%s to logs/" TMP_RENAMED_LOG ": %s",
			    from, strerror(errno));
	}
	strbuf_release(&a);
	strbuf_release(&tmp);
	strbuf_release(&buf);
	return ret;
}

/* The stashed log to name's place: its directories are made, and a
 * directory in the way goes if it holds nothing but directories. */
static int place_log(const char *to)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT;
	int ret = 0, e = 0;

	reflog_path(&path, to);
	reflog_path(&tmp, TMP_RENAMED_LOG);
	for (int tries = 0; tries < 3; tries++) {
		if (!rename(tmp.buf, path.buf)) {
			e = 0;
			break;
		}
		e = errno;
		if (e == ENOENT)
			mkdir_leading(path.buf);
		else if (e == EISDIR || e == ENOTEMPTY || e == EEXIST || e == ENOTDIR)
			remove_empty_tree(path.buf);
		else
			break;
	}
	if (e == EISDIR || e == ENOTEMPTY || e == EEXIST || e == ENOTDIR)
		ret = error("directory not empty: %s", path.buf);
	else if (e)
		ret = error("unable to move logfile %s to %s: %s", tmp.buf, path.buf, strerror(e));
	strbuf_release(&path);
	strbuf_release(&tmp);
	return ret;
}

/* The stashed log back to from's place (a copy's is simply dropped). */
static void unstash_log(const char *from, int copy)
{
	struct strbuf a = STRBUF_INIT, tmp = STRBUF_INIT;

	reflog_path(&a, from);
	reflog_path(&tmp, TMP_RENAMED_LOG);
	if (copy)
		unlink(tmp.buf);
	else if (rename(tmp.buf, a.buf) < 0 &&
		 (errno != ENOENT || mkdir_leading(a.buf) < 0 || rename(tmp.buf, a.buf) < 0))
		error("unable to restore logfile %s from logs/" TMP_RENAMED_LOG ": %s", from,
		      strerror(errno));
	strbuf_release(&a);
	strbuf_release(&tmp);
}

/* The log at to's place back to from's (over it, for a copy). */
static void restore_log(const char *from, const char *to)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	reflog_path(&a, from);
	reflog_path(&b, to);
	if (file_exists(b.buf) && rename(b.buf, a.buf) < 0 &&
	    (errno != ENOENT || mkdir_leading(a.buf) < 0 || rename(b.buf, a.buf) < 0))
		error("unable to restore logfile %s from %s: %s", from, to, strerror(errno));
	strbuf_release(&a);
	strbuf_release(&b);
}

int refs_copy_or_rename(const char *from, const char *to, const char *msg, int copy)
{
	struct object_id oid, dummy;
	struct strbuf err = STRBUF_INIT, target = STRBUF_INIT;
	unsigned flags;
	int r, to_exists;

	if (read_loose_ref_fresh(from, &dummy, &target) == 1) {
		strbuf_release(&target);
		return error("refname %s is a symbolic ref, %s it is not supported",
			     from, copy ? "copying" : "renaming");
	}
	strbuf_release(&target);
	if (!refs_resolve_reading(from, &oid, &flags))
		return error("refname %s not found", from);
	/* the new name must be free, but for the old one */
	if (check_available(to, from, NULL, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	/* a branch at the new name goes once the old one is deleted */
	to_exists = !copy && strcmp(from, to) && !refs_read(to, &dummy);
	/* a rename onto the same name too: git deletes the old ref (from
	 * packed-refs as well) and writes the new one loose */
	if (strcmp(from, to) || !copy) {
		int stashed = stash_log(from, copy), failed = 0;
		if (stashed < 0)
			return -1;
		if (!copy && refs_delete_err(from, NULL, REF_NO_DEREF | REF_KEEP_LOG, msg, &err) < 0) {
			struct strbuf again = STRBUF_INIT;
			struct lock_file *lk;
			error("%s", err.buf);
			error("unable to delete old %s", from);
			if (stashed)
				unstash_log(from, 0);
			/* as git, put the old ref back: written loose (a packed
			 * one too), unlogged but for HEAD's log when HEAD
			 * follows it; the lock tells first if we can */
			if (!(lk = lock_ref(from, &again)))
				error("unable to lock %s for rollback: %s", from, again.buf);
			else {
				lock_file_rollback(lk);
				strbuf_reset(&again);
				if (refs_update_err(from, &oid, NULL, NULL, REF_NO_DEREF | REF_SKIP_LOG,
						    &again) < 0)
					error("unable to write current sha1 into %s: %s", from, again.buf);
			}
			strbuf_release(&again);
			strbuf_release(&err);
			return -1;
		}
		if (to_exists && refs_delete_err(to, NULL, REF_NO_DEREF, NULL, &err) < 0) {
			error("%s", err.buf);
			error("unable to delete existing %s", to);
			failed = 1;
		} else if (stashed && place_log(to) < 0)
			failed = 1;
		if (failed) {
			/* as git: the old ref written back unlogged (HEAD,
			 * on a ref that is gone, does not resolve then; a
			 * copy's source is still there), then its log */
			strbuf_reset(&err);
			if (copy)
				log_head_too(from, &oid, &oid, NULL);
			else if (refs_update_err(from, &oid, NULL, NULL, REF_NO_DEREF | REF_SKIP_LOG,
						 &err) < 0)
				error("unable to write current sha1 into %s: %s", from, err.buf);
			if (stashed)
				unstash_log(from, copy);
			strbuf_release(&err);
			return -1;
		}
	}
	strbuf_reset(&err);
	r = do_update(to, &oid, NULL, msg, REF_NO_DEREF | REF_AS_RENAME, &err, &oid);
	if (r) {
		/* as git: the old ref written back unlogged (a copy's only
		 * in HEAD's log, HEAD resolving), and the log at the new
		 * name moved back to the old one's place, a copy's too */
		if (r == -2)
			error("unable to %s '%s' to '%s': %s", copy ? "copy" : "rename", from, to,
			      err.buf);
		else
			error("unable to write current sha1 into %s: %s", to, err.buf);
		if (strcmp(from, to)) {
			strbuf_reset(&err);
			if (copy)
				log_head_too(from, &oid, &oid, NULL);
			else if (refs_update_err(from, &oid, NULL, NULL,
						 REF_NO_DEREF | REF_SKIP_LOG, &err) < 0)
				error("unable to write current sha1 into %s: %s", from, err.buf);
			restore_log(from, to);
		}
		r = -1;
	}
	strbuf_release(&err);
	return r;
}

int refs_rename(const char *from, const char *to, const char *reflog_msg)
{
	return refs_copy_or_rename(from, to, reflog_msg, 0);
}

/* --- clone: many refs into packed-refs --- */

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct ref_entry *)a)->name, ((const struct ref_entry *)b)->name);
}

struct entries {
	struct ref_entry *items;
	size_t nr, alloc;
};

static void add_entry(struct entries *l, const struct ref_entry *e)
{
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr] = *e;
	l->items[l->nr].name = xstrdup(e->name);
	l->nr++;
}

static int collect_packed(struct ref_entry *e, void *data)
{
	add_entry(data, e);
	return 0;
}

int refs_write_packed(const struct ref_entry *refs, size_t nr)
{
	struct packed_refs *pr;
	struct lock_file *lk = new_lock();
	struct entries l = { NULL, 0, 0 };
	struct strbuf out = STRBUF_INIT;
	const char *path = common_path("packed-refs");
	char *pathdup = xstrdup(path);
	int ret = 0;

	if (lock_file_acquire(lk, pathdup, lock_timeout("core.packedrefstimeout", 1000)) < 0) {
		lock_file_error(&out, pathdup, errno);
		error("%s", out.buf);
		strbuf_release(&out);
		free(pathdup);
		return -1;
	}
	pr = packed_refs_get_fresh();
	if (pr)
		packed_refs_for_each(pr, "", collect_packed, &l);
	for (size_t i = 0; i < nr; i++)
		add_entry(&l, &refs[i]);
	/* stable, so that a later entry with the same name comes last */
	for (size_t i = 1; i < l.nr; i++)
		for (size_t j = i; j > 0 && cmp_entry(&l.items[j - 1], &l.items[j]) > 0; j--) {
			struct ref_entry t = l.items[j];
			l.items[j] = l.items[j - 1];
			l.items[j - 1] = t;
		}
	strbuf_addstr(&out, "# pack-refs with: peeled fully-peeled sorted \n");
	for (size_t i = 0; i < l.nr; i++) {
		struct ref_entry *e = &l.items[i];
		/* a later entry with the same name wins */
		if (i + 1 < l.nr && !strcmp(e->name, l.items[i + 1].name))
			continue;
		strbuf_addf(&out, "%s %s\n", oid_to_hex(&e->oid), e->name);
		if ((e->flags & REF_KNOWS_PEELED) && !is_null_oid(&e->peeled))
			strbuf_addf(&out, "^%s\n", oid_to_hex(&e->peeled));
	}
	if (write_in_full(lk->fd, out.buf, out.len) < 0 || lock_file_commit(lk) < 0) {
		ret = error("unable to write '%s': %s", pathdup, strerror(errno));
		lock_file_rollback(lk);
	}
	for (size_t i = 0; i < l.nr; i++)
		free((char *)l.items[i].name);
	free(l.items);
	strbuf_release(&out);
	free(pathdup);
	packed_refs_forget();
	return ret;
}
