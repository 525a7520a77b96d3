/* pack-verify.c: each pack verified by pack_walk() on every core, its
 * messages printed in pack order when it is done, the progress meter, and
 * the checksums computed on the pool. */
#include "builtin/fsck/fsck.h"
#include "lib/progress.h"
#include "lib/thread-pool.h"
#include "odb/pack-walk.h"
#include "sha1/object-hash.h"
#include <inttypes.h>
#include <pthread.h>
#include <sys/mman.h>

/*
 * "Checking objects" as git drives its meter: after entry i of a pack it
 * shows base + i when that is a multiple of 1024, and base + the pack's
 * count when the pack is done (base: the entries of the packs before).
 * Entries finish on any thread in any order; each finished entry counts,
 * and the values are shown in git's order under a lock, so the lines are
 * git's. Nothing of this runs without --progress.
 */
struct progress *fsck_obj_meter;
static uint64_t meter_base, meter_end, meter_next;
static uint32_t meter_done;
static pthread_mutex_t meter_lock = PTHREAD_MUTEX_INITIALIZER;

static void meter_pack_begin(uint32_t nr)
{
	meter_done = 0;
	meter_end = meter_base + nr;
	meter_next = (meter_base + 1023) & ~(uint64_t)1023;
}

static void meter_entry_done(void)
{
	uint64_t v = meter_base + __atomic_add_fetch(&meter_done, 1, __ATOMIC_RELAXED) - 1;

	if (v < __atomic_load_n(&meter_next, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&meter_lock);
	while (meter_next < meter_end && meter_next <= v) {
		display_progress(fsck_obj_meter, meter_next);
		__atomic_store_n(&meter_next, meter_next + 1024, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&meter_lock);
}

static void meter_pack_end(void)
{
	pthread_mutex_lock(&meter_lock);
	for (; meter_next < meter_end; meter_next += 1024)
		display_progress(fsck_obj_meter, meter_next);
	pthread_mutex_unlock(&meter_lock);
	display_progress(fsck_obj_meter, meter_end);
	meter_base = meter_end;
}
struct bad_packed *fsck_bad_packed;
size_t fsck_nr_bad_packed;
static size_t alloc_bad_packed;

struct pack_ctx {
	struct fpack *f;
	/* Per entry in pack order; the array itself only once an entry has
	 * something to say (a clean pack never zeroes it). */
	struct msgs **msgs;
	size_t msgs_mapped;   /* bytes, when msgs was mapped */
	uint32_t nr_msgs;
	int err;              /* git's verify_pack() result */
	int obj_err;
	pthread_mutex_t lock;
};

static void entry_msgs_array(struct pack_ctx *c)
{
	size_t n = (size_t)c->f->p.idx.nr + 1;
	struct msgs **a;

	pthread_mutex_lock(&c->lock);
	if (!c->msgs) {
		c->msgs_mapped = n * sizeof(*a);
		a = huge_zalloc(c->msgs_mapped);
		if (!a) {
			c->msgs_mapped = 0;
			a = xcalloc(n, sizeof(*a));
		}
		__atomic_store_n(&c->msgs, a, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&c->lock);
}

static struct msgs *entry_msgs(struct pack_ctx *c, uint32_t nr)
{
	if (!__atomic_load_n(&c->msgs, __ATOMIC_ACQUIRE))
		entry_msgs_array(c);
	if (!c->msgs[nr]) {
		struct msgs *m = xmalloc(sizeof(*m));
		strbuf_init(&m->out, 0);
		strbuf_init(&m->err, 0);
		c->msgs[nr] = m;
		__atomic_add_fetch(&c->nr_msgs, 1, __ATOMIC_RELAXED);
	}
	return c->msgs[nr];
}

static void crc_check(struct pack_ctx *c, uint32_t nr, uint32_t pos, uint32_t crc,
		      uint32_t idx_crc, uint64_t offset, struct msgs **mp)
{
	const struct pack_idx *idx = &c->f->p.idx;
	struct object_id id;
	if (idx->version < 2 || idx_crc == crc)
		return;
	*mp = entry_msgs(c, nr);
	memcpy(id.hash, pack_idx_id(idx, pos), RAW_SZ);
	msg_add(*mp, 1, "error: index CRC mismatch for object %s from %s at offset %" PRIu64,
		thex(&id), c->f->name, offset);
	c->err = 1;
}

static void pack_object_cb(const struct pack_walk_object *o, void *data)
{
	struct pack_ctx *c = data;
	struct msgs *m = NULL, local = { STRBUF_INIT, STRBUF_INIT };
	struct fobj *self = &fsck_objs[o->tag];
	int parse_failed, r;

	if (fsck_obj_meter)
		meter_entry_done();
	crc_check(c, o->nr, o->idx_pos, o->crc, o->idx_crc, o->offset, &m);
	if (!oideq(&self->oid, &o->oid)) {
		if (!m)
			m = entry_msgs(c, o->nr);
		msg_add(m, 1, "error: packed %s from %s is corrupt", thex(&self->oid),
			c->f->name);
		c->err = 1;
		return;
	}
	r = check_obj(self, o->type, o->data, o->size, &local, &parse_failed);
	if (parse_failed) {
		msg_add(&local, 1, "error: %s: object corrupt or missing", thex(&o->oid));
		__atomic_fetch_or(&fsck_errors_found, ERROR_OBJECT, __ATOMIC_RELAXED);
		r = 1;
	}
	if (r)
		c->err = 1;
	if (local.out.len || local.err.len) {
		if (!m)
			m = entry_msgs(c, o->nr);
		strbuf_addbuf(&m->out, &local.out);
		strbuf_addbuf(&m->err, &local.err);
	}
	strbuf_release(&local.out);
	strbuf_release(&local.err);
}

/* The table entry the object callback will update, fetched while the
 * entry inflates. */
static void pack_prefetch_cb(uint32_t tag, void *data UNUSED)
{
	__builtin_prefetch(&fsck_objs[tag], 1);
}

static void pack_error_cb(const struct pack_walk_error *e, void *data)
{
	struct pack_ctx *c = data;
	const struct pack_idx *idx = &c->f->p.idx;
	struct msgs *m = NULL;
	struct object_id id;

	c->err = 1;
	if (e->nr == UINT32_MAX || e->idx_pos == PACK_WALK_NO_POS)
		return;
	if (fsck_obj_meter)
		meter_entry_done();
	if (e->packed_len)
		crc_check(c, e->nr, e->idx_pos, e->crc, e->idx_crc, e->offset, &m);
	m = entry_msgs(c, e->nr);
	memcpy(id.hash, pack_idx_id(idx, e->idx_pos), RAW_SZ);
	{
		const char *zmsg = NULL;
		if (e->kind == PACK_WALK_BAD_DATA && e->detail && strcmp(e->detail, "truncated") &&
		    strcmp(e->detail, "size mismatch") &&
		    strcmp(e->detail, "size larger than the data can hold"))
			zmsg = e->detail;
		if (zmsg)
			msg_add(m, 1, "error: inflate: data stream error (%s)", zmsg);
		if (e->kind == PACK_WALK_MISSING_BASE) {
			/* git names the position just past the base reference. */
			struct pack_entry pe;
			if (!pack_entry_header(&c->f->p, e->offset, &pe))
				msg_add(m, 1, "error: failed to validate delta base reference at offset %" PRIu64 " from %s",
					e->offset + pe.hdr_len, c->f->name);
		}
		ALLOC_GROW(fsck_bad_packed, fsck_nr_bad_packed + 1, alloc_bad_packed);
		oidcpy(&fsck_bad_packed[fsck_nr_bad_packed].oid, &id);
		fsck_bad_packed[fsck_nr_bad_packed].detail = zmsg;
		fsck_bad_packed[fsck_nr_bad_packed].pack = c->f->name;
		fsck_nr_bad_packed++;
	}
	msg_add(m, 1, "error: cannot unpack %s from %s at offset %" PRIu64,
		thex(&id), c->f->name, e->offset);
}

static int idx_checksum_ok(const struct pack_idx *idx)
{
	unsigned char h[RAW_SZ];
	sha1_buf(h, idx->map, idx->size - RAW_SZ);
	return !memcmp(h, idx->map + idx->size - RAW_SZ, RAW_SZ);
}

static void idx_sum_task_run(void *arg, int worker UNUSED)
{
	struct fpack *f = arg;
	f->idx_sum_ok = idx_checksum_ok(&f->p.idx);
}

static void pack_sum_task_run(void *arg, int worker UNUSED)
{
	struct fpack *f = arg;
	unsigned char h[RAW_SZ];
	sha1_buf(h, f->p.map, f->p.map_size - RAW_SZ);
	f->pack_sum_ok = !memcmp(h, f->p.map + f->p.map_size - RAW_SZ, RAW_SZ);
}

struct thread_pool *fsck_pool;
int fsck_some_pack_unusable;

/*
 * The pool starts on the indexes' checksums while this thread sets up the
 * table, a time the other cores would idle; the first pack's checksum
 * too when nothing can be printed before that pack is verified (mapping
 * it may print git's errors, which must keep their place).
 */
void start_checksums(void)
{
	fsck_pool = thread_pool_new(0);
	for (size_t i = 0; i < fsck_nr_packs; i++) {
		struct fpack *f = &fsck_packs[i];
		if (!f->usable)
			continue;
		f->idx_sum_queued = 1;
		thread_pool_add(fsck_pool, idx_sum_task_run, f);
	}
	if (fsck_nr_packs && fsck_packs[0].usable && !fsck_nr_loose && !fsck_verbose_objs && !fsck_show_progress) {
		fsck_packs[0].map_early = 1;
		if (pack_map(&fsck_packs[0].p) < 0)
			return;
		pack_advise_walk(&fsck_packs[0].p);
		fsck_packs[0].pack_sum_queued = 1;
		thread_pool_add(fsck_pool, pack_sum_task_run, &fsck_packs[0]);
	}
}

void verify_one_pack(struct fpack *f)
{
	struct pack_ctx c;
	struct pack_walk_opts opts;
	struct pack_walk_result res;
	int err = 0;

	if (!f->usable)
		return;
	meter_pack_begin(f->p.idx.nr);
	/* A map tried early printed its errors then: not twice. */
	if (f->map_early ? f->p.map_state <= 0 : pack_map(&f->p) < 0) {
		meter_base = meter_end;
		if (!idx_checksum_ok(&f->p.idx))
			error("Packfile index for %s hash mismatch", f->name);
		error("packfile %s cannot be accessed", f->name);
		fsck_errors_found |= ERROR_PACK;
		f->usable = 0;
		fsck_some_pack_unusable = 1;
		return;
	}
	pack_advise_walk(&f->p);
	memset(&c, 0, sizeof(c));
	c.f = f;
	pthread_mutex_init(&c.lock, NULL);
	memset(&opts, 0, sizeof(opts));
	opts.idx = &f->p.idx;
	opts.pool = fsck_pool;
	opts.verify_checksum = !f->pack_sum_queued;
	opts.object = pack_object_cb;
	opts.error = pack_error_cb;
	opts.prefetch = pack_prefetch_cb;
	opts.tags = f->pos_map;
	opts.data = &c;
	/* The index's checksum is computed beside the walk, on the pool. */
	if (!f->idx_sum_queued) {
		f->idx_sum_queued = 1;
		thread_pool_add(fsck_pool, idx_sum_task_run, f);
	}
	pack_walk(f->p.map, f->p.map_size, &opts, &res);
	thread_pool_wait(fsck_pool);
	if (fsck_obj_meter)
		meter_pack_end();
	if (f->pack_sum_queued)
		res.checksum_ok = f->pack_sum_ok;
	if (!f->idx_sum_ok)
		err = error("Packfile index for %s hash mismatch", f->name);
	if (!res.checksum_ok) {
		error("%s pack checksum mismatch", f->name);
		err = 1;
	}
	if (memcmp(f->p.map + f->p.map_size - RAW_SZ, pack_idx_pack_checksum(&f->p.idx), RAW_SZ)) {
		error("%s pack checksum does not match its index", f->name);
		err = 1;
	}
	for (uint32_t i = 0; c.nr_msgs && i < f->p.idx.nr; i++)
		if (c.msgs[i]) {
			msg_flush(c.msgs[i]);
			free(c.msgs[i]);
		}
	if (c.msgs_mapped)
		munmap(c.msgs, c.msgs_mapped);
	else
		free(c.msgs);
	pthread_mutex_destroy(&c.lock);
	if (err || c.err)
		fsck_errors_found |= ERROR_PACK;
}
