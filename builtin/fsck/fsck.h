/* fsck.h: what the parts of the fsck command share (builtin/fsck.c holds
 * the command; builtin/fsck/ its parts). The object table, one sorted
 * entry per id with its links as table indexes; the list of ids linked to
 * but not stored; messages kept until they can be printed in git's order;
 * the object directories and packs; the options and the exit code's bits.
 * A part's own helpers stay static in it. */
#ifndef BUILTIN_FSCK_FSCK_H
#define BUILTIN_FSCK_FSCK_H

#include "lib/util.h"
#include "lib/strbuf.h"
#include "odb/object.h"
#include "odb/pack.h"
#include "odb/fsck-check.h"
#include <stdint.h>
#include <sys/stat.h>

struct progress;
struct ref_entry;
struct thread_pool;

#define ERROR_OBJECT 01
#define ERROR_REACHABLE 02
#define ERROR_PACK 04
#define ERROR_REFS 010

enum {
	HAS_OBJ = 1,    /* verified: type and links known */
	SEEN = 2,       /* a copy was checked: links are known */
	USED = 4,       /* something points at it */
	REACHABLE = 8,
	IN_PACK = 16,
	IN_LOOSE = 32,
	CREATED = 64,   /* in git's object table though none of the above says so */
	WALK_BAD = 128, /* a tree git's walk cannot decode: it says so each visit */
};

/* A link: table index in the low 28 bits, type in bits 28-30, bit 31
 * set when the index is into the missing list instead. */
#define LINK_MISSING 0x80000000u
#define LINK_INDEX(l) ((l) & 0x0fffffffu)
#define LINK_TYPE(l) ((enum object_type)(((l) >> 28) & 7))

/* What a tree entry of this mode links to: a tree, a blob, or (a
 * submodule commit, an unknown mode) nothing fsck follows. */
static inline enum object_type entry_link_type(unsigned mode)
{
	if (S_ISDIR(mode))
		return OBJ_TREE;
	if (S_ISREG(mode) || S_ISLNK(mode))
		return OBJ_BLOB;
	return OBJ_NONE;
}

/* 32 bytes: the id and the small fields fill the first 24, so the link
 * pointer needs no padding (millions of entries, fetched at random). */
struct fobj {
	struct object_id oid;
	uint8_t type;
	uint8_t flags;
	uint16_t stage;     /* when verified: 0 loose, 1 + pack number; or NO_STAGE */
	uint32_t *links;    /* links[0] = count */
};
#define NO_STAGE 0xffff

/* fsck.c: the options; the exit code, an OR of the ERROR_ bits. */
extern int fsck_errors_found;
extern int fsck_check_full, fsck_connectivity_only, fsck_show_dangling, fsck_show_unreachable;
extern int fsck_show_root, fsck_show_tags, fsck_verbose, fsck_show_progress;
extern int fsck_include_reflogs;
extern int fsck_verbose_objs;
extern struct fsck_options fsck_check_opts;

/* table.c: the object table, sorted by id, and its lookup. */
extern struct fobj *fsck_objs;
extern size_t fsck_nr_objs;
extern uint8_t *fsck_used_map, *fsck_reach_map, *fsck_type_map;
extern int fsck_table_in_run_order;
extern uint32_t *fsck_fan;
extern uint64_t *fsck_keys;

static inline uint64_t key64(const unsigned char *h)
{
	return (uint64_t)get_be32(h + 2) << 32 | get_be32(h + 6);
}

void *huge_zalloc(size_t bytes);
struct fobj *find_obj(const struct object_id *oid);
void add_id(const unsigned char *id, uint8_t where);
void end_run(void);
void sort_table(void);
void table_reserve(size_t total);

/* links.c: an object's links as table indexes, or into the missing list. */
extern struct object_id *fsck_missing;
extern uint8_t *fsck_missing_type;
extern size_t fsck_nr_missing;

/*
 * Links that missed the cache are looked up in batches, in three passes
 * so that the cache misses of different lookups overlap instead of
 * following one another: the key bucket is prefetched when the link is
 * queued, the candidate table entry when its key is found, and the id is
 * compared last. One tree's new entries are thus looked up together.
 */
#define WANT_BATCH 64
struct want {
	const struct object_id *oid;
	uint32_t *slot;
	uint32_t cand;
	uint8_t type;
};

static inline void want_add(struct want *wt, size_t *n, const struct object_id *oid,
			    enum object_type type, uint32_t *slot)
{
	uint32_t k = oid->hash[0] << 8 | oid->hash[1];
	__builtin_prefetch(&fsck_keys[fsck_fan[k]]);
	wt[*n].oid = oid;
	wt[*n].slot = slot;
	wt[*n].type = (uint8_t)type;
	(*n)++;
}

