/* fuzz-remote: the client side of the remote-helper channel
 * (remote/transport.h): what transport_list_refs() and
 * transport_fetch_pack() read back from the helper, for protocol v0 and
 * v2. The transport is built by hand around a memfd holding the server's
 * bytes; requests go to /dev/null. First input byte: bit 0 the protocol
 * version (0 or 2), bit 1 fetch instead of ls-refs; the rest is the
 * stream. A protocol error dies, which is the expected answer.
 *
 * The v0 advertisement reader (read_v0_advert) is only reachable through
 * transport_open(), which starts a helper process; it is fuzzed here only
 * as far as the same checks appear in the ls-refs reader. */
#include "fuzz/fuzz-harness.h"
#include "remote/transport.h"
#include <fcntl.h>
#include <sys/mman.h>

static int in_fd = -1, null_fd = -1;
static struct transport *t;
static void drop_transport(void);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	in_fd = memfd_create("server", 0);
	null_fd = open("/dev/null", O_WRONLY);
	if (in_fd < 0 || null_fd < 0)
		abort();
	fuzz_cleanup = drop_transport;
	return 0;
}

/* transport_close() without the helper process. */
static void drop_transport(void)
{
	if (!t)
		return;
	transport_free(t);
	t = NULL;
}

static void run(const uint8_t *data, size_t size)
{
	static const struct object_id want = { { 0x12, 0x34 } };
	static const char *prefixes[] = { "refs/heads/", "refs/tags/", "HEAD" };

	if (ftruncate(in_fd, 0) || pwrite(in_fd, data + 1, size - 1, 0) != (ssize_t)size - 1 ||
	    lseek(in_fd, 0, SEEK_SET))
		abort();
	t = calloc(1, sizeof(*t));
	t->url = strdup("http://example.com/r.git");
	t->anon_url = strdup(t->url);
	t->to_helper = null_fd;
	t->helper.pid = 0x7fffffff;   /* no such child: waitpid() fails at once */
	t->version = data[0] & 1 ? 2 : 0;
	strbuf_init(&t->caps, 0);
	strbuf_addstr(&t->caps, t->version == 2 ? "agent=git/2.39.5\nls-refs=unborn\nfetch=shallow\n"
		      "object-format=sha1\n" : "multi_ack side-band-64k ofs-delta no-progress include-tag");
	t->rd = malloc(sizeof(*t->rd));
	pkt_reader_init(t->rd, in_fd);
	if (data[0] & 2) {
		transport_fetch_pack(t, &want, 1, &want, 1, 1, null_fd);
	} else {
		transport_list_refs(t, prefixes, data[0] & 4 ? 3 : 0);
		for (size_t i = 0; i < t->nr_refs; i++)
			if (!t->refs[i].name || !*t->refs[i].name)
				abort();
	}
	drop_transport();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_try(run, data, size);
	return 0;
}
