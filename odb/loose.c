/* loose.c: reading and writing loose objects. */
#include "odb/inflate.h"
#include "lib/util.h"
#include "odb/loose.h"
#include "lib/dir-read.h"
#include "sha1/object-hash.h"
#include "lib/sorted.h"
#include "lib/fd-batch.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <zlib.h>

#define MAX_HEADER_LEN 32

void loose_path(struct strbuf *sb, const char *objdir, const struct object_id *oid)
{
	char hex[HEX_SZ + 1];

	oid_to_hex_r(hex, oid);
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%.2s/%s", objdir, hex, hex + 2);
}

int loose_exists(const char *objdir, const struct object_id *oid)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int r;

	loose_path(&path, objdir, oid);
	r = !lstat(path.buf, &st);
	strbuf_release(&path);
	return r;
}

/* inflate() with git's error report for the failing statuses. */
static int zinflate(z_stream *zs, int flush)
{
	int st = inflate(zs, flush);
	if (st == Z_OK || st == Z_BUF_ERROR || st == Z_STREAM_END)
		return st;
	if (st == Z_MEM_ERROR)
		die("inflate: out of memory");
	inflate_error(st, zs->msg);
	return st;
}

/* "<type> <size>\0": 0 with the type and size, or -1. Sizes as git parses
 * them: decimal, no leading zero unless the size is 0, anything up to
 * SIZE_MAX; past it git dies with its size_t overflow message. */
static int parse_header(const char *h, enum object_type *type, size_t *size)
{
	const char *sp = strchr(h, ' ');
	size_t v;

	if (!sp)
		return -1;
	*type = type_from_string(h, (size_t)(sp - h));
	h = sp + 1;
	if (*h < '0' || *h > '9')
		return -1;
	v = (size_t)(*h++ - '0');
	if (v)
		while (*h >= '0' && *h <= '9') {
			size_t d = (size_t)(*h++ - '0');
			if (v > SIZE_MAX / 10)
				die("size_t overflow: %zu * %d", v, 10);
			v *= 10;
			if (d > SIZE_MAX - v)
				die("size_t overflow: %zu + %zu", v, d);
			v += d;
		}
	if (*h)
		return -1;
	*size = v;
	return 0;
}

/* A loose object's compressed bytes. Most are a few hundred bytes: they
 * are read into the caller's buffer with one read() (a short read of a
 * regular file is its end), so open, read, close; a file that fills the
 * buffer is mapped instead. */
#define LOOSE_READ_BUF 16384

struct loose_bytes {
	const unsigned char *p;
	size_t len;
	void *map;   /* when mapped */
};

/* The bytes of the last small file read: asking for an object's type,
 * then for its contents (cat-file -p, a listing's type check) reads the
 * file once. A file does not change under its name: the name is its id. */
static struct {
	char *path;
	unsigned char *bytes;
	size_t len;
} last_file;

static void remember_file(const char *path, const unsigned char *bytes, size_t len)
{
	free(last_file.path);
	last_file.path = xstrdup(path);
	last_file.bytes = xrealloc(last_file.bytes, len);
	memcpy(last_file.bytes, bytes, len);
	last_file.len = len;
}

/* 1 with lb filled, 0 no such file, -1 failure with errno set (EINVAL:
 * an empty file). */
