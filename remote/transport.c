/* transport.c: the main binary's side of a remote: the helper is found and
 * started only here, when a URL needs it, so local commands never pay for
 * transport (no lookup, no exec, no libcurl). */
#include "remote/transport.h"
#include "refs/refs.h"
#include "lib/config.h"
#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>

#ifndef MINI_GIT_BINDIR
#define MINI_GIT_BINDIR "/usr/local/bin"
#endif

/* A server may advertise at most this many refs (bounds our memory). */
#define MAX_REFS (1u << 22)

const char *url_helper_scheme(const char *url)
{
	if (starts_with(url, "http://"))
		return "http";
	if (starts_with(url, "https://"))
		return "https";
	return NULL;
}

char *url_guess_dir(const char *url, int bare)
{
	const char *start = url, *end = url + strlen(url), *p;
	struct strbuf sb = STRBUF_INIT;

	if ((p = strstr(url, "://"))) {
		start = p + 3;
		p = strchr(start, '/');
		/* Only a host: the name is the host without port or user. */
		if (!p || !p[1]) {
			const char *at = memchr(start, '@', (p ? p : end) - start);
			if (at)
				start = at + 1;
			end = p ? p : end;
			for (p = start; p < end && *p != ':'; p++)
				;
			end = p;
			strbuf_add(&sb, start, end - start);
			goto done;
		}
	}
	while (end > start && (end[-1] == '/' || git_isspace((unsigned char)end[-1])))
		end--;
	if (end - start >= 5 && !memcmp(end - 5, "/.git", 5))
		end -= 5;
	while (end > start && end[-1] == '/')
		end--;
	for (p = end; p > start && p[-1] != '/' && p[-1] != ':'; p--)
		;
	if (end - p > 4 && !memcmp(end - 4, ".git", 4))
		end -= 4;
	strbuf_add(&sb, p, end - p);
done:
	for (size_t i = 0; i < sb.len; i++)
		if ((unsigned char)sb.buf[i] < 0x20)
			sb.buf[i] = '-';
	if (bare)
		strbuf_addstr(&sb, ".git");
	return strbuf_detach(&sb, NULL);
}

/* The helper died: it has said why; exit as git does. */
static NORETURN void helper_gone(struct transport *t)
{
	int code = finish_command(&t->helper);
	if (code == 0)
		die("the remote end hung up unexpectedly");
	exit(128);
}

static void helper_write(struct transport *t, const char *s, size_t len)
{
	if (write_in_full(t->to_helper, s, len) < 0) {
		if (errno == EPIPE)
			helper_gone(t);
		die_errno("unable to write to remote helper");
	}
}

static void helper_line(struct transport *t, struct strbuf *sb)
{
	int r = pkt_reader_text_line(t->rd, sb, 1024);
	if (r == -1)
		helper_gone(t);
	if (r < 0)
		die("remote helper sent a line too long");
}

static int read_pkt(struct transport *t)
{
	int r = pkt_read_gently(t->rd);
	if (r == PKT_EOF)
		helper_gone(t);
	if (r < 0)
		die("%s", t->rd->err);
	if (r == PKT_DATA && starts_with(t->rd->line, "ERR "))
		die("remote error: %s", t->rd->line + 4);
	return r;
}

static int spawn_helper(struct transport *t, const char *scheme)
{
	char exe[PATH_MAX];
	const char *dirs[3];
	size_t n = 0;
	ssize_t len;

	if (getenv("MINI_GIT_EXEC_PATH"))
		dirs[n++] = getenv("MINI_GIT_EXEC_PATH");
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			dirs[n++] = exe;
		}
	}
	dirs[n++] = MINI_GIT_BINDIR;
	for (size_t i = 0; i < n; i++) {
		char *path = xstrfmt("%s/mini-git-remote-%s", dirs[i], scheme);
		const char **argv = xcalloc(4, sizeof(*argv));
		argv[0] = path;
		argv[1] = "origin";
		argv[2] = t->url;
		t->helper.argv = argv;
		t->helper.in = -1;
		t->helper.out = -1;
		if (!start_command(&t->helper)) {
			t->to_helper = t->helper.in;
			return 0;
		}
		free(path);
		free(argv);
		if (errno != ENOENT && errno != EACCES)
			break;
	}
	return -1;
}

