/* report.c: the connectivity report: missing, unreachable and dangling
 * objects in id order, and --verbose's lines about git's object table. */
#include "builtin/fsck/fsck.h"
#include "odb/odb.h"
#include <inttypes.h>

/* The parallel walk marks reach_map only. */
static inline int is_reachable(const struct fobj *o)
{
	return (o->flags & REACHABLE) ||
	       (o >= fsck_objs && o < fsck_objs + fsck_nr_objs && fsck_reach_map[o - fsck_objs]);
}

/* Is the object in git's object table by now? */
static int in_git_table(const struct fobj *o)
{
	if (o < fsck_objs || o >= fsck_objs + fsck_nr_objs)
		return 1;
	return (o->flags & (HAS_OBJ | USED | REACHABLE | CREATED)) || fsck_used_map[o - fsck_objs] ||
		fsck_reach_map[o - fsck_objs];
}

/* git prints the size of its object hash table: a power of two, at least
 * 32, doubled whenever it would become half full. */
static void verbose_connectivity(void)
{
	size_t n = fsck_nr_virtual + fsck_nr_extra;
	uint64_t size = 0;

	for (size_t i = 0; i < fsck_nr_objs; i++)
		n += in_git_table(&fsck_objs[i]);
	for (size_t k = 0; k < n; k++)
		if (size == 0 || size - 1 <= 2 * k)
			size = size < 32 ? 32 : 2 * size;
	fprintf(stderr, "Checking connectivity (%" PRIu64 " objects)\n", size);
	/* git's table order is its hashing's: print the extras first. */
	for (size_t i = 0; i < fsck_nr_extra; i++)
		fprintf(stderr, "Checking %s\n", thex(&fsck_extra_ids[i]));
}

void check_connectivity(void)
{
	traverse();
	if (fsck_verbose)
		verbose_connectivity();
	/* Both lists are sorted by id; print in one merged order. */
	{
		size_t i = 0, j = 0;
		while (i < fsck_nr_objs || j < fsck_nr_virtual) {
			struct fobj *o;
			/* Everything verified: a reachable object has nothing to
			 * say, and the table entry need not be fetched. */
			if (fsck_all_verified && !fsck_verbose && i < fsck_nr_objs && fsck_reach_map[i] &&
			    (j >= fsck_nr_virtual || oidcmp(&fsck_objs[i].oid, &fsck_virt[j].oid) < 0)) {
				i++;
				continue;
			}
			if (j >= fsck_nr_virtual ||
			    (i < fsck_nr_objs && oidcmp(&fsck_objs[i].oid, &fsck_virt[j].oid) < 0))
				o = &fsck_objs[i++];
			else
				o = &fsck_virt[j++];
			if (fsck_verbose && in_git_table(o))
				fprintf(stderr, "Checking %s\n", thex(&o->oid));
			if (is_reachable(o)) {
				if (o->flags & HAS_OBJ)
					continue;
				if (o->flags & IN_PACK)
					continue;
				printf("missing %s %s\n", printable_type(o->type), thex(&o->oid));
				fsck_errors_found |= ERROR_REACHABLE;
				continue;
			}
			if (!(o->flags & HAS_OBJ))
				continue;
			if (fsck_connectivity_only && !o->type) {
				enum object_type t;
				size_t sz;
				if (!odb_read_header(&o->oid, &t, &sz) && t > 0)
					o->type = (uint8_t)t;
			}
			if (fsck_show_unreachable) {
				printf("unreachable %s %s\n", printable_type(o->type), thex(&o->oid));
				continue;
			}
			if (!(o->flags & USED) &&
			    !(o >= fsck_objs && o < fsck_objs + fsck_nr_objs && fsck_used_map[o - fsck_objs]) &&
			    fsck_show_dangling)
				printf("dangling %s %s\n", printable_type(o->type), thex(&o->oid));
		}
	}
}