static int loose_bytes_get(const char *path, unsigned char *buf, struct loose_bytes *lb,
			   int noatime)
{
	struct stat st;
	ssize_t n;
	int fd;

	if (last_file.path && !strcmp(last_file.path, path)) {
		lb->map = NULL;
		lb->p = last_file.bytes;
		lb->len = last_file.len;
		return 1;
	}
	fd = fd_open(path, O_RDONLY | O_CLOEXEC | (noatime ? O_NOATIME : 0), 0);

	if (fd < 0 && noatime && errno == EPERM)
		fd = fd_open(path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	lb->map = NULL;
	n = xread(fd, buf, LOOSE_READ_BUF);
	if (n >= 0 && n < LOOSE_READ_BUF) {
		fd_close_batched(fd);
		if (!n) {
			errno = EINVAL;
			return -1;
		}
		lb->p = buf;
		lb->len = (size_t)n;
		remember_file(path, buf, (size_t)n);
		return 1;
	}
	if (n < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		fd_close_batched(fd);
		errno = e;
		return -1;
	}
	lb->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	fd_close_batched(fd);
	if (lb->map == MAP_FAILED) {
		lb->map = NULL;
		errno = ENOMEM;
		return -1;
	}
	lb->p = lb->map;
	lb->len = (size_t)st.st_size;
	return 1;
}

static void loose_bytes_release(struct loose_bytes *lb)
{
	if (lb->map)
		munmap(lb->map, lb->len);
	lb->map = NULL;
}

int loose_read(const char *objdir, const struct object_id *oid,
	       enum object_type *type, size_t *size, void **data)
{
	struct strbuf path = STRBUF_INIT;
	unsigned char hdr[MAX_HEADER_LEN + 1], inbuf[LOOSE_READ_BUF];
	unsigned char *buf = NULL;
	struct loose_bytes lb;
	z_stream zs;
	int r, zst, ret = -1;
	size_t hlen, got;
	char *nul;

	loose_path(&path, objdir, oid);
	r = loose_bytes_get(path.buf, inbuf, &lb, 1);
	if (r <= 0) {
		if (r < 0 && errno == EINVAL)
			error("object file %s is empty", path.buf);
		else if (r < 0 && errno == ENOMEM)
			error_errno("mmap failed");
		else if (r < 0)
			error_errno("unable to open loose object %s", oid_to_hex(oid));
		strbuf_release(&path);
		return r;
	}
	strbuf_release(&path);
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		die("inflateInit failed");
	zs.next_in = (unsigned char *)lb.p;
	zs.avail_in = lb.len > (1u << 30) ? 1u << 30 : (unsigned)lb.len;
	zs.next_out = hdr;
	zs.avail_out = MAX_HEADER_LEN;
	/* Inflate only 32 bytes: enough for any valid header. As git: a
	 * failing first step (Z_BUF_ERROR included) is an unreadable header,
	 * 32 bytes without a NUL (a truncated file too) a header too long. */
	zst = zinflate(&zs, Z_NO_FLUSH);
	hdr[MAX_HEADER_LEN - zs.avail_out] = 0;
	nul = memchr(hdr, 0, MAX_HEADER_LEN - zs.avail_out);
	if (zst < Z_OK) {
		error("unable to unpack %s header", oid_to_hex(oid));
		goto out;
	}
	if (!nul) {
		error("header for %s too long, exceeds %d bytes", oid_to_hex(oid), MAX_HEADER_LEN);
		goto out;
	}
	if (parse_header((char *)hdr, type, size) < 0) {
		error("unable to parse %s header", oid_to_hex(oid));
		goto out;
	}
	if (*type == OBJ_BAD)
		die("invalid object type");   /* git 2.39 dies here */
	if (!data) {
		ret = 1;
		goto out;
	}
	hlen = (size_t)(nul - (char *)hdr) + 1;
	got = MAX_HEADER_LEN - zs.avail_out - hlen;
	if (*size >= SIZE_MAX || got > *size ||
	    *size / 1032 > lb.len + 64) {
		error("corrupt loose object '%s'", oid_to_hex(oid));
		goto out;
	}
	buf = xmalloc(*size + 1);
	memcpy(buf, hdr + hlen, got);
	zs.next_out = buf + got;
	zs.avail_out = (unsigned)(*size - got > (1u << 30) ? 1u << 30 : *size - got);
	while (zst == Z_OK) {
		unsigned before = zs.avail_out;
		if (!zs.avail_out) {
			size_t left = *size - (size_t)(zs.next_out - buf);
			if (!left)
				break;
			zs.avail_out = left > (1u << 30) ? 1u << 30 : (unsigned)left;
			before = zs.avail_out;
		}
		zst = zinflate(&zs, Z_FINISH);
		if (zst == Z_BUF_ERROR && before == zs.avail_out)
			break;
		if (zst == Z_BUF_ERROR)
			zst = Z_OK;
	}
	if (zst == Z_OK && (size_t)(zs.next_out - buf) == *size) {
		/* All the bytes the header promised: the stream must end here. */
		unsigned char extra;
		zs.next_out = &extra;
		zs.avail_out = 1;
		zst = zinflate(&zs, Z_FINISH);
		if (zs.avail_out == 0)
			zst = Z_BUF_ERROR;
	}
	if (zst == Z_STREAM_END && !zs.avail_in) {
		/* git 2.39 accepts a stream that ends before the header's
		 * size (the rest reads as zeros); so do we. */
		size_t got_all = (size_t)(zs.next_out - buf);
		memset(buf + got_all, 0, *size - got_all);
		buf[*size] = 0;
		*data = buf;
		buf = NULL;
		ret = 1;
	} else if (zst < 0 && zst != Z_BUF_ERROR) {
		error("corrupt loose object '%s'", oid_to_hex(oid));
	} else if (zst == Z_STREAM_END && zs.avail_in) {
		error("garbage at end of loose object '%s'", oid_to_hex(oid));
	} else {
		error("corrupt loose object '%s'", oid_to_hex(oid));
	}
out:
	free(buf);
	inflateEnd(&zs);
	loose_bytes_release(&lb);
	return ret;
}

int loose_stream(const char *objdir, const struct object_id *oid, FILE *out)
{
	struct strbuf path = STRBUF_INIT;
	unsigned char hdr[MAX_HEADER_LEN + 1], chunk[16384], inbuf[LOOSE_READ_BUF];
	struct loose_bytes lb;
	z_stream zs;
	enum object_type type;
	size_t size, have, fed;
	char *nul;
	int zst, ended = 0, ret = -1;

	loose_path(&path, objdir, oid);
	ret = loose_bytes_get(path.buf, inbuf, &lb, 0);
	strbuf_release(&path);
	if (ret <= 0)
		return ret;
	ret = -1;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		die("inflateInit failed");
	fed = lb.len > (1u << 30) ? 1u << 30 : lb.len;
	zs.next_in = (unsigned char *)lb.p;
	zs.avail_in = (unsigned)fed;
	zs.next_out = hdr;
	zs.avail_out = MAX_HEADER_LEN;
	zst = zinflate(&zs, Z_NO_FLUSH);
	hdr[MAX_HEADER_LEN - zs.avail_out] = 0;
	nul = memchr(hdr, 0, MAX_HEADER_LEN - zs.avail_out);
	if (zst < Z_OK || !nul || parse_header((char *)hdr, &type, &size) < 0 || type == OBJ_BAD)
		goto out;
	/*
	 * As git's loose stream reader: the header's size plays no part (a
	 * longer stream is printed whole, a shorter one just ends), output
	 * goes out in whole 16 KiB chunks, and a chunk that neither fills
	 * nor reaches the end of the stream fails unwritten.
	 */
	have = MAX_HEADER_LEN - zs.avail_out - (size_t)(nul + 1 - (char *)hdr);
	memcpy(chunk, nul + 1, have);
	for (;;) {
		while (have < sizeof(chunk) && !ended) {
			if (!zs.avail_in && fed < lb.len) {
				size_t more = lb.len - fed > (1u << 30) ? 1u << 30 : lb.len - fed;
				zs.next_in = (unsigned char *)lb.p + fed;
				zs.avail_in = (unsigned)more;
				fed += more;
			}
			zs.next_out = chunk + have;
			zs.avail_out = (unsigned)(sizeof(chunk) - have);
			zst = zinflate(&zs, Z_FINISH);
			have = sizeof(chunk) - zs.avail_out;
			if (zst == Z_STREAM_END)
				ended = 1;
			else if (zst == Z_BUF_ERROR && !zs.avail_in && fed < lb.len)
				continue;
			else if (zst != Z_OK && (zst != Z_BUF_ERROR || have < sizeof(chunk)))
				goto out;
		}
		if (!have)
			break;
		if (fwrite(chunk, 1, have, out) != have)
			goto out;
		have = 0;
	}
	ret = 1;
out:
	inflateEnd(&zs);
	loose_bytes_release(&lb);
	return ret;
}

static void cache_forget_dir(const char *objdir, int xx);

int loose_write(const char *objdir, const struct object_id *oid, const char *type,
		const void *data, size_t len, int level)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT;
	unsigned char out[16384];
	char hdr[64];
	int hdrlen = object_header_format(hdr, sizeof(hdr), type, len);
	z_stream zs;
	int fd, st, ret = -1;

	if (hdrlen < 0)
		return error("object type name too long");
	loose_path(&path, objdir, oid);
	strbuf_addf(&tmp, "%.*s/tmp_obj_XXXXXX", (int)(path.len - 39), path.buf);
	fd = mkstemp(tmp.buf);
	if (fd < 0 && errno == ENOENT) {
		/* objects/xx/ does not exist yet. */
		strbuf_setlen(&tmp, path.len - 39);
		if (mkdir(tmp.buf, 0777) < 0 && errno != EEXIST) {
			error_errno("unable to create directory %s", tmp.buf);
			goto out;
		}
		strbuf_addstr(&tmp, "/tmp_obj_XXXXXX");
		fd = mkstemp(tmp.buf);
	}
	if (fd < 0) {
		if (errno == EACCES)
			error("insufficient permission for adding an object to repository database %s", objdir);
		else
			error_errno("unable to create temporary file");
		goto out;
	}
	memset(&zs, 0, sizeof(zs));
	if (deflateInit(&zs, level) != Z_OK)
		die("deflateInit failed");
	zs.next_in = (unsigned char *)hdr;
	zs.avail_in = (unsigned)hdrlen;
	do {
		zs.next_out = out;
		zs.avail_out = sizeof(out);
		st = deflate(&zs, Z_NO_FLUSH);
		if (write_in_full(fd, out, sizeof(out) - zs.avail_out) < 0)
			goto write_err;
	} while (zs.avail_in);
	{
		const unsigned char *p = data;
		size_t left = len;
		do {
			unsigned n = left > (1u << 30) ? 1u << 30 : (unsigned)left;
			zs.next_in = (unsigned char *)p;
			zs.avail_in = n;
			p += n;
			left -= n;
			do {
				zs.next_out = out;
				zs.avail_out = sizeof(out);
				st = deflate(&zs, left ? Z_NO_FLUSH : Z_FINISH);
				if (write_in_full(fd, out, sizeof(out) - zs.avail_out) < 0)
					goto write_err;
			} while (zs.avail_in || (!left && st != Z_STREAM_END));
		} while (left);
	}
	deflateEnd(&zs);
	/* Best effort, as git's adjust_shared_perm. */
	(void)fchmod(fd, 0444);
	if (close(fd) < 0) {
		error_errno("unable to write loose object file");
		unlink(tmp.buf);
		goto out;
	}
	/* link() refuses to replace: a concurrent writer of the same object
	 * wins and we drop our copy (the bytes are identical). */
	if (link(tmp.buf, path.buf) < 0 && errno != EEXIST) {
		if (rename(tmp.buf, path.buf) < 0) {
			error_errno("unable to write file %s", path.buf);
			unlink(tmp.buf);
			goto out;
		}
	} else {
		unlink(tmp.buf);
	}
	cache_forget_dir(objdir, oid->hash[0]);
	ret = 0;
	goto out;
write_err:
	deflateEnd(&zs);
	close(fd);
	unlink(tmp.buf);
	error_errno("unable to write loose object file");
out:
	strbuf_release(&path);
	strbuf_release(&tmp);
	return ret;
}