static void add_ref(struct transport *t, const char *name, const struct object_id *oid)
{
	struct remote_ref *r;
	if (t->nr_refs >= MAX_REFS)
		die("the remote advertised too many refs");
	ALLOC_GROW(t->refs, t->nr_refs + 1, t->alloc_refs);
	r = &t->refs[t->nr_refs++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	if (oid)
		oidcpy(&r->oid, oid);
}

static int valid_remote_refname(const char *name)
{
	return !strcmp(name, "HEAD") || !check_refname_format(name, 0);
}

static void parse_symref_caps(struct transport *t)
{
	const char *p = t->caps.buf;
	while ((p = strstr(p, "symref="))) {
		const char *v = p + 7, *colon = strchr(v, ':'), *end = strchr(v, ' ');
		if (!end)
			end = v + strlen(v);
		if (colon && colon < end)
			for (size_t i = 0; i < t->nr_refs; i++)
				if (strlen(t->refs[i].name) == (size_t)(colon - v) &&
				    !strncmp(t->refs[i].name, v, colon - v) && !t->refs[i].symref)
					t->refs[i].symref = xstrndup(colon + 1, end - colon - 1);
		p = end;
	}
}

/* v0: "<oid> <name>[\0caps]" lines up to a flush; the first is already
 * in t->rd->line. */
static void read_v0_advert(struct transport *t)
{
	struct pkt_reader *rd = t->rd;
	int first = 1;
	for (;;) {
		struct object_id oid;
		const char *name;
		if (!first && read_pkt(t) == PKT_FLUSH)
			break;
		if (parse_oid_hex(rd->line, &oid, &name) || *name != ' ')
			die("protocol error: unexpected '%s'", rd->line);
		name++;
		if (first) {
			size_t used = (name - rd->line) + strlen(name);
			if (used < rd->len)
				strbuf_add(&t->caps, rd->line + used + 1, rd->len - used - 1);
			first = 0;
			if (!strcmp(name, "capabilities^{}"))
				continue;
		}
		if (ends_with(name, "^{}")) {
			size_t nl = strlen(name) - 3;
			struct remote_ref *last = t->nr_refs ? &t->refs[t->nr_refs - 1] : NULL;
			if (last && !strncmp(last->name, name, nl) && !last->name[nl]) {
				oidcpy(&last->peeled, &oid);
				last->has_peeled = 1;
			}
			continue;
		}
		if (!valid_remote_refname(name)) {
			warning("ignoring ref with broken name %s", name);
			continue;
		}
		add_ref(t, name, &oid);
	}
	parse_symref_caps(t);
}

int transport_server_has(struct transport *t, const char *name, const char **value)
{
	size_t n = strlen(name);
	const char *p = t->caps.buf;
	char sep = t->version == 2 ? '\n' : ' ';
	while (*p) {
		const char *e = strchr(p, sep);
		if (!e)
			e = p + strlen(p);
		if ((size_t)(e - p) >= n && !strncmp(p, name, n) && (p + n == e || p[n] == '=')) {
			if (value)
				*value = p + n == e ? NULL : p + n + 1;
			return 1;
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

int transport_progress(const struct transport *t)
{
	return t->progress;
}

int transport_pack_meters(const struct transport *t, const char *pack_path, int keep)
{
	unsigned char hdr[12];
	long limit = 100;
	const char *v;
	int fd, ok;

	/* -q silences them over v2, where git fetches in-process; over v0
	 * git's fetch-pack runs under the helper, which does not pass -q on */
	if (!t->progress || (t->quiet && t->version == 2))
		return 0;
	if (keep && t->version == 2)
		return 1;
	if (config_get("fetch.unpacklimit", &v))
		limit = config_parse_int("fetch.unpacklimit", v);
	else if (config_get("transfer.unpacklimit", &v))
		limit = config_parse_int("transfer.unpacklimit", v);
	fd = open(pack_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr);
	close(fd);
	/* a pack git could not read the count of goes to index-pack */
	if (!ok || memcmp(hdr, "PACK", 4) || limit <= 0)
		return 1;
	return get_be32(hdr + 8) >= (uint32_t)limit;
}

struct transport *transport_open(const char *url, int quiet, int progress)
{
	struct transport *t = xcalloc(1, sizeof(*t));
	const char *scheme = url_helper_scheme(url);
	struct strbuf line = STRBUF_INIT;
	int stateless = 0;
	int r;

	if (!scheme) {
		const char *colon = strstr(url, "://");
		if (colon)
			die("Unable to find remote helper for '%.*s'", (int)(colon - url), url);
		if (is_dir(url))
			die("'%s': only http:// and https:// remotes are supported", url);
		fprintf(stderr, "fatal: '%s' does not appear to be a git repository\n", url);
		/* git's second line, also a "fatal:" */
		die("Could not read from remote repository.\n\n"
		    "Please make sure you have the correct access rights\n"
		    "and the repository exists.");
	}
	t->url = xstrdup(url);
	t->anon_url = url_strip_credentials(url);
	t->quiet = quiet;
	t->progress = progress >= 0 ? !!progress : !quiet && isatty(2);
	strbuf_init(&t->caps, 0);
	strbuf_init(&t->remote_line, 0);
	/* A helper that dies must not kill us with SIGPIPE before we report. */
	signal(SIGPIPE, SIG_IGN);
	if (spawn_helper(t, scheme) < 0)
		die("Unable to find remote helper for '%s'", scheme);
	t->rd = xmalloc(sizeof(*t->rd));
	pkt_reader_init(t->rd, t->helper.out);

	helper_write(t, "capabilities\n", 13);
	for (;;) {
		helper_line(t, &line);
		if (!line.len)
			break;
		if (!strcmp(line.buf, "stateless-connect"))
			stateless = 1;
	}
	if (!stateless)
		die("remote helper for '%s' does not support stateless-connect", scheme);
	{
		char *opts = xstrfmt("option progress %s\n", t->progress ? "true" : "false");
		helper_write(t, opts, strlen(opts));
		helper_line(t, &line);
		free(opts);
	}
	helper_write(t, "stateless-connect git-upload-pack\n", 34);
	helper_line(t, &line);
	if (line.len)
		die("remote helper for '%s' cannot connect to git-upload-pack", scheme);

	r = read_pkt(t);
	if (r == PKT_DATA && !strcmp(t->rd->line, "version 2")) {
		t->version = 2;
		while ((r = read_pkt(t)) == PKT_DATA) {
			strbuf_add(&t->caps, t->rd->line, t->rd->len);
			strbuf_addch(&t->caps, '\n');
		}
		if (r != PKT_FLUSH)
			die("protocol error: expected flush after capability advertisement");
	} else if (r == PKT_FLUSH) {
		t->version = 0;  /* v0 server with nothing to advertise */
	} else if (r == PKT_DATA) {
		t->version = 0;
		read_v0_advert(t);
	} else {
		die("protocol error: unexpected packet from the server");
	}
	strbuf_release(&line);
	return t;
}

static void add_v2_common(struct transport *t, struct strbuf *req, const char *command)
{
	pkt_addf(req, "command=%s\n", command);
	if (transport_server_has(t, "agent", NULL))
		pkt_addf(req, "agent=mini-git/%s\n", MINI_GIT_VERSION);
	if (transport_server_has(t, "object-format", NULL))
		pkt_addf(req, "object-format=sha1\n");
	pkt_add_delim(req);
}

/* The helper ends every response with a response-end packet. */
static void expect_response_end(struct transport *t)
{
	int r = read_pkt(t);
	if (r != PKT_RESPONSE_END)
		die("protocol error: expected response end packet");
}

/* "<oid> <name>[ symref-target:<t>][ peeled:<oid>]" or
 * "unborn <name>[ symref-target:<t>]" */
static void parse_ls_refs_line(struct transport *t, char *line)
{
	struct object_id oid;
	const char *p;
	char *name, *attr;
	int unborn = 0;

	if (skip_prefix(line, "unborn ", &p)) {
		unborn = 1;
		oidclr(&oid);
	} else if (parse_oid_hex(line, &oid, &p) || *p++ != ' ') {
		die("invalid ls-refs response: %s", line);
	}
	name = (char *)p;
	attr = strchr(name, ' ');
	if (attr)
		*attr++ = 0;
	if (!valid_remote_refname(name)) {
		warning("ignoring ref with broken name %s", name);
		return;
	}
	add_ref(t, name, unborn ? NULL : &oid);
	t->refs[t->nr_refs - 1].unborn = unborn;
	while (attr) {
		char *next = strchr(attr, ' ');
		if (next)
			*next++ = 0;
		if (skip_prefix(attr, "symref-target:", &p)) {
			if (check_refname_format(p, REFNAME_ALLOW_ONELEVEL))
				die("invalid ls-refs response: %s", line);
			free(t->refs[t->nr_refs - 1].symref);   /* the last one counts */
			t->refs[t->nr_refs - 1].symref = xstrdup(p);
		} else if (skip_prefix(attr, "peeled:", &p)) {
			if (get_oid_hex(p, &t->refs[t->nr_refs - 1].peeled) || p[HEX_SZ])
				die("invalid ls-refs response: %s", line);
			t->refs[t->nr_refs - 1].has_peeled = 1;
		}
		attr = next;
	}
}

void transport_list_refs(struct transport *t, const char **prefixes, size_t nr_prefixes)
{
	struct strbuf req = STRBUF_INIT;
	int r;

	if (t->version != 2)
		return;
	add_v2_common(t, &req, "ls-refs");
	pkt_addf(&req, "peel\n");
	pkt_addf(&req, "symrefs\n");
	{
		const char *v;
		if (transport_server_has(t, "ls-refs", &v) && v && strstr(v, "unborn"))
			pkt_addf(&req, "unborn\n");
	}
	for (size_t i = 0; i < nr_prefixes; i++)
		pkt_addf(&req, "ref-prefix %s\n", prefixes[i]);
	pkt_add_flush(&req);
	helper_write(t, req.buf, req.len);
	strbuf_release(&req);
	while ((r = read_pkt(t)) == PKT_DATA)
		parse_ls_refs_line(t, t->rd->line);
	if (r != PKT_FLUSH)
		die("expected flush after ref listing");
	expect_response_end(t);
}

static void write_all_or_die(int fd, const void *p, size_t n)
{
	if (write_in_full(fd, p, n) < 0)
		die_errno("unable to write pack");
}

/* Band 2 text: shown as "remote: <line>"; kept line-aligned across
 * packets so a message split in two is still one line. */
/* The first "\r" or "\n" in [p, end): nl is where memchr found "\n". */
static const char *first_break(const char *p, const char *end, const char *nl)
{
	const char *cr = memchr(p, '\r', (nl ? nl : end) - p);
	return cr ? cr : nl;
}

/*
 * Band 2: the server's messages, each line shown as "remote: <text>" as
 * git shows it: a line that is not empty ends with a clear-to-end-of-line
 * (ANSI on a terminal, eight spaces otherwise) before its "\r" or "\n",
 * and a line cut across packets waits in *part for its end.
 */
static void show_remote_progress(const char *p, size_t n, struct strbuf *part)
{
	static const char *suffix;
	const char *end = p + n, *brk;
	struct strbuf out = STRBUF_INIT;

	if (!suffix) {
		const char *term = getenv("TERM");
		suffix = isatty(2) && term && strcmp(term, "dumb") ? "\033[K" : "        ";
	}
	while (p < end && (brk = memchr(p, '\n', end - p), brk = first_break(p, end, brk))) {
		size_t len = brk - p;
		if (part->len && !len)
			strbuf_addstr(part, suffix);
		if (!part->len)
			strbuf_addstr(part, "remote: ");
		if (len) {
			strbuf_add(part, p, len);
			strbuf_addstr(part, suffix);
		}
		strbuf_addch(part, *brk);
		strbuf_addbuf(&out, part);
		strbuf_reset(part);
		p = brk + 1;
	}
	if (p < end) {
		if (!part->len)
			strbuf_addstr(part, "remote: ");
		strbuf_add(part, p, end - p);
	}
	fwrite(out.buf, 1, out.len, stderr);
	strbuf_release(&out);
}

/* Side-band-64k: band 1 pack data, 2 progress, 3 fatal error. */
static uint64_t read_sideband_pack(struct transport *t, int pack_fd)
{
	uint64_t total = 0;
	struct strbuf *part = &t->remote_line;
	t->rd->chomp = 0;
	for (;;) {
		int r = read_pkt(t);
		const unsigned char *p = (const unsigned char *)t->rd->line;
		size_t n = t->rd->len;
		if (r == PKT_FLUSH)
			break;
		if (r != PKT_DATA || !n)
			die("protocol error: bad band");
		switch (p[0]) {
		case 1:
			write_all_or_die(pack_fd, p + 1, n - 1);
			total += n - 1;
			break;
		case 2:
			show_remote_progress((const char *)p + 1, n - 1, part);
			break;
		case 3: {
			size_t len = n - 1;
			while (len && (p[len] == '\n'))
				len--;
			die("remote error: %.*s", (int)len, (const char *)p + 1);
		}
		default:
			die("protocol error: bad band #%d", p[0]);
		}
	}
	/* a last line without its end, as git ends it */
	if (part->len) {
		strbuf_addch(part, '\n');
		fwrite(part->buf, 1, part->len, stderr);
	}
	strbuf_release(part);
	t->rd->chomp = 1;
	return total;
}

uint64_t transport_fetch_pack(struct transport *t, const struct object_id *wants, size_t nr_wants,
			      const struct object_id *haves, size_t nr_haves, int include_tag,
			      int pack_fd)
{
	struct strbuf req = STRBUF_INIT;
	uint64_t total = 0;
	int r;

	if (!nr_wants)
		return 0;
	if (t->version == 2) {
		add_v2_common(t, &req, "fetch");
		pkt_addf(&req, "ofs-delta\n");
		/* with haves, deltas against what we have (index-pack --fix-thin) */
		if (nr_haves)
			pkt_addf(&req, "thin-pack\n");
		if (!t->progress)
			pkt_addf(&req, "no-progress\n");
		if (include_tag)
			pkt_addf(&req, "include-tag\n");
		for (size_t i = 0; i < nr_wants; i++)
			pkt_addf(&req, "want %s\n", oid_to_hex(&wants[i]));
		for (size_t i = 0; i < nr_haves; i++)
			pkt_addf(&req, "have %s\n", oid_to_hex(&haves[i]));
		pkt_addf(&req, "done\n");
		pkt_add_flush(&req);
	} else {
		struct strbuf caps = STRBUF_INIT;
		if (!transport_server_has(t, "side-band-64k", NULL))
			die("server does not support side-band-64k");
		strbuf_addstr(&caps, " side-band-64k");
		if (nr_haves && transport_server_has(t, "thin-pack", NULL))
			strbuf_addstr(&caps, " thin-pack");
		if (transport_server_has(t, "ofs-delta", NULL))
			strbuf_addstr(&caps, " ofs-delta");
		if (!t->progress && transport_server_has(t, "no-progress", NULL))
			strbuf_addstr(&caps, " no-progress");
		if (include_tag && transport_server_has(t, "include-tag", NULL))
			strbuf_addstr(&caps, " include-tag");
		if (transport_server_has(t, "agent", NULL))
			strbuf_addf(&caps, " agent=mini-git/%s", MINI_GIT_VERSION);
		for (size_t i = 0; i < nr_wants; i++)
			pkt_addf(&req, "want %s%s\n", oid_to_hex(&wants[i]), i ? "" : caps.buf);
		pkt_add_flush(&req);
		for (size_t i = 0; i < nr_haves; i++)
			pkt_addf(&req, "have %s\n", oid_to_hex(&haves[i]));
		pkt_addf(&req, "done\n");
		strbuf_release(&caps);
	}
	helper_write(t, req.buf, req.len);
	strbuf_release(&req);

	/* Acknowledgments (v0 ACK/NAK lines, v2 sections) until the pack.
	 * No newline is dropped: a side-band packet may end in one. */
	t->rd->chomp = 0;
	for (;;) {
		r = read_pkt(t);
		if (r == PKT_DELIM)
			continue;
		if (r != PKT_DATA)
			die("protocol error: no pack in the server's response");
		const char *l = t->rd->line;
		if (t->version == 2 && !strcmp(l, "packfile\n"))
			break;
		if (t->version == 0 && (unsigned char)l[0] <= 3 && t->rd->len) {
			/* the first side-band packet: handle it, then the rest */
			const unsigned char *p = (const unsigned char *)l;
			if (p[0] == 1) {
				write_all_or_die(pack_fd, p + 1, t->rd->len - 1);
				total += t->rd->len - 1;
			} else if (p[0] == 2) {
				show_remote_progress(l + 1, t->rd->len - 1, &t->remote_line);
			} else if (p[0] == 3) {
				die("remote error: %s", l + 1);
			} else {
				die("protocol error: bad band #%d", p[0]);
			}
			break;
		}
		if (t->version == 0 && (!strcmp(l, "NAK\n") || starts_with(l, "ACK ")))
			continue;
		if (t->version == 2)
			continue;  /* acknowledgments section lines */
		die("protocol error: unexpected '%s'", l);
	}
	total += read_sideband_pack(t, pack_fd);
	expect_response_end(t);
	return total;
}

int transport_close(struct transport *t)
{
	int code;
	if (t->to_helper > 0) {
		close(t->to_helper);
		t->to_helper = -1;
		t->helper.in = 0;
	}
	code = finish_command(&t->helper);
	free((char *)t->helper.argv[0]);
	free(t->helper.argv);
	transport_free(t);
	return code;
}

void transport_free(struct transport *t)
{
	for (size_t i = 0; i < t->nr_refs; i++) {
		free(t->refs[i].name);
		free(t->refs[i].symref);
	}
	free(t->refs);
	free(t->rd);
	strbuf_release(&t->caps);
	strbuf_release(&t->remote_line);
	free(t->url);
	free(t->anon_url);
	free(t);
}
