/* commit-graph.h: reading objects/info/commit-graph, or the split chain in
 * objects/info/commit-graphs/ (gitformat-commit-graph(5)), by mmap.
 *
 * Positions are global over the chain: the base layer first. A file that
 * fails validation is ignored, with git's error where git prints one, and
 * the walk falls back to reading commit objects. */
#ifndef ODB_COMMIT_GRAPH_H
#define ODB_COMMIT_GRAPH_H

#include "odb/object.h"

#define GRAPH_PARENT_NONE 0x70000000u

/* Loads the graph on first use (core.commitGraph=false disables it).
 * Returns 1 if a usable graph exists. */
int commit_graph_available(void);

/* Number of commits in the graph (0 without one). */
uint32_t commit_graph_nr(void);

/* 1 and *pos if oid is in the graph, else 0. */
int commit_graph_find(const struct object_id *oid, uint32_t *pos);

/* The id of the commit at pos (pos < commit_graph_nr()). */
void commit_graph_oid(uint32_t pos, struct object_id *oid);

struct commit_graph_entry {
	struct object_id tree;
	timestamp_t date;         /* committer date */
	uint32_t generation;      /* topological level (>= 1) */
	uint32_t nr_parents;
	uint32_t parents[2];      /* first two parents' positions */
	/* More than two parents: the rest from the EDGE chunk, through
	 * commit_graph_parent(). */
};

/* 0; a parent position out of range dies as git does
 * ("invalid parent position N"). */
int commit_graph_entry(uint32_t pos, struct commit_graph_entry *e);
/* Position of the n-th parent (0-based) of the commit at pos; -1 if
 * there is none or the entry is corrupt. */
int64_t commit_graph_parent(uint32_t pos, uint32_t n);

/* Forget the graph (tests, after writing a new one). */
void commit_graph_close(void);

#endif