struct names {
	char **v;
	size_t nr, alloc;
	const char *hex;
	size_t len;
};

static int add_name(const char *n, unsigned type, void *data)
{
	struct names *ns = data;
	size_t j;

	(void)type;
	if (strlen(n) != HEX_SZ - 2)
		return 0;
	for (j = 0; j < HEX_SZ - 2; j++)
		if (!is_hex_digit(n[j]) || (n[j] >= 'A' && n[j] <= 'F'))
			return 0;
	if (ns->len > 2 && strncasecmp(n, ns->hex + 2, ns->len - 2))
		return 0;
	ALLOC_GROW(ns->v, ns->nr + 1, ns->alloc);
	ns->v[ns->nr++] = xstrdup(n);
	return 0;
}

/* Appends to *names the 38-hex-digit names in dir (lower case only, as
 * git), each matching hex[2..len) when len > 2. 0, or -1 if dir cannot
 * be opened (errno set). */
static int read_names(const char *dir, const char *hex, size_t len,
		      char ***names, size_t *nr, size_t *alloc)
{
	struct names ns = { *names, *nr, *alloc, hex, len };
	int r = dir_read(dir, add_name, &ns);

	*names = ns.v;
	*nr = ns.nr;
	*alloc = ns.alloc;
	return r < 0 ? -1 : 0;
}

