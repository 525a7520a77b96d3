/* ref-object.c: what ref-filter needs from objects. Each item's object is
 * read at most once, and only when an atom, sort key or filter asks. */
#include "refs/ref-object.h"
#include "odb/object.h"
#include "odb/commit-walk.h"
#include "lib/date.h"
#include "lib/trailer.h"
#include "odb/odb.h"
#include <ctype.h>

/*
 * Objects read for listings, by id: refs that name the same object (a
 * branch and HEAD's branch, tags on one commit) share one read and one
 * buffer. Items borrow the buffers; the table goes when the last item
 * holding one is freed (ref_object_unref).
 */
struct shared_obj {
	struct object_id oid;
	int type;
	size_t size;
	char *buf;
};
static struct shared_obj **table;
static size_t table_size, table_nr, table_refs;

static size_t slot_of(const struct object_id *oid, size_t size)
{
	size_t h;
	memcpy(&h, oid->hash, sizeof(h));
	return h & (size - 1);
}

static void table_insert(struct shared_obj *o)
{
	size_t i = slot_of(&o->oid, table_size);
	while (table[i])
		i = (i + 1) & (table_size - 1);
	table[i] = o;
}

static struct shared_obj *shared_read(const struct object_id *oid)
{
	struct shared_obj *o;
	enum object_type t;

	if (table_size) {
		for (size_t i = slot_of(oid, table_size); table[i]; i = (i + 1) & (table_size - 1))
			if (oideq(&table[i]->oid, oid)) {
				o = table[i];
				goto found;
			}
	}
	o = xcalloc(1, sizeof(*o));
	o->buf = odb_read_object(oid, &t, &o->size);
	if (!o->buf) {
		free(o);
		return NULL;
	}
	oidcpy(&o->oid, oid);
	o->type = t;
	if (2 * (table_nr + 1) > table_size) {
		struct shared_obj **old = table;
		size_t old_size = table_size;
		table_size = table_size ? 2 * table_size : 64;
		table = xcalloc(table_size, sizeof(*table));
		for (size_t i = 0; i < old_size; i++)
			if (old[i])
				table_insert(old[i]);
		free(old);
	}
	table_insert(o);
	table_nr++;
found:
	table_refs++;
	return o;
}

void ref_object_unref(struct ref_item *it)
{
	table_refs -= !!it->obj + !!it->pobj;
	it->obj = it->pobj = NULL;
	if (table_refs || !table_size)
		return;
	for (size_t i = 0; i < table_size; i++)
		if (table[i]) {
			free(table[i]->buf);
			free(table[i]);
		}
	free(table);
	table = NULL;
	table_size = table_nr = 0;
}

static int load_gently(struct ref_item *it)
{
	if (!it->obj_state) {
		it->obj = shared_read(&it->oid);
		it->obj_state = it->obj ? 1 : -1;
	}
	return it->obj_state;
}

static int load(struct ref_item *it)
{
	if (load_gently(it) < 0)
		die("missing object %s for %s", oid_to_hex(&it->oid), ref_item_name(it));
	return it->obj_state;
}

static int load_peeled(struct ref_item *it);

void ref_object_load(struct ref_item *it, int deref)
{
	load(it);
	if (deref)
		load_peeled(it);
}

int ref_object_type(const struct ref_item *it, int deref)
{
	const struct shared_obj *o = deref ? it->pobj : it->obj;
	return o ? o->type : OBJ_NONE;
}

/* The object a tag points at (one level, as git's "*" atoms show it);
 * 0 if it->oid is not a tag. */
static int load_peeled(struct ref_item *it)
{
	struct tag_info ti;
	if (it->peel_state == 2)
		return !is_null_oid(&it->peeled);
	it->peel_state = 2;
	oidclr(&it->peeled);
	if (load(it) < 0 || it->obj->type != OBJ_TAG)
		return 0;
	if (parse_tag_buffer(it->obj->buf, it->obj->size, &ti) < 0)
		die("parse_object_buffer failed on %s for %s", oid_to_hex(&it->oid), ref_item_name(it));
	oidcpy(&it->peeled, &ti.object);
	it->pobj = shared_read(&it->peeled);
	if (!it->pobj)
		die("missing object %s for %s", oid_to_hex(&it->peeled), ref_item_name(it));
	return 1;
}

