/* strbuf.c: growable, always NUL-terminated byte buffers. */
#include "lib/strbuf.h"
#include "lib/fd-batch.h"
#include <fcntl.h>

char strbuf_empty[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_empty;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *r;
	strbuf_grow(sb, 0);
	r = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return r;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = st_add(st_add(sb->len, extra), 1);
	int fresh = !sb->alloc;
	if (want <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, want, sb->alloc);
	if (fresh)
		sb->buf[0] = 0;
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen beyond buffer");
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = 0;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = 0;
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed");
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_rtrim(struct strbuf *sb)
{
	size_t n = sb->len;
	while (n && (sb->buf[n - 1] == ' ' || sb->buf[n - 1] == '\t' ||
		     sb->buf[n - 1] == '\n' || sb->buf[n - 1] == '\r'))
		n--;
	if (sb->alloc)
		strbuf_setlen(sb, n);
}

void strbuf_trim(struct strbuf *sb)
{
	size_t i = 0;
	strbuf_rtrim(sb);
	while (i < sb->len && (sb->buf[i] == ' ' || sb->buf[i] == '\t' ||
			       sb->buf[i] == '\n' || sb->buf[i] == '\r'))
		i++;
	if (i) {
		memmove(sb->buf, sb->buf + i, sb->len - i);
		strbuf_setlen(sb, sb->len - i);
	}
}

ssize_t strbuf_read_fd(struct strbuf *sb, int fd, size_t hint)
{
	size_t start = sb->len;
	strbuf_grow(sb, hint ? hint : 8192);
	for (;;) {
		ssize_t n = xread(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			strbuf_setlen(sb, start);
			return -1;
		}
		if (!n)
			break;
		sb->len += n;
		if (sb->alloc - sb->len < 2)
			strbuf_grow(sb, sb->alloc);
	}
	sb->buf[sb->len] = 0;
	return sb->len - start;
}

ssize_t strbuf_read_file(struct strbuf *sb, const char *path, size_t hint)
{
	int fd = fd_open(path, O_RDONLY | O_CLOEXEC, 0);
	ssize_t n;
	int e;
	if (fd < 0)
		return -1;
	/*
	 * Small files (HEAD, config) usually fit the first read. A read of a
	 * regular file returns less than asked only at its end, so a short
	 * first read saves the read() that would return 0.
	 */
	strbuf_grow(sb, hint ? hint : 8192);
	n = xread(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
	if (n >= 0 && (size_t)n < sb->alloc - sb->len - 1) {
		strbuf_setlen(sb, sb->len + n);
		fd_close_batched(fd);
		return n;
	}
	if (n > 0) {
		size_t start = sb->len;
		strbuf_setlen(sb, sb->len + n);
		n = strbuf_read_fd(sb, fd, 0);
		if (n < 0)
			strbuf_setlen(sb, start);
		else
			n = sb->len - start;
	}
	e = errno;
	fd_close_batched(fd);
	errno = e;
	return n;
}

int strbuf_appendline(struct strbuf *sb, FILE *f, int term)
{
	size_t start = sb->len;
	int c;
	while ((c = getc_unlocked(f)) != EOF) {
		strbuf_addch(sb, (char)c);
		if (c == term)
			return 0;
	}
	return sb->len > start ? 0 : -1;
}

int strbuf_getline(struct strbuf *sb, FILE *f, int term)
{
	strbuf_reset(sb);
	if (strbuf_appendline(sb, f, term) < 0)
		return -1;
	if (sb->len && sb->buf[sb->len - 1] == (char)term)
		strbuf_setlen(sb, sb->len - 1);
	return 0;
}

int strbuf_getcwd(struct strbuf *sb)
{
	size_t n = 256;
	for (;;) {
		strbuf_grow(sb, n);
		if (getcwd(sb->buf + sb->len, sb->alloc - sb->len)) {
			strbuf_setlen(sb, sb->len + strlen(sb->buf + sb->len));
			return 0;
		}
		if (errno != ERANGE)
			return -1;
		n *= 2;
	}
}

void strbuf_realpath_lexical(struct strbuf *sb, const char *path)
{
	struct strbuf in = STRBUF_INIT;
	const char *p;
	strbuf_reset(sb);
	if (*path != '/') {
		if (strbuf_getcwd(&in) < 0)
			die_errno("unable to get current working directory");
		strbuf_addch(&in, '/');
	}
	strbuf_addstr(&in, path);
	p = in.buf;
	while (*p) {
		const char *end;
		size_t n;
		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		n = end - p;
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* skip */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = memrchr(sb->buf, '/', sb->len);
			strbuf_setlen(sb, slash ? (size_t)(slash - sb->buf) : 0);
		} else {
			strbuf_addch(sb, '/');
			strbuf_add(sb, p, n);
		}
		p = end;
	}
	if (!sb->len)
		strbuf_addch(sb, '/');
	strbuf_release(&in);
}
