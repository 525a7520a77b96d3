/* trailer.h: the trailers of a commit or tag message ("Signed-off-by: x"),
 * found and printed as git's %(trailers) finds and prints them. */
#ifndef LIB_TRAILER_H
#define LIB_TRAILER_H

#include "lib/strbuf.h"

struct trailer_opts {
	int only, unfold, key_only, value_only;
	char **keys;            /* key=: shown only these (implies only) */
	size_t nkeys;
	struct strbuf *separator, *kv_separator;  /* NULL: newline, ": " */
	struct strbuf sep_buf, kv_buf;
};

/* Parses the options of %(trailers:<opts>) (opts NULL for none). 0, or
 * -1 with git's message in *err. */
int trailer_opts_parse(struct trailer_opts *o, const char *opts, struct strbuf *err);
void trailer_opts_release(struct trailer_opts *o);

/* Appends the trailers of msg (a message from its subject on). */
void trailer_format(struct strbuf *out, const char *msg, size_t len, const struct trailer_opts *o);

#endif
