/* config-write.h: changing the repository's config file the way git does:
 * under config.lock, renamed over the file, every untouched byte kept. */
#ifndef LIB_CONFIG_WRITE_H
#define LIB_CONFIG_WRITE_H

#include "lib/strbuf.h"

/* Set key ("section.name" or "section.sub.name") to its one value, in
 * place or after the section's last entry; value NULL removes that value
 * (and a section it leaves empty, as git decides). 0; 5 with git's warning
 * when key has several values, or (removing) when it has none; -1 after
 * git's error message. */
int config_set(const char *key, const char *value);
/* Remove every value of key: 0, 5 when there was none, or -1. */
int config_unset_all(const char *key);
/* Add one more value to a multi-valued key. */
int config_add(const char *key, const char *value);
/* Rename the section "branch.old" to "branch.new"; new_name NULL removes
 * it. Returns how many sections matched, or -1 after an error. */
int config_rename_section(const char *old_name, const char *new_name);
/* Copy the section (placed right after the original). Same returns. */
int config_copy_section(const char *old_name, const char *new_name);

#endif
