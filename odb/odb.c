/* odb.c: the object store: which packs and directories exist (found
 * lazily), where an object lives, reading it, abbreviations, listing. */
#include "lib/util.h"
#include "lib/repo.h"
#include "lib/config.h"
#include "odb/odb.h"
#include "odb/loose.h"
#include "lib/dir-read.h"
#include "odb/pack.h"
#include "odb/inflate.h"
#include "sha1/object-hash.h"
#include <sys/stat.h>

/* An object directory: the repository's own, then its alternates. */
struct odb_source {
	struct odb_source *next;
	char *path;   /* as used in paths and messages */
	char *abs;    /* normalized absolute form, to spot duplicates */
	int local;
};

static struct odb_source *sources, **sources_tail = &sources;
static int sources_ready;
static struct packed_git *packs;
static int packs_ready;
static struct packed_git *last_hit;
static struct pack_reader reader;
static int reader_ready;

const char *odb_objdir(void)
{
	if (!the_repo.objdir)
		BUG("object store used before setup_git_directory");
	return the_repo.objdir;
}

static struct pack_reader *get_reader(void);

/* Alternates (gitrepository-layout): one directory per line, relative
 * paths relative to the objects dir that names them, '#' comments. */
static void add_source(const char *path, int local, int depth);

static void read_alternates(const char *objdir, int depth)
{
	struct strbuf file = STRBUF_INIT, buf = STRBUF_INIT;
	const char *p, *end;

	strbuf_addf(&file, "%s/info/alternates", objdir);
	if (strbuf_read_file(&buf, file.buf, 0) < 0) {
		strbuf_release(&file);
		strbuf_release(&buf);
		return;
	}
	if (depth > 5) {
		error("%s: ignoring alternate object stores, nesting too deep", objdir);
		goto out;
	}
	for (p = buf.buf, end = buf.buf + buf.len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, n);
		p += n + (nl ? 1 : 0);
		if (n && line[n - 1] == '\r')
			line[--n] = 0;
		if (!n || line[0] == '#') {
			free(line);
			continue;
		}
		if (line[0] == '/') {
			add_source(line, 0, depth + 1);
		} else {
			/* As git: relative to the real path of the naming dir. */
			char *base = realpath(objdir, NULL);
			char *full = xstrfmt("%s/%s", base ? base : objdir, line);
			add_source(full, 0, depth + 1);
			free(full);
			free(base);
		}
		free(line);
	}
out:
	strbuf_release(&file);
	strbuf_release(&buf);
}

/* The cwd, asked of the kernel at most once per process (setup has
 * already moved us where we stay). */
static const char *cwd_once(void)
{
	static char *cwd;
	if (!cwd) {
		struct strbuf sb = STRBUF_INIT;
		if (strbuf_getcwd(&sb) < 0)
			die_errno("unable to get current working directory");
		cwd = strbuf_detach(&sb, NULL);
	}
	return cwd;
}

/* Lexically normalized absolute form of path. */
static void abs_lexical(struct strbuf *out, const char *path)
{
	if (*path == '/') {
		strbuf_realpath_lexical(out, path);
	} else {
		char *j = xstrfmt("%s/%s", cwd_once(), path);
		strbuf_realpath_lexical(out, j);
		free(j);
	}
	while (out->len > 1 && out->buf[out->len - 1] == '/')
		strbuf_setlen(out, out->len - 1);
}

/* A relative path normalized without the cwd ("./a//b/../c" -> "a/c");
 * -1 when ".." climbs above its start. */