void format_date(struct strbuf *out, uint64_t t, int tz, const char *mode)
{
	struct date_mode m;

	date_mode_parse(mode ? mode : "default", &m);
	date_format(out, t, tz, &m);
}

/* The header line "key ..." of a commit or tag buffer. */
static int find_header(const char *buf, size_t len, const char *key, const char **val, size_t *vlen)
{
	const char *p = buf, *end = buf + len;
	size_t klen = strlen(key);
	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > klen && !memcmp(p, key, klen) && p[klen] == ' ') {
			*val = p + klen + 1;
			*vlen = nl - p - klen - 1;
			return 1;
		}
		p = nl + 1;
	}
	return 0;
}

static const char *message_of(const char *buf, size_t len, size_t *mlen)
{
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		if (!nl)
			break;
		if (nl == p) {
			*mlen = end - nl - 1;
			return nl + 1;
		}
		p = nl + 1;
	}
	*mlen = 0;
	return end;
}

static void ident_value(struct strbuf *out, const char *line, size_t len, const char *part,
			const char *mod)
{
	struct ident id;
	const char *date_fmt = mod;
	/* git knows no modifier of the name or the whole line, and then
	 * shows nothing */
	if (mod && strcmp(part, "email") && strcmp(part, "date"))
		return;
	if (parse_ident(line, len, &id) < 0)
		return;
	if (!strcmp(part, "name"))
		strbuf_add(out, id.name, id.name_len);
	else if (!strcmp(part, "email")) {
		size_t n = id.email_len;
		if (mod && !strcmp(mod, "localpart")) {
			const char *at = memchr(id.email, '@', id.email_len);
			if (at)
				n = (size_t)(at - id.email);
		}
		if (!mod)
			strbuf_addch(out, '<');
		strbuf_add(out, id.email, n);
		if (!mod)
			strbuf_addch(out, '>');
	} else if (!strcmp(part, "date")) {
		int tz = 0;
		struct date_mode m;
		/* the format is checked first, even for a date left empty */
		date_mode_parse(date_fmt ? date_fmt : "default", &m);
		/* a time past what git can hold (it parses to the maximum)
		 * shows as nothing */
		if (id.date_overflow || id.date == UINT64_MAX)
			return;
		if (id.tz && id.tz_len >= 5)
			tz = atoi(id.tz);
		date_format(out, id.date, tz, &m);
	} else
		strbuf_add(out, line, len);
}

/* The first n lines of a message, the later ones indented by four
 * spaces, as git's %(contents:lines=n). */
