/* loose.c: loose objects: listed from the fan-out directories, then
 * read, hashed and checked one at a time in the kernel's order. */
#include "builtin/fsck/fsck.h"
#include "lib/dir-read.h"
#include "sha1/object-hash.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <zlib.h>

struct loose {
	struct object_id oid;
	char *path;
	uint32_t dir;       /* index in dirs */
	uint8_t cruft;      /* not an object's name: "bad sha1 file" */
};
static struct loose *loose;
size_t fsck_nr_loose;
static size_t alloc_loose;

struct scan_ctx {
	const char *rel;
	char sub[3];
	uint32_t dir;
};

/* One subdirectory entry, in the kernel's order as git takes them. */
static int scan_loose_entry(const char *name, unsigned type UNUSED, void *data)
{
	struct scan_ctx *sc = data;
	struct loose *lo;
	char hex[HEX_SZ + 1];
	size_t l = strlen(name);
	int is_obj = 0;

	if (l == HEX_SZ - 2 && strspn(name, "0123456789abcdef") == l) {
		memcpy(hex, sc->sub, 2);
		memcpy(hex + 2, name, HEX_SZ - 2);
		hex[HEX_SZ] = '\0';
		is_obj = 1;
	} else if (starts_with(name, "tmp_obj_")) {
		return 0;
	}
	ALLOC_GROW(loose, fsck_nr_loose + 1, alloc_loose);
	lo = &loose[fsck_nr_loose++];
	memset(lo, 0, sizeof(*lo));
	lo->path = xstrfmt("%s/%s/%s", sc->rel, sc->sub, name);
	lo->dir = sc->dir;
	lo->cruft = !is_obj;
	if (is_obj) {
		get_oid_hex(hex, &lo->oid);
		add_id(lo->oid.hash, IN_LOOSE);
	}
	return 0;
}

const struct object_id *loose_oid_at(size_t i)
{
	return loose[i].cruft ? NULL : &loose[i].oid;
}

void scan_loose(uint32_t dir_nr)
{
	const char *dir = fsck_dirs[dir_nr].path;
	struct strbuf cwd = STRBUF_INIT, path = STRBUF_INIT;
	struct scan_ctx sc;
	size_t base;

	sc.rel = display_dir(dir, &cwd);
	sc.dir = dir_nr;
	strbuf_addf(&path, "%s/", dir);
	base = path.len;
	for (int i = 0; i < 256; i++) {
		snprintf(sc.sub, sizeof(sc.sub), "%02x", i);
		strbuf_setlen(&path, base);
		strbuf_add(&path, sc.sub, 2);
		dir_read(path.buf, scan_loose_entry, &sc);
	}
	strbuf_release(&path);
	strbuf_release(&cwd);
}

static const char *zerr(int st)
{
	switch (st) {
	case Z_MEM_ERROR: return "out of memory";
	case Z_NEED_DICT: return "needs dictionary";
	case Z_DATA_ERROR: return "data stream error";
	case Z_STREAM_ERROR: return "stream consistency error";
	default: return "unknown error";
	}
}

/* git_inflate(): zlib's failures other than "needs more" are printed. */
static int g_inflate(z_stream *z, int flush, struct msgs *m)
{
	int st = inflate(z, flush);
	if (st != Z_OK && st != Z_BUF_ERROR && st != Z_STREAM_END)
		msg_add(m, 1, "error: inflate: %s (%s)", zerr(st), z->msg ? z->msg : "no message");
	return st;
}

/* git's read_loose_object(): returns 0 with the contents, or -1 after the
 * messages it prints; *mismatch when the data hashes to another id. */
