/* commit-walk.h: a cache of commits for history walks, and the reachability
 * questions branch and for-each-ref ask (--contains, --merged, ahead and
 * behind counts, merge bases).
 *
 * Commits are loaded lazily: commit_lookup() only makes a node; its parents
 * and date are read when a walk needs them, from the commit-graph when the
 * commit is there (no object is opened), else from the object. Walks use
 * generation numbers to stop early when a commit-graph exists, and commit
 * dates (with a slop for clock skew, as git does) otherwise. */
#ifndef ODB_COMMIT_WALK_H
#define ODB_COMMIT_WALK_H

#include "odb/object.h"

/* Generation of a commit not in the commit-graph: larger than any. */
#define GENERATION_INFINITY 0xffffffffu
#define GRAPH_POS_NONE 0xffffffffu

struct commit_node {
	struct object_id oid;
	uint8_t parsed;        /* 1: parents and date known; 2: broken/missing */
	uint8_t in_queue;
	uint16_t nr_parents;
	uint32_t flags;        /* marks private to one walk, cleared after it */
	uint32_t generation;   /* topological level from the graph, else INFINITY */
	uint32_t graph_pos;    /* position in the commit-graph, or GRAPH_POS_NONE */
	uint32_t pack_pos;     /* rank among the commits of the pack read ahead in
				 * (commit-walk.c; for a while, an index position) */
	timestamp_t date;      /* committer date */
	struct commit_node **parents;
};

/* The node for oid, created (unparsed) if not yet known. Never NULL. */
struct commit_node *commit_lookup(const struct object_id *oid);
/* Load parents and date. 0, or -1 with git's error if the object is
 * missing or not a commit (the node is then marked broken). */
int commit_parse(struct commit_node *c);
/* The same from the commit-graph or the start of the object only: 0, or
 * -1 when those cannot settle it, with nothing said and the node left
 * unparsed (a corrupt commit-graph entry is reported, and marks it
 * broken, as in commit_parse). */
int commit_parse_quiet(struct commit_node *c);

/* Is ancestor reachable from descendant (a commit is its own ancestor)?
 * 1 yes, 0 no, -1 on a missing or broken commit. */
int commit_is_ancestor(const struct object_id *ancestor, const struct object_id *descendant);

/* git's --contains: result[i] = 1 when tips[i] can reach commit. */
int commits_containing(const struct object_id *commit, const struct object_id *tips,
		       size_t nr, unsigned char *result);
/* git's --merged: result[i] = 1 when tips[i] is reachable from base
 * (--no-merged is the complement). */
int commits_merged_into(const struct object_id *base, const struct object_id *tips,
			size_t nr, unsigned char *result);

/* Commits reachable from a but not from b (*ahead) and the other way
 * (*behind), as git's branch -vv and status count them. 0 or -1. */
int commit_ahead_behind(const struct object_id *a, const struct object_id *b,
			size_t *ahead, size_t *behind);

/* Best common ancestors of a and b (git merge-base --all); returns how
 * many (0 if unrelated), *out malloc'ed. -1 on error. */
int commit_merge_bases(const struct object_id *a, const struct object_id *b,
		       struct object_id **out);

/* Commits a second thread has read ahead for walks so far (see
 * commit-walk.c), for tests and measurements. */
size_t commit_walk_read_ahead(void);

/* Peel oid (following tags) to a commit; 0, or -1 with git's message
 * ("error: object X is a tree, not a commit"). */
int peel_to_commit(const struct object_id *oid, struct object_id *out);

#endif
