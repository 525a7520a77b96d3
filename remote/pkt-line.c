/* pkt-line.c: reading and writing pkt-lines with every length checked. */
#include "remote/pkt-line.h"
#include "lib/hex.h"

int pkt_header_len(const char *hdr)
{
	int n = 0;
	for (int i = 0; i < 4; i++) {
		int v = hexval((unsigned char)hdr[i]);
		if (v < 0)
			return -1;
		n = n << 4 | v;
	}
	if (n == 3 || n > PKT_MAX)
		return -1;
	return n;
}

void pkt_reader_init(struct pkt_reader *r, int fd)
{
	r->fd = fd;
	r->pos = r->end = 0;
	r->len = 0;
	r->line[0] = 0;
	r->chomp = 1;
	r->err = NULL;
}

/* Fill dst with exactly n bytes; 0, or -1 at EOF/error before n. */
static int reader_fill(struct pkt_reader *r, char *dst, size_t n)
{
	while (n) {
		if (r->pos == r->end) {
			ssize_t got = xread(r->fd, r->buf, sizeof(r->buf));
			if (got <= 0)
				return -1;
			r->pos = 0;
			r->end = (size_t)got;
		}
		size_t take = r->end - r->pos;
		if (take > n)
			take = n;
		memcpy(dst, r->buf + r->pos, take);
		r->pos += take;
		dst += take;
		n -= take;
	}
	return 0;
}

int pkt_reader_text_line(struct pkt_reader *r, struct strbuf *sb, size_t max)
{
	strbuf_reset(sb);
	for (;;) {
		char c;
		if (reader_fill(r, &c, 1) < 0)
			return sb->len ? -2 : -1;
		if (c == '\n')
			return 0;
		if (sb->len >= max)
			return -2;
		strbuf_addch(sb, c);
	}
}

ssize_t pkt_reader_raw(struct pkt_reader *r, void *dst, size_t len)
{
	if (r->pos < r->end) {
		size_t take = r->end - r->pos;
		if (take > len)
			take = len;
		memcpy(dst, r->buf + r->pos, take);
		r->pos += take;
		return (ssize_t)take;
	}
	return xread(r->fd, dst, len);
}

int pkt_read_gently(struct pkt_reader *r)
{
	static char msg[80];
	char hdr[5];
	int n;

	r->len = 0;
	r->line[0] = 0;
	if (r->pos == r->end) {
		ssize_t got = xread(r->fd, r->buf, sizeof(r->buf));
		if (got <= 0)
			return PKT_EOF;
		r->pos = 0;
		r->end = (size_t)got;
	}
	if (reader_fill(r, hdr, 4) < 0) {
		r->err = "the remote end hung up unexpectedly";
		return -2;
	}
	hdr[4] = 0;
	n = pkt_header_len(hdr);
	if (n < 0) {
		snprintf(msg, sizeof(msg), "protocol error: bad line length character: %.4s", hdr);
		r->err = msg;
		return -2;
	}
	if (n == 0)
		return PKT_FLUSH;
	if (n == 1)
		return PKT_DELIM;
	if (n == 2)
		return PKT_RESPONSE_END;
	if (reader_fill(r, r->line, (size_t)n - 4) < 0) {
		r->err = "the remote end hung up unexpectedly";
		return -2;
	}
	r->len = (size_t)n - 4;
	if (r->chomp && r->len && r->line[r->len - 1] == '\n')
		r->len--;
	r->line[r->len] = 0;
	return PKT_DATA;
}

enum pkt_type pkt_read(struct pkt_reader *r)
{
	int t = pkt_read_gently(r);
	if (t == PKT_EOF)
		die("the remote end hung up unexpectedly");
	if (t == -2)
		die("%s", r->err);
	return (enum pkt_type)t;
}

void pkt_add(struct strbuf *sb, const void *data, size_t len)
{
	char hdr[5];
	if (len > PKT_DATA_MAX)
		BUG("packet of %zu bytes", len);
	snprintf(hdr, sizeof(hdr), "%04x", (unsigned)(len + 4));
	strbuf_add(sb, hdr, 4);
	strbuf_add(sb, data, len);
}

void pkt_addf(struct strbuf *sb, const char *fmt, ...)
{
	struct strbuf tmp = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&tmp, fmt, ap);
	va_end(ap);
	pkt_add(sb, tmp.buf, tmp.len);
	strbuf_release(&tmp);
}

void pkt_add_flush(struct strbuf *sb)
{
	strbuf_add(sb, "0000", 4);
}

void pkt_add_delim(struct strbuf *sb)
{
	strbuf_add(sb, "0001", 4);
}

void pkt_write_buf(int fd, const struct strbuf *sb)
{
	if (write_in_full(fd, sb->buf, sb->len) < 0)
		die_errno("unable to write to remote");
}
