/* loose.c: reading and writing loose objects. */
#include "lib/util.h"
#include "odb/loose.h"
#include "sha1/object-hash.h"
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

static const char *zerr(int st)
{
	switch (st) {
	case Z_MEM_ERROR: return "out of memory";
	case Z_VERSION_ERROR: return "wrong version";
	case Z_NEED_DICT: return "needs dictionary";
	case Z_DATA_ERROR: return "data stream error";
	case Z_STREAM_ERROR: return "stream consistency error";
	default: return "unknown error";
	}
}

/* inflate() with git's error report for the failing statuses. */
static int zinflate(z_stream *zs, int flush)
{
	int st = inflate(zs, flush);
	if (st == Z_OK || st == Z_BUF_ERROR || st == Z_STREAM_END)
		return st;
	if (st == Z_MEM_ERROR)
		die("inflate: out of memory");
	error("inflate: %s (%s)", zerr(st), zs->msg ? zs->msg : "no message");
	return st;
}

/* "<type> <size>\0": 0 with the type and size, or -1. Sizes as git parses
 * them: decimal, no leading zero unless the size is 0. */
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
			if (v > (SIZE_MAX - 9) / 10)
				return -1;
			v = v * 10 + (size_t)(*h++ - '0');
		}
	if (*h)
		return -1;
	*size = v;
	return 0;
}

int loose_read(const char *objdir, const struct object_id *oid,
	       enum object_type *type, size_t *size, void **data)
{
	struct strbuf path = STRBUF_INIT;
	unsigned char hdr[MAX_HEADER_LEN + 1];
	unsigned char *map, *buf = NULL;
	struct stat st;
	z_stream zs;
	int fd, zst, ret = -1;
	size_t hlen, got;
	char *nul;

	loose_path(&path, objdir, oid);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = errno == ENOENT ? 0 : error_errno("unable to open loose object %s", oid_to_hex(oid));
		strbuf_release(&path);
		return ret;
	}
	if (fstat(fd, &st) < 0 || !st.st_size) {
		/* mmap() is not allowed on an empty file. */
		if (!st.st_size)
			error("object file %s is empty", path.buf);
		close(fd);
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&path);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return error_errno("mmap failed");

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		die("inflateInit failed");
	zs.next_in = map;
	zs.avail_in = st.st_size > (1 << 30) ? 1u << 30 : (unsigned)st.st_size;
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
	    *size / 1032 > (size_t)st.st_size + 64) {
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
	munmap(map, (size_t)st.st_size);
	return ret;
}

int loose_stream(const char *objdir, const struct object_id *oid, FILE *out)
{
	struct strbuf path = STRBUF_INIT;
	unsigned char hdr[MAX_HEADER_LEN + 1], chunk[16384];
	unsigned char *map;
	struct stat st;
	z_stream zs;
	enum object_type type;
	size_t size, have, written = 0;
	char *nul;
	int fd, zst, ret = -1;

	loose_path(&path, objdir, oid);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	strbuf_release(&path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) < 0 || !st.st_size) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		die("inflateInit failed");
	zs.next_in = map;
	zs.avail_in = st.st_size > (1 << 30) ? 1u << 30 : (unsigned)st.st_size;
	zs.next_out = hdr;
	zs.avail_out = MAX_HEADER_LEN;
	zst = zinflate(&zs, Z_NO_FLUSH);
	hdr[MAX_HEADER_LEN - zs.avail_out] = 0;
	nul = memchr(hdr, 0, MAX_HEADER_LEN - zs.avail_out);
	if (zst < Z_OK || !nul || parse_header((char *)hdr, &type, &size) < 0 || type == OBJ_BAD)
		goto out;
	/* Bytes inflated past the header come first. Like git's reader, the
	 * stream ending early just ends the output; only zlib errors, or
	 * input running out before size bytes, fail. */
	have = MAX_HEADER_LEN - zs.avail_out - (size_t)(nul + 1 - (char *)hdr);
	if (have > size)
		have = size;
	memcpy(chunk, nul + 1, have);
	while (written < size) {
		size_t want = size - written < sizeof(chunk) ? size - written : sizeof(chunk);
		int ended = zst == Z_STREAM_END;
		while (have < want && !ended) {
			zs.next_out = chunk + have;
			zs.avail_out = (unsigned)(want - have);
			zst = zinflate(&zs, Z_FINISH);
			have = want - zs.avail_out;
			if (zst == Z_STREAM_END)
				ended = 1;
			else if (zst != Z_OK && (zst != Z_BUF_ERROR || have < want))
				goto out;
		}
		if (!have)
			break;
		if (fwrite(chunk, 1, have, out) != have)
			goto out;
		written += have;
		have = 0;
		if (ended)
			break;
	}
	ret = 1;
out:
	inflateEnd(&zs);
	munmap(map, (size_t)st.st_size);
	return ret;
}

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

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The loose objects of one objects/xx/ dir matching hex[2..len). */
static int scan_dir(const char *objdir, int xx, const char *hex, size_t len,
		    odb_oid_cb cb, void *data)
{
	char dir[16], **names = NULL;
	size_t nr = 0, alloc = 0, i;
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%02x", xx);
	strbuf_addf(&path, "%s/%s", objdir, dir);
	d = opendir(path.buf);
	strbuf_release(&path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		size_t j;
		if (strlen(n) != HEX_SZ - 2)
			continue;
		for (j = 0; j < HEX_SZ - 2; j++)
			if (!is_hex_digit(n[j]) || (n[j] >= 'A' && n[j] <= 'F'))
				break;
		if (j < HEX_SZ - 2)
			continue;
		if (len > 2 && strncasecmp(n, hex + 2, len - 2))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(n);
	}
	closedir(d);
	QSORT(names, nr, cmp_names);
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
	int hi = hexval(hex[0]), lo = hexval(hex[1]);
	if (len < 2 || hi < 0 || lo < 0)
		return 0;
	return scan_dir(objdir, hi * 16 + lo, hex, len, cb, data);
}