/* The loose objects of one objects/xx/ dir matching hex[2..len). */
static int scan_dir(const char *objdir, int xx, const char *hex, size_t len,
		    odb_oid_cb cb, void *data)
{
	char dir[16], **names = NULL;
	size_t nr = 0, alloc = 0, i;
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%02x", xx);
	strbuf_addf(&path, "%s/%s", objdir, dir);
	read_names(path.buf, hex, len, &names, &nr, &alloc);
	strbuf_release(&path);
	QSORT(names, nr, cmp_strings);
	for (i = 0; i < nr; i++) {
		char full[HEX_SZ + 1];
		struct object_id oid;
		snprintf(full, sizeof(full), "%s%s", dir, names[i]);
		if (!ret && !get_oid_hex(full, &oid))
			ret = cb(&oid, data);
		free(names[i]);
	}
	free(names);
	return ret;
}

/*
 * The loose-object cache for prefix questions (abbreviations, short ids):
 * each objects/xx/ is listed at most once per process and kept sorted,
 * so abbreviating many ids in one directory costs one listing. A missing
 * xx/ costs one failed open; after LOOSE_MISSES of those, objects/ itself
 * is listed once (4 calls) and absent xx/ dirs cost nothing more: the
 * usual rent-or-buy rule, at most twice the cost of knowing in advance.
 * A caller that knows in advance says so (loose_cache_expect): asked
 * about more dirs than LOOSE_MISSES, objects/ is listed at the first.
 * Cleared by loose_cache_clear() (the object store's reprepare), and a
 * directory is forgotten when we write into it.
 */
