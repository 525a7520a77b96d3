/* quote.h: C-style quoted strings, as git writes names with odd bytes
 * ("a\tb", "caf\303\251"), and words quoted for the shell. */
#ifndef LIB_QUOTE_H
#define LIB_QUOTE_H

#include "lib/strbuf.h"

/* in starts with '"': its unquoted bytes are appended to out and *end set
 * just past the closing quote. 0, or -1 for a bad escape or no closing
 * quote (out then holds part of the string). */
int unquote_c_style(struct strbuf *out, const char *in, const char **end);

/* Appends the n bytes at s quoted for a POSIX shell as git quotes them:
 * inside single quotes, a quote written '\'' and a '!' '\!' (which an
 * interactive shell would otherwise expand from its history). */
void sq_quote_buf(struct strbuf *out, const char *s, size_t n);

#endif