uint32_t link_to(const struct object_id *oid, enum object_type type);
void want_resolve(struct want *wt, size_t n);
uint32_t *collect_links(enum object_type type, const char *buf, size_t len);
uint32_t *tree_links_checked(const struct object_id *oid, const char *buf, size_t len);

/* msgs.c: output of one object, kept until it can be printed in git's
 * order. */
struct msgs {
	struct strbuf out, err;
};

void msg_add(struct msgs *m, int to_err, const char *fmt, ...) FORMAT_PRINTF(3, 4);
void msg_flush(struct msgs *m);
const char *printable_type(enum object_type t);
const char *thex(const struct object_id *oid);

/* check.c: git's checks of one object read in full. */
extern uint16_t fsck_current_stage;
extern int fsck_verified_before, fsck_sequential_pass;
extern size_t fsck_nr_walk_bad;

int parse_refuses(enum object_type type, const char *buf, size_t len,
		  const struct object_id *oid, struct msgs *m);
int check_obj(struct fobj *o, enum object_type type, const char *buf, size_t len,
	      struct msgs *m, int *parse_failed);
void walk_bad_say(const struct fobj *o);

/* objdir.c: the object directories, alternates included. */
struct objdir {
	char *path;
	int local;
};
extern struct objdir *fsck_dirs;
extern size_t fsck_nr_dirs;

void add_objdir(const char *path, int local, int depth);
const char *display_dir(const char *dir, struct strbuf *cwd);
char *display_path(const char *dir, const char *sub, const char *name);

/* loose.c: loose objects, listed and verified. */
extern size_t fsck_nr_loose;

void scan_loose(uint32_t dir_nr);
size_t verify_loose(size_t i, uint32_t dir_nr);
/* The i-th loose object in listing order; NULL for a file not named as
 * an object. */
const struct object_id *loose_oid_at(size_t i);

/* packs.c: the packs, found, sorted as git sorts them and opened. */
struct fpack {
	struct packed_git p;
	char *name;       /* the .pack path as git prints it */
	int local;
	int64_t mtime;
	size_t seq;       /* order found in: git lists the later first */
	int usable;
	uint32_t *pos_map;  /* index position -> table index */
	/* Checksums computed on the pool while the table is set up. */
	int idx_sum_queued, idx_sum_ok;
	int pack_sum_queued, pack_sum_ok;
	int map_early;
};
extern struct fpack *fsck_packs;
extern size_t fsck_nr_packs;

void scan_packs(const char *dir, int local);
int cmp_pack(const void *a, const void *b);
int open_packs(void);
void map_pack_positions(void);
void recompute_in_pack(void);

/* pack-verify.c: packs verified on the pool. */
/* Packed objects that would not unpack, and zlib's reason. */
struct bad_packed {
	struct object_id oid;
	const char *detail;
	const char *pack;
};
extern struct bad_packed *fsck_bad_packed;
extern size_t fsck_nr_bad_packed;
extern struct progress *fsck_obj_meter;
extern struct thread_pool *fsck_pool;
extern int fsck_some_pack_unusable;

void start_checksums(void);
void verify_one_pack(struct fpack *f);

/* reachable.c: what the roots reach, from the links verification kept. */
extern uint32_t *fsck_pending;
extern size_t fsck_nr_pending;
extern size_t fsck_nr_virtual;
extern struct fobj *fsck_virt;
extern uint32_t *fsck_missing_map;
extern int fsck_all_verified;

void build_missing(void);
struct fobj *link_target(uint32_t l);
void mark_reachable(struct fobj *o);
void reread_broken(struct fobj *o);
void traverse(void);
void mark_used_links(void);

/* conn-read.c: --connectivity-only's reader. */
void conn_reader_setup(void);
void *conn_read(const struct fobj *o, enum object_type *type, size_t *size);
void conn_done(void *buf);

/* conn-walk.c: --connectivity-only's walk. */
int conn_parse_object(struct fobj *o);
void conn_traverse(void);
void conn_mark_unreachable(void);
void conn_finish_missing(void);

/* roots.c: refs, HEAD, reflogs and linked work trees as roots. */
extern int fsck_default_refs;
extern struct object_id *fsck_extra_ids;
extern size_t fsck_nr_extra;
extern int fsck_reflog_saw_head;

int fsck_ref_cb(const struct ref_entry *ref, void *data);
int reflog_ent_cb(const struct object_id *old_oid, const struct object_id *new_oid,
		  const char *ident, uint64_t when, int tz, const char *msg, void *data);
void head_link(void);
void main_reflogs(void);
void linked_worktrees(void);

/* index.c: the index's entries and cache tree as roots. */
void index_read(void);
void index_roots(void);

/* report.c: the connectivity report: missing, dangling, unreachable. */
void check_connectivity(void);

#endif