#define LOOSE_MISSES 4

struct loose_cache {
	struct loose_cache *next;
	char *objdir;
	int misses;
	int top;                      /* 0 not listed, 1 listed, -1 failed */
	unsigned char has_dir[256];   /* valid when top == 1 */
	unsigned char listed[256];
	struct object_id *oids[256];
	uint32_t nr[256];
};
static struct loose_cache *caches;
static size_t expected_dirs;

void loose_cache_expect(size_t dirs)
{
	expected_dirs = dirs;
}

static struct loose_cache *cache_for(const char *objdir)
{
	struct loose_cache *c;
	for (c = caches; c; c = c->next)
		if (!strcmp(c->objdir, objdir))
			return c;
	c = xcalloc(1, sizeof(*c));
	c->objdir = xstrdup(objdir);
	c->next = caches;
	caches = c;
	return c;
}

static int add_top(const char *n, unsigned type, void *data)
{
	struct loose_cache *c = data;
	int hi = hexval(n[0]), lo = hi < 0 ? -1 : hexval(n[1]);

	/* Anything named like a fan-out dir counts: a symlink or an unknown
	 * type is looked into like a directory. Upper case is not git's. */
	if (hi >= 0 && lo >= 0 && !n[2] && type != DT_REG &&
	    !(n[0] >= 'A' && n[0] <= 'F') && !(n[1] >= 'A' && n[1] <= 'F'))
		c->has_dir[hi * 16 + lo] = 1;
	return 0;
}

