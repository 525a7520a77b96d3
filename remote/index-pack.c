/* index-pack.c: a pack's .idx from one walk of the pack (odb/pack-walk). */
#include "remote/index-pack.h"
#include "lib/progress.h"
#include "lib/strbuf.h"
#include "odb/odb.h"
#include "odb/object.h"
#include "odb/pack-walk.h"
#include "sha1/sha1.h"
#include <fcntl.h>
#include <pthread.h>
#include <zlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* Failures are fatal for every caller: say so as git does, and let the
 * caller remove what it created before it exits 128. */
FORMAT_PRINTF(1, 2)
static int fail(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fputs("fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int fail_errno(const char *what)
{
	return fail("%s: %s", what, strerror(errno));
}

struct ip_state {
	struct idx_entry *e;
	uint32_t alloc;
	int check_collisions;
	pthread_mutex_t lock;
	struct pack_walk_error first_err;
	int nr_errors;
	uint32_t nr_missing_base;
	int collision;
	struct object_id collided;
	/* progress, and what the first pass found before deltas resolve */
	struct progress *progress;
	int verbose, receiving;
	size_t len;
	uint64_t bytes_read;     /* git's reader, replayed for its throughput */
	int scan_done, checksum_ok;
	uint64_t entries_end;
	int trailer_failed;      /* git's reading would fail here instead */
	struct pack_walk_error trailer_err;
	/* --fix-thin: the bases taken from our objects, deflated, to be
	 * appended to the pack as whole objects */
	struct thin_base {
		struct object_id oid;
		enum object_type type;
		size_t size;
		unsigned char *z;
		size_t zlen;
	} *thin;
	size_t thin_nr, thin_alloc;
	/* check_links: the ids the pack's objects name, from every thread,
	 * each once (a set: trees of many versions name the same ids) */
	int check_links;
	struct object_id *links;  /* open addressing; the null id is empty */
	size_t links_nr, links_size;
	int bad_links;           /* an object whose links could not be read */
};

/* git reads its input 4096 bytes at a time, byte by byte through entry
 * headers, 20 bytes at once for a REF_DELTA base; each read updates the
 * throughput. Replaying those reads over the entries gives the byte count
 * git shows. */
#define GIT_INPUT_BUFFER 4096

static void read_to(struct ip_state *st, uint64_t total)
{
	st->bytes_read = total < st->len ? total : st->len;
	display_throughput(st->progress, st->bytes_read);
}

static void replay_reads(struct ip_state *st, const struct pack_walk_event *ev)
{
	uint64_t ref = ev->type == OBJ_REF_DELTA ? RAW_SZ : 0;
	uint64_t bytes_end = ev->offset + ev->hdr_len - ref;

	while (bytes_end > st->bytes_read)
		read_to(st, st->bytes_read + GIT_INPUT_BUFFER);
	if (ref && bytes_end + RAW_SZ > st->bytes_read)
		read_to(st, bytes_end + GIT_INPUT_BUFFER);
	while (ev->end > st->bytes_read)
		read_to(st, st->bytes_read + GIT_INPUT_BUFFER);
}

static void on_progress(const struct pack_walk_event *ev, void *data)
{
	struct ip_state *st = data;

	switch (ev->kind) {
	case PACK_WALK_ENTRY_READ:
		if (!st->progress)
			return;
		if (st->receiving)
			replay_reads(st, ev);
		display_progress(st->progress, ev->nr);
		break;
	case PACK_WALK_ENTRIES_DONE:
		st->scan_done = 1;
		st->entries_end = ev->end;
		st->checksum_ok = ev->checksum_ok;
		stop_progress(&st->progress);
		/* git checks the trailer, then resolves deltas, if any */
		if (st->verbose && ev->nr && ev->end == st->len - RAW_SZ && ev->checksum_ok) {
			st->progress = start_progress("Resolving deltas", ev->nr);
			display_progress(st->progress, 0);
		}
		break;
	case PACK_WALK_DELTA_RESOLVED:
		progress_add(st->progress, 1);
		break;
	case PACK_WALK_ENTRY_FAILED:
		st->trailer_failed = 1;
		memset(&st->trailer_err, 0, sizeof(st->trailer_err));
		st->trailer_err.kind = ev->error;
		st->trailer_err.offset = ev->offset;
		st->trailer_err.nr = ev->nr;
		st->trailer_err.detail = ev->detail;
		break;
	}
}

/* Adds id to the set (a power of two in size, never full); 1 if it was
 * not there yet. */
static int link_put(struct object_id *set, size_t size, const struct object_id *id)
{
	uint64_t h;
	size_t i;
	memcpy(&h, id->hash, sizeof(h));
	for (i = (size_t)h & (size - 1); !is_null_oid(&set[i]); i = (i + 1) & (size - 1))
		if (oideq(&set[i], id))
			return 0;
	oidcpy(&set[i], id);
	return 1;
}

static void flush_links(struct ip_state *st, struct object_id *ids, size_t n)
{
	if (!n)
		return;
	pthread_mutex_lock(&st->lock);
	for (size_t k = 0; k < n; k++) {
		if (is_null_oid(&ids[k]))
			continue;   /* names nothing a server could send */
		if (2 * (st->links_nr + 1) > st->links_size) {
			size_t size = st->links_size ? 2 * st->links_size : 1024;
			struct object_id *set = xcalloc(size, sizeof(*set));
			for (size_t i = 0; i < st->links_size; i++)
				if (!is_null_oid(&st->links[i]))
					link_put(set, size, &st->links[i]);
			free(st->links);
			st->links = set;
			st->links_size = size;
		}
		st->links_nr += link_put(st->links, st->links_size, &ids[k]);
	}
	pthread_mutex_unlock(&st->lock);
}

/* The ids obj names: a commit's tree and parents, a tag's object, a
 * tree's entries but submodule commits. Appended to st->links; an object
 * that cannot be read that far marks st->bad_links. */
static void collect_links(struct ip_state *st, const struct pack_walk_object *obj)
{
	struct object_id local[64];
	size_t n = 0;
	const char *p = obj->data, *end = p + obj->size;
	int bad = 0;

#define LINK(id) do { \
		if (n == ARRAY_SIZE(local)) { flush_links(st, local, n); n = 0; } \
		oidcpy(&local[n++], (id)); \
	} while (0)
	if (obj->type == OBJ_TREE) {
		struct tree_iter it;
		struct tree_entry e;
		int r;
		tree_iter_init(&it, obj->data, obj->size);
		while ((r = tree_iter_next(&it, &e)) > 0)
			if (e.mode != 0160000)
				LINK(e.oid);
		bad = r < 0;
	} else if (obj->type == OBJ_COMMIT || obj->type == OBJ_TAG) {
		const char *key = obj->type == OBJ_COMMIT ? "tree " : "object ";
		size_t klen = strlen(key);
		struct object_id id;
		if ((size_t)(end - p) < klen + HEX_SZ + 1 || memcmp(p, key, klen) ||
		    get_oid_hex(p + klen, &id) || p[klen + HEX_SZ] != '\n') {
			bad = 1;
		} else {
			LINK(&id);
			p += klen + HEX_SZ + 1;
			while (obj->type == OBJ_COMMIT && end - p >= 7 + HEX_SZ + 1 &&
			       !memcmp(p, "parent ", 7)) {
				if (get_oid_hex(p + 7, &id) || p[7 + HEX_SZ] != '\n') {
					bad = 1;
					break;
				}
				LINK(&id);
				p += 7 + HEX_SZ + 1;
			}
		}
	}
#undef LINK
	flush_links(st, local, n);
	if (bad) {
		pthread_mutex_lock(&st->lock);
		st->bad_links = 1;
		pthread_mutex_unlock(&st->lock);
	}
}

static void on_object(const struct pack_walk_object *obj, void *data)
{
	struct ip_state *st = data;
	if (st->check_links)
		collect_links(st, obj);
	if (obj->nr >= st->alloc)
		return;  /* cannot happen: nr < the header's count */
	oidcpy(&st->e[obj->nr].oid, &obj->oid);
	st->e[obj->nr].offset = obj->offset;
	st->e[obj->nr].crc = obj->crc;
	if (st->check_collisions) {
		/* The object store is not known to be thread-safe. */
		pthread_mutex_lock(&st->lock);
		if (odb_has_object(&obj->oid)) {
			enum object_type type;
			size_t size;
			void *have = odb_read_object_gently(&obj->oid, &type, &size);
			if (!have || type != obj->type || size != obj->size ||
			    memcmp(have, obj->data, size)) {
				if (!st->collision)
					oidcpy(&st->collided, &obj->oid);
				st->collision = 1;
			}
			free(have);
		}
		pthread_mutex_unlock(&st->lock);
	}
}

/* A REF_DELTA base the pack does not hold (a thin pack): ours, read from
 * the object store and kept deflated for append_thin_bases(). Called on
 * the walk's own thread, one base at a time. */
static void *thin_base(const struct object_id *oid, enum object_type *type, size_t *size,
		       void *data)
{
	struct ip_state *st = data;
	struct thin_base *t;
	uLongf zlen;
	void *buf = odb_read_object_gently(oid, type, size);

	if (!buf)
		return NULL;
	zlen = compressBound(*size);
	ALLOC_GROW(st->thin, st->thin_nr + 1, st->thin_alloc);
	t = &st->thin[st->thin_nr++];
	oidcpy(&t->oid, oid);
	t->type = *type;
	t->size = *size;
	t->z = xmalloc(zlen);
	if (compress2(t->z, &zlen, buf, *size, Z_DEFAULT_COMPRESSION) != Z_OK)
		die("unable to deflate %s", oid_to_hex(oid));
	t->zlen = zlen;
	return buf;
}

static void on_error(const struct pack_walk_error *err, void *data)
{
	struct ip_state *st = data;
	if (err->kind == PACK_WALK_MISSING_BASE)
		st->nr_missing_base++;
	if (!st->nr_errors++)
		st->first_err = *err;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct idx_entry *x = a, *y = b;
	int c = oidcmp(&x->oid, &y->oid);
	if (c)
		return c;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

struct hashed_out {
	int fd;
	struct sha1_ctx ctx;
	struct strbuf buf;
	int failed;
};

static void hout_add(struct hashed_out *h, const void *p, size_t n)
{
	strbuf_add(&h->buf, p, n);
	if (h->buf.len >= 1 << 16) {
		sha1_update(&h->ctx, h->buf.buf, h->buf.len);
		if (write_in_full(h->fd, h->buf.buf, h->buf.len) < 0)
			h->failed = 1;
		strbuf_reset(&h->buf);
	}
}

int index_write_v2(int fd, struct idx_entry *e, uint32_t nr, const unsigned char pack_hash[RAW_SZ])
{
	struct hashed_out h = { .fd = fd, .buf = STRBUF_INIT };
	unsigned char b[8], sum[RAW_SZ];
	uint32_t i, nr_large = 0, fan = 0;

	QSORT(e, nr, cmp_entry);
	sha1_init(&h.ctx);
	hout_add(&h, "\377tOc\0\0\0\2", 8);
	for (int c = 0; c < 256; c++) {
		while (fan < nr && e[fan].oid.hash[0] == c)
			fan++;
		put_be32(b, fan);
		hout_add(&h, b, 4);
	}
	for (i = 0; i < nr; i++)
		hout_add(&h, e[i].oid.hash, RAW_SZ);
	for (i = 0; i < nr; i++) {
		put_be32(b, e[i].crc);
		hout_add(&h, b, 4);
	}
	for (i = 0; i < nr; i++) {
		if (e[i].offset > 0x7fffffff)
			put_be32(b, 0x80000000u | nr_large++);
		else
			put_be32(b, (uint32_t)e[i].offset);
		hout_add(&h, b, 4);
	}
	for (i = 0; i < nr; i++) {
		if (e[i].offset <= 0x7fffffff)
			continue;
		put_be32(b, (uint32_t)(e[i].offset >> 32));
		put_be32(b + 4, (uint32_t)e[i].offset);
		hout_add(&h, b, 8);
	}
	hout_add(&h, pack_hash, RAW_SZ);
	sha1_update(&h.ctx, h.buf.buf, h.buf.len);
	sha1_final(sum, &h.ctx);
	strbuf_add(&h.buf, sum, RAW_SZ);
	if (write_in_full(fd, h.buf.buf, h.buf.len) < 0)
		h.failed = 1;
	strbuf_release(&h.buf);
	return h.failed ? -1 : 0;
}

/* An entry header the walk refused, read again the way git reads it, for
 * git's message: bytes past the end of the file are an early EOF. */
static int report_bad_header(const unsigned char *pack, size_t len, uint64_t off)
{
	unsigned long long at = (unsigned long long)off;
	uint64_t p = off, dist;
	unsigned type;
	unsigned char c;

	if (p >= len)
		return fail("early EOF");
	c = pack[p++];
	type = (c >> 4) & 7;
	while (c & 0x80) {
		if (p >= len)
			return fail("early EOF");
		c = pack[p++];
	}
	switch (type) {
	case OBJ_COMMIT: case OBJ_TREE: case OBJ_BLOB: case OBJ_TAG:
		break;
	case OBJ_REF_DELTA:
		if (len - p < RAW_SZ)
			return fail("early EOF");
		break;
	case OBJ_OFS_DELTA:
		if (p >= len)
			return fail("early EOF");
		c = pack[p++];
		dist = c & 127;
		while (c & 128) {
			dist += 1;
			if (!dist || (dist >> 56))
				return fail("pack has bad object at offset %llu: "
					    "offset value overflow for delta base object", at);
			if (p >= len)
				return fail("early EOF");
			c = pack[p++];
			dist = (dist << 7) + (c & 127);
		}
		if (!dist || dist >= off)
			return fail("pack has bad object at offset %llu: "
				    "delta base offset is out of bound", at);
		break;
	default:
		return fail("pack has bad object at offset %llu: unknown object type %u", at, type);
	}
	return fail("pack has bad object at offset %llu", at);
}

static int report_walk_fail(struct ip_state *st, const unsigned char *pack, size_t len)
{
	const struct pack_walk_error *err = &st->first_err;
	switch (err->kind) {
	case PACK_WALK_BAD_PACK:
		if (len < 12)
			return fail("early EOF");
		if (memcmp(pack, "PACK", 4))
			return fail("pack signature mismatch");
		if (len >= 8 && get_be32(pack + 4) != 2 && get_be32(pack + 4) != 3)
			return fail("pack version %u unsupported", get_be32(pack + 4));
		return fail("early EOF");
	case PACK_WALK_TRUNCATED:
		return fail("early EOF");
	case PACK_WALK_BAD_DATA:
		/* zlib ran into the trailer: the pack was cut short */
		if (err->detail && (strstr(err->detail, "buffer") || strstr(err->detail, "truncated")))
			return fail("early EOF");
		/* git's reader has room for the size the header gives */
		if (err->detail && !strcmp(err->detail, "size mismatch"))
			return fail("pack has bad object at offset %llu: inflate returned 1",
				    (unsigned long long)err->offset);
		if (err->detail && !strcmp(err->detail, "stream longer than its size"))
			return fail("pack has bad object at offset %llu: inflate returned -5",
				    (unsigned long long)err->offset);
		/* git's two lines for a zlib data error */
		if (err->detail)
			error("inflate: data stream error (%s)", err->detail);
		return fail("pack has bad object at offset %llu: inflate returned -3",
			    (unsigned long long)err->offset);
	case PACK_WALK_MISSING_BASE:
		if (st->nr_missing_base == 1)
			return fail("pack has 1 unresolved delta");
		return fail("pack has %u unresolved deltas", st->nr_missing_base);
	case PACK_WALK_BAD_DELTA:
	case PACK_WALK_BAD_BASE:
	case PACK_WALK_DELTA_CYCLE:
		return fail("failed to apply delta");
	case PACK_WALK_BAD_HEADER:
		return report_bad_header(pack, len, err->offset);
	default:
		return fail("pack has bad object at offset %llu", (unsigned long long)err->offset);
	}
}

static int cmp_oid_only(const void *a, const void *b)
{
	return oidcmp(a, b);
}

/* Each id the pack's objects name is in the pack, or (LINKS_IN_PACK_OR_OURS)
 * ours; else git's message for the first missing one. The thin bases are
 * ours. */
static int check_links(struct ip_state *st)
{
	struct object_id *in_pack = xmalloc(st_mult(st->alloc ? st->alloc : 1, sizeof(*in_pack)));
	size_t i, out = 0;
	int ret = 0;

	if (st->bad_links) {
		free(in_pack);
		return fail("pack has objects whose links cannot be read");
	}
	for (i = 0; i < st->alloc; i++)
		oidcpy(&in_pack[i], &st->e[i].oid);
	QSORT(in_pack, st->alloc, cmp_oid_only);
	for (i = 0; i < st->links_size; i++)
		if (!is_null_oid(&st->links[i]))
			oidcpy(&st->links[out++], &st->links[i]);
	QSORT(st->links, out, cmp_oid_only);
	for (i = 0; i < out && !ret; i++) {
		const struct object_id *id = &st->links[i];
		if (bsearch(id, in_pack, st->alloc, sizeof(*in_pack), cmp_oid_only))
			continue;
		if (st->check_links == LINKS_IN_PACK_OR_OURS && odb_has_object(id))
			continue;
		ret = fail("did not receive expected object %s", oid_to_hex(id));
	}
	free(in_pack);
	return ret;
}

/*
 * --fix-thin: the bases the pack's deltas needed from our objects go at
 * its end as whole objects, its header counts them, and its trailer is
 * computed again over the new contents, so that the pack stands alone.
 * Their index entries are added to st->e. 0, or -1 with git's message.
 */
static int append_thin_bases(struct ip_state *st, const char *pack_path, uint64_t end,
			     uint32_t count, unsigned char pack_hash[RAW_SZ])
{
	struct sha1_ctx c;
	unsigned char hdr[16], buf[65536];
	uint64_t off = end, pos;
	int fd = open(pack_path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return fail("cannot open packfile '%s': %s", pack_path, strerror(errno));
	if ((uint64_t)count + st->thin_nr > UINT32_MAX) {
		close(fd);
		return fail("pack has too many objects");
	}
	st->e = xrealloc(st->e, st_mult(st->alloc + st->thin_nr, sizeof(*st->e)));
	if (ftruncate(fd, (off_t)end) < 0)
		goto fail;
	for (size_t i = 0; i < st->thin_nr; i++) {
		struct thin_base *t = &st->thin[i];
		struct idx_entry *e = &st->e[st->alloc + i];
		size_t n = 0, size = t->size;
		hdr[n++] = (unsigned char)(t->type << 4 | (size & 15)) | (size > 15 ? 0x80 : 0);
		for (size >>= 4; size; size >>= 7)
			hdr[n++] = (unsigned char)(size & 0x7f) | (size > 0x7f ? 0x80 : 0);
		if (pwrite_in_full(fd, hdr, n, (off_t)off) < 0 ||
		    pwrite_in_full(fd, t->z, t->zlen, (off_t)(off + n)) < 0)
			goto fail;
		oidcpy(&e->oid, &t->oid);
		e->offset = off;
		e->crc = (uint32_t)crc32(crc32(0, hdr, (uInt)n), t->z, (uInt)t->zlen);
		off += n + t->zlen;
	}
	put_be32(hdr, (uint32_t)(count + st->thin_nr));
	if (pwrite_in_full(fd, hdr, 4, 8) < 0)
		goto fail;
	sha1_init(&c);
	for (pos = 0; pos < off;) {
		size_t want = off - pos < sizeof(buf) ? (size_t)(off - pos) : sizeof(buf);
		ssize_t got = pread(fd, buf, want, (off_t)pos);
		if (got <= 0)
			goto fail;
		sha1_update(&c, buf, (size_t)got);
		pos += (uint64_t)got;
	}
	sha1_final(pack_hash, &c);
	if (pwrite_in_full(fd, pack_hash, RAW_SZ, (off_t)off) < 0 || fsync(fd) < 0)
		goto fail;
	close(fd);
	st->alloc += (uint32_t)st->thin_nr;
	return 0;
fail:
	fail("unable to write '%s': %s", pack_path, strerror(errno));
	close(fd);
	return -1;
}

int index_pack_file(const char *pack_path, const char *idx_path,
		    const struct index_pack_opts *opts, unsigned char pack_hash[RAW_SZ])
{
	struct pack_walk_opts wo = { 0 };
	struct pack_walk_result res;
	struct ip_state st;
	struct stat sb;
	unsigned char *pack;
	size_t len;
	int fd, ret = -1, walk;
	uint32_t count;
	char *tmp;

	fd = open(pack_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("cannot open packfile '%s': %s", pack_path, strerror(errno));
	if (fstat(fd, &sb) < 0) {
		close(fd);
		return fail_errno("cannot fstat packfile");
	}
	len = (size_t)sb.st_size;
	if (len < 32) {
		close(fd);
		return fail("early EOF");
	}
	pack = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (pack == MAP_FAILED)
		return fail_errno("mmap failed");
	madvise(pack, len, MADV_SEQUENTIAL);

	memset(&st, 0, sizeof(st));
	pthread_mutex_init(&st.lock, NULL);
	if (memcmp(pack, "PACK", 4)) {
		fail("pack signature mismatch");
		goto out;
	}
	/* Each entry takes at least 2 bytes (a header byte and a minimal
	 * zlib stream is larger): a count beyond that is a lie, found out
	 * as git finds it, when the entries run out (the table is sized by
	 * what the pack can hold; the walk's own grows as entries are read). */
	count = get_be32(pack + 8);
	st.alloc = count > (len - 32) / 2 + 1 ? (uint32_t)((len - 32) / 2 + 1) : count;
	st.e = xcalloc(st.alloc ? st.alloc : 1, sizeof(*st.e));
	st.check_collisions = opts->check_collisions;
	st.check_links = opts->check_links;
	st.len = len;
	st.verbose = opts->verbose;
	st.receiving = opts->receiving;
	if (opts->verbose && count) {
		st.progress = start_progress(opts->progress_title ? opts->progress_title :
					     opts->receiving ? "Receiving objects" :
					     "Indexing objects", count);
		if (opts->receiving && opts->receive_start_ns)
			progress_set_start(st.progress, opts->receive_start_ns);
		/* git's first read, for the header, comes before the meter */
		st.bytes_read = len < GIT_INPUT_BUFFER ? len : GIT_INPUT_BUFFER;
	}
	wo.threads = opts->threads;
	wo.verify_checksum = 1;
	wo.object = on_object;
	wo.error = on_error;
	wo.progress = on_progress;
	if (opts->fix_thin)
		wo.external_base = thin_base;
	wo.data = &st;
	walk = pack_walk(pack, len, &wo, &res);
	/* Once the entries are read, git checks the trailer before it
	 * resolves any delta: its failures come first. */
	if (st.scan_done && st.entries_end > len - RAW_SZ) {
		fail("early EOF");
		goto out;
	}
	if (st.scan_done && res.entries_end < len - RAW_SZ) {
		/* git compares the 20 bytes after the entries with their hash */
		struct sha1_ctx c;
		unsigned char sum[RAW_SZ];
		sha1_init(&c);
		sha1_update(&c, pack, res.entries_end);
		sha1_final(sum, &c);
		if (memcmp(sum, pack + res.entries_end, RAW_SZ))
			fail("pack is corrupted (SHA1 mismatch)");
		else
			fail("pack has junk at the end");
		goto out;
	}
	if (st.scan_done && !res.checksum_ok) {
		fail("pack is corrupted (SHA1 mismatch)");
		goto out;
	}
	if (walk < 0 || st.nr_errors) {
		progress_abandon(&st.progress);
		if (st.trailer_failed)
			st.first_err = st.trailer_err;
		if (!st.nr_errors)
			fail("early EOF");
		else
			report_walk_fail(&st, pack, len);
		goto out;
	}
	if (res.entries_end < len - RAW_SZ) {
		fail("pack has junk at the end");
		goto out;
	}
	if (!res.checksum_ok) {
		fail("pack is corrupted (SHA1 mismatch)");
		goto out;
	}
	if (st.collision) {
		progress_abandon(&st.progress);
		fail("SHA1 COLLISION FOUND WITH %s !", oid_to_hex(&st.collided));
		goto out;
	}
	if (res.nr_resolved != st.alloc) {
		fail("early EOF");
		goto out;
	}
	if (st.check_links && check_links(&st) < 0)
		goto out;
	memcpy(pack_hash, pack + len - RAW_SZ, RAW_SZ);
	if (st.thin_nr) {
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "completed with %zu local object%s", st.thin_nr,
			    st.thin_nr == 1 ? "" : "s");
		stop_progress_msg(&st.progress, msg.buf);
		strbuf_release(&msg);
		if (append_thin_bases(&st, pack_path, res.entries_end, count, pack_hash) < 0)
			goto out;
	}
	stop_progress(&st.progress);

	tmp = xstrfmt("%s.tmpXXXXXX", idx_path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		fail("unable to create '%s': %s", tmp, strerror(errno));
		free(tmp);
		goto out;
	}
	fchmod(fd, 0444);
	if (index_write_v2(fd, st.e, st.alloc, pack_hash) < 0 || fsync(fd) < 0) {
		fail("unable to write '%s': %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		goto out;
	}
	close(fd);
	if (rename(tmp, idx_path) < 0) {
		fail("unable to rename '%s' to '%s': %s", tmp, idx_path, strerror(errno));
		unlink(tmp);
		free(tmp);
		goto out;
	}
	free(tmp);
	ret = 0;
out:
	progress_abandon(&st.progress);
	munmap(pack, len);
	for (size_t i = 0; i < st.thin_nr; i++)
		free(st.thin[i].z);
	free(st.thin);
	free(st.links);
	free(st.e);
	pthread_mutex_destroy(&st.lock);
	return ret;
}

int index_pack_store(const char *dir, const char *tmp_pack,
		     const struct index_pack_opts *opts, const char *keep_msg,
		     unsigned char pack_hash[RAW_SZ])
{
	char *tmp_idx = xstrfmt("%s/tmp_idx_%ld", dir, (long)getpid());
	char hex[HEX_SZ + 1];
	struct object_id id;
	char *pack = NULL, *idx = NULL, *keep = NULL;
	int ret = -1;

	if (index_pack_file(tmp_pack, tmp_idx, opts, pack_hash) < 0) {
		unlink(tmp_pack);
		free(tmp_idx);
		return -1;
	}
	memcpy(id.hash, pack_hash, RAW_SZ);
	oid_to_hex_r(hex, &id);
	pack = xstrfmt("%s/pack-%s.pack", dir, hex);
	idx = xstrfmt("%s/pack-%s.idx", dir, hex);
	if (keep_msg) {
		keep = xstrfmt("%s/pack-%s.keep", dir, hex);
		int fd = open(keep, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0 && errno != EEXIST) {
			fail("cannot write keep file '%s': %s", keep, strerror(errno));
			goto out;
		}
		if (fd >= 0) {
			int bad = *keep_msg && (write_in_full(fd, keep_msg, strlen(keep_msg)) < 0 ||
						 write_in_full(fd, "\n", 1) < 0);
			if (close(fd) < 0 || bad) {
				fail("cannot write keep file '%s'", keep);
				goto out;
			}
		}
	}
	chmod(tmp_pack, 0444);
	if (rename(tmp_pack, pack) < 0) {
		fail("unable to rename temporary pack file: %s", strerror(errno));
		goto out;
	}
	if (rename(tmp_idx, idx) < 0) {
		fail("unable to rename temporary index file: %s", strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		unlink(tmp_pack);
		unlink(tmp_idx);
	}
	free(tmp_idx);
	free(pack);
	free(idx);
	free(keep);
	return ret;
}
