/* reflog.c: reading reflogs (logs/<ref>): one line per update,
 * "<old> <new> <name> <email> <time> <tz>\t<message>\n". */
#include "refs/refs-internal.h"
#include "lib/repo.h"
#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>

void reflog_path(struct strbuf *sb, const char *name)
{
	if (!strchr(name, '/') || starts_with(name, "refs/bisect/") ||
	    starts_with(name, "refs/worktree/") || starts_with(name, "refs/rewritten/"))
		git_path_buf(sb, "logs/%s", name);
	else
		common_path_buf(sb, "logs/%s", name);
}

int refs_reflog_exists(const char *name)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int r;
	reflog_path(&path, name);
	r = !stat(path.buf, &st) && S_ISREG(st.st_mode);
	strbuf_release(&path);
	return r;
}

/* One line with its newline; 0 and the callback's answer in *ret, or -1
 * if malformed, as git skips: one not ended by a newline (a write cut
 * short), a time of 0, a zone that is not a sign and four digits. */
static int parse_line(const char *p, size_t len, reflog_cb cb, void *data, int *ret)
{
	struct object_id o, n;
	const char *end = p + len - 1, *gt, *tab, *q;
	char *ident, *msg;
	uint64_t when;
	int tz;
	if (len < 2 * HEX_SZ + 3 || *end != '\n' || get_oid_hex(p, &o) || p[HEX_SZ] != ' ' ||
	    get_oid_hex(p + HEX_SZ + 1, &n) || p[2 * HEX_SZ + 1] != ' ')
		return -1;
	q = p + 2 * HEX_SZ + 2;
	gt = memchr(q, '>', end - q);
	if (!gt || gt + 1 >= end || gt[1] != ' ')
		return -1;
	ident = xstrndup(q, gt + 1 - q);
	q = gt + 2;
	when = strtoull(q, (char **)&q, 10);
	if (!when || end - q < 6 || *q != ' ' || (q[1] != '+' && q[1] != '-') ||
	    strspn(q + 2, "0123456789") < 4) {
		free(ident);
		return -1;
	}
	tz = strtol(q + 1, NULL, 10);
	q += 6;
	tab = q < end && *q == '\t' ? q + 1 : q;
	msg = xstrndup(tab, end - tab);
	*ret = cb(&o, &n, ident, when, tz, msg, data);
	free(ident);
	free(msg);
	return 0;
}

int refs_for_each_reflog_entry(const char *name, reflog_cb cb, void *data)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *p, *end;
	int ret = 0;
	reflog_path(&path, name);
	if (strbuf_read_file(&buf, path.buf, 0) < 0) {
		strbuf_release(&path);
		strbuf_release(&buf);
		return -1;
	}
	p = buf.buf;
	end = buf.buf + buf.len;
	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
		parse_line(p, n, cb, data, &ret);
		p += n;
	}
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

struct each_log {
	ref_cb cb;
	void *data;
};

static int scan_logs(struct strbuf *rel, struct each_log *el)
{
	struct strbuf path = STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	size_t base = rel->len;
	int ret = 0;
	common_path_buf(&path, "logs/%s", rel->buf);
	d = opendir(path.buf);
	strbuf_release(&path);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		strbuf_setlen(rel, base);
		strbuf_addstr(rel, de->d_name);
		common_path_buf(&path, "logs/%s", rel->buf);
		if (stat(path.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			strbuf_addch(rel, '/');
			ret = scan_logs(rel, el);
		} else {
			struct ref_entry e = { .name = rel->buf };
			refs_read(rel->buf, &e.oid);
			ret = el->cb(&e, el->data);
		}
	}
	strbuf_release(&path);
	closedir(d);
	strbuf_setlen(rel, base);
	return ret;
}

int refs_for_each_reflog(ref_cb cb, void *data)
{
	struct strbuf rel = STRBUF_INIT;
	struct each_log el = { cb, data };
	int ret;
	strbuf_addstr(&rel, "refs/");
	ret = scan_logs(&rel, &el);
	strbuf_release(&rel);
	return ret;
}