static int rel_lexical(struct strbuf *out, const char *path)
{
	const char *p = path;
	strbuf_reset(out);
	while (*p) {
		const char *end = strchrnul(p, '/');
		size_t n = (size_t)(end - p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash;
			if (!out->len)
				return -1;
			slash = memrchr(out->buf, '/', out->len);
			strbuf_setlen(out, slash ? (size_t)(slash - out->buf) : 0);
		} else if (n && !(n == 1 && p[0] == '.')) {
			if (out->len)
				strbuf_addch(out, '/');
			strbuf_add(out, p, n);
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* The absolute form is needed only to compare directories, so only once
 * a second source appears (no getcwd() without alternates). Alternates
 * are kept by their real path, as git does; so is the main dir here. */
static const char *source_abs(struct odb_source *s)
{
	if (!s->abs) {
		struct strbuf sb = STRBUF_INIT;
		char *real = realpath(s->path, NULL);
		if (real)
			strbuf_addstr(&sb, real);
		else
			abs_lexical(&sb, s->path);
		free(real);
		s->abs = strbuf_detach(&sb, NULL);
	}
	return s->abs;
}

/* git's real path of an alternate: symlinks resolved, the last component
 * alone allowed not to exist. -1 when an earlier one does not. */
static int alt_realpath(struct strbuf *out, const char *path)
{
	char *real = realpath(path, NULL), *parent;
	const char *slash, *last;

	strbuf_reset(out);
	if (real) {
		strbuf_addstr(out, real);
		free(real);
		return 0;
	}
	if (errno != ENOENT)
		return -1;
	slash = strrchr(path, '/');
	last = slash ? slash + 1 : path;
	if (!*last || !strcmp(last, ".") || !strcmp(last, ".."))
		return -1;
	parent = slash == path ? xstrdup("/") :
		 slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	real = realpath(parent, NULL);
	free(parent);
	if (!real)
		return -1;
	strbuf_addstr(out, real);
	if (out->len > 1)
		strbuf_addch(out, '/');
	strbuf_addstr(out, last);
	free(real);
	return 0;
}

static void add_source(const char *path, int local, int depth)
{
	struct strbuf norm = STRBUF_INIT;
	struct odb_source *s;

	if (!local) {
		if (alt_realpath(&norm, path) < 0) {
			error("unable to normalize alternate object path: %s", path);
			strbuf_release(&norm);
			return;
		}
		while (norm.len > 1 && norm.buf[norm.len - 1] == '/')
			strbuf_setlen(&norm, norm.len - 1);
	} else if (sources) {
		abs_lexical(&norm, path);
	}
	if (sources || !local) {
		/* A directory already known (a cycle, or listed twice) is ignored. */
		for (s = sources; s; s = s->next)
			if (!strcmp(source_abs(s), norm.buf)) {
				strbuf_release(&norm);
				return;
			}
	}
	if (!local && !is_dir(norm.buf)) {
		error("object directory %s does not exist; check .git/objects/info/alternates",
		      norm.buf);
		strbuf_release(&norm);
		return;
	}
	s = xcalloc(1, sizeof(*s));
	s->path = local ? xstrdup(path) : xstrdup(norm.buf);
	s->abs = norm.len ? strbuf_detach(&norm, NULL) : NULL;
	strbuf_release(&norm);
	s->local = local;
	*sources_tail = s;
	sources_tail = &s->next;
	read_alternates(s->path, depth);
}

/* The main objects dir as git names it in messages: relative to the
 * directory setup moved us to (".git/objects", "./objects" when bare). */
static char *main_objdir(void)
{
	struct strbuf rel = STRBUF_INIT, abs = STRBUF_INIT;
	const char *objdir = odb_objdir(), *cwd, *rest;
	char *ret;

	if (*objdir != '/' && !rel_lexical(&rel, objdir) && rel.len) {
		/* Below the cwd whatever the cwd is: no need to ask. */
		ret = !strcmp(rel.buf, "objects") ? xstrdup("./objects") : strbuf_detach(&rel, NULL);
		strbuf_release(&rel);
		return ret;
	}
	strbuf_release(&rel);
	abs_lexical(&abs, objdir);
	cwd = cwd_once();
	if (skip_prefix(abs.buf, cwd, &rest) && *rest == '/')
		ret = !strcmp(rest, "/objects") ? xstrdup("./objects") : xstrdup(rest + 1);
	else
		ret = xstrdup(objdir);
	strbuf_release(&abs);
	return ret;
}

static void prepare_sources(void)
{
	const char *env;
	char *main;

	if (sources_ready)
		return;
	sources_ready = 1;
	config_check_repo_settings();
	main = main_objdir();
	add_source(main, 1, 0);
	free(main);
	env = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	if (env && *env) {
		char *copy = xstrdup(env), *tok, *save = NULL;
		for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
			if (*tok)
				add_source(tok, 0, 1);
		free(copy);
	}
}

/* Local packs first, then the most recently modified: new objects are
 * most often asked for, and they live in the newest packs. */
static int pack_before(const struct packed_git *a, const struct packed_git *b)
{
	if (a->local != b->local)
		return a->local;
	return a->mtime > b->mtime;
}

/* A directory with a single pack needs no order, so its .pack is not
 * looked at until used: mapping it for a lookup finds out whether it is
 * there, and the walks over all packs ask pack_usable(). With several,
 * each is stat()ed for its mtime (and existence) as it is added. */
static void add_pack(const char *dir, const char *name, int local, int want_stat)
{
	struct packed_git *p, **pp;
	struct stat st;
	char *idx = xstrfmt("%s/%s", dir, name);

	for (p = packs; p; p = p->next)
		if (!strcmp(p->idx_path, idx)) {
			free(idx);
			return;
		}
	p = xmalloc(sizeof(*p));
	pack_init(p, idx);
	free(idx);
	if (want_stat) {
		if (stat(p->pack_path, &st) < 0) {
			pack_close(p);
			free(p);
			return;
		}
		p->mtime = (int64_t)st.st_mtime;
		p->pack_seen = 1;
	}
	p->local = local;
	for (pp = &packs; *pp && pack_before(*pp, p); pp = &(*pp)->next)
		;
	p->next = *pp;
	*pp = p;
}

/* Does the .pack of an index exist (as git's list of packs has only
 * those)? */
static int pack_usable(struct packed_git *p)
{
	struct stat st;

	if (!p->pack_seen)
		p->pack_seen = p->map_state > 0 || !stat(p->pack_path, &st) ? 1 : -1;
	return p->pack_seen > 0;
}

struct pack_dir {
	char **names;
	size_t nr, alloc;
};

static int add_pack_entry(const char *name, unsigned type, void *data)
{
	struct pack_dir *pd = data;
	(void)type;
	if (ends_with(name, ".idx")) {
		ALLOC_GROW(pd->names, pd->nr + 1, pd->alloc);
		pd->names[pd->nr++] = xstrdup(name);
	}
	return 0;
}

static void scan_packs(void)
{
	struct odb_source *s;

	prepare_sources();
	for (s = sources; s; s = s->next) {
		char *dir = xstrfmt("%s/pack", s->path);
		struct pack_dir pd = { NULL, 0, 0 };
		dir_read(dir, add_pack_entry, &pd);
		for (size_t i = 0; i < pd.nr; i++) {
			add_pack(dir, pd.names[i], s->local, pd.nr > 1);
			free(pd.names[i]);
		}
		free(pd.names);
		free(dir);
	}
	packs_ready = 1;
}

static void prepare_packs(void)
{
	if (!packs_ready)
		scan_packs();
}

void odb_reprepare(void)
{
	/* Packs already known stay (their maps are still valid); new ones
	 * are added in order. */
	scan_packs();
	last_hit = NULL;
	loose_cache_clear();
}

/* Objects found corrupt in a pack are skipped by later lookups, so a
 * copy elsewhere is used and the error is not repeated (git's
 * mark_bad_packed_object). Rare: a plain list. */
struct bad_object {
	const struct packed_git *pack;
	struct object_id oid;
};
static struct bad_object *bad;
static size_t bad_nr, bad_alloc;

static void mark_bad(const struct packed_git *p, const struct object_id *oid)
{
	ALLOC_GROW(bad, bad_nr + 1, bad_alloc);
	bad[bad_nr].pack = p;
	oidcpy(&bad[bad_nr].oid, oid);
	bad_nr++;
}

static struct packed_git *bad_pack(const struct packed_git *p, const struct object_id *oid)
{
	for (size_t i = 0; i < bad_nr; i++)
		if ((!p || bad[i].pack == p) && oideq(&bad[i].oid, oid))
			return (struct packed_git *)bad[i].pack;
	return NULL;
}

static int find_in_pack(struct packed_git *p, const struct object_id *oid, uint64_t *off)
{
	uint32_t pos;

	if (bad_nr && bad_pack(p, oid))
		return 0;

	if (pack_open_index(p) < 0)
		return 0;
	pack_advise_lookup(p);
	if (!pack_idx_lookup(&p->idx, oid->hash, &pos))
		return 0;
	*off = pack_idx_offset(&p->idx, pos);
	if (*off == UINT64_MAX)
		die("offset beyond end of pack index for %s (truncated index?)", p->pack_path);
	/* As git: an object counts as there only if its pack is usable, so
	 * a found entry maps the pack (header and trailer checked; mmap reads
	 * nothing else). */
	return pack_map(p) < 0 ? 0 : 1;
}

/* The pack holding oid (the last pack that answered is asked first). */
static struct packed_git *find_packed(const struct object_id *oid, uint64_t *off)
{
	struct packed_git *p;

	prepare_packs();
	if (last_hit && find_in_pack(last_hit, oid, off))
		return last_hit;
	for (p = packs; p; p = p->next) {
		if (p == last_hit)
			continue;
		if (find_in_pack(p, oid, off)) {
			last_hit = p;
			return p;
		}
	}
	return NULL;
}

/*
 * Where a read failed, for git's "... is corrupt" messages.
 */
struct read_result {
	struct packed_git *pack;   /* corrupt in this pack */
	char *loose_path;          /* corrupt loose object */
};

/* 1 found, 0 missing, -1 corrupt (error printed, *rr tells where). */
static int read_object(const struct object_id *oid, enum object_type *type, size_t *size,
		       void **data, struct read_result *rr, int retry)
{
	struct packed_git *p;
	struct odb_source *s;
	uint64_t off;
	int r;

	p = find_packed(oid, &off);
	if (p) {
		struct pack_reader *rd = get_reader();
		if (off >= p->map_size - 20)
			die("offset beyond end of packfile (truncated pack?)");
		if (data) {
			*data = pack_read_object(rd, p, off, type, size);
			if (*data)
				return 1;
		} else if (!pack_read_header(rd, p, off, type, size)) {
			return 1;
		}
		/* As git: remember it is bad here and look elsewhere. */
		mark_bad(p, oid);
		return read_object(oid, type, size, data, rr, retry);
	}
	for (s = sources; s; s = s->next) {
		r = loose_read(s->path, oid, type, size, data);
		if (r) {
			if (r < 0 && rr) {
				struct strbuf sb = STRBUF_INIT;
				loose_path(&sb, s->path, oid);
				rr->loose_path = strbuf_detach(&sb, NULL);
			}
			return r;
		}
	}
	if (retry) {
		/* A pack may have appeared since we looked (a concurrent
		 * repack moves loose objects into a new pack). */
		odb_reprepare();
		return read_object(oid, type, size, data, rr, 0);
	}
	if (bad_nr && (p = bad_pack(NULL, oid))) {
		if (rr)
			rr->pack = p;
		return -1;
	}
	return 0;
}

static struct pack_reader *get_reader(void)
{
	if (!reader_ready) {
		/* No external bases: like git, a REF_DELTA's base must be in
		 * the same pack (index-pack completes thin packs). */
		pack_reader_init(&reader, 1);
		reader_ready = 1;
	}
	return &reader;
}

/*
 * The last few objects read, by id: listings that show several refs at
 * one commit (branch -v, for-each-ref) read and inflate it once. Objects
 * never change under their id, so nothing invalidates an entry. Small
 * objects only; each caller gets its own copy.
 */
#define RECENT_SLOTS 8
#define RECENT_MAX_SIZE (64 * 1024)

static struct recent {
	struct object_id oid;
	enum object_type type;
	size_t size;
	unsigned char *data;
} recent[RECENT_SLOTS];
static unsigned recent_next;

static struct recent *recent_find(const struct object_id *oid)
{
	for (unsigned i = 0; i < RECENT_SLOTS; i++)
		if (recent[i].data && oideq(&recent[i].oid, oid))
			return &recent[i];
	return NULL;
}

static void *recent_copy(const void *data, size_t size)
{
	unsigned char *copy = xmalloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = 0;
	return copy;
}

static void recent_put(const struct object_id *oid, enum object_type type, size_t size,
		       const void *data)
{
	struct recent *r;

	if (size > RECENT_MAX_SIZE || recent_find(oid))
		return;
	r = &recent[recent_next++ % RECENT_SLOTS];
	free(r->data);
	oidcpy(&r->oid, oid);
	r->type = type;
	r->size = size;
	r->data = recent_copy(data, size);
}

static int read_object_recent(const struct object_id *oid, enum object_type *type,
			      size_t *size, void **data, struct read_result *rr)
{
	struct recent *r = recent_find(oid);
	int ret;

	if (r) {
		*type = r->type;
		*size = r->size;
		if (data)
			*data = recent_copy(r->data, r->size);
		return 1;
	}
	ret = read_object(oid, type, size, data, rr, 1);
	if (ret > 0 && data)
		recent_put(oid, *type, *size, *data);
	return ret;
}

void *odb_read_object_gently(const struct object_id *oid, enum object_type *type, size_t *size)
{
	void *data = NULL;
	struct read_result rr = { 0 };
	int r = read_object_recent(oid, type, size, &data, &rr);

	free(rr.loose_path);
	return r > 0 ? data : NULL;
}

void *odb_read_object(const struct object_id *oid, enum object_type *type, size_t *size)
{
	void *data = NULL;
	struct read_result rr = { 0 };
	int r = read_object_recent(oid, type, size, &data, &rr);

	if (r > 0)
		return data;
	if (r < 0 && rr.loose_path)
		die("loose object %s (stored in %s) is corrupt", oid_to_hex(oid), rr.loose_path);
	if (r < 0 && rr.pack)
		die("packed object %s (stored in %s) is corrupt", oid_to_hex(oid), rr.pack->pack_path);
	return NULL;
}

int odb_read_header(const struct object_id *oid, enum object_type *type, size_t *size)
{
	return read_object_recent(oid, type, size, NULL, NULL) > 0 ? 0 : -1;
}

ssize_t odb_read_object_head(const struct object_id *oid, enum object_type *type,
			     size_t *size, void *buf, size_t n)
{
	struct packed_git *p;
	struct pack_entry e;
	uint64_t off;

	_Static_assert(ODB_HEAD_SLACK >= FAST_INFLATE_SLACK, "room for the decoder");
	p = find_packed(oid, &off);
	if (!p || off >= p->map_size - 20 || pack_entry_header(p, off, &e) < 0 ||
	    e.type < OBJ_COMMIT || e.type > OBJ_TAG || e.size >= SIZE_MAX)
		return -1;
	if (n > e.size)
		n = (size_t)e.size;
	if (pack_inflate_head(p, &e, buf, n) < 0)
		return -1;
	*type = e.type;
	*size = (size_t)e.size;
	return (ssize_t)n;
}

struct packed_git *odb_pack_of(const struct object_id *oid, uint64_t *offset)
{
	struct packed_git *p = find_packed(oid, offset);

	return p && *offset < p->map_size - 20 ? p : NULL;
}

/* Pack order of the last pack asked about (for the end of an entry and
 * the id at a delta's base offset). */
static const struct packed_git *order_pack;
static struct pack_order *order;

static size_t order_find(const struct packed_git *p, uint64_t offset)
{
	size_t lo = 0, hi = p->idx.nr;

	if (order_pack != p) {
		free(order);
		order = pack_entries_in_pack_order(p);
		order_pack = p;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (order[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int odb_disk_info(const struct object_id *oid, uint64_t *disk_size, struct object_id *delta_base)
{
	struct odb_source *s;
	struct packed_git *p;
	struct pack_entry e;
	uint64_t off;
	size_t i;

	oidclr(delta_base);
	if ((p = odb_pack_of(oid, &off))) {
		i = order_find(p, off);
		if (i >= p->idx.nr || order[i].offset != off)
			return -1;
		*disk_size = (i + 1 < p->idx.nr ? order[i + 1].offset : p->map_size - 20) - off;
		if (pack_entry_header(p, off, &e) < 0)
			return -1;
		if (e.type == OBJ_REF_DELTA) {
			oidcpy(delta_base, &e.base_oid);
		} else if (e.type == OBJ_OFS_DELTA) {
			i = order_find(p, e.base_offset);
			if (i >= p->idx.nr || order[i].offset != e.base_offset)
				return -1;
			memcpy(delta_base->hash, pack_idx_id(&p->idx, order[i].pos), RAW_SZ);
		}
		return 0;
	}
	for (s = sources; s; s = s->next) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;
		int r;
		loose_path(&path, s->path, oid);
		r = stat(path.buf, &st);
		strbuf_release(&path);
		if (!r) {
			*disk_size = (uint64_t)st.st_size;
			return 0;
		}
	}
	return -1;
}

int odb_has_object(const struct object_id *oid)
{
	struct odb_source *s;
	uint64_t off;

	if (find_packed(oid, &off))
		return 1;
	for (s = sources; s; s = s->next)
		if (loose_exists(s->path, oid))
			return 1;
	odb_reprepare();
	return find_packed(oid, &off) != NULL;
}

int odb_stream_blob(const struct object_id *oid, FILE *out)
{
	struct odb_source *s;
	uint64_t off;
	enum object_type t;
	size_t size;
	void *data;

	if (find_packed(oid, &off)) {
		/* git streams only huge packed blobs; others are read whole,
		 * dying like any read of a corrupt object. */
		data = odb_read_object(oid, &t, &size);
		if (!data)
			return -1;
		fwrite(data, 1, size, out);
		free(data);
		return 0;
	}
	for (s = sources; s; s = s->next) {
		int r = loose_stream(s->path, oid, out);
		if (r)
			return r > 0 ? 0 : -1;
	}
	data = odb_read_object_gently(oid, &t, &size);
	if (!data)
		return -1;
	fwrite(data, 1, size, out);
	free(data);
	return 0;
}

void odb_hash_object(enum object_type type, const void *data, size_t len, struct object_id *oid)
{
	hash_object_buf(type_name(type), data, len, oid);
}

static int loose_level(void)
{
	const char *v;
	long level = 1;   /* git's default for loose objects: Z_BEST_SPEED */

	if (config_get("core.loosecompression", &v))
		level = config_parse_int("core.loosecompression", v);
	else if (config_get("core.compression", &v))
		level = config_parse_int("core.compression", v);
	if (level == -1)
		level = Z_DEFAULT_COMPRESSION;
	else if (level < 0 || level > 9)
		die("bad zlib compression level %ld", level);
	return (int)level;
}

int odb_write_loose(enum object_type type, const void *data, size_t len, struct object_id *oid)
{
	const char *name = type_name(type);

	if (!name)
		return error("invalid object type");
	hash_object_buf(name, data, len, oid);
	if (odb_has_object(oid))
		return 0;
	return loose_write(odb_objdir(), oid, name, data, len, loose_level());
}

/* --- abbreviations --- */

struct prefix {
	unsigned char bin[RAW_SZ];   /* the prefix, zero-padded */
	size_t len;                  /* in hex digits */
	const char *hex;
};

static int prefix_init(struct prefix *px, const char *hex, size_t len)
{
	size_t i;

	if (len > HEX_SZ)
		return -1;
	memset(px->bin, 0, sizeof(px->bin));
	for (i = 0; i < len; i++) {
		int v = hexval(hex[i]);
		if (v < 0)
			return -1;
		px->bin[i / 2] |= (unsigned char)(i & 1 ? v : v << 4);
	}
	px->len = len;
	px->hex = hex;
	return 0;
}

static int prefix_match(const struct prefix *px, const unsigned char *id)
{
	size_t n = px->len / 2;
	if (memcmp(px->bin, id, n))
		return 0;
	return !(px->len & 1) || (id[n] & 0xf0) == px->bin[n];
}

static int for_each_match(const struct prefix *px, odb_oid_cb cb, void *data)
{
	struct packed_git *p;
	struct odb_source *s;
	int ret = 0;

	prepare_packs();
	for (p = packs; p && !ret; p = p->next) {
		uint32_t pos;
		if (!pack_usable(p) || pack_open_index(p) < 0)
			continue;
		pack_idx_lookup(&p->idx, px->bin, &pos);
		for (; pos < p->idx.nr && !ret; pos++) {
			struct object_id oid;
			const unsigned char *id = pack_idx_id(&p->idx, pos);
			if (!prefix_match(px, id))
				break;
			memcpy(oid.hash, id, RAW_SZ);
			ret = cb(&oid, data);
		}
	}
	for (s = sources; s && !ret; s = s->next)
		ret = loose_for_each_prefix(s->path, px->hex, px->len, cb, data);
	return ret;
}

int odb_for_each_prefix_match(const char *hex, size_t len, odb_oid_cb cb, void *data)
{
	struct prefix px;

	if (prefix_init(&px, hex, len) < 0)
		return 0;
	return for_each_match(&px, cb, data);
}

struct find_state {
	struct object_id first;
	int count;
};

static int find_cb(const struct object_id *oid, void *data)
{
	struct find_state *fs = data;
	if (!fs->count) {
		oidcpy(&fs->first, oid);
		fs->count = 1;
	} else if (!oideq(&fs->first, oid)) {
		fs->count = 2;
		return 1;
	}
	return 0;
}

int odb_find_prefix(const char *hex, size_t len, struct object_id *out)
{
	struct find_state fs = { .count = 0 };

	if (len < 4 || len > HEX_SZ)
		return 0;
	odb_for_each_prefix_match(hex, len, find_cb, &fs);
	if (!fs.count) {
		odb_reprepare();
		odb_for_each_prefix_match(hex, len, find_cb, &fs);
	}
	if (fs.count)
		oidcpy(out, &fs.first);
	return fs.count == 0 ? 0 : fs.count == 1 ? 1 : -1;
}

size_t odb_approximate_count(void)
{
	/* As git: packed objects only; loose ones are not counted. */
	struct packed_git *p;
	size_t n = 0;

	prepare_packs();
	for (p = packs; p; p = p->next)
		if (pack_usable(p) && !pack_open_index(p))
			n += p->idx.nr;
	return n;
}

/* Hex digits two ids share. */
static int common_hex(const unsigned char *a, const unsigned char *b)
{
	int i;
	for (i = 0; i < RAW_SZ && a[i] == b[i]; i++)
		;
	if (i == RAW_SZ)
		return HEX_SZ;
	return 2 * i + ((a[i] & 0xf0) == (b[i] & 0xf0));
}

struct abbrev_state {
	const struct object_id *oid;
	int len;
};

static int abbrev_cb(const struct object_id *oid, void *data)
{
	struct abbrev_state *as = data;
	if (!oideq(oid, as->oid)) {
		int n = common_hex(oid->hash, as->oid->hash) + 1;
		if (n > as->len)
			as->len = n;
	}
	return 0;
}

/* core.abbrev: a length, 40 for false, 0 for auto or when unset (the
 * length then grows with the number of objects). Checked at setup. */
static int configured_abbrev(void)
{
	static int n = -1;
	const char *v;
	if (n < 0) {
		n = 0;
		if (config_get("core.abbrev", &v) && v && strcasecmp(v, "auto"))
			n = !config_maybe_bool(v) ? HEX_SZ : (int)config_parse_int("core.abbrev", v);
	}
	return n;
}

int odb_unique_abbrev_len(const struct object_id *oid, int min_len)
{
	struct abbrev_state as = { oid, min_len };
	struct packed_git *p;
	struct odb_source *s;
	char hex[HEX_SZ + 1];

	if (min_len <= 0)
		min_len = configured_abbrev();
	as.len = min_len;
	if (min_len <= 0) {
		/* git: about sqrt(count) objects per prefix, at least 7. */
		size_t count = odb_approximate_count();
		int msb = -1;
		while (count) {
			msb++;
			count >>= 1;
		}
		as.len = (msb + 1 + 1) / 2;
		if (msb < 0)
			as.len = 0;
		if (as.len < 7)
			as.len = 7;
	}
	if (as.len >= HEX_SZ)
		return HEX_SZ;
	/* In each sorted index only the neighbours of oid's position can
	 * share the longest prefix with it. */
	prepare_packs();
	for (p = packs; p; p = p->next) {
		uint32_t pos;
		int found;
		if (!pack_usable(p) || pack_open_index(p) < 0)
			continue;
		found = pack_idx_lookup(&p->idx, oid->hash, &pos);
		if (pos > 0) {
			int n = common_hex(pack_idx_id(&p->idx, pos - 1), oid->hash) + 1;
			if (n > as.len)
				as.len = n;
		}
		if (found)
			pos++;
		if (pos < p->idx.nr) {
			int n = common_hex(pack_idx_id(&p->idx, pos), oid->hash) + 1;
			if (n > as.len)
				as.len = n;
		}
	}
	oid_to_hex_r(hex, oid);
	for (s = sources; s; s = s->next)
		loose_for_each_prefix(s->path, hex, 2, abbrev_cb, &as);
	return as.len > HEX_SZ ? HEX_SZ : as.len;
}

void odb_abbrev_expect(const struct object_id *oid)
{
	static unsigned char seen[256];
	static size_t dirs;

	if (!seen[oid->hash[0]]++)
		loose_cache_expect(++dirs);
}

const char *odb_abbrev(const struct object_id *oid, int min_len)
{
	static char bufs[4][HEX_SZ + 1];
	static int which;
	char *b = bufs[which++ & 3];
	int n = odb_unique_abbrev_len(oid, min_len);

	oid_to_hex_r(b, oid);
	b[n] = 0;
	return b;
}

int odb_for_each_object(odb_oid_cb cb, void *data, unsigned flags)
{
	struct odb_source *s;
	struct packed_git *p;
	int ret = 0;

	prepare_packs();
	for (s = sources; s && !ret; s = s->next)
		if (s->local || !(flags & ODB_FOR_EACH_LOCAL_ONLY))
			ret = loose_for_each(s->path, cb, data);
	for (p = packs; p && !ret; p = p->next) {
		uint32_t i;
		if (!p->local && (flags & ODB_FOR_EACH_LOCAL_ONLY))
			continue;
		if (!pack_usable(p) || pack_open_index(p) < 0)
			continue;
		pack_advise_walk(p);
		for (i = 0; i < p->idx.nr && !ret; i++) {
			struct object_id oid;
			memcpy(oid.hash, pack_idx_id(&p->idx, i), RAW_SZ);
			ret = cb(&oid, data);
		}
	}
	return ret;
}
