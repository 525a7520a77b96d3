/* t-fd-batch: descriptors closed together at a batch's end, and only
 * those given to it. */
#include "tap.h"
#include "lib/fd-batch.h"
#include <pthread.h>
#include <sys/resource.h>

static int is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static int open_null(void)
{
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void *other_thread(void *arg)
{
	int fd = open_null();

	/* No batch in this thread: closed at once, whatever main holds. */
	fd_close_batched(fd);
	*(int *)arg = fd >= 0 && !is_open(fd);
	return NULL;
}

int main(void)
{
	struct fd_batch b, inner;
	int fds[100], keep, ok, n, i;
	pthread_t t;

	/* Without a batch, fd_close_batched() is close(). */
	fds[0] = open_null();
	fd_close_batched(fds[0]);
	check(fds[0] >= 0 && !is_open(fds[0]), "no batch: closed at once");

	/* Held to the end; a descriptor of someone else's in between stays
	 * open, though it splits the run. */
	fd_batch_begin(&b);
	for (i = 0; i < 3; i++)
		fds[i] = open_null();
	keep = open_null();
	for (i = 3; i < 6; i++)
		fds[i] = open_null();
	for (i = 5; i >= 0; i--)
		fd_close_batched(fds[i]);
	for (i = 0, ok = 1; i < 6; i++)
		ok &= is_open(fds[i]);
	check(ok, "batch: all six still open before its end");
	fd_batch_end(&b);
	for (i = 0, ok = 1; i < 6; i++)
		ok &= !is_open(fds[i]);
	check(ok, "batch: all six closed at its end");
	check(is_open(keep), "batch: the descriptor between them, not given, is still open");
	close(keep);

	/* Nested: the inner end closes nothing, the outer one all. */
	fd_batch_begin(&b);
	fds[0] = open_null();
	fd_close_batched(fds[0]);
	fd_batch_begin(&inner);
	fds[1] = open_null();
	fd_close_batched(fds[1]);
	fd_batch_end(&inner);
	check(is_open(fds[0]) && is_open(fds[1]), "nested: the inner end closes nothing");
	fd_batch_end(&b);
	check(!is_open(fds[0]) && !is_open(fds[1]), "nested: the outer end closes both");

	/* More than FD_BATCH_MAX: the oldest go when it fills. */
	fd_batch_begin(&b);
	for (i = 0; i < FD_BATCH_MAX + 1; i++) {
		fds[i] = open_null();
		fd_close_batched(fds[i]);
	}
	for (i = 0, n = 0; i < FD_BATCH_MAX + 1; i++)
		n += is_open(fds[i]);
	check(n == 1, "full: %d of %d held (1 wanted)", n, FD_BATCH_MAX + 1);
	fd_batch_end(&b);
	check(!is_open(fds[FD_BATCH_MAX]), "full: the last closed at the end");

	/* Another thread has no batch of its own. */
	fd_batch_begin(&b);
	fds[0] = open_null();
	fd_close_batched(fds[0]);
	ok = 0;
	if (pthread_create(&t, NULL, other_thread, &ok) == 0)
		pthread_join(t, NULL);
	check(ok, "another thread: closes at once");
	check(is_open(fds[0]), "another thread: this thread's batch still held");

	/* fd_batch_flush: what an open() failing with EMFILE asks. */
	check(fd_batch_flush() == 1 && !is_open(fds[0]), "flush: closes what is held");
	check(fd_batch_flush() == 0, "flush: 0 when nothing is held");
	fd_batch_end(&b);
	check(fd_batch_flush() == 0, "flush: 0 with no batch");

	/* fd_open: with no descriptor left, it closes what the batch holds
	 * and opens; with nothing held, EMFILE is the answer. */
	{
		struct rlimit old, low;
		int top = open_null(), last = -1;

		close(top);
		getrlimit(RLIMIT_NOFILE, &old);
		low = old;
		low.rlim_cur = top + 4;
		setrlimit(RLIMIT_NOFILE, &low);
		fd_batch_begin(&b);
		for (i = 0; i < 4; i++) {
			fds[i] = open_null();
			fd_close_batched(fds[i]);
		}
		check(open_null() < 0 && errno == EMFILE, "fd_open: the table is full");
		last = fd_open("/dev/null", O_RDONLY | O_CLOEXEC, 0);
		check(last >= 0, "fd_open: opens once the batch is closed");
		/* the lowest number went to the new descriptor */
		check(last == fds[0] && !is_open(fds[1]) && !is_open(fds[3]), "fd_open: the batch was closed");
		for (i = 0; i < 3; i++)
			fds[i] = open_null();
		errno = 0;
		n = fd_open("/dev/null", O_RDONLY | O_CLOEXEC, 0);
		check(n < 0 && errno == EMFILE, "fd_open: EMFILE when the batch holds nothing");
		for (i = 0; i < 3; i++)
			close(fds[i]);
		close(last);
		fd_batch_end(&b);
		setrlimit(RLIMIT_NOFILE, &old);
	}
	return tap_done();
}
