/* lockfile.c: <path>.lock created with O_EXCL, committed by rename. Locks
 * still held when the process exits or is killed by a signal are removed,
 * so a crash of ours never leaves a stale lock behind. */
#include "lib/lockfile.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

static struct lock_file *active_locks;
static int handlers_installed;

static void remove_locks(void)
{
	for (struct lock_file *lk = active_locks; lk; lk = lk->next)
		if (lk->active) {
			if (lk->fd >= 0)
				close(lk->fd);
			unlink(lk->path.buf);
			lk->active = 0;
		}
}

static void on_signal(int sig)
{
	remove_locks();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE };
	if (handlers_installed)
		return;
	handlers_installed = 1;
	atexit(remove_locks);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], on_signal);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int try_create(struct lock_file *lk)
{
	lk->fd = fd_open(lk->path.buf, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	return lk->fd;
}

int lock_file_acquire(struct lock_file *lk, const char *path, long timeout_ms)
{
	long backoff = 1, waited = 0;
	static int seeded;

	install_handlers();
	if (!lk->path.alloc && !lk->next && lk != active_locks) {
		/* first use of this struct: put it on the cleanup list */
		strbuf_init(&lk->path, 0);
		lk->next = active_locks;
		active_locks = lk;
	}
	strbuf_reset(&lk->path);
	strbuf_addf(&lk->path, "%s.lock", path);
	lk->active = 0;
	for (;;) {
		long wait;
		if (try_create(lk) >= 0) {
			lk->active = 1;
			return lk->fd;
		}
		if (errno != EEXIST || waited >= timeout_ms)
			return -1;
		/* git's schedule: exponential backoff with jitter, capped at 1 s */
		if (!seeded) {
			srand((unsigned)getpid() ^ (unsigned)time(NULL));
			seeded = 1;
		}
		wait = (750 + rand() % 500) * backoff / 1000;
		if (wait < 1)
			wait = 1;
		if (wait > timeout_ms - waited)
			wait = timeout_ms - waited;
		sleep_ms(wait);
		waited += wait;
		backoff = backoff * 2 > 1000 ? 1000 : backoff * 2;
	}
}

void lock_file_error(struct strbuf *sb, const char *path, int err)
{
	struct strbuf abs = STRBUF_INIT;
	/* git names the file by its path as the command spelled it, put
	 * after the current directory when relative and never tidied: a git
	 * dir found as "." (from inside it, or a bare repository's top) or
	 * given as "../.git/" shows as "<cwd>/./packed-refs.lock" or
	 * "<cwd>/../.git//packed-refs.lock". */
	if (*path != '/') {
		struct stat cwd_st, pwd_st;
		const char *pwd = getenv("PWD");
		if (strbuf_getcwd(&abs) < 0)
			die_errno("unable to get current working directory");
		/* $PWD when it is the same directory, as git prefers it */
		if (pwd && *pwd == '/' && strcmp(pwd, abs.buf) &&
		    !stat(abs.buf, &cwd_st) && (cwd_st.st_dev || cwd_st.st_ino) &&
		    !stat(pwd, &pwd_st) && pwd_st.st_dev == cwd_st.st_dev &&
		    pwd_st.st_ino == cwd_st.st_ino) {
			strbuf_reset(&abs);
			strbuf_addstr(&abs, pwd);
		}
		if (abs.len && abs.buf[abs.len - 1] != '/')
			strbuf_addch(&abs, '/');
	}
	strbuf_addstr(&abs, path);
	if (err == EEXIST)
		strbuf_addf(sb, "Unable to create '%s.lock': %s.\n\n"
			    "Another git process seems to be running in this repository, e.g.\n"
			    "an editor opened by 'git commit'. Please make sure all processes\n"
			    "are terminated then try again. If it still fails, a git process\n"
			    "may have crashed in this repository earlier:\n"
			    "remove the file manually to continue.", abs.buf, strerror(err));
	else
		strbuf_addf(sb, "Unable to create '%s.lock': %s", abs.buf, strerror(err));
	strbuf_release(&abs);
}

const char *lock_file_target(struct lock_file *lk, struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_add(sb, lk->path.buf, lk->path.len - 5);
	return sb->buf;
}

int lock_file_close_unsynced(struct lock_file *lk)
{
	int r = 0;
	if (lk->fd >= 0)
		r = close(lk->fd);
	lk->fd = -1;
	return r;
}

int lock_file_commit(struct lock_file *lk)
{
	struct strbuf target = STRBUF_INIT;
	int ret = 0;
	if (!lk->active)
		return -1;
	if (lk->fd >= 0) {
		if (fsync(lk->fd) < 0 || close(lk->fd) < 0)
			ret = -1;
		lk->fd = -1;
	}
	lock_file_target(lk, &target);
	if (!ret && rename(lk->path.buf, target.buf) < 0)
		ret = -1;
	if (ret) {
		int e = errno;
		unlink(lk->path.buf);
		errno = e;
	}
	lk->active = 0;
	strbuf_release(&target);
	return ret;
}

void lock_file_rollback(struct lock_file *lk)
{
	if (!lk->active)
		return;
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
	unlink(lk->path.buf);
	lk->active = 0;
}
