/* fd-batch.h: closing many read-only descriptors in few system calls. */
#ifndef LIB_FD_BATCH_H
#define LIB_FD_BATCH_H

#include <sys/types.h>

/*
 * A descriptor opened only to read or map a file need not be closed the
 * moment it is done with. While a batch is open, fd_close_batched() keeps
 * the calling thread's descriptors and closes them together, each run of
 * consecutive numbers with one close_range(). A descriptor waits only for
 * the batch's end, or for FD_BATCH_MAX others. Batches nest (the
 * outermost one closes); each thread has its own.
 *
 * mini-git's main() opens one batch for the whole run and never ends it:
 * a command's last read-only descriptors are closed by exit, and the
 * files it reads cost an open() each and no close(). Descriptors that
 * were written to are closed at once, so that close() can report errors.
 * fd_open() makes room when the process runs out of descriptors.
 */
#define FD_BATCH_MAX 64

struct fd_batch {
	int fds[FD_BATCH_MAX];
	unsigned nr;
};

void fd_batch_begin(struct fd_batch *b);
void fd_batch_end(struct fd_batch *b);
/* close(fd), now or at the end of the thread's batch. */
void fd_close_batched(int fd);
/* open(path, flags, mode), again after an interrupted call, and once more
 * after fd_batch_flush() when the process has no descriptor left. */
int fd_open(const char *path, int flags, mode_t mode);
/* Close what the thread's batch holds now (an open() that failed with
 * EMFILE may then be tried again). 1 if it held any. */
int fd_batch_flush(void);

#endif
