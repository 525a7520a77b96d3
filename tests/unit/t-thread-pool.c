/* t-thread-pool.c: the pool runs every task once, tasks may queue tasks,
 * wait() returns only when all are done, one thread runs inline in FIFO
 * order, and MINI_GIT_THREADS is honoured. Prints TAP. */
#include "lib/util.h"
#include "lib/thread-pool.h"

static int test_no;

static int check(int ok, const char *what)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++test_no, what);
	return ok;
}

struct counter {
	struct thread_pool *pool;
	int hits[1000];
	int total;
	int order[64], nr_order;
};

static void bump(void *arg, int worker)
{
	int *slot = arg;
	(void)worker;
	__atomic_add_fetch(slot, 1, __ATOMIC_RELAXED);
}

struct spawn {
	struct counter *c;
	int depth;
};

/* A binary tree of tasks 10 deep: 2^11 - 1 tasks in all. */
static void spawner(void *arg, int worker)
{
	struct spawn *s = arg;
	(void)worker;
	__atomic_add_fetch(&s->c->total, 1, __ATOMIC_RELAXED);
	if (s->depth < 10) {
		for (int i = 0; i < 2; i++) {
			struct spawn *k = xmalloc(sizeof(*k));
			k->c = s->c;
			k->depth = s->depth + 1;
			thread_pool_add(s->c->pool, spawner, k);
		}
	}
	free(s);
}

struct ordered {
	struct counter *c;
	int n;
};

static void record(void *arg, int worker)
{
	struct ordered *o = arg;
	if (worker != 0)
		o->c->nr_order = -1000;
	o->c->order[o->c->nr_order++] = o->n;
}

static void run_with(int threads)
{
	struct counter *c = xcalloc(1, sizeof(*c));
	struct thread_pool *p = thread_pool_new(threads);
	struct spawn *s = xmalloc(sizeof(*s));
	char what[100];
	int ok = 1;

	c->pool = p;
	check(thread_pool_threads(p) == threads, "pool has the threads asked for");
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 1000; i++)
			thread_pool_add(p, bump, &c->hits[i]);
	thread_pool_wait(p);
	for (int i = 0; i < 1000; i++)
		ok &= c->hits[i] == 3;
	snprintf(what, sizeof(what), "%d thread(s): 3000 tasks each ran once", threads);
	check(ok, what);
	s->c = c;
	s->depth = 0;
	thread_pool_add(p, spawner, s);
	thread_pool_wait(p);
	snprintf(what, sizeof(what), "%d thread(s): tasks queued by tasks finish before wait returns", threads);
	check(c->total == 2047, what);
	thread_pool_free(p);
	free(c);
}

int main(void)
{
	struct counter *c = xcalloc(1, sizeof(*c));
	struct ordered o[64];
	struct thread_pool *p;
	int ok = 1;

	setenv("MINI_GIT_THREADS", "3", 1);
	check(thread_pool_default_threads() == 3, "MINI_GIT_THREADS=3 gives 3 threads");
	p = thread_pool_new(0);
	check(thread_pool_threads(p) == 3, "a pool of 0 threads takes the default");
	thread_pool_free(p);
	run_with(1);
	run_with(2);
	run_with(7);

	p = thread_pool_new(1);
	c->pool = p;
	for (int i = 0; i < 64; i++) {
		o[i].c = c;
		o[i].n = i;
		thread_pool_add(p, record, &o[i]);
	}
	check(c->nr_order == 0, "one thread: nothing runs before wait");
	thread_pool_wait(p);
	for (int i = 0; i < 64; i++)
		ok &= c->order[i] == i;
	check(c->nr_order == 64 && ok, "one thread: FIFO order, in the caller, worker 0");
	thread_pool_free(p);
	free(c);

	thread_pool_free(NULL);
	check(1, "freeing NULL is a no-op");
	check(thread_pool_default_threads() >= 1 && thread_pool_default_threads() <= 64,
	      "default thread count is within 1..64");
	printf("1..%d\n", test_no);
	return 0;
}
