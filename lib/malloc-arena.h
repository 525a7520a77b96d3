/* malloc-arena.h: the static arena in front of the C library's malloc
 * (malloc-arena.c), linked into mini-git and the unit tests. */
#ifndef LIB_MALLOC_ARENA_H
#define LIB_MALLOC_ARENA_H

/* 1 when this build serves small blocks from the arena. */
int malloc_arena_enabled(void);
/* 1 when p points into the arena. */
int malloc_arena_contains(const void *p);

#endif
