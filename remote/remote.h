/* remote.h: remotes as configured (remote.<name>.url, .fetch) and
 * refspecs: +refs/heads/<star>:refs/remotes/origin/<star> and exact ones. */
#ifndef REMOTE_REMOTE_H
#define REMOTE_REMOTE_H

#include "lib/strbuf.h"

struct refspec_item {
	int force;       /* leading '+' */
	int pattern;     /* src and dst each hold one '*' */
	char *src;
	char *dst;       /* NULL when there is no ":dst" */
};

struct remote_config {
	char *name;      /* NULL when a URL was given directly */
	char *url;       /* NULL when nothing is configured */
	struct refspec_item *fetch;
	size_t nr_fetch;
};

/* dest: a remote name, a URL, or NULL for the current branch's remote
 * (else "origin"). Reads the repository's config only when a name needs
 * it. */
void remote_config_get(const char *dest, struct remote_config *rc);
void remote_config_release(struct remote_config *rc);

/* Once a run, before the first look at a branch's upstream, push remote or
 * a remote's refspecs: the branch.*, url.* and remote.* variables as git's
 * remote machinery reads them, with its refusals (a string variable
 * without a value, a bad boolean, an empty branch subsection: fatal, where
 * the variable was set) and its warning for a remote named "/...". */
void remote_config_check(void);
/* A branch's remote when it names none, as git picks it: the one remote
 * git knows of, if it knows only one, else "origin". git knows those the
 * config names, and any other it is asked about in the run (a branch's
 * remote with a merge, a push remote): remote_looked_up() notes them. */
const char *remote_default_name(void);
void remote_looked_up(const char *name);

/* Parse one fetch refspec; 0, or -1 if it is invalid. */
int refspec_parse(const char *spec, struct refspec_item *out);
void refspec_release(struct refspec_item *it);
/* If name matches the refspec's source, the destination ref name
 * (malloc'ed; NULL dst gives "") is returned; else NULL. */
char *refspec_map(const struct refspec_item *it, const char *name);

/* Does the string look like a URL or a path rather than a remote name? */
int looks_like_url(const char *s);

#endif