static void list_top(struct loose_cache *c)
{
	c->top = dir_read(c->objdir, add_top, c) < 0 ? -1 : 1;
}

static void cache_fill(struct loose_cache *c, int xx)
{
	char **names = NULL, full[HEX_SZ + 1];
	size_t nr = 0, alloc = 0, i;
	struct strbuf path = STRBUF_INIT;

	c->listed[xx] = 1;
	if (!c->top && (c->misses >= LOOSE_MISSES || expected_dirs > LOOSE_MISSES))
		list_top(c);
	if (c->top == 1 && !c->has_dir[xx])
		return;
	strbuf_addf(&path, "%s/%02x", c->objdir, xx);
	if (read_names(path.buf, NULL, 0, &names, &nr, &alloc) < 0 && errno == ENOENT)
		c->misses++;
	strbuf_release(&path);
	QSORT(names, nr, cmp_strings);
	c->oids[xx] = nr ? xmalloc(st_mult(nr, sizeof(struct object_id))) : NULL;
	for (i = 0; i < nr; i++) {
		snprintf(full, sizeof(full), "%02x%s", xx, names[i]);
		if (!get_oid_hex(full, &c->oids[xx][c->nr[xx]]))
			c->nr[xx]++;
		free(names[i]);
	}
	free(names);
}

static void cache_forget_dir(const char *objdir, int xx)
{
	struct loose_cache *c;
	for (c = caches; c; c = c->next)
		if (!strcmp(c->objdir, objdir)) {
			free(c->oids[xx]);
			c->oids[xx] = NULL;
			c->nr[xx] = 0;
			c->listed[xx] = 0;
			c->has_dir[xx] = 1;
		}
}

void loose_cache_clear(void)
{
	while (caches) {
		struct loose_cache *c = caches;
		caches = c->next;
		for (int i = 0; i < 256; i++)
			free(c->oids[i]);
		free(c->objdir);
		free(c);
	}
}

int loose_for_each(const char *objdir, odb_oid_cb cb, void *data)
{
	int ret = 0;
	for (int i = 0; i < 256 && !ret; i++)
		ret = scan_dir(objdir, i, NULL, 0, cb, data);
	return ret;
}

int loose_for_each_prefix(const char *objdir, const char *hex, size_t len,
			  odb_oid_cb cb, void *data)
{
	int hi = hexval(hex[0]), lo = hexval(hex[1]), xx, ret = 0;
	struct loose_cache *c;
	char want[HEX_SZ + 1];

	if (len < 2 || hi < 0 || lo < 0 || len > HEX_SZ)
		return 0;
	xx = hi * 16 + lo;
	c = cache_for(objdir);
	if (!c->listed[xx])
		cache_fill(c, xx);
	for (size_t i = 0; i < len; i++)
		want[i] = (char)tolower((unsigned char)hex[i]);
	for (uint32_t i = 0; i < c->nr[xx] && !ret; i++) {
		/* cb may write objects (and so drop this listing): copy first */
		struct object_id oid = c->oids[xx][i];
		char h[HEX_SZ + 1];
		if (len > 2 && memcmp(oid_to_hex_r(h, &oid) + 2, want + 2, len - 2))
			continue;
		ret = cb(&oid, data);
		if (!c->listed[xx])
			break;
	}
	return ret;
}
