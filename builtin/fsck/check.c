/* check.c: git's fsck_obj() on an object read in full: parse, links,
 * syntax checks, and the --verbose, --root and --tags lines. */
#include "builtin/fsck/fsck.h"
#include <pthread.h>

uint16_t fsck_current_stage;
int fsck_verified_before;  /* some object has a stage below fsck_current_stage */
int fsck_sequential_pass;  /* loose objects: one at a time, in order */

static void report_cb(void *data, const struct object_id *oid, enum object_type type,
		      enum fsck_msg_type sev, const char *msg)
{
	struct msgs *m = data;
	char hex[HEX_SZ + 1];
	msg_add(m, 1, "%s in %s %s: %s", sev == FSCK_ERROR ? "error" : "warning",
		printable_type(type), oid_to_hex_r(hex, oid), msg);
}

/*
 * What git's parse_object_buffer() refuses: a commit without a well-formed
 * tree line or with bad parent lines, a tag without its object and type
 * headers. Returns the error line git prints, or NULL when it parses.
 */
int parse_refuses(enum object_type type, const char *buf, size_t len,
		  const struct object_id *oid, struct msgs *m)
{
	const char *p = buf, *end = buf + len;
	struct object_id x;

	if (type == OBJ_COMMIT) {
		if (len <= 5 + HEX_SZ + 1 || memcmp(p, "tree ", 5) || p[5 + HEX_SZ] != '\n') {
			msg_add(m, 1, "error: bogus commit object %s", thex(oid));
			return 1;
		}
		if (get_oid_hex(p + 5, &x)) {
			msg_add(m, 1, "error: bad tree pointer in commit %s", thex(oid));
			return 1;
		}
		p += 5 + HEX_SZ + 1;
		while (p + 7 + HEX_SZ < end && !memcmp(p, "parent ", 7)) {
			if (end <= p + 7 + HEX_SZ + 1 || get_oid_hex(p + 7, &x) || p[7 + HEX_SZ] != '\n') {
				msg_add(m, 1, "error: bad parents in commit %s", thex(oid));
				return 1;
			}
			p += 7 + HEX_SZ + 1;
		}
	} else if (type == OBJ_TAG) {
		const char *nl;
		if (len < HEX_SZ + 24 || memcmp(p, "object ", 7) || get_oid_hex(p + 7, &x) ||
		    p[7 + HEX_SZ] != '\n')
			return 1;
		p += 7 + HEX_SZ + 1;
		if (end - p < 5 || memcmp(p, "type ", 5))
			return 1;
		p += 5;
		nl = memchr(p, '\n', end - p);
		if (!nl || nl - p >= 10)
			return 1;
		if (type_from_string(p, nl - p) <= 0) {
			msg_add(m, 1, "error: unknown tag type '%.*s' in %s", (int)(nl - p), p,
				thex(oid));
			return 1;
		}
		p = nl + 1;
		if (!(p + 4 < end && !memcmp(p, "tag ", 4)))
			return 1;
		if (!memchr(p + 4, '\n', end - p - 4))
			return 1;
	}
	return 0;
}

/*
 * git looks linked objects up by the type the link gives them; one it has
 * already read with another type fails that lookup. Only objects verified
 * in an earlier stage (loose before packs, pack before pack) are judged,
 * since within a pack git's answer depends on its order of reading.
 * Returns 1 when the object does not parse because of it.
 */
