/* config.h: git's config files (system, global, repository), read lazily:
 * no file is opened until a command asks for a value, and each is read once. */
#ifndef LIB_CONFIG_H
#define LIB_CONFIG_H

#include "lib/strbuf.h"

/*
 * Called for each variable. key is canonical: section and variable name
 * lower-cased, subsection as written ("branch.Foo/bar.remote").
 * value is NULL for a bare "name" line (implicit true). Return <0 to stop.
 */
typedef int (*config_fn)(const char *key, const char *value, void *data);

/* Parse a file; -1 (errno set) if it cannot be opened. Dies on a syntax
 * error with git's message ("bad config line N in file F"). */
int config_parse_file(const char *path, config_fn fn, void *data);
int config_parse_buf(const char *buf, size_t len, const char *name, config_fn fn, void *data);

/* The scopes git reads, in order; later ones win. */
enum config_scope { CONFIG_SYSTEM = 1, CONFIG_GLOBAL = 2, CONFIG_REPO = 4, CONFIG_ALL = 7 };
/* Calls fn for every variable of the given scopes (repo only after setup). */
void config_for_each(unsigned scopes, config_fn fn, void *data);
/* A config_fn (lib/config-default.c): dies with git's message on a bad
 * value of a variable git's every command checks (core.*, user.*,
 * advice.*, push.default, ...), or warns where git warns.
 * setup_git_directory() runs it over every scope; a command that reads
 * every scope itself calls it from its own callback. */
int config_check_default(const char *key, const char *value, void *data);
/* config_check_default() over every scope that can be read: the
 * repository's only once one is set up. */
void config_check_default_all(void);
/* The settings git reads when a command first opens the object store
 * (core.commitGraph, index.version, ...): each by its last value, in
 * git's order, dying on a bad one as git does. Once per process. */
void config_check_repo_settings(void);

/* From a config_for_each() callback: dies with git's message naming
 * where the variable being handled was set ("bad config variable 'k' in
 * file 'f' at line n", or "... from command-line config"). */
NORETURN void config_die_bad_variable(void);
/* git's "missing value for '<key>'" error, then the above. */
NORETURN void config_die_missing_value(const char *key);

/* Last value of key over all scopes. Returns 1 if found (*value may be NULL
 * for implicit true), 0 if not. key in canonical form (see above). */
int config_get(const char *key, const char **value);
/* Only the repository's own config (what setup reads anyway). */
int config_get_repo(const char *key, const char **value);
int config_get_bool(const char *key, int def);
long config_get_int(const char *key, long def);
/* Every value of a multi-valued key, in file order (e.g. remote.x.fetch). */
size_t config_get_all(const char *key, const char ***values);

/* git's boolean and integer parsing; die with git's messages on bad values. */
int config_parse_bool(const char *key, const char *value);
/* A colour switch (color.ui, color.branch): never, always or auto in any
 * case, or a boolean where true means auto; anything else is fatal, as in
 * config_parse_bool(). */
enum { COLORBOOL_NEVER, COLORBOOL_ALWAYS, COLORBOOL_AUTO };
int config_parse_colorbool(const char *key, const char *value);
/* A number as git reads one, k, m or g allowed: an int, or (_long) a long. */
long config_parse_int(const char *key, const char *value);
long config_parse_long(const char *key, const char *value);
/* -1 if not a boolean */
int config_maybe_bool(const char *value);
/* config_maybe_bool(), or else a number (k, m, g allowed) that fits an
 * int, true when not 0: git's reading of a boolean option's value. */
int config_maybe_bool_int(const char *value);
/* A boolean environment variable as git reads one ("1", "true", ...). */
int env_bool(const char *name, int def);

/* Forget what was read (after this process wrote the repository config). */
void config_invalidate(void);

/* Values given with `mini-git -c key=value` (GIT_CONFIG_PARAMETERS form). */
void config_push_parameter(const char *kv);

#endif
