/* malloc-arena.h: the static arena in front of the C library's malloc
 * (malloc-arena.c), linked into mini-git and the unit tests. */
#ifndef LIB_MALLOC_ARENA_H
#define LIB_MALLOC_ARENA_H

/* 1 when this build serves small blocks from the arena. */
int malloc_arena_enabled(void);
/* No more blocks from the arena: called before a second thread starts,
 * because blocks cut by two threads side by side would share cache lines
 * (the C library's allocator gives each thread its own memory). Weak:
 * programs linked without the arena (the HTTP helper, the fuzz targets)
 * see a null function. */
void malloc_arena_close(void) __attribute__((weak));
/* 1 when p points into the arena. */
int malloc_arena_contains(const void *p);

#endif
