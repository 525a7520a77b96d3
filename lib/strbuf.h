/* strbuf.h: the one growable buffer type. buf is always NUL-terminated. */
#ifndef LIB_STRBUF_H
#define LIB_STRBUF_H

#include "lib/util.h"

struct strbuf {
	size_t alloc, len;
	char *buf;
};

extern char strbuf_empty[];
#define STRBUF_INIT { 0, 0, strbuf_empty }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
static inline void strbuf_reset(struct strbuf *sb) { strbuf_setlen(sb, 0); }
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) FORMAT_PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_rtrim(struct strbuf *sb);
void strbuf_trim(struct strbuf *sb);
/* Read the whole fd / file; -1 on error (errno set), else bytes read. */
ssize_t strbuf_read_fd(struct strbuf *sb, int fd, size_t hint);
ssize_t strbuf_read_file(struct strbuf *sb, const char *path, size_t hint);
/* Read one line (without the terminator); EOF returns -1. */
int strbuf_getline(struct strbuf *sb, FILE *f, int term);
/* Append one line with its terminator (none at the end of the input);
 * -1 at the end of the input with nothing read. */
int strbuf_appendline(struct strbuf *sb, FILE *f, int term);
/* cwd into sb; -1 on error. */
int strbuf_getcwd(struct strbuf *sb);
/* Make path absolute (relative to cwd) and drop "." , ".." and "//". */
void strbuf_realpath_lexical(struct strbuf *sb, const char *path);

#endif
