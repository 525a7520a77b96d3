/* malloc-arena.c: a command's first allocations come from a static arena,
 * so a command that allocates little makes no system call for memory.
 *
 * glibc's malloc makes three calls the first time it runs (getrandom for
 * its cache key, then two brk to make the heap); musl's maps pages for its
 * size classes. `branch` allocates a few kilobytes in all. So this file
 * defines malloc, free, calloc, realloc and reallocarray for the mini-git
 * binary: a block of up to ARENA_BLOCK_MAX bytes is cut from ARENA_SIZE
 * bytes of .bss (zero pages, mapped by the kernel on first touch without
 * a call), and everything else goes to the C library's allocator under
 * its internal names. The aligned allocators (memalign and kin) are the C
 * library's own; free() hands their blocks back to it.
 *
 * A block carries its size in a 16-byte header, which keeps the 16-byte
 * alignment malloc promises. Freeing the newest block gives its space back
 * and realloc() grows the newest block in place, which covers a growing
 * buffer and short-lived temporaries; any other freed block stays used
 * until exit. One compare-and-swap on the arena's top makes it safe for
 * threads; still, the arena closes when mini-git starts its first thread
 * (thread_start): it is for start-up, and blocks cut for two threads side
 * by side would share cache lines.
 *
 * Off in sanitizer builds (ASan brings its own allocator) and in glibc
 * static builds (libc.a's malloc cannot be linked beside another). The
 * musl builds reach musl's allocator by its internal names when linked
 * statically, as the next definitions of malloc when linked dynamically. Only mini-git and the unit tests link this file: the HTTP helper
 * keeps its libraries on the C library's allocator alone. */
#include "lib/malloc-arena.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define ARENA_SANITIZER 1
#endif
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(ARENA_SANITIZER)
#define ARENA_ON 0
#elif defined(__GLIBC__)
#ifdef MINI_GIT_STATIC
#define ARENA_ON 0
#else
#define ARENA_ON 1
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t nmemb, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
#define libc_malloc __libc_malloc
#define libc_realloc __libc_realloc
#define libc_free __libc_free
static void *libc_calloc(size_t n)
{
	return __libc_calloc(1, n);
}
#endif
#elif defined(MINI_GIT_MUSL)
/* musl: mallocng, behind a cache per thread (below). Linked statically,
 * its entry points are reached by their internal names; linked
 * dynamically, libc.so exports only the public ones, which are the next
 * definitions after this file's. */
