/* thread-pool.h: one small pool of worker threads with a shared FIFO work
 * queue, for the few commands where threads pay (fsck, index-pack).
 *
 * Tasks may add further tasks (a delta base hands its children out).
 * thread_pool_wait() returns when the queue is empty and no task runs.
 * With one thread no worker is created: tasks run in the caller's thread
 * inside thread_pool_wait(), in FIFO order, so results are deterministic. */
#ifndef LIB_THREAD_POOL_H
#define LIB_THREAD_POOL_H

#include <pthread.h>
#include <stddef.h>

struct thread_pool;

/* worker is 0..nthreads-1: an index for per-thread scratch state. */
typedef void (*thread_pool_fn)(void *arg, int worker);

/* MINI_GIT_THREADS=N if set and positive, else the number of online CPUs
 * (at least 1, at most 64). Read once. */
int thread_pool_default_threads(void);

/* nthreads <= 0 means thread_pool_default_threads(). */
struct thread_pool *thread_pool_new(int nthreads);
int thread_pool_threads(const struct thread_pool *p);

/* Queue fn(arg). Safe from any thread, including from inside a task. */
void thread_pool_add(struct thread_pool *p, thread_pool_fn fn, void *arg);

/* Tasks queued and not yet started (a snapshot, read without the lock): a
 * task may run a child inline rather than queue it when this is large
 * (bounds memory held by queued work). */
size_t thread_pool_pending(struct thread_pool *p);

/* Block until every queued task, and every task they queue, has finished. */
void thread_pool_wait(struct thread_pool *p);

/* Waits, then stops and joins the workers. NULL is a no-op. */
void thread_pool_free(struct thread_pool *p);

/* pthread_create() with an 8 MiB stack, as glibc gives by default from
 * RLIMIT_STACK; musl's default is 128 KiB. Every thread mini-git starts
 * goes through here, so stack use does not depend on the C library. */
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
