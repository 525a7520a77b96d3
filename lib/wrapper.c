/* wrapper.c: allocation and I/O that either succeed or die like git. */
#include "lib/util.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>

static NORETURN void oom(size_t n)
{
	die("Out of memory, malloc failed (tried to allocate %zu bytes)", n);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(nmemb * size);
	return p;
}

void *xcalloc_thread(size_t nmemb, size_t size)
{
	static void **blocks;
	static size_t nr, alloc;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	void *p = xcalloc(nmemb, size);

	pthread_mutex_lock(&lock);
	ALLOC_GROW(blocks, nr + 1, alloc);
	blocks[nr++] = p;
	pthread_mutex_unlock(&lock);
	return p;
}

void *xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	return xmemdupz(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	const char *end = memchr(s, 0, n);
	return xmemdupz(s, end ? (size_t)(end - s) : n);
}

void *xmemdupz(const void *p, size_t n)
{
	char *r = xmalloc(st_add(n, 1));
	memcpy(r, p, n);
	r[n] = 0;
	return r;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *r;
	va_start(ap, fmt);
	if (vasprintf(&r, fmt, ap) < 0)
		oom(0);
	va_end(ap);
	return r;
}

size_t st_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		die("size_t overflow: %zu + %zu", a, b);
	return a + b;
}

size_t st_mult(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		die("size_t overflow: %zu * %zu", a, b);
	return a * b;
}

ssize_t xread(int fd, void *buf, size_t len)
{
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

ssize_t xwrite(int fd, const void *buf, size_t len)
{
	ssize_t n;
	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

ssize_t read_in_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t total = 0;
	while (total < len) {
		ssize_t n = xread(fd, p + total, len - total);
		if (n < 0)
			return -1;
		if (!n)
			break;
		total += n;
	}
	return total;
}

/* All of buf, by write() (off < 0) or pwrite() at off. */
static ssize_t write_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	size_t total = 0;
	while (total < len) {
		ssize_t n = off < 0 ? xwrite(fd, p + total, len - total) :
			    pwrite(fd, p + total, len - total, off + (off_t)total);
		if (n < 0 && off >= 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -1;
		if (!n) {
			errno = ENOSPC;
			return -1;
		}
		total += n;
	}
	return total;
}

ssize_t write_in_full(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, -1);
}

ssize_t pwrite_in_full(int fd, const void *buf, size_t len, off_t off)
{
	return write_all(fd, buf, len, off < 0 ? 0 : off);
}

int xopen(const char *path, int flags, ...)
{
	mode_t mode = 0;
	int fd;
	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	fd = fd_open(path, flags, mode);
	if (fd < 0)
		die_errno("could not open '%s'", path);
	return fd;
}

int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !memcmp(s + n - m, suffix, m);
}

int skip_prefix(const char *s, const char *prefix, const char **out)
{
	size_t n = strlen(prefix);
	if (strncmp(s, prefix, n))
		return 0;
	*out = s + n;
	return 1;
}

void maybe_flush_or_die(FILE *f, const char *desc)
{
	if (fflush(f) && errno != EPIPE)
		die_errno("write failure on '%s'", desc);
	if (ferror(f) && errno != EPIPE)
		die("write failure on '%s'", desc);
}

int is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int file_exists(const char *path)
{
	struct stat st;
	return !lstat(path, &st);
}

int mkdir_leading(const char *path)
{
	/* the deepest directory first: it usually exists, and one call
	 * says so; only a missing one sends us further up */
	char *buf = xstrdup(path), *slash = strrchr(buf, '/');
	int r = 0;
	if (slash && slash != buf) {
		*slash = 0;
		if (mkdir(buf, 0777) < 0 && errno != EEXIST &&
		    (errno != ENOENT || mkdir_leading(buf) < 0 ||
		     (mkdir(buf, 0777) < 0 && errno != EEXIST)))
			r = -1;
	}
	free(buf);
	return r;
}
