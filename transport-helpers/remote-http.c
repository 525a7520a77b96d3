/* remote-http.c: mini-git-remote-http(s), the only program that links
 * libcurl. It speaks gitremote-helpers on stdin/stdout and offers one
 * transport capability, stateless-connect:
 *
 *   "stateless-connect git-upload-pack" GETs info/refs asking for protocol
 *   v2, answers a blank line, then copies the server's advertisement (the
 *   "# service=" header and its flush removed). The caller tells v2 from
 *   v0 by the first packet ("version 2" or a ref line).
 *   Each request the caller then writes is POSTed to git-upload-pack; the
 *   response is streamed back followed by a "0002" response-end packet.
 *   A v2 request ends with a flush packet; a v0 request (one round: wants,
 *   flush, haves, "done") ends with the "done" packet.
 *
 * Responses are streamed, never held whole: memory stays bounded whatever
 * the server sends. Error messages are git's (URLs without credentials). */
#include "lib/url.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "remote/pkt-line.h"
#include <curl/curl.h>

static CURL *curl;
static char *base_url;      /* without trailing slashes */
static char *anon_url;      /* same, credentials removed, for messages */
static int proto_v2;
static char curl_err[CURL_ERROR_SIZE];

static int read_cmd_line(struct strbuf *sb)
{
	char c;
	strbuf_reset(sb);
	for (;;) {
		ssize_t n = xread(0, &c, 1);
		if (n <= 0)
			return sb->len ? 0 : -1;
		if (c == '\n')
			return 0;
		strbuf_addch(sb, c);
	}
}

static void out(const void *p, size_t n)
{
	if (write_in_full(1, p, n) < 0)
		die_errno("write error");
}

static const char *content_type(void)
{
	char *ct = NULL;
	if (curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &ct) != CURLE_OK || !ct)
		return "";
	return ct;
}

static int type_is(const char *want)
{
	const char *ct = content_type();
	size_t n = strlen(want);
	return !strncasecmp(ct, want, n) && (!ct[n] || ct[n] == ';' || ct[n] == ' ');
}

/* State of the response being received. */
struct resp {
	int advert;                /* parsing an info/refs advertisement */
	int started;               /* header checked, passing bytes through */
	struct strbuf head;        /* bytes held until the header is checked */
	int failed;
	/* Packet framing of an upload-pack response, followed as it streams
	 * so that a body cut short is caught here: the caller would otherwise
	 * wait for the rest of a packet that is never coming. */
	char hdr[4];
	int hdr_len;
	size_t body_left;
	int bad_framing;
	int last_len;              /* length of the last packet; 0: a flush */
};

static void track_packets(struct resp *r, const char *p, size_t n)
{
	while (n && !r->bad_framing) {
		if (r->body_left) {
			size_t take = n < r->body_left ? n : r->body_left;
			r->body_left -= take;
			p += take;
			n -= take;
			continue;
		}
		r->hdr[r->hdr_len++] = *p++;
		n--;
		if (r->hdr_len == 4) {
			int len = pkt_header_len(r->hdr);
			r->hdr_len = 0;
			if (len < 0)
				r->bad_framing = 1;
			else if (len > 4)
				r->body_left = (size_t)len - 4;
			r->last_len = len;
		}
	}
}

/* The advertisement may begin with "# service=git-upload-pack" and a flush
 * (v0, and v2 from some servers); drop them. Returns 1 once decided, 0 if
 * more bytes are needed, -1 if the body is not an advertisement. */