#define ARENA_ON 1
#define THREAD_CACHE 1
#ifdef MINI_GIT_STATIC
extern void *__libc_malloc_impl(size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
#define musl_malloc __libc_malloc_impl
#define musl_realloc __libc_realloc
#define musl_free __libc_free
#else
#include <dlfcn.h>
static void *(*next_malloc)(size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);

/* Looked up at the first call, before any thread starts; dlsym()
 * allocates nothing. */
static void find_next(void)
{
	next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	if (!next_malloc || !next_realloc || !next_free)
		__builtin_trap();
}

static void *musl_malloc(size_t n)
{
	if (!next_malloc)
		find_next();
	return next_malloc(n);
}

static void *musl_realloc(void *p, size_t n)
{
	if (!next_realloc)
		find_next();
	return next_realloc(p, n);
}

static void musl_free(void *p)
{
	if (!next_free)
		find_next();
	next_free(p);
}
#endif
#define libc_realloc musl_realloc
static void *cache_malloc(size_t n);
static void cache_free(void *p);
#define libc_malloc cache_malloc
#define libc_free cache_free
static void *libc_calloc(size_t n)
{
	void *p = musl_malloc(n);
	return p ? memset(p, 0, n) : NULL;
}
#else
#define ARENA_ON 0
#endif

#ifdef THREAD_CACHE
/* mallocng takes one lock for every call and gives a group of slots back
 * to the kernel as soon as it is empty: fsck, which allocates and frees
 * buffers of every size on every core, spent most of its time in futex,
 * mmap and munmap (static fsck 4.9 times slower than the glibc build).
 * So freed blocks are kept on lists per thread, one list per power of
 * two of their usable size, and handed out again to requests that fit;
 * each list holds at most CACHE_BYTES (and at least one block), blocks up
 * to 2^CACHE_MAX_SHIFT bytes. The lists are reached through one pointer
 * of thread-local storage, and go back to mallocng when their thread
 * ends. */
#include <malloc.h>
#include <pthread.h>
#define CACHE_MIN_SHIFT 4
#define CACHE_MAX_SHIFT 22
#define CACHE_CLASSES (CACHE_MAX_SHIFT - CACHE_MIN_SHIFT + 1)
#define CACHE_BYTES (512u << 10)

struct thread_cache {
	void *head[CACHE_CLASSES];
	unsigned count[CACHE_CLASSES];
};
static __thread struct thread_cache *tcache;
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

/* A thread that ends gives its blocks back. */
static void cache_release(void *v)
{
	struct thread_cache *tc = v;

	for (int c = 0; c < CACHE_CLASSES; c++)
		while (tc->head[c]) {
			void *p = tc->head[c];
			tc->head[c] = *(void **)p;
			musl_free(p);
		}
	tcache = NULL;
	musl_free(tc);
}

static void cache_key_make(void)
{
	pthread_key_create(&cache_key, cache_release);
}

static struct thread_cache *my_cache(void)
{
	if (!tcache) {
		tcache = musl_malloc(sizeof(*tcache));
		if (!tcache)
			return NULL;
		memset(tcache, 0, sizeof(*tcache));
		pthread_once(&cache_once, cache_key_make);
		pthread_setspecific(cache_key, tcache);
	}
	return tcache;
}

/* The class whose every block holds n bytes: ceil(log2(n)). */
static int class_for_request(size_t n)
{
	if (n <= (1u << CACHE_MIN_SHIFT))
		return 0;
	return 64 - __builtin_clzll(n - 1) - CACHE_MIN_SHIFT;
}

static void *cache_malloc(size_t n)
{
	int c = class_for_request(n);
	struct thread_cache *tc;
	void *p;

	if (c < CACHE_CLASSES && (tc = my_cache()) && (p = tc->head[c])) {
		tc->head[c] = *(void **)p;
		tc->count[c]--;
		return p;
	}
	/* Ask for the whole class, so the block can serve any request of it
	 * when it comes back. */
	return musl_malloc(c < CACHE_CLASSES ? (size_t)1 << (c + CACHE_MIN_SHIFT) : n);
}

static void cache_free(void *p)
{
	struct thread_cache *tc;
	size_t u;
	int c;

	if (!p)
		return;
	u = malloc_usable_size(p);
	c = u >= (1u << CACHE_MIN_SHIFT) ? 63 - __builtin_clzll(u) - CACHE_MIN_SHIFT : CACHE_CLASSES;
	if (c < CACHE_CLASSES && (tc = my_cache()) &&
	    tc->count[c] < (CACHE_BYTES >> (c + CACHE_MIN_SHIFT) ?: 1)) {
		*(void **)p = tc->head[c];
		tc->head[c] = p;
		tc->count[c]++;
		return;
	}
	musl_free(p);
}
#endif

#if ARENA_ON
/* musl's allocator maps memory a few pages at a time (140 mmap calls for
 * for-each-ref on 5,000 refs), glibc's grows its heap 128 KB at a time
 * and reuses what is freed, which the arena does not: so a larger arena
 * with musl (for-each-ref: 85 calls where it made 233, 467 page faults
 * where it took 588), and with glibc one that start-up fills (4 MB there
 * saved 9 calls but cost 48 faults). .bss: only pages used cost. */
#ifdef MINI_GIT_MUSL
#define ARENA_SIZE (4u << 20)
#else
#define ARENA_SIZE (512u << 10)
#endif
#define ARENA_BLOCK_MAX (64u << 10)
#define HDR 16u

static unsigned char arena[ARENA_SIZE] __attribute__((aligned(64)));
static size_t arena_top;
static int arena_closed;

static size_t round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

static size_t *header(void *p)
{
	return (size_t *)((unsigned char *)p - HDR);
}

int malloc_arena_contains(const void *p)
{
	return (uintptr_t)p - (uintptr_t)arena < ARENA_SIZE;
}

static void *arena_alloc(size_t n)
{
	size_t need, top;

	if (n > ARENA_BLOCK_MAX)
		return NULL;
	need = HDR + (n ? round16(n) : 16);
	top = __atomic_load_n(&arena_top, __ATOMIC_RELAXED);
	do {
		if (need > ARENA_SIZE - top)
			return NULL;
	} while (!__atomic_compare_exchange_n(&arena_top, &top, top + need, 1,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	*(size_t *)(arena + top) = need - HDR;
	return arena + top + HDR;
}

/* Moves the top from the end of block p to new_end, if p is the newest
 * and the arena still open. */
static int arena_move_end(void *p, size_t new_end)
{
	size_t end = (size_t)((unsigned char *)p - arena) + *header(p);
	return !__atomic_load_n(&arena_closed, __ATOMIC_RELAXED) &&
	       __atomic_compare_exchange_n(&arena_top, &end, new_end, 0,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

void malloc_arena_close(void)
{
	__atomic_store_n(&arena_closed, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&arena_top, ARENA_SIZE, __ATOMIC_RELAXED);
}

void *malloc(size_t n)
{
	void *p = arena_alloc(n);
	return p ? p : libc_malloc(n);
}

void free(void *p)
{
	if (!malloc_arena_contains(p))
		libc_free(p);
	else
		arena_move_end(p, (size_t)((unsigned char *)p - arena) - HDR);
}

void *calloc(size_t nmemb, size_t size)
{
	size_t n;
	void *p;

	if (__builtin_mul_overflow(nmemb, size, &n)) {
		errno = ENOMEM;
		return NULL;
	}
	/* A freed newest block is handed out again, so clear it. */
	p = arena_alloc(n);
	return p ? memset(p, 0, n) : libc_calloc(n);
}

void *realloc(void *p, size_t n)
{
	size_t have, off;
	void *q;

	if (!malloc_arena_contains(p))
		return p ? libc_realloc(p, n) : malloc(n);
	if (!n) {
		free(p);
		return NULL;
	}
	have = *header(p);
	if (n <= have)
		return p;
	off = (size_t)((unsigned char *)p - arena);
	if (n <= ARENA_BLOCK_MAX && round16(n) <= ARENA_SIZE - off &&
	    arena_move_end(p, off + round16(n))) {
		*header(p) = round16(n);
		return p;
	}
	q = malloc(n);
	if (q) {
		memcpy(q, p, have);
		free(p);
	}
	return q;
}

void *reallocarray(void *p, size_t nmemb, size_t size)
{
	size_t n;

	if (__builtin_mul_overflow(nmemb, size, &n)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n);
}

int malloc_arena_enabled(void)
{
	return 1;
}
#else
void malloc_arena_close(void)
{
}

int malloc_arena_contains(const void *p)
{
	(void)p;
	return 0;
}

int malloc_arena_enabled(void)
{
	return 0;
}
#endif
