/* pkt-line.h: git's pkt-line framing (gitprotocol-common). Each packet is
 * four hex digits giving its length including those four, then the data;
 * "0000" is a flush, "0001" a delimiter, "0002" the end of a response.
 * Every length read from the peer is checked before it is used. */
#ifndef REMOTE_PKT_LINE_H
#define REMOTE_PKT_LINE_H

#include "lib/strbuf.h"

#define PKT_MAX 65520          /* largest packet, header included */
#define PKT_DATA_MAX (PKT_MAX - 4)

enum pkt_type {
	PKT_EOF = -1,          /* clean end of stream before a packet */
	PKT_DATA = 0,
	PKT_FLUSH = 1,
	PKT_DELIM = 2,
	PKT_RESPONSE_END = 3,
};

/* The length in a 4-byte header: 0..PKT_MAX, or -1 if it is not four hex
 * digits or is 3 (an impossible length) or above PKT_MAX. Lengths 1 and 2
 * are the delimiter and response end. */
int pkt_header_len(const char *hdr);

struct pkt_reader {
	int fd;
	size_t pos, end;            /* unread bytes in buf */
	char buf[65536];
	char line[PKT_MAX + 1];     /* last packet's data, NUL-terminated */
	size_t len;                 /* its length */
	int chomp;                  /* drop one trailing LF from data packets */
	const char *err;            /* set when pkt_read_gently fails */
};

void pkt_reader_init(struct pkt_reader *r, int fd);
/* One packet. Dies like git ("the remote end hung up unexpectedly",
 * "protocol error: bad line length character: XXXX") on a bad stream. */
enum pkt_type pkt_read(struct pkt_reader *r);
/* Same, but returns PKT_EOF at a clean end, and -2 with r->err set on a
 * truncated or malformed packet. */
int pkt_read_gently(struct pkt_reader *r);
/* A text line ending in LF (removed) through the same buffer, for the
 * remote-helper handshake that precedes the packets. 0, or -1 at EOF.
 * Lines longer than max are an error (-2). */
int pkt_reader_text_line(struct pkt_reader *r, struct strbuf *sb, size_t max);
/* Raw bytes (already buffered first); 0 at EOF. */
ssize_t pkt_reader_raw(struct pkt_reader *r, void *dst, size_t len);

/* Building packets in a buffer. */
void pkt_add(struct strbuf *sb, const void *data, size_t len);
void pkt_addf(struct strbuf *sb, const char *fmt, ...) FORMAT_PRINTF(2, 3);
void pkt_add_flush(struct strbuf *sb);
void pkt_add_delim(struct strbuf *sb);

/* Write a buffer of packets; dies on a write error. */
void pkt_write_buf(int fd, const struct strbuf *sb);

#endif
