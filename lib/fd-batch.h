/* fd-batch.h: closing many read-only descriptors in few system calls. */
#ifndef LIB_FD_BATCH_H
#define LIB_FD_BATCH_H

/*
 * A loop that opens, reads and closes many small files (a directory of
 * loose refs) opens a batch first: while it is open, fd_close_batched()
 * keeps the calling thread's descriptors and closes them together, each
 * run of consecutive numbers with one close_range(). A descriptor waits
 * only for the batch's end, or for FD_BATCH_MAX others. Batches nest (the
 * outermost one closes); each thread has its own.
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
/* Close what the thread's batch holds now (an open() that failed with
 * EMFILE may then be tried again). 1 if it held any. */
int fd_batch_flush(void);

#endif
