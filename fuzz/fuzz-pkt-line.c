/* fuzz-pkt-line: reading a stream of pkt-lines (remote/pkt-line.h)
 * through pkt_read_gently() until the end or an error, as a client reads
 * a server's answer; then the same bytes as the remote-helper handshake's
 * text lines (pkt_reader_text_line). The input is served from a memfd. */
#include "fuzz/fuzz-harness.h"
#include "remote/pkt-line.h"
#include <sys/mman.h>

static struct pkt_reader reader;
static int fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	fd = memfd_create("pkt", 0);
	if (fd < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf line = STRBUF_INIT;
	char hdr[4];
	int t, n = 0;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size ||
	    lseek(fd, 0, SEEK_SET))
		abort();
	if (size >= 4) {
		memcpy(hdr, data, 4);
		t = pkt_header_len(hdr);
		if (t > PKT_MAX || t == 3)
			abort();
	}
	pkt_reader_init(&reader, fd);
	reader.chomp = size & 1;
	while ((t = pkt_read_gently(&reader)) != PKT_EOF) {
		if (t == -2) {
			if (!reader.err)
				abort();
			break;
		}
		if (t == PKT_DATA && (reader.len > PKT_DATA_MAX || reader.line[reader.len]))
			abort();
		if (++n > (int)size)
			abort();
	}

	if (lseek(fd, 0, SEEK_SET))
		abort();
	pkt_reader_init(&reader, fd);
	n = 0;
	while ((t = pkt_reader_text_line(&reader, &line, 1024)) == 0) {
		if (line.len > 1024 || memchr(line.buf, '\n', line.len))
			abort();
		if (++n > (int)size)
			abort();
	}
	if (t != -1 && t != -2)
		abort();
	strbuf_release(&line);
	return 0;
}