static int check_advert(struct resp *r)
{
	const char *p = r->head.buf;
	size_t len = r->head.len;
	int n;

	if (len < 4)
		return 0;
	n = pkt_header_len(p);
	if (n < 0)
		return -1;
	if (n >= 4 && len >= 5 && p[4] == '#') {
		static const char svc[] = "# service=git-upload-pack";
		if ((size_t)n > len)
			return 0;
		if ((size_t)n < 4 + sizeof(svc) - 1 || memcmp(p + 4, svc, sizeof(svc) - 1))
			return -1;
		if (len < (size_t)n + 4)
			return 0;
		if (memcmp(p + n, "0000", 4))
			return -1;
		p += n + 4;
		len -= n + 4;
	}
	if (len < 4)
		return 0;
	n = pkt_header_len(p);
	if (n < 0)
		return -1;
	if (n >= 4 && len < 4 + 10 && len < (size_t)n)
		return 0;
	proto_v2 = n == 14 && !memcmp(p + 4, "version 2\n", 10);
	track_packets(r, p, len);
	out(p, len);
	return 1;
}

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct resp *r = data;
	size_t n = size * nmemb;
	if (r->started) {
		track_packets(r, ptr, n);
		out(ptr, n);
		return n;
	}
	if (!r->advert) {
		if (!type_is("application/x-git-upload-pack-result")) {
			r->failed = 1;
			return 0;
		}
		r->started = 1;
		track_packets(r, ptr, n);
		out(ptr, n);
		return n;
	}
	/* A valid header fits in a few hundred bytes; refuse to hold more. */
	if (!type_is("application/x-git-upload-pack-advertisement") ||
	    r->head.len + n > 2 * PKT_MAX) {
		r->failed = 1;
		return 0;
	}
	strbuf_add(&r->head, ptr, n);
	switch (check_advert(r)) {
	case 1:
		r->started = 1;
		break;
	case -1:
		r->failed = 1;
		return 0;
	}
	return n;
}

/* Every response must end on a packet boundary with a flush; else the
 * caller would wait forever for the rest while we wait for a request. */
static void check_complete(const struct resp *r)
{
	if (r->bad_framing)
		die("remote-curl: bad line length character in the response");
	if (r->hdr_len)
		die("%d bytes of length header were received", r->hdr_len);
	if (r->body_left)
		die("%zu bytes of body are still expected", r->body_left);
	if (r->last_len != 0)
		die("remote-curl: the response did not end with a flush packet");
}

static NORETURN void http_die(CURLcode rc, long status, const char *what)
{
	if (rc != CURLE_OK && rc != CURLE_WRITE_ERROR && rc != CURLE_HTTP_RETURNED_ERROR)
		die("unable to access '%s/': %s", anon_url, curl_err[0] ? curl_err : curl_easy_strerror(rc));
	if (status == 404)
		die("repository '%s/' not found", anon_url);
	if (status == 401)
		die("Authentication failed for '%s/'", anon_url);
	if (status >= 400)
		die("unable to access '%s/': The requested URL returned error: %ld", anon_url, status);
	die("%s", what);
}

static void get_advertisement(void)
{
	struct resp r = { .advert = 1, .head = STRBUF_INIT, .last_len = -1 };
	struct curl_slist *h = NULL;
	char *url = xstrfmt("%s/info/refs?service=git-upload-pack", base_url);
	long status = 0;
	CURLcode rc;

	h = curl_slist_append(h, "Pragma: no-cache");
	h = curl_slist_append(h, "Git-Protocol: version=2");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 20L);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
	/* Headers first: the body is only forwarded once we know its type. */
	out("\n", 1);
	rc = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && r.failed))
		http_die(rc, status, "");
	if (status != 200)
		http_die(CURLE_HTTP_RETURNED_ERROR, status, "");
	if (r.failed || !r.started || !type_is("application/x-git-upload-pack-advertisement"))
		die("%s/info/refs not valid: is this a git repository?", anon_url);
	check_complete(&r);

	/* Later requests go where a redirect sent us. */
	char *eff = NULL;
	if (curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &eff) == CURLE_OK && eff) {
		const char *q = strstr(eff, "/info/refs?service=git-upload-pack");
		if (q && strcmp(eff, url)) {
			free(base_url);
			base_url = xstrndup(eff, q - eff);
		}
	}
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_slist_free_all(h);
	strbuf_release(&r.head);
	free(url);
}