static void message_lines(struct strbuf *out, const char *p, size_t len, unsigned long n)
{
	const char *end = p + len;
	for (unsigned long i = 0; i < n && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (i)
			strbuf_addstr(out, "\n    ");
		strbuf_add(out, p, (size_t)((nl ? nl : end) - p));
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* Where a signature starts in a message (its end if there is none). */
static const char *signature_start(const char *msg, size_t len)
{
	static const char *const starts[] = { "-----BEGIN PGP SIGNATURE-----",
		"-----BEGIN PGP MESSAGE-----", "-----BEGIN SIGNED MESSAGE-----",
		"-----BEGIN SSH SIGNATURE-----" };
	const char *p = msg, *end = msg + len, *found = end;
	/* the last line that starts one, as git finds it */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		for (size_t i = 0; i < ARRAY_SIZE(starts); i++)
			if ((size_t)(end - p) >= strlen(starts[i]) && !memcmp(p, starts[i], strlen(starts[i])))
				found = p;
		p = nl ? nl + 1 : end;
	}
	return found;
}

/* git's sanitized subject: runs of anything but letters, digits, '.'
 * and '_' become one '-', repeated dots one, none at the end. */
static void sanitize_subject(struct strbuf *out, const char *p, size_t len)
{
	size_t start = out->len;
	int space = 2;
	for (size_t i = 0; i < len; i++) {
		char c = p[i] == '\n' ? ' ' : p[i];
		if (isalnum((unsigned char)c) || c == '.' || c == '_') {
			if (space == 1)
				strbuf_addch(out, '-');
			space = 0;
			strbuf_addch(out, c);
			if (c == '.')
				while (i + 1 < len && p[i + 1] == '.')
					i++;
		} else {
			space |= 1;
		}
	}
	while (out->len > start && (out->buf[out->len - 1] == '.' || out->buf[out->len - 1] == '-'))
		strbuf_setlen(out, out->len - 1);
}

/* The ref's object, or with deref the one its tags peel to: -1 if there
 * is none to peel to. */
static int object_of(struct ref_item *it, int deref, const char **buf, size_t *len, int *type,
		     const struct object_id **oid)
{
	if (deref) {
		if (!load_peeled(it))
			return -1;
		*buf = it->pobj->buf;
		*len = it->pobj->size;
		*type = it->pobj->type;
		if (oid)
			*oid = &it->peeled;
		return 0;
	}
	load(it);
	*buf = it->obj->buf;
	*len = it->obj->size;
	*type = it->obj->type;
	if (oid)
		*oid = &it->oid;
	return 0;
}

void ref_object_trailers(struct strbuf *out, struct ref_item *it, int deref,
			 const struct trailer_opts *o)
{
	const char *buf, *msg;
	size_t len, mlen;
	int type;

	if (object_of(it, deref, &buf, &len, &type, NULL) < 0 ||
	    (type != OBJ_COMMIT && type != OBJ_TAG))
		return;
	len = strnlen(buf, len);   /* a C string, as git reads it */
	/* from the subject on, signature included, as git reads it */
	msg = message_of(buf, len, &mlen);
	while (mlen && *msg == '\n') {
		msg++;
		mlen--;
	}
	trailer_format(out, msg, mlen, o);
}

void ref_object_value(struct strbuf *out, struct ref_item *it, const char *atom,
		      int abbrev, int deref, const char *mod)
{
	const char *buf, *v, *who = NULL, *part = NULL;
	size_t len, vlen;
	int type;
	const struct object_id *oid;

	if (object_of(it, deref, &buf, &len, &type, &oid) < 0)
		return;
	if (!strcmp(atom, "objectname")) {
		if (abbrev)
			ref_object_abbrev(out, oid, abbrev < 0 ? 0 : abbrev);
		else
			strbuf_addstr(out, oid_to_hex(oid));
		return;
	}
	if (!strcmp(atom, "objecttype")) {
		strbuf_addstr(out, type_name(type));
		return;
	}
	if (!strcmp(atom, "objectsize") || !strcmp(atom, "deltabase")) {
		uint64_t disk;
		struct object_id base;
		if (!strcmp(atom, "objectsize") && !mod) {
			strbuf_addf(out, "%zu", len);
			return;
		}
		if (odb_disk_info(oid, &disk, &base) < 0)
			die("missing object %s for %s", oid_to_hex(oid), ref_item_name(it));
		if (!strcmp(atom, "objectsize"))
			strbuf_addf(out, "%llu", (unsigned long long)disk);
		else
			strbuf_addstr(out, oid_to_hex(&base));
		return;
	}
	if (!strcmp(atom, "raw")) {
		if (mod)
			strbuf_addf(out, "%zu", len);
		else
			strbuf_add(out, buf, len);
		return;
	}
	if (type != OBJ_COMMIT && type != OBJ_TAG)
		return;
	/* git reads headers and messages as C strings */
	len = strnlen(buf, len);
	if (!strcmp(atom, "numparent") || !strcmp(atom, "creator")) {
		if (!strcmp(atom, "creator")) {
			if (find_header(buf, len, type == OBJ_TAG ? "tagger" : "committer", &v, &vlen))
				strbuf_add(out, v, vlen);
			return;
		}
		if (type == OBJ_COMMIT) {
			unsigned n = 0;
			for (const char *p = buf, *end = buf + len; p < end && *p != '\n';) {
				const char *nl = memchr(p, '\n', (size_t)(end - p));
				if (!nl)
					break;
				n += nl - p == 47 && !memcmp(p, "parent ", 7);
				p = nl + 1;
			}
			strbuf_addf(out, "%u", n);
		}
		return;
	}
	if (!strcmp(atom, "subject") || !strcmp(atom, "body") || !strcmp(atom, "contents") ||
	    !strcmp(atom, "contents:body")) {
		size_t mlen;
		const char *msg = message_of(buf, len, &mlen), *end = msg + mlen;
		const char *sub = msg, *eol, *body, *sig = signature_start(msg, mlen);
		size_t sublen;
		/* git's split: the subject runs to the first blank line or the
		 * signature, the body from there (signature included; without
		 * it for contents:body and lines) */
		while (sub < end && *sub == '\n')
			sub++;
		eol = memmem(sub, (size_t)(end - sub), "\n\n", 2);
		if (!eol)
			eol = memmem(sub, (size_t)(end - sub), "\r\n\r\n", 4);
		if (!eol || eol > sig)
			eol = sig;
		sublen = (size_t)(eol - sub);
		while (sublen && (sub[sublen - 1] == '\n' || sub[sublen - 1] == '\r'))
			sublen--;
		body = eol;
		while (body < end && (*body == '\n' || *body == '\r'))
			body++;
		if (!strcmp(atom, "subject") && mod) {
			sanitize_subject(out, sub, sublen);
		} else if (!strcmp(atom, "subject")) {
			for (size_t i = 0; i < sublen; i++) {
				if (sub[i] == '\r' && i + 1 < sublen && sub[i + 1] == '\n')
					continue;
				strbuf_addch(out, sub[i] == '\n' ? ' ' : sub[i]);
			}
		} else if (!strcmp(atom, "body")) {
			strbuf_add(out, body, (size_t)(end - body));
		} else if (!strcmp(atom, "contents:body")) {
			if (sig > body)
				strbuf_add(out, body, (size_t)(sig - body));
		} else if (mod && !strcmp(mod, "signature")) {
			strbuf_add(out, sig, (size_t)(end - sig));
		} else if (mod && !strcmp(mod, "size")) {
			strbuf_addf(out, "%zu", (size_t)(end - sub));
		} else if (mod) {
			const char *cend = sig > body ? sig : body;
			message_lines(out, sub, (size_t)(cend - sub), strtoul(mod + 6, NULL, 10));
		} else {
			strbuf_add(out, sub, (size_t)(end - sub));
		}
		return;
	}
	if (skip_prefix(atom, "committer", &part))
		who = "committer";
	else if (skip_prefix(atom, "author", &part))
		who = "author";
	else if (skip_prefix(atom, "tagger", &part))
		who = "tagger";
	else if (!strcmp(atom, "creatordate")) {
		who = type == OBJ_TAG ? "tagger" : "committer";
		part = "date";
	}
	if (who) {
		if (find_header(buf, len, who, &v, &vlen))
			ident_value(out, v, vlen, *part ? part : "", mod);
		return;
	}
	if (!strcmp(atom, "parent") || !strcmp(atom, "tree")) {
		const char *p = buf, *end = buf + len;
		size_t klen = strlen(atom);
		int first = 1;
		while (p < end && *p != '\n') {
			const char *nl = memchr(p, '\n', end - p);
			struct object_id id;
			if (!nl)
				break;
			if ((size_t)(nl - p) == klen + 41 && !memcmp(p, atom, klen) && p[klen] == ' ') {
				if (!first)
					strbuf_addch(out, ' ');
				if (abbrev && !get_oid_hex(p + klen + 1, &id))
					ref_object_abbrev(out, &id, abbrev < 0 ? 0 : abbrev);
				else
					strbuf_add(out, p + klen + 1, 40);
				first = 0;
			}
			p = nl + 1;
		}
		return;
	}
	if (find_header(buf, len, atom, &v, &vlen))
		strbuf_add(out, v, vlen);
}

void ref_object_abbrev(struct strbuf *out, const struct object_id *oid, int len)
{
	strbuf_addstr(out, odb_abbrev(oid, len));
}

static int in_list(const struct object_id *list, size_t nr, const struct object_id *oid)
{
	for (size_t i = 0; i < nr; i++)
		if (oideq(&list[i], oid))
			return 1;
	return 0;
}

int ref_object_points_at(struct ref_filter *f, const struct ref_entry *e)
{
	enum object_type t;
	size_t size;
	char *buf;
	struct tag_info ti;
	int r = 0;
	if (in_list(f->points_at, f->points_at_nr, &e->oid))
		return 1;
	if (odb_read_header(&e->oid, &t, &size) < 0)
		die("malformed object at '%s'", e->name);
	if (t != OBJ_TAG)
		return 0;
	buf = odb_read_object(&e->oid, &t, &size);
	if (!buf)
		die("malformed object at '%s'", e->name);
	if (!parse_tag_buffer(buf, size, &ti))
		r = in_list(f->points_at, f->points_at_nr, &ti.object);
	free(buf);
	return r;
}

/* Follow tags to a commit without a word when it is something else. */
static int peel_to_commit_quiet(const struct object_id *oid, struct object_id *out)
{
	struct object_id cur = *oid;
	for (int depth = 0; depth < 64; depth++) {
		enum object_type t;
		size_t size;
		char *buf;
		struct tag_info ti;
		int r;
		if (odb_read_header(&cur, &t, &size) < 0)
			return -1;
		if (t == OBJ_COMMIT) {
			oidcpy(out, &cur);
			return 0;
		}
		if (t != OBJ_TAG)
			return -1;
		buf = odb_read_object(&cur, &t, &size);
		if (!buf)
			return -1;
		r = parse_tag_buffer(buf, size, &ti);
		if (!r)
			oidcpy(&cur, &ti.object);
		free(buf);
		if (r)
			return -1;
	}
	return -1;
}

int ref_object_filter_commits(struct ref_array *a, struct ref_filter *f)
{
	struct object_id *tips;
	unsigned char *keep, *res;
	size_t n = a->nr, out = 0;
	if (f->verbose) {
		/* branch -v: git leaves out a ref whose object it cannot read;
		 * what is read here is what the listing prints from */
		for (size_t i = 0; i < n; i++) {
			if (load_gently(a->items[i]) > 0) {
				a->items[out++] = a->items[i];
				continue;
			}
			/* git's parse_object asks whether the object exists
			 * before it reads it: on a damaged pack, both attempts
			 * report (the same lines, so the order does not matter) */
			if (a->items[i]->obj_state < 0)
				odb_has_object(&a->items[i]->oid);
			ref_item_free(a->items[i]);
		}
		a->nr = n = out;
		out = 0;
	}
	if (!f->with_commit_nr && !f->no_commit_nr && !f->merged_nr && !f->no_merged_nr)
		return 0;
	tips = xcalloc(n ? n : 1, sizeof(*tips));
	keep = xmalloc(n ? n : 1);
	res = xmalloc(n ? n : 1);
	/* a ref at no commit is left out before any walk, as git does */
	for (size_t i = 0; i < n; i++) {
		if (peel_to_commit_quiet(&a->items[i]->oid, &tips[out])) {
			ref_item_free(a->items[i]);
			continue;
		}
		a->items[out++] = a->items[i];
	}
	a->nr = n = out;
	out = 0;
	memset(keep, 1, n);
	if (f->with_commit_nr) {
		unsigned char *any = xcalloc(n ? n : 1, 1);
		for (size_t k = 0; k < f->with_commit_nr; k++) {
			commits_containing(&f->with_commit[k], tips, n, res);
			for (size_t i = 0; i < n; i++)
				any[i] |= res[i];
		}
		for (size_t i = 0; i < n; i++)
			keep[i] &= any[i];
		free(any);
	}
	for (size_t k = 0; k < f->no_commit_nr; k++) {
		commits_containing(&f->no_commit[k], tips, n, res);
		for (size_t i = 0; i < n; i++)
			if (res[i])
				keep[i] = 0;
	}
	if (f->merged_nr) {
		unsigned char *any = xcalloc(n ? n : 1, 1);
		for (size_t k = 0; k < f->merged_nr; k++) {
			commits_merged_into(&f->merged[k], tips, n, res);
			for (size_t i = 0; i < n; i++)
				any[i] |= res[i];
		}
		for (size_t i = 0; i < n; i++)
			keep[i] &= any[i];
		free(any);
	}
	for (size_t k = 0; k < f->no_merged_nr; k++) {
		commits_merged_into(&f->no_merged[k], tips, n, res);
		for (size_t i = 0; i < n; i++)
			if (res[i])
				keep[i] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (keep[i])
			a->items[out++] = a->items[i];
		else
			ref_item_free(a->items[i]);
	}
	a->nr = out;
	free(tips);
	free(keep);
	free(res);
	return 0;
}

int ref_object_ahead_behind(const struct object_id *a, const struct object_id *b,
			    size_t *ahead, size_t *behind)
{
	return commit_ahead_behind(a, b, ahead, behind);
}
