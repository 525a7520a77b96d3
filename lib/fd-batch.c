/* fd-batch.c: the batches of fd-batch.h. */
#include "lib/util.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <sys/syscall.h>

static __thread struct fd_batch *current;

void fd_batch_begin(struct fd_batch *b)
{
	b->nr = 0;
	if (!current)
		current = b;
}

static void close_run(int lo, int hi)
{
	/* Every number from lo to hi is a descriptor of this batch, so the
	 * range holds nobody else's. Kernels before 5.9 lack the call. */
#ifdef SYS_close_range
	if (lo < hi && !syscall(SYS_close_range, (unsigned)lo, (unsigned)hi, 0u))
		return;
#endif
	for (int fd = lo; fd <= hi; fd++)
		close(fd);
}

static void flush(struct fd_batch *b)
{
	unsigned i, j;

	/* Insertion sort: at most FD_BATCH_MAX, mostly in order already. */
	for (i = 1; i < b->nr; i++) {
		int v = b->fds[i];
		for (j = i; j > 0 && b->fds[j - 1] > v; j--)
			b->fds[j] = b->fds[j - 1];
		b->fds[j] = v;
	}
	for (i = 0; i < b->nr; i = j) {
		for (j = i + 1; j < b->nr && b->fds[j] == b->fds[j - 1] + 1; j++)
			;
		close_run(b->fds[i], b->fds[j - 1]);
	}
	b->nr = 0;
}

void fd_batch_end(struct fd_batch *b)
{
	if (current != b)
		return;   /* an inner batch: the outer one closes */
	flush(b);
	current = NULL;
}

void fd_close_batched(int fd)
{
	struct fd_batch *b = current;

	if (!b) {
		close(fd);
		return;
	}
	if (b->nr == FD_BATCH_MAX)
		flush(b);
	b->fds[b->nr++] = fd;
}

int fd_batch_flush(void)
{
	if (!current || !current->nr)
		return 0;
	flush(current);
	return 1;
}

int fd_open(const char *path, int flags, mode_t mode)
{
	int fd, flushed = 0;

	for (;;) {
		fd = open(path, flags, mode);
		if (fd >= 0 || (errno != EINTR && errno != EMFILE))
			return fd;
		if (errno == EMFILE) {
			if (flushed || !fd_batch_flush()) {
				errno = EMFILE;
				return -1;
			}
			flushed = 1;
		}
	}
}
