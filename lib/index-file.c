/* index-file.c: the index, version 2. */
#include "lib/index-file.h"
#include "lib/strbuf.h"
#include "sha1/sha1.h"
#include "lib/fd-batch.h"
#include <fcntl.h>

void index_entry_set_stat(struct index_entry *e, const struct stat *st)
{
	e->ctime_sec = (uint32_t)st->st_ctim.tv_sec;
	e->ctime_nsec = (uint32_t)st->st_ctim.tv_nsec;
	e->mtime_sec = (uint32_t)st->st_mtim.tv_sec;
	e->mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	e->dev = (uint32_t)st->st_dev;
	e->ino = (uint32_t)st->st_ino;
	e->uid = (uint32_t)st->st_uid;
	e->gid = (uint32_t)st->st_gid;
	e->size = (uint32_t)st->st_size;
}

/* Index order: bytewise on the whole path. */
static int cmp_path(const void *a, const void *b)
{
	const struct index_entry *x = a, *y = b;
	return strcmp(x->path, y->path);
}

static void be32(struct strbuf *sb, uint32_t v)
{
	unsigned char b[4] = { v >> 24, v >> 16, v >> 8, v };
	strbuf_add(sb, b, 4);
}

int index_write(const char *path, struct index_entry *e, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char sum[RAW_SZ];
	char *lock = xstrfmt("%s.lock", path);
	int fd;

	if (nr > UINT32_MAX)
		return error("too many index entries");
	QSORT(e, nr, cmp_path);
	strbuf_add(&sb, "DIRC", 4);
	be32(&sb, 2);
	be32(&sb, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		size_t len = strlen(e[i].path), start = sb.len, pad;
		be32(&sb, e[i].ctime_sec);
		be32(&sb, e[i].ctime_nsec);
		be32(&sb, e[i].mtime_sec);
		be32(&sb, e[i].mtime_nsec);
		be32(&sb, e[i].dev);
		be32(&sb, e[i].ino);
		be32(&sb, e[i].mode);
		be32(&sb, e[i].uid);
		be32(&sb, e[i].gid);
		be32(&sb, e[i].size);
		strbuf_add(&sb, e[i].oid.hash, RAW_SZ);
		unsigned flags = len < 0xfff ? (unsigned)len : 0xfff;
		strbuf_addch(&sb, (char)(flags >> 8));
		strbuf_addch(&sb, (char)flags);
		strbuf_add(&sb, e[i].path, len);
		/* 1 to 8 NULs: the entry ends on a multiple of 8 bytes */
		pad = 8 - ((sb.len - start) % 8);
		strbuf_addchars(&sb, 0, pad);
	}
	sha1_buf(sum, sb.buf, sb.len);
	strbuf_add(&sb, sum, RAW_SZ);

	fd = fd_open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int ret = error_errno("could not create '%s'", lock);
		free(lock);
		strbuf_release(&sb);
		return ret;
	}
	if (write_in_full(fd, sb.buf, sb.len) < 0 || close(fd) < 0 || rename(lock, path) < 0) {
		int ret = error_errno("could not write index '%s'", path);
		unlink(lock);
		free(lock);
		strbuf_release(&sb);
		return ret;
	}
	free(lock);
	strbuf_release(&sb);
	return 0;
}

int index_reader_init(struct index_reader *r, const void *buf, size_t len)
{
	const unsigned char *b = buf;

	if (len < 12 + RAW_SZ || memcmp(b, "DIRC", 4))
		return -1;
	r->version = get_be32(b + 4);
	if (r->version < 2 || r->version > 4)
		return -1;
	r->left = get_be32(b + 8);
	r->p = b + 12;
	r->end = b + len - RAW_SZ;
	strbuf_init(&r->path, 0);
	return 0;
}

int index_reader_next(struct index_reader *r, struct index_entry_ref *e)
{
	const unsigned char *start = r->p, *name, *nul;
	size_t fixed = 62;
	unsigned flags;

	if (!r->left)
		return 0;
	if ((size_t)(r->end - start) < fixed)
		return -1;
	flags = (unsigned)start[60] << 8 | start[61];
	if (r->version >= 3 && (flags & 0x4000))
		fixed += 2;   /* extended flags */
	if ((size_t)(r->end - start) < fixed)
		return -1;
	name = start + fixed;
	if (r->version == 4) {
		/* prefix compression: drop N bytes of the previous path */
		size_t strip = 0;
		unsigned char c;
		do {
			if (name >= r->end)
				return -1;
			c = *name++;
			strip = (strip << 7) | (c & 127);
			if (c & 128)
				strip++;
		} while (c & 128);
		nul = memchr(name, 0, (size_t)(r->end - name));
		if (!nul || strip > r->path.len)
			return -1;
		strbuf_setlen(&r->path, r->path.len - strip);
		strbuf_add(&r->path, name, (size_t)(nul - name));
		r->p = nul + 1;
	} else {
		size_t len;
		nul = memchr(name, 0, (size_t)(r->end - name));
		if (!nul)
			return -1;
		/* the length in the flags, unless it is too long for them */
		len = (flags & 0xfff) < 0xfff ? (flags & 0xfff) : (size_t)(nul - name);
		strbuf_reset(&r->path);
		strbuf_add(&r->path, name, len < (size_t)(nul - name) ? len : (size_t)(nul - name));
		/* 1 to 8 NULs pad the entry to a multiple of 8 bytes */
		r->p = start + ((fixed + len + 8) & ~(size_t)7);
		if (r->p > r->end)
			return -1;
	}
	e->raw = start;
	e->mode = get_be32(start + 24);
	memcpy(e->oid.hash, start + 40, RAW_SZ);
	e->stage = (flags >> 12) & 3;
	e->path = r->path.buf;
	e->path_len = r->path.len;
	r->left--;
	return 1;
}

void index_reader_release(struct index_reader *r)
{
	strbuf_release(&r->path);
}