static int link_type_mismatch(struct fobj *o, enum object_type type, struct msgs *m,
			      int *parse_failed)
{
	int bad_tree_links = 0;
	/* Nothing verified in an earlier stage: no link can be judged (and
	 * the loop would touch every link target in the table). */
	if (!fsck_sequential_pass && !fsck_verified_before)
		return 0;
	for (uint32_t i = 1; i <= o->links[0]; i++) {
		uint32_t l = o->links[i];
		struct fobj *t;
		uint16_t st;
		if (l & LINK_MISSING)
			continue;
		t = &fsck_objs[LINK_INDEX(l)];
		st = __atomic_load_n(&t->stage, __ATOMIC_ACQUIRE);
		if (st == NO_STAGE || (st >= fsck_current_stage && !fsck_sequential_pass) ||
		    t->type == LINK_TYPE(l))
			continue;
		msg_add(m, 1, "error: object %s is a %s, not a %s", thex(&t->oid),
			printable_type(t->type), printable_type(LINK_TYPE(l)));
		if (type == OBJ_TAG) {
			msg_add(m, 1, "error: bad tag pointer to %s in %s", thex(&t->oid),
				thex(&o->oid));
		} else if (type == OBJ_COMMIT) {
			msg_add(m, 1, i == 1 ? "error: bad tree pointer %s in commit %s" :
				"error: bad parent %s in commit %s", thex(&t->oid), thex(&o->oid));
		} else {
			bad_tree_links = 1;
			continue;
		}
		*parse_failed = 1;
		__atomic_fetch_and(&o->flags, (uint8_t)~SEEN, __ATOMIC_ACQ_REL);
		return 1;
	}
	if (bad_tree_links) {
		msg_add(m, 1, "error in tree %s: broken links", thex(&o->oid));
		__atomic_fetch_or(&fsck_errors_found, ERROR_OBJECT, __ATOMIC_RELAXED);
	}
	return 0;
}

/* Trees the walk cannot decode, and why (rare: a list under a lock). */
struct walk_bad {
	uint32_t idx;
	const char *why;
};
static struct walk_bad *walk_bad;
size_t fsck_nr_walk_bad;
static size_t alloc_walk_bad;
static pthread_mutex_t walk_bad_lock = PTHREAD_MUTEX_INITIALIZER;

