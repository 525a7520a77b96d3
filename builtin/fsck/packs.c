/* packs.c: the packs: found, sorted in git's order, their indexes
 * opened and their ids put in the table. */
#include "builtin/fsck/fsck.h"
#include <dirent.h>

struct fpack *fsck_packs;
size_t fsck_nr_packs;
static size_t alloc_packs;

void scan_packs(const char *dir, int local)
{
	struct strbuf path = STRBUF_INIT;
	DIR *d;
	struct dirent *de;

	strbuf_addf(&path, "%s/pack", dir);
	d = opendir(path.buf);
	if (!d) {
		strbuf_release(&path);
		return;
	}
	while ((de = readdir(d))) {
		struct strbuf idx = STRBUF_INIT, pk = STRBUF_INIT;
		struct stat s;
		struct fpack *f;
		size_t l = strlen(de->d_name);
		if (l < 5 || !ends_with(de->d_name, ".idx"))
			continue;
		strbuf_addf(&idx, "%s/%s", path.buf, de->d_name);
		strbuf_addf(&pk, "%s/%.*s.pack", path.buf, (int)(l - 4), de->d_name);
		if (stat(pk.buf, &s) < 0) {
			strbuf_release(&idx);
			strbuf_release(&pk);
			continue;
		}
		ALLOC_GROW(fsck_packs, fsck_nr_packs + 1, alloc_packs);
		f = &fsck_packs[fsck_nr_packs++];
		memset(f, 0, sizeof(*f));
		{
			/* Named as git names them, so the object store's
			 * messages about this pack read like git's too. */
			char *base = xstrndup(de->d_name, l - 4);
			char *sub = xstrfmt("%s.pack", base);
			char *ix = display_path(path.buf, NULL, de->d_name);
			f->name = display_path(path.buf, NULL, sub);
			pack_init(&f->p, ix);
			free(ix);
			free(sub);
			free(base);
		}
		f->local = local;
		f->mtime = s.st_mtime;
		f->seq = fsck_nr_packs;
		strbuf_release(&idx);
		strbuf_release(&pk);
	}
	closedir(d);
	strbuf_release(&path);
}

/* git's order: local packs first, then the youngest first (mtime in
 * seconds); git prepends each pack to its list as the directory listing
 * finds it and sorts stably, so among equals the last found comes first. */
int cmp_pack(const void *a, const void *b)
{
	const struct fpack *x = a, *y = b;
	if (x->local != y->local)
		return y->local - x->local;
	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/* Objects of a pack that cannot be mapped are not stored, as far as git's
 * later lookups are concerned. */
void recompute_in_pack(void)
{
	for (size_t i = 0; i < fsck_nr_objs; i++)
		fsck_objs[i].flags &= ~IN_PACK;
	for (size_t i = 0; i < fsck_nr_packs; i++) {
		if (!fsck_packs[i].usable)
			continue;
		for (uint32_t k = 0; k < fsck_packs[i].p.idx.nr; k++) {
			struct object_id id;
			memcpy(id.hash, pack_idx_id(&fsck_packs[i].p.idx, k), RAW_SZ);
			find_obj(&id)->flags |= IN_PACK;
		}
	}
}

int open_packs(void)
{
	size_t total = fsck_nr_objs;

	for (size_t i = 0; i < fsck_nr_packs; i++) {
		struct fpack *f = &fsck_packs[i];
		if (pack_open_index(&f->p) < 0)
			continue;
		f->usable = 1;
		total += f->p.idx.nr;
	}
	table_reserve(total);
	for (size_t i = 0; i < fsck_nr_packs; i++) {
		struct fpack *f = &fsck_packs[i];
		if (!f->usable)
			continue;
		for (uint32_t k = 0; k < f->p.idx.nr; k++) {
			struct fobj *o = &fsck_objs[fsck_nr_objs++];
			memcpy(o->oid.hash, pack_idx_id(&f->p.idx, k), RAW_SZ);
			o->type = 0;
			o->flags = IN_PACK;
			o->links = NULL;
			o->stage = NO_STAGE;
		}
		end_run();
	}
	return 0;
}

/* Table index of every pack entry: the index and the table are both
 * sorted, so one forward walk finds them all (a damaged, unsorted index
 * falls back to a search). */
void map_pack_positions(void)
{
	for (size_t i = 0; i < fsck_nr_packs; i++) {
		struct fpack *f = &fsck_packs[i];
		size_t j = 0;
		if (!f->usable)
			continue;
		f->pos_map = xmalloc(((size_t)f->p.idx.nr + 1) * sizeof(*f->pos_map));
		if (fsck_table_in_run_order && f->p.idx.nr == fsck_nr_objs) {
			/* The table is this index's ids, in its order. */
			for (uint32_t k = 0; k < f->p.idx.nr; k++)
				f->pos_map[k] = k;
			continue;
		}
		for (uint32_t k = 0; k < f->p.idx.nr; k++) {
			const unsigned char *id = pack_idx_id(&f->p.idx, k);
			while (j < fsck_nr_objs && memcmp(fsck_objs[j].oid.hash, id, RAW_SZ) < 0)
				j++;
			if (j < fsck_nr_objs && !memcmp(fsck_objs[j].oid.hash, id, RAW_SZ)) {
				f->pos_map[k] = (uint32_t)j;
			} else {
				struct object_id oid;
				memcpy(oid.hash, id, RAW_SZ);
				f->pos_map[k] = (uint32_t)(find_obj(&oid) - fsck_objs);
			}
		}
	}
}
