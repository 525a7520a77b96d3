/* thread-pool.c: N workers around one mutex-protected FIFO. Tasks are few
 * and coarse (a delta tree, a slice of a pack), so one lock is enough. */
#include "lib/util.h"
#include "lib/thread-pool.h"
#include "lib/malloc-arena.h"
#include "lib/fd-batch.h"
#include <pthread.h>

struct task {
	thread_pool_fn fn;
	void *arg;
	struct task *next;
};

struct thread_pool {
	pthread_mutex_t lock;
	pthread_cond_t work;     /* a task was queued, or stopping */
	pthread_cond_t idle;     /* queue empty and nothing running */
	struct task *head, *tail, *free_tasks;
	size_t pending, running;
	int nthreads, stopping;
	pthread_t *threads;
};

int thread_pool_default_threads(void)
{
	static int n;
	if (!n) {
		const char *e = getenv("MINI_GIT_THREADS");
		long v = e ? strtol(e, NULL, 10) : 0;
		if (v <= 0)
			v = sysconf(_SC_NPROCESSORS_ONLN);
		if (v <= 0)
			v = 1;
		if (v > 64)
			v = 64;
		n = (int)v;
	}
	return n;
}

/* Called with the lock held; returns with it held. */
static void run_one(struct thread_pool *p, int worker)
{
	struct task *t = p->head;
	thread_pool_fn fn = t->fn;
	void *arg = t->arg;

	p->head = t->next;
	if (!p->head)
		p->tail = NULL;
	__atomic_store_n(&p->pending, p->pending - 1, __ATOMIC_RELAXED);
	p->running++;
	t->next = p->free_tasks;
	p->free_tasks = t;
	pthread_mutex_unlock(&p->lock);
	fn(arg, worker);
	pthread_mutex_lock(&p->lock);
	p->running--;
	if (!p->head && !p->running)
		pthread_cond_broadcast(&p->idle);
}

struct worker_arg {
	struct thread_pool *p;
	int id;
};

static void *worker_main(void *v)
{
	struct worker_arg *wa = v;
	struct thread_pool *p = wa->p;
	int id = wa->id;

	free(wa);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->head && !p->stopping)
			pthread_cond_wait(&p->work, &p->lock);
		if (!p->head)
			break;
		run_one(p, id);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int err;

	if (malloc_arena_close)
		malloc_arena_close();
	/* a thread cannot make room in this one's batch (fd_open) */
	fd_batch_flush();
	err = pthread_attr_init(&attr);
	if (err)
		return err;
	err = pthread_attr_setstacksize(&attr, 8u << 20);
	if (!err)
		err = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

struct thread_pool *thread_pool_new(int nthreads)
{
	struct thread_pool *p = xcalloc(1, sizeof(*p));

	if (nthreads <= 0)
		nthreads = thread_pool_default_threads();
	p->nthreads = nthreads;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->idle, NULL);
	if (nthreads > 1) {
		p->threads = xcalloc(nthreads, sizeof(*p->threads));
		for (int i = 0; i < nthreads; i++) {
			struct worker_arg *wa = xmalloc(sizeof(*wa));
			wa->p = p;
			wa->id = i;
			if (thread_start(&p->threads[i], worker_main, wa))
				die("unable to create thread");
		}
	}
	return p;
}

int thread_pool_threads(const struct thread_pool *p)
{
	return p->nthreads;
}

void thread_pool_add(struct thread_pool *p, thread_pool_fn fn, void *arg)
{
	struct task *t;

	pthread_mutex_lock(&p->lock);
	t = p->free_tasks;
	if (t)
		p->free_tasks = t->next;
	else
		t = xmalloc(sizeof(*t));
	t->fn = fn;
	t->arg = arg;
	t->next = NULL;
	if (p->tail)
		p->tail->next = t;
	else
		p->head = t;
	p->tail = t;
	__atomic_store_n(&p->pending, p->pending + 1, __ATOMIC_RELAXED);
	if (p->threads)
		pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

/* Read without the lock: callers use it as a hint, once per delta child,
 * and taking the lock there made the threads queue on it. */
size_t thread_pool_pending(struct thread_pool *p)
{
	return __atomic_load_n(&p->pending, __ATOMIC_RELAXED);
}

void thread_pool_wait(struct thread_pool *p)
{
	pthread_mutex_lock(&p->lock);
	if (!p->threads) {
		while (p->head)
			run_one(p, 0);
	} else {
		while (p->head || p->running)
			pthread_cond_wait(&p->idle, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
}

void thread_pool_free(struct thread_pool *p)
{
	struct task *t;

	if (!p)
		return;
	thread_pool_wait(p);
	pthread_mutex_lock(&p->lock);
	p->stopping = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; p->threads && i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	while ((t = p->free_tasks)) {
		p->free_tasks = t->next;
		free(t);
	}
	free(p->threads);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->idle);
	free(p);
}