/* Read one request from the caller; 0 with the bytes in sb, -1 at EOF. */
static int read_request(struct pkt_reader *rd, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (;;) {
		int t = pkt_read_gently(rd);
		if (t == PKT_EOF && !sb->len)
			return -1;
		if (t < 0)
			die("%s", t == PKT_EOF ? "the remote end hung up unexpectedly" : rd->err);
		switch (t) {
		case PKT_FLUSH:
			strbuf_add(sb, "0000", 4);
			if (proto_v2)
				return 0;
			break;
		case PKT_DELIM:
			strbuf_add(sb, "0001", 4);
			break;
		case PKT_RESPONSE_END:
			die("protocol error: unexpected response end from the client");
		default:
			pkt_add(sb, rd->line, rd->len);
			if (!proto_v2 && (!strcmp(rd->line, "done\n") || !strcmp(rd->line, "done")))
				return 0;
		}
	}
}

static void post_request(const struct strbuf *body)
{
	struct resp r = { .head = STRBUF_INIT, .last_len = -1 };
	struct curl_slist *h = NULL;
	char *url = xstrfmt("%s/git-upload-pack", base_url);
	long status = 0;
	CURLcode rc;

	h = curl_slist_append(h, "Content-Type: application/x-git-upload-pack-request");
	h = curl_slist_append(h, "Accept: application/x-git-upload-pack-result");
	if (proto_v2)
		h = curl_slist_append(h, "Git-Protocol: version=2");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_POST, 1L);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->buf);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body->len);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
	rc = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	if (r.failed || (!r.started && rc == CURLE_OK && !type_is("application/x-git-upload-pack-result")))
		die("invalid content-type: '%s'", content_type());
	if (rc != CURLE_OK || status != 200)
		http_die(rc == CURLE_OK ? CURLE_HTTP_RETURNED_ERROR : rc, status, "RPC failed");
	check_complete(&r);
	out("0002", 4);
	curl_slist_free_all(h);
	free(url);
}

static void stateless_connect(void)
{
	static struct pkt_reader rd;
	struct strbuf req = STRBUF_INIT;

	get_advertisement();
	pkt_reader_init(&rd, 0);
	rd.chomp = 0;
	while (!read_request(&rd, &req))
		post_request(&req);
	strbuf_release(&req);
}

int main(int argc, const char **argv)
{
	struct strbuf line = STRBUF_INIT;
	const char *url, *v;

	if (argc < 2)
		die("remote-curl: usage: git remote-curl <remote> [<url>]");
	url = argc > 2 ? argv[2] : argv[1];
	base_url = xstrdup(url);
	while (ends_with(base_url, "/") && strlen(base_url) > 1)
		base_url[strlen(base_url) - 1] = 0;
	anon_url = url_strip_credentials(base_url);

	if (curl_global_init(CURL_GLOBAL_ALL) != CURLE_OK)
		die("curl_global_init failed");
	curl = curl_easy_init();
	if (!curl)
		die("curl_easy_init failed");
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "git/2.39.5 (mini-git)");
	curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	if (getenv("GIT_SSL_NO_VERIFY"))
		curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);

	while (!read_cmd_line(&line)) {
		if (!line.len)
			break;
		if (!strcmp(line.buf, "capabilities")) {
			out("stateless-connect\noption\n\n", 26);
		} else if (skip_prefix(line.buf, "option ", &v)) {
			if (starts_with(v, "verbosity ") || starts_with(v, "progress ") ||
			    starts_with(v, "followtags "))
				out("ok\n", 3);
			else
				out("unsupported\n", 12);
		} else if (!strcmp(line.buf, "stateless-connect git-upload-pack")) {
			stateless_connect();
			break;
		} else if (starts_with(line.buf, "stateless-connect ")) {
			out("fallback\n", 9);
		} else {
			die("unknown command '%s'", line.buf);
		}
	}
	curl_easy_cleanup(curl);
	curl_global_cleanup();
	strbuf_release(&line);
	return 0;
}
