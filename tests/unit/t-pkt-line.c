/* t-pkt-line.c: unit tests of remote/pkt-line (framing, every length
 * checked) and of refspecs and URL helpers in remote/. Prints TAP. */
#include "lib/util.h"
#include "lib/strbuf.h"
#include "remote/pkt-line.h"
#include "remote/remote.h"
#include "remote/transport.h"
#include "tests/unit/tap.h"
#include <fcntl.h>
#include <sys/wait.h>



/* A reader over the given bytes (through a pipe, as from a helper). */
static void reader_over(struct pkt_reader *r, const void *data, size_t len)
{
	int fds[2];
	if (pipe(fds) < 0)
		die_errno("pipe");
	if (write_in_full(fds[1], data, len) < 0)
		die_errno("write");
	close(fds[1]);
	pkt_reader_init(r, fds[0]);
}

static void test_header_len(void)
{
	check(pkt_header_len("0000") == 0, "0000 is a flush");
	check(pkt_header_len("0001") == 1 && pkt_header_len("0002") == 2, "delim and response end");
	check(pkt_header_len("0003") == -1, "length 3 is impossible");
	check(pkt_header_len("fff0") == 65520, "largest packet accepted");
	check(pkt_header_len("fff1") == -1 && pkt_header_len("ffff") == -1, "above 65520 refused");
	check(pkt_header_len("00g4") == -1 && pkt_header_len("-001") == -1, "non-hex refused");
	check(pkt_header_len("00AB") == 0xab, "upper-case hex accepted");
}

static void test_round_trip(void)
{
	struct strbuf sb = STRBUF_INIT;
	static struct pkt_reader r;
	pkt_addf(&sb, "command=%s\n", "ls-refs");
	pkt_add_delim(&sb);
	pkt_add(&sb, "peel", 4);
	pkt_add_flush(&sb);
	strbuf_add(&sb, "0002", 4);
	check(!strcmp(sb.buf, "0014command=ls-refs\n00010008peel00000002"), "packets are framed");
	reader_over(&r, sb.buf, sb.len);
	check(pkt_read_gently(&r) == PKT_DATA && !strcmp(r.line, "command=ls-refs") && r.len == 15,
	      "data packet read, newline dropped");
	check(pkt_read_gently(&r) == PKT_DELIM, "delimiter read");
	check(pkt_read_gently(&r) == PKT_DATA && r.len == 4 && !strcmp(r.line, "peel"), "packet without newline");
	check(pkt_read_gently(&r) == PKT_FLUSH, "flush read");
	check(pkt_read_gently(&r) == PKT_RESPONSE_END, "response end read");
	check(pkt_read_gently(&r) == PKT_EOF, "clean EOF after the last packet");
	close(r.fd);
	strbuf_release(&sb);
}

