/* util.h: the few things every file needs: allocation that cannot fail,
 * full reads and writes, die()/error(), and small macros. */
#ifndef LIB_UTIL_H
#define LIB_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <fcntl.h>

#ifndef __GLIBC__
/* musl's open() follows O_CLOEXEC with fcntl(F_SETFD), for kernels older
 * than 2.6.23; its openat() hands the flag to the kernel alone, in one
 * system call. (glibc's open() is that openat.) */
#define open(...) openat(AT_FDCWD, __VA_ARGS__)
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED __attribute__((unused))
#define NORETURN __attribute__((noreturn))
#define FORMAT_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Grow an array to hold at least n entries, doubling so appends are O(1). */
#define ALLOC_GROW(arr, n, alloc)                                              \
	do {                                                                   \
		if ((size_t)(n) > (size_t)(alloc)) {                           \
			size_t alloc_grow_new_ = ((size_t)(alloc) + 16) * 3 / 2; \
			if (alloc_grow_new_ < (size_t)(n))                     \
				alloc_grow_new_ = (n);                         \
			(arr) = xrealloc((arr), alloc_grow_new_ * sizeof(*(arr))); \
			(alloc) = alloc_grow_new_;                             \
		}                                                              \
	} while (0)

/* qsort() with a NULL base is undefined even for zero elements. */
#define QSORT(base, n, cmp)                                                    \
	do {                                                                   \
		if ((n) > 1)                                                   \
			qsort((base), (n), sizeof(*(base)), (cmp));            \
	} while (0)

/* usage.c */
NORETURN void die(const char *fmt, ...) FORMAT_PRINTF(1, 2);
NORETURN void die_errno(const char *fmt, ...) FORMAT_PRINTF(1, 2);
int error(const char *fmt, ...) FORMAT_PRINTF(1, 2);
int error_errno(const char *fmt, ...) FORMAT_PRINTF(1, 2);
void warning(const char *fmt, ...) FORMAT_PRINTF(1, 2);
NORETURN void BUG(const char *fmt, ...) FORMAT_PRINTF(1, 2);
/* The name commands print in usage lines ("git"): messages match git's. */
extern const char *prog_name;

/* wrapper.c */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
/* Zeroed memory for a thread-local pointer to a large per-thread table:
 * a thread-local array would be zeroed at the start of every command,
 * used or not. The blocks live as long as the process, on a list that
 * keeps them reachable after their threads end. */
void *xcalloc_thread(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xstrfmt(const char *fmt, ...) FORMAT_PRINTF(1, 2);
void *xmemdupz(const void *p, size_t n);
/* Size arithmetic that dies instead of wrapping. */
size_t st_add(size_t a, size_t b);
size_t st_mult(size_t a, size_t b);
ssize_t xread(int fd, void *buf, size_t len);   /* retries EINTR */
ssize_t xwrite(int fd, const void *buf, size_t len);
ssize_t read_in_full(int fd, void *buf, size_t len);
/* Big-endian numbers, as the on-disk formats store them. */
static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t get_be64(const unsigned char *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}
static inline void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

ssize_t write_in_full(int fd, const void *buf, size_t len);
/* pwrite() all of buf at off, retrying short writes; -1 with errno. */
ssize_t pwrite_in_full(int fd, const void *buf, size_t len, off_t off);
int xopen(const char *path, int flags, ...);   /* dies on failure */
int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);
/* If s starts with prefix, point *out past it and return 1. */
int skip_prefix(const char *s, const char *prefix, const char **out);
/* Write to stdout and die on EPIPE/ENOSPC the way git does at exit. */
void maybe_flush_or_die(FILE *f, const char *desc);
int is_dir(const char *path);
int file_exists(const char *path);
/* Create leading directories of path (mode 0777 & umask). 0 or -1. */
int mkdir_leading(const char *path);

/* git's isspace(): a space, tab, newline or carriage return, in any
 * locale (a vertical tab or form feed is none) */
static inline int git_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline int is_hex_digit(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

#endif
