/* checkout.h: write a tree into an empty work tree (clone) and the index
 * entries that describe it, stat data included, so `git status` is clean. */
#ifndef REMOTE_CHECKOUT_H
#define REMOTE_CHECKOUT_H

#include "lib/index-file.h"

/* Writes tree (recursively) under the current directory. Paths that git
 * refuses (".", "..", ".git" in any case, a "/" in a name, empty names)
 * stop the checkout. Returns 0 with *entries (malloc'ed) and *nr, or -1
 * after error(). */
int checkout_tree(const struct object_id *tree, struct index_entry **entries, size_t *nr);
void index_entries_free(struct index_entry *entries, size_t nr);

#endif
