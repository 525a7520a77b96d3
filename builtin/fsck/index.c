/* index.c: the index's entries and its cache tree as roots. */
#include "builtin/fsck/fsck.h"
#include "lib/repo.h"
#include "lib/index-file.h"
#include "sha1/object-hash.h"

/* Index entries (v2, v3, v4) are roots too: their ids are read before
 * the missing list is closed, since an index may name missing blobs. */
static uint32_t *idx_links;
static size_t nr_idx_links, alloc_idx_links;
/* Cache tree nodes in the extension's order (pre-order). */
struct ct_node {
	uint32_t link;      /* valid only when entries >= 0 */
	long entries;       /* -1: invalidated, no id */
	long subtrees;
};
static struct ct_node *ct;
static size_t nr_ct, alloc_ct;
static int have_cache_tree;

void index_read(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct index_reader r;
	struct index_entry_ref e;
	const unsigned char *p, *end;
	int got;

	if (!repo_worktree())
		return;
	if (strbuf_read_file(&sb, git_path("index"), 0) < 0)
		return;
	if (index_reader_init(&r, sb.buf, sb.len) < 0) {
		strbuf_release(&sb);
		return;
	}
	{
		unsigned char h[RAW_SZ];
		sha1_buf(h, sb.buf, sb.len - RAW_SZ);
		if (memcmp(h, sb.buf + sb.len - RAW_SZ, RAW_SZ))
			die("index file corrupt");
	}
	while ((got = index_reader_next(&r, &e)) > 0) {
		if ((e.mode & 0170000) == 0160000)
			continue;
		ALLOC_GROW(idx_links, nr_idx_links + 1, alloc_idx_links);
		idx_links[nr_idx_links++] = link_to(&e.oid, OBJ_BLOB);
	}
	if (got < 0)
		goto out;
	p = r.p;
	end = r.end;
	/* Extensions: the cache tree names trees that are roots as well. */
	while (end - p >= 8) {
		uint32_t sz = get_be32(p + 4);
		const unsigned char *d = p + 8, *dend;
		if ((uint64_t)sz > (uint64_t)(end - d))
			break;
		dend = d + sz;
		if (!memcmp(p, "TREE", 4)) {
			while (d < dend) {
				const unsigned char *nul = memchr(d, 0, dend - d);
				const char *q;
				char *e1, *e2;
				long cnt;
				if (!nul)
					break;
				q = (const char *)nul + 1;
				long sub;
				cnt = strtol(q, &e1, 10);
				if (e1 == q || *e1 != ' ')
					break;
				sub = strtol(e1 + 1, &e2, 10);
				if ((const unsigned char *)e2 >= dend || *e2 != '\n' || sub < 0)
					break;
				d = (const unsigned char *)e2 + 1;
				ALLOC_GROW(ct, nr_ct + 1, alloc_ct);
				ct[nr_ct].entries = cnt;
				ct[nr_ct].subtrees = sub;
				ct[nr_ct].link = 0;
				if (cnt >= 0) {
					struct object_id oid;
					if (dend - d < RAW_SZ)
						break;
					memcpy(oid.hash, d, RAW_SZ);
					d += RAW_SZ;
					ct[nr_ct].link = link_to(&oid, OBJ_TREE);
				}
				nr_ct++;
				have_cache_tree = 1;
			}
		}
		p = dend;
	}
out:
	index_reader_release(&r);
	strbuf_release(&sb);
}

/* Paths are shorter than this many levels; a deeper tree is hostile. */
#define CT_MAX_DEPTH 4096

static void cache_tree_skip(size_t *i, int depth)
{
	long sub = ct[(*i)++].subtrees;
	for (long k = 0; k < sub && *i < nr_ct && depth < CT_MAX_DEPTH; k++)
		cache_tree_skip(i, depth + 1);
}

/* git's fsck_cache_tree(): a node whose tree cannot be read ends the
 * visit of its subtrees. Returns with *i past the node's subtrees. */
static void cache_tree_node(size_t *i, int depth)
{
	const struct ct_node *n;
	int skip = 0;

	if (*i >= nr_ct)
		return;
	if (fsck_verbose)
		fprintf(stderr, "Checking cache tree\n");
	n = &ct[(*i)++];
	if (n->entries >= 0) {
		struct fobj *o = link_target(n->link);
		if (fsck_connectivity_only ? (n->link & LINK_MISSING) || !conn_parse_object(o) :
		    !(o->flags & HAS_OBJ) && !(fsck_check_full == 0 && (o->flags & IN_PACK))) {
			reread_broken(o);
			error("%s: invalid sha1 pointer in cache-tree", thex(&o->oid));
			fsck_errors_found |= ERROR_REFS;
			skip = 1;
		} else {
			o->flags |= USED;
			mark_reachable(o);
			if (o->type != OBJ_TREE && (o->flags & HAS_OBJ)) {
				fprintf(stderr, "error in %s %s: non-tree in cache-tree\n",
					printable_type(o->type), thex(&o->oid));
				fsck_errors_found |= ERROR_OBJECT;
			}
		}
	}
	for (long k = 0; k < n->subtrees && *i < nr_ct && depth < CT_MAX_DEPTH; k++) {
		if (skip)
			cache_tree_skip(i, depth + 1);
		else
			cache_tree_node(i, depth + 1);
	}
}

void index_roots(void)
{
	for (size_t i = 0; i < nr_idx_links; i++) {
		struct fobj *o = link_target(idx_links[i]);
		o->flags |= USED;
		if (!o->type)
			o->type = OBJ_BLOB;
		mark_reachable(o);
	}
	if (have_cache_tree) {
		size_t i = 0;
		cache_tree_node(&i, 0);
	}
}