static int read_loose(const struct loose *lo, struct msgs *m, enum object_type *type,
		      char **contents, size_t *size, struct object_id *real, char **bad_type)
{
	struct strbuf full = STRBUF_INIT;
	unsigned char hdr[32];
	z_stream z;
	int fd, st, ret = -1;
	struct stat s;
	void *map = NULL;
	const char *p;
	size_t hlen;
	uint64_t sz = 0;

	*contents = NULL;
	*bad_type = NULL;
	fd = fd_open(lo->path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0 || fstat(fd, &s) < 0 || !s.st_size ||
	    (map = mmap(NULL, s.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		msg_add(m, 1, "error: unable to mmap %s: %s", lo->path, strerror(errno ? errno : EINVAL));
		if (fd >= 0)
			fd_close_batched(fd);
		return -1;
	}
	fd_close_batched(fd);
	memset(&z, 0, sizeof(z));
	inflateInit(&z);
	z.next_in = map;
	z.avail_in = (uInt)s.st_size;
	z.next_out = hdr;
	z.avail_out = sizeof(hdr);
	st = g_inflate(&z, 0, m);
	if (st < Z_OK) {
		msg_add(m, 1, "error: unable to unpack header of %s", lo->path);
		goto out;
	}
	if (!memchr(hdr, '\0', z.next_out - hdr)) {
		msg_add(m, 1, "error: unable to unpack header of %s", lo->path);
		goto out;
	}
	p = memchr(hdr, ' ', z.next_out - hdr);
	hlen = strlen((char *)hdr) + 1;
	if (!p || p > (char *)hdr + hlen) {
		msg_add(m, 1, "error: unable to parse header of %s", lo->path);
		goto out;
	}
	*type = type_from_string((char *)hdr, p - (char *)hdr);
	for (p++; *p >= '0' && *p <= '9'; p++) {
		if (sz > (UINT64_MAX - 9) / 10)
			break;
		sz = sz * 10 + (*p - '0');
	}
	if (*p || p[-1] == ' ') {
		msg_add(m, 1, "error: unable to parse header of %s", lo->path);
		goto out;
	}
	if (*type <= 0) {
		*bad_type = xstrndup((char *)hdr, strchr((char *)hdr, ' ') - (char *)hdr);
		ret = -2;
		goto out;
	}
	if (sz > (uint64_t)s.st_size * 1040 + 64) {
		msg_add(m, 1, "error: corrupt loose object '%s'", thex(&lo->oid));
		msg_add(m, 1, "error: unable to unpack contents of %s", lo->path);
		goto out;
	}
	{
		char *buf = xmalloc(sz + 1);
		size_t have = z.total_out - hlen;
		if (have > sz)
			have = sz;
		memcpy(buf, hdr + hlen, have);
		buf[sz] = '\0';
		z.next_out = (unsigned char *)buf + have;
		z.avail_out = (uInt)(sz - have);
		st = Z_OK;
		while (st == Z_OK)
			st = g_inflate(&z, Z_FINISH, m);
		if (!(st == Z_STREAM_END && !z.avail_in)) {
			if (st < 0)
				msg_add(m, 1, "error: corrupt loose object '%s'", thex(&lo->oid));
			else if (z.avail_in)
				msg_add(m, 1, "error: garbage at end of loose object '%s'", thex(&lo->oid));
			msg_add(m, 1, "error: unable to unpack contents of %s", lo->path);
			free(buf);
			goto out;
		}
		hash_object_buf(type_name(*type), buf, sz, real);
		*contents = buf;
		*size = sz;
		if (!oideq(real, &lo->oid))
			goto out;
	}
	ret = 0;
out:
	inflateEnd(&z);
	munmap(map, s.st_size);
	strbuf_release(&full);
	return ret;
}

/* git's fsck_object_dir(): one object directory's files in the order the
 * kernel lists them; loose[] holds the directories one after another. */
size_t verify_loose(size_t i, uint32_t dir_nr)
{
	if (fsck_verbose_objs)
		fprintf(stderr, "Checking object directory\n");
	for (; i < fsck_nr_loose && loose[i].dir == dir_nr; i++) {
		struct msgs m = { STRBUF_INIT, STRBUF_INIT };
		enum object_type type = OBJ_NONE;
		char *contents, *bad_type;
		size_t size = 0;
		struct object_id real;
		int r, parse_failed;

		if (loose[i].cruft) {
			fprintf(stderr, "bad sha1 file: %s\n", loose[i].path);
			continue;
		}
		oidclr(&real);
		r = read_loose(&loose[i], &m, &type, &contents, &size, &real, &bad_type);
		if (r == -2) {
			msg_add(&m, 1, "error: %s: object is of unknown type '%s': %s",
				thex(&real), bad_type, loose[i].path);
			free(bad_type);
		} else if (r < 0) {
			if (contents && !oideq(&real, &loose[i].oid))
				msg_add(&m, 1, "error: %s: hash-path mismatch, found at: %s",
					thex(&real), loose[i].path);
			else
				msg_add(&m, 1, "error: %s: object corrupt or missing: %s",
					thex(&loose[i].oid), loose[i].path);
		}
		if (r < 0) {
			fsck_errors_found |= ERROR_OBJECT;
			free(contents);
			msg_flush(&m);
			continue;
		}
		if (check_obj(find_obj(&loose[i].oid), type, contents, size, &m, &parse_failed))
			fsck_errors_found |= ERROR_OBJECT;
		if (parse_failed) {
			fsck_errors_found |= ERROR_OBJECT;
			msg_add(&m, 1, "error: %s: object could not be parsed: %s",
				thex(&loose[i].oid), loose[i].path);
		}
		free(contents);
		msg_flush(&m);
	}
	return i;
}