static void walk_bad_add(struct fobj *o, const char *why)
{
	pthread_mutex_lock(&walk_bad_lock);
	if (!(o->flags & WALK_BAD)) {
		ALLOC_GROW(walk_bad, fsck_nr_walk_bad + 1, alloc_walk_bad);
		walk_bad[fsck_nr_walk_bad].idx = (uint32_t)(o - fsck_objs);
		walk_bad[fsck_nr_walk_bad].why = why;
		fsck_nr_walk_bad++;
		__atomic_fetch_or(&o->flags, WALK_BAD, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&walk_bad_lock);
}

/* git's connectivity walk decodes each reachable tree again. */
void walk_bad_say(const struct fobj *o)
{
	for (size_t i = 0; i < fsck_nr_walk_bad; i++)
		if (&fsck_objs[walk_bad[i].idx] == o) {
			error("%s", walk_bad[i].why);
			return;
		}
}

/* Does the tree decoder git uses in fsck_walk stop at the first entry?
 * Then git reports "broken links" before the syntax checks. */
static int tree_first_entry_bad(const char *buf, size_t len, const char **why)
{
	const char *s = buf;
	if (!len)
		return 0;
	if (len < RAW_SZ + 3 || buf[len - (RAW_SZ + 1)]) {
		*why = "too-short tree object";
		return 1;
	}
	if (*s == ' ') {
		*why = "malformed mode in tree entry";
		return 1;
	}
	while (*s != ' ') {
		if (*s < '0' || *s > '7') {
			*why = "malformed mode in tree entry";
			return 1;
		}
		s++;
	}
	if (!s[1]) {
		*why = "empty filename in tree entry";
		return 1;
	}
	return 0;
}

static void verbose_line(struct msgs *m, enum object_type type, const struct object_id *oid)
{
	char hex[HEX_SZ + 1];
	/* thex()'s rotating buffers are not the threads' to share. */
	msg_add(m, 1, "Checking %s %s", printable_type(type), oid_to_hex_r(hex, oid));
}

/*
 * git's fsck_obj() on a verified object: the walk (links), the syntax
 * checks, --root and --tags lines. Returns non-zero when the syntax check
 * found errors. The object's table entry gets its type and links.
 */
int check_obj(struct fobj *o, enum object_type type, const char *buf, size_t len,
	      struct msgs *m, int *parse_failed)
{
	const char *why = NULL, *why2 = NULL;
	int err, checked = 0;
	uint8_t old;

	*parse_failed = 0;
	if (parse_refuses(type, buf, len, &o->oid, m)) {
		*parse_failed = 1;
		__atomic_fetch_or(&o->flags, CREATED, __ATOMIC_RELAXED);
		return 0;
	}
	/* Every copy is checked, as git does (it clears SEEN before each);
	 * links are collected from the first. */
	old = __atomic_fetch_or(&o->flags, SEEN, __ATOMIC_ACQ_REL);
	if (!(old & SEEN)) {
		size_t mark = m->err.len;
		/* A blob links nowhere: one shared empty list (most objects). */
		static uint32_t no_links[1];
		if (type == OBJ_BLOB)
			o->links = no_links;
		else if (type == OBJ_TREE && (o->links = tree_links_checked(&o->oid, buf, len)))
			checked = 1;
		else
			o->links = collect_links(type, buf, len);
		if (link_type_mismatch(o, type, m, parse_failed)) {
			__atomic_fetch_or(&o->flags, CREATED, __ATOMIC_RELAXED);
			o->links = NULL;
			return 0;
		}
		if (fsck_verbose_objs) {
			/* git parses commits and tags before this line, trees
			 * after (their link errors come from its walk). */
			if (type == OBJ_TREE && m->err.len > mark) {
				char *tail = xstrndup(m->err.buf + mark, m->err.len - mark);
				strbuf_setlen(&m->err, mark);
				verbose_line(m, type, &o->oid);
				strbuf_addstr(&m->err, tail);
				free(tail);
			} else {
				verbose_line(m, type, &o->oid);
			}
		}
		o->type = type;
		fsck_type_map[o - fsck_objs] = (uint8_t)type;
		__atomic_store_n(&o->stage, fsck_current_stage, __ATOMIC_RELEASE);
		__atomic_fetch_or(&o->flags, HAS_OBJ, __ATOMIC_ACQ_REL);
		/* Tested first: a store to a byte already set would still take
		 * the line away from the other threads' caches. */
		for (uint32_t i = 1; i <= o->links[0]; i++)
			if (!(o->links[i] & LINK_MISSING) &&
			    !__atomic_load_n(&fsck_used_map[LINK_INDEX(o->links[i])], __ATOMIC_RELAXED))
				__atomic_store_n(&fsck_used_map[LINK_INDEX(o->links[i])], 1, __ATOMIC_RELAXED);
	} else if (fsck_verbose_objs) {
		verbose_line(m, type, &o->oid);
	}
	if (checked)
		goto show;
	if (type == OBJ_TREE && tree_first_entry_bad(buf, len, &why)) {
		msg_add(m, 1, "error: %s", why);
		msg_add(m, 1, "error in tree %s: broken links", thex(&o->oid));
		__atomic_fetch_or(&fsck_errors_found, ERROR_OBJECT, __ATOMIC_RELAXED);
	}
	{
		size_t before = m->err.len;
		struct strbuf tail = STRBUF_INIT;
		err = fsck_check_object(&fsck_check_opts, &o->oid, type, buf, len, report_cb, m, &why2);
		if (why2) {
			/* git's tree decoder prints its reason before the report;
			 * its walk did so first unless it stopped at the first
			 * entry (said above). */
			strbuf_add(&tail, m->err.buf + before, m->err.len - before);
			strbuf_setlen(&m->err, before);
			if (!why)
				msg_add(m, 1, "error: %s", why2);
			msg_add(m, 1, "error: %s", why2);
			strbuf_addbuf(&m->err, &tail);
			strbuf_release(&tail);
		}
	}
	if (why || why2)
		walk_bad_add(o, why ? why : why2);
	if (err)
		return err;
show:
	if (type == OBJ_COMMIT && fsck_show_root) {
		const char *p = buf + 5 + HEX_SZ + 1;
		if (!(p + 7 < buf + len && !memcmp(p, "parent ", 7)))
			msg_add(m, 0, "root %s", thex(&o->oid));
	}
	if (type == OBJ_TAG && fsck_show_tags) {
		struct object_id x;
		const char *p = buf + 7 + HEX_SZ + 1 + 5;
		const char *nl = memchr(p, '\n', buf + len - p);
		const char *tag = nl + 1 + 4, *tnl = memchr(tag, '\n', buf + len - tag);
		get_oid_hex(buf + 7, &x);
		msg_add(m, 0, "tagged %.*s %s (%.*s) in %s", (int)(nl - p), p, thex(&x),
			(int)(tnl - tag), tag, thex(&o->oid));
	}
	return 0;
}
