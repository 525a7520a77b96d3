/* t-malloc-arena.c: malloc, free, calloc and realloc as lib/malloc-arena.c
 * defines them: small blocks from the arena, aligned, the newest block
 * given back and grown in place, calloc zeroed over reused space, large
 * blocks and the overflow from the C library, and threads that never get
 * the same bytes. Prints TAP. */
#include "tests/unit/tap.h"
#include "lib/malloc-arena.h"
#include "lib/thread-pool.h"

#include <pthread.h>
#include <sys/wait.h>

#define THREADS 4
#define ROUNDS 20000

static int aligned16(const void *p)
{
	return ((uintptr_t)p & 15) == 0;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static int holds(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seed + i * 7))
			return 0;
	return 1;
}

/* Each thread keeps a few live blocks, each filled with its own pattern,
 * and checks them before it frees or grows them. */
static void *hammer(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg, bad = 0;
	unsigned char *live[8] = { NULL };
	size_t len[8] = { 0 };

	for (unsigned r = 0; r < ROUNDS; r++) {
		unsigned k = (seed * 31 + r) % 8;
		size_t n = 1 + (seed * 2654435761u + r * 40503u) % 700;

		if (live[k] && !holds(live[k], len[k], seed + k))
			bad++;
		if (r % 3 == 0 && live[k]) {
			live[k] = realloc(live[k], len[k] + n);
			if (!holds(live[k], len[k], seed + k))
				bad++;
			len[k] += n;
		} else {
			free(live[k]);
			live[k] = malloc(n);
			len[k] = n;
		}
		fill(live[k], len[k], seed + k);
	}
	for (unsigned k = 0; k < 8; k++) {
		if (!holds(live[k], len[k], seed + k))
			bad++;
		free(live[k]);
	}
	return (void *)(uintptr_t)bad;
}

static void *idle(void *arg)
{
	return arg;
}

int main(void)
{
	unsigned char *a, *b, *c, *big, *p;
	pthread_t th[THREADS];
	uintptr_t bad = 0;
	size_t n, in_arena = 0;
	volatile size_t huge = SIZE_MAX / 2;
	uintptr_t was;
	int ok;

	if (!malloc_arena_enabled()) {
		tap_skip("this build has no arena (sanitizers or glibc static)",
			 "small blocks come from the arena");
		return tap_done();
	}

	/* stdout takes its buffer now, not between the blocks below. */
	printf("# blocks of up to 64 KiB from the arena\n");
	a = malloc(40);
	was = (uintptr_t)a;
	free(a);
	b = malloc(40);
	check(malloc_arena_contains(b) && aligned16(b), "a small block comes from the arena, 16-byte aligned");
	check((uintptr_t)b == was, "freeing the newest block gives its space back");

	fill(b, 40, 1);
	was = (uintptr_t)b;
	p = realloc(b, 1000);
	check((uintptr_t)p == was && holds(p, 40, 1),
	      "realloc grows the newest block in place and keeps its bytes");
	b = p;
	c = malloc(24);
	fill(c, 24, 2);
	was = (uintptr_t)b;
	p = realloc(b, 3000);
	check((uintptr_t)p != was && malloc_arena_contains(p) && holds(p, 40, 1) && holds(c, 24, 2),
	      "realloc of an older block moves it and keeps both blocks' bytes");
	was = (uintptr_t)p;
	b = realloc(p, 100);
	check((uintptr_t)b == was, "realloc to a smaller size keeps the block");

	free(c);
	c = malloc(64);
	memset(c, 0xa5, 64);
	free(c);
	p = calloc(8, 8);
	ok = p == c;
	for (size_t i = 0; i < 64; i++)
		ok &= p[i] == 0;
	check(ok, "calloc clears space it takes again");
	free(p);

	big = malloc(200 << 10);
	check(big && !malloc_arena_contains(big), "a block over 64 KiB comes from the C library");
	fill(big, 200 << 10, 3);
	free(big);
	fill(b, 3000, 4);
	p = realloc(b, 100 << 10);
	check(p && !malloc_arena_contains(p) && holds(p, 3000, 4),
	      "realloc beyond 64 KiB moves the block out of the arena with its bytes");
	free(p);

	errno = 0;
	check(!calloc(huge, 4) && errno == ENOMEM, "calloc refuses a size that overflows");
	errno = 0;
	check(!reallocarray(NULL, huge, 4) && errno == ENOMEM,
	      "reallocarray refuses a size that overflows");
	p = malloc(10);
	was = (uintptr_t)p;
	ok = realloc(p, 0) == NULL;
	p = malloc(10);
	check(ok && (uintptr_t)p == was, "realloc to 0 frees the block");
	free(p);

	/* Run the arena dry: every block stays distinct, then the C library
	 * takes over. */
	{
		unsigned char *blocks[8192];  /* 8 MB: more than any arena */
		ok = 1;
		for (n = 0; n < ARRAY_SIZE(blocks); n++) {
			blocks[n] = malloc(1000);
			if (!blocks[n])
				break;
			fill(blocks[n], 1000, (unsigned)n);
			in_arena += malloc_arena_contains(blocks[n]);
		}
		for (size_t i = 0; i < n; i++)
			ok &= holds(blocks[i], 1000, (unsigned)i);
		check(ok && in_arena > 0 && in_arena < n,
		      "when the arena is full, blocks come from the C library (%zu of %zu in the arena)",
		      in_arena, n);
		/* Past the arena, a freed block serves the next request of its
		 * size (glibc's cache per thread does this, and so does the one
		 * in front of musl's allocator). */
		was = (uintptr_t)blocks[n - 1];
		free(blocks[n - 1]);
		blocks[n - 1] = malloc(1000);
		check((uintptr_t)blocks[n - 1] == was && !malloc_arena_contains(blocks[n - 1]),
		      "past the arena, a freed block is handed out again");
		while (n--)
			free(blocks[n]);
		p = malloc(1000);
		check(malloc_arena_contains(p), "freeing them newest first gives the arena back");
		free(p);
	}

	/* Once mini-git starts a thread of its own, the arena is closed: in a
	 * child, so the threads below still share the open arena. */
	{
		pid_t pid = fork();
		int status = -1;
		if (!pid) {
			p = malloc(40);
			ok = malloc_arena_contains(p);
			free(p);
			if (thread_start(&th[0], idle, NULL) || pthread_join(th[0], NULL))
				_exit(2);
			p = malloc(40);
			_exit(ok && !malloc_arena_contains(p) ? 0 : 1);
		}
		waitpid(pid, &status, 0);
		check(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status),
		      "thread_start() closes the arena");
	}

	for (int t = 0; t < THREADS; t++)
		pthread_create(&th[t], NULL, hammer, (void *)(uintptr_t)(t * 1000 + 17));
	for (int t = 0; t < THREADS; t++) {
		void *r;
		pthread_join(th[t], &r);
		bad += (uintptr_t)r;
	}
	check(bad == 0, "%d threads allocating, growing and freeing never share bytes", THREADS);

	return tap_done();
}