static void test_bad_streams(void)
{
	static struct pkt_reader r;
	static const struct { const char *data; const char *err; const char *what; } cases[] = {
		{ "00", "the remote end hung up unexpectedly", "header cut short" },
		{ "000ahello", "the remote end hung up unexpectedly", "data cut short" },
		{ "zzzzhello", "protocol error: bad line length character: zzzz", "garbage header" },
		{ "0003", "protocol error: bad line length character: 0003", "length 3" },
		{ "ffffxxxx", "protocol error: bad line length character: ffff", "length above the maximum" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		reader_over(&r, cases[i].data, strlen(cases[i].data));
		int t = pkt_read_gently(&r);
		check(t == -2 && r.err && !strcmp(r.err, cases[i].err), "%s: %s", cases[i].what,
		      r.err ? r.err : "(no error)");
		close(r.fd);
	}
}

static void test_big_packet(void)
{
	static struct pkt_reader r;
	struct strbuf sb = STRBUF_INIT;
	char *data = xmalloc(PKT_DATA_MAX);
	memset(data, 'x', PKT_DATA_MAX);
	data[0] = 1;
	pkt_add(&sb, data, PKT_DATA_MAX);
	pkt_add_flush(&sb);
	/* more than a pipe holds: write from a child */
	int fds[2];
	if (pipe(fds) < 0)
		die_errno("pipe");
	pid_t pid = fork();
	if (!pid) {
		close(fds[0]);
		write_in_full(fds[1], sb.buf, sb.len);
		_exit(0);
	}
	close(fds[1]);
	pkt_reader_init(&r, fds[0]);
	r.chomp = 0;
	check(pkt_read_gently(&r) == PKT_DATA && r.len == PKT_DATA_MAX && !memcmp(r.line, data, r.len),
	      "largest data packet read whole");
	check(pkt_read_gently(&r) == PKT_FLUSH, "then the flush");
	close(fds[0]);
	waitpid(pid, NULL, 0);
	free(data);
	strbuf_release(&sb);
}

static void test_text_lines(void)
{
	static struct pkt_reader r;
	struct strbuf sb = STRBUF_INIT;
	const char *s = "stateless-connect\n\n0008abcd";
	reader_over(&r, s, strlen(s));
	check(!pkt_reader_text_line(&r, &sb, 100) && !strcmp(sb.buf, "stateless-connect"), "text line");
	check(!pkt_reader_text_line(&r, &sb, 100) && !sb.len, "blank line");
	check(pkt_read_gently(&r) == PKT_DATA && !strcmp(r.line, "abcd"), "packet after text lines");
	close(r.fd);
	reader_over(&r, "aaaaaaaaaa\n", 11);
	check(pkt_reader_text_line(&r, &sb, 5) == -2, "over-long text line refused");
	close(r.fd);
	strbuf_release(&sb);
}

static void test_refspec(void)
{
	struct refspec_item it;
	char *m;
	check(!refspec_parse("+refs/heads/*:refs/remotes/origin/*", &it) && it.force && it.pattern,
	      "pattern refspec parsed");
	m = refspec_map(&it, "refs/heads/a/b");
	check(m && !strcmp(m, "refs/remotes/origin/a/b"), "pattern maps a/b: %s", m ? m : "(null)");
	free(m);
	check(!refspec_map(&it, "refs/tags/x"), "pattern does not map other refs");
	refspec_release(&it);
	check(!refspec_parse("refs/heads/x:refs/heads/y", &it) && !it.force && !it.pattern, "exact refspec");
	m = refspec_map(&it, "refs/heads/x");
	check(m && !strcmp(m, "refs/heads/y"), "exact maps");
	free(m);
	refspec_release(&it);
	check(refspec_parse("refs/heads/*:refs/x", &it) < 0, "one-sided pattern refused");
	check(refspec_parse("refs/heads/a..b:refs/x", &it) < 0, "bad ref name refused");
}

static void test_urls(void)
{
	char *s = url_strip_credentials("https://user:pw@example.com:8443/a/b.git");
	check(!strcmp(s, "https://example.com:8443/a/b.git"), "credentials stripped: %s", s);
	free(s);
	s = url_strip_credentials("http://example.com/a@b");
	check(!strcmp(s, "http://example.com/a@b"), "an @ in the path is kept");
	free(s);
	static const char *cases[][3] = {
		{ "http://h/x/repo.git", "repo", "repo.git" },
		{ "http://h/x/repo.git/", "repo", "repo.git" },
		{ "http://h/x/repo/.git", "repo", "repo.git" },
		{ "http://u:p@host:80/", "host", "host.git" },
		{ "http://h/x/name", "name", "name.git" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *a = url_guess_dir(cases[i][0], 0), *b = url_guess_dir(cases[i][0], 1);
		check(!strcmp(a, cases[i][1]) && !strcmp(b, cases[i][2]), "directory for %s: %s, %s",
		      cases[i][0], a, b);
		free(a);
		free(b);
	}
	check(url_helper_scheme("https://x") && !strcmp(url_helper_scheme("https://x"), "https") &&
	      !url_helper_scheme("/tmp/x") && !url_helper_scheme("ssh://x"), "helper only for http(s)");
}

int main(void)
{
	test_header_len();
	test_round_trip();
	test_bad_streams();
	test_big_packet();
	test_text_lines();
	test_refspec();
	test_urls();
	return tap_done();
}
