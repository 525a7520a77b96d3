/* roots.c: refs, HEAD, reflogs and linked work trees as roots of the
 * connectivity check, with git's messages about them. */
#include "builtin/fsck/fsck.h"
#include "lib/dir-read.h"
#include "lib/repo.h"
#include "lib/worktree.h"
#include "odb/odb.h"
#include "refs/refs.h"

int fsck_default_refs;

static int is_branch(const char *name)
{
	return starts_with(name, "refs/heads/");
}

/* Ids git holds that the table does not (for --verbose's count). */
struct object_id *fsck_extra_ids;
size_t fsck_nr_extra;
static size_t alloc_extra;

static void mark_created(const struct object_id *oid)
{
	struct fobj *o = find_obj(oid);
	if (o) {
		o->flags |= CREATED;
		return;
	}
	for (size_t i = 0; i < fsck_nr_virtual; i++)
		if (oideq(&fsck_virt[i].oid, oid))
			return;
	for (size_t i = 0; i < fsck_nr_extra; i++)
		if (oideq(&fsck_extra_ids[i], oid))
			return;
	ALLOC_GROW(fsck_extra_ids, fsck_nr_extra + 1, alloc_extra);
	oidcpy(&fsck_extra_ids[fsck_nr_extra++], oid);
}

/* --no-full: git parses a packed ref target, which puts a commit's tree
 * and parents or a tag's target in its object table. */
static void created_by_parse(const struct object_id *oid)
{
	enum object_type t;
	size_t sz;
	char *buf = odb_read_object_gently(oid, &t, &sz);
	const char *p, *end;
	struct object_id x;

	if (!buf)
		return;
	p = buf;
	end = buf + sz;
	if (t == OBJ_COMMIT && sz > 5 + HEX_SZ && !memcmp(p, "tree ", 5) && !get_oid_hex(p + 5, &x)) {
		mark_created(&x);
		p += 5 + HEX_SZ + 1;
		while (end - p > 7 + HEX_SZ && !memcmp(p, "parent ", 7) && !get_oid_hex(p + 7, &x)) {
			mark_created(&x);
			p += 7 + HEX_SZ + 1;
		}
	} else if (t == OBJ_TAG && sz > 7 + HEX_SZ && !memcmp(p, "object ", 7) &&
		   !get_oid_hex(p + 7, &x)) {
		mark_created(&x);
	}
	free(buf);
}

/* A ref names object o, which exists: git's check of a branch's type,
 * and o and what it reaches are reachable (only_mark, for --no-full's
 * packed objects: o alone, as git's parse of it). */
static void ref_names(const char *name, struct fobj *o, enum object_type type, int only_mark)
{
	if (type != OBJ_COMMIT && is_branch(name)) {
		error("%s: not a commit", name);
		fsck_errors_found |= ERROR_REFS;
	}
	fsck_default_refs++;
	if (only_mark) {
		if (fsck_verbose && !(o->flags & REACHABLE))
			created_by_parse(&o->oid);
		o->flags |= USED | REACHABLE;
		return;
	}
	o->flags |= USED;
	mark_reachable(o);
}

static void bad_ref_pointer(const char *name, const struct object_id *oid)
{
	error("%s: invalid sha1 pointer %s", name, thex(oid));
	fsck_errors_found |= ERROR_REACHABLE;
}

static void handle_ref(const char *name, const struct object_id *oid)
{
	struct fobj *o = find_obj(oid);
	if (fsck_connectivity_only) {
		if (!o || !conn_parse_object(o))
			bad_ref_pointer(name, oid);
		else
			ref_names(name, o, o->type, 0);
		return;
	}
	if (o && !(o->flags & HAS_OBJ) && !fsck_check_full && (o->flags & IN_PACK)) {
		/* --no-full: git reads the object to know it exists and stops
		 * there, its packed objects not being "had". */
		enum object_type t;
		size_t sz;
		if (odb_read_header(oid, &t, &sz) == 0) {
			if (!o->type)
				o->type = t;
			ref_names(name, o, t, 1);
			return;
		}
	}
	if (o && !(o->flags & HAS_OBJ))
		reread_broken(o);
	if (!o || !(o->flags & HAS_OBJ))
		bad_ref_pointer(name, oid);
	else
		ref_names(name, o, o->type, 0);
}

int fsck_ref_cb(const struct ref_entry *ref, void *data UNUSED)
{
	if (ref->flags & REF_ISSYMREF && is_null_oid(&ref->oid))
		return 0;
	if (ref->flags & REF_ISBROKEN && is_null_oid(&ref->oid)) {
		error("%s: invalid sha1 pointer %s", ref->name, thex(&ref->oid));
		fsck_errors_found |= ERROR_REACHABLE;
		return 0;
	}
	handle_ref(ref->name, &ref->oid);
	return 0;
}

static void reflog_oid(const char *name, const struct object_id *oid)
{
	struct fobj *o;
	if (is_null_oid(oid))
		return;
	o = find_obj(oid);
	if (o && (o->flags & HAS_OBJ)) {
		o->flags |= USED;
		mark_reachable(o);
	} else {
		error("%s: invalid reflog entry %s", name, thex(oid));
		fsck_errors_found |= ERROR_REACHABLE;
	}
}

int reflog_ent_cb(const struct object_id *old_oid, const struct object_id *new_oid,
		  const char *ident UNUSED, uint64_t when UNUSED, int tz UNUSED,
		  const char *msg UNUSED, void *data)
{
	if (fsck_verbose) {
		char a[HEX_SZ + 1], b[HEX_SZ + 1];
		fprintf(stderr, "Checking reflog %s->%s\n", oid_to_hex_r(a, old_oid),
			oid_to_hex_r(b, new_oid));
	}
	reflog_oid(data, old_oid);
	reflog_oid(data, new_oid);
	return 0;
}

int fsck_reflog_saw_head;

static int fsck_reflog_cb(const struct ref_entry *ref, void *data UNUSED)
{
	if (!strcmp(ref->name, "HEAD"))
		fsck_reflog_saw_head = 1;
	refs_for_each_reflog_entry(ref->name, reflog_ent_cb, (void *)ref->name);
	return 0;
}

void head_link(void)
{
	struct object_id oid;
	unsigned flags = 0;
	const char *target = refs_resolve("HEAD", &oid, &flags);

	if (fsck_verbose)
		fprintf(stderr, "Checking HEAD link\n");
	if (!target) {
		fsck_errors_found |= ERROR_REFS;
		error("invalid HEAD");
		return;
	}
	if (!strcmp(target, "HEAD")) {
		if (is_null_oid(&oid)) {
			fsck_errors_found |= ERROR_REFS;
			error("HEAD: detached HEAD points at nothing");
			return;
		}
	} else if (!starts_with(target, "refs/heads/")) {
		fsck_errors_found |= ERROR_REFS;
		error("HEAD points to something strange (%s)", target);
		return;
	} else if (is_null_oid(&oid)) {
		fprintf(stderr, "notice: HEAD points to an unborn branch (%s)\n", target + 11);
		return;
	}
	handle_ref("HEAD", &oid);
}

/* The main store's reflogs in the order git's iterator finds them: the
 * entries of logs/ as the kernel lists them, HEAD among them. */
static int logs_top_entry(const char *name, unsigned type UNUSED, void *data)
{
	if (!strcmp(name, "HEAD")) {
		fsck_reflog_saw_head = 1;
		refs_for_each_reflog_entry("HEAD", reflog_ent_cb, (void *)"HEAD");
	} else if (!strcmp(name, "refs")) {
		*(int *)data = 1;
		refs_for_each_reflog(fsck_reflog_cb, NULL);
	}
	return 0;
}

void main_reflogs(void)
{
	int saw_refs = 0;
	/* A linked work tree's logs/ holds its HEAD only: the shared ones
	 * come after it. */
	dir_read(git_path("logs"), logs_top_entry, &saw_refs);
	if (!saw_refs)
		refs_for_each_reflog(fsck_reflog_cb, NULL);
}

/* A linked work tree's own HEAD log, read by hand (the ref layer knows
 * the current work tree only). */
static void worktree_head_reflog(const struct worktree *wt, const char *name)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	const char *p, *end;

	strbuf_addf(&path, "%s/logs/HEAD", wt->gitdir);
	if (strbuf_read_file(&sb, path.buf, 0) >= 0) {
		for (p = sb.buf, end = sb.buf + sb.len; p < end;) {
			const char *nl = memchr(p, '\n', end - p);
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			struct object_id o, w;
			if (n > 2 * HEX_SZ + 1 && p[HEX_SZ] == ' ' && p[2 * HEX_SZ + 1] == ' ' &&
			    !get_oid_hex(p, &o) && !get_oid_hex(p + HEX_SZ + 1, &w))
				reflog_ent_cb(&o, &w, NULL, 0, 0, NULL, (void *)name);
			p += n + (nl != NULL);
		}
	}
	strbuf_release(&sb);
	strbuf_release(&path);
}

/*
 * git 2.39 goes on with each linked work tree: its HEAD as a root under
 * the name worktrees/<id>/HEAD, then its reflogs (its HEAD's, then the
 * shared ones again). Done from the main work tree only: from a linked
 * one git names the others differently.
 */
void linked_worktrees(void)
{
	struct worktree **wts = worktrees_get();

	for (struct worktree **w = wts; *w; w++)
		if ((*w)->is_current && (*w)->id)
			return;
	for (; *wts; wts++) {
		struct worktree *wt = *wts;
		struct object_id oid;
		char *name;

		if (!wt->id)
			continue;
		name = xstrfmt("worktrees/%s/HEAD", wt->id);
		if (fsck_verbose)
			fprintf(stderr, "Checking %s link\n", name);
		oidclr(&oid);
		if (wt->is_detached) {
			oidcpy(&oid, &wt->head_oid);
			if (is_null_oid(&oid)) {
				fsck_errors_found |= ERROR_REFS;
				error("%s: detached HEAD points at nothing", name);
			} else {
				handle_ref(name, &oid);
			}
		} else if (!wt->head_ref) {
			fsck_errors_found |= ERROR_REFS;
			error("invalid %s", name);
		} else if (!starts_with(wt->head_ref, "refs/heads/")) {
			fsck_errors_found |= ERROR_REFS;
			error("%s points to something strange (%s)", name, wt->head_ref);
		} else {
			unsigned flags = 0;
			if (!refs_resolve(wt->head_ref, &oid, &flags))
				oidclr(&oid);
			if (is_null_oid(&oid))
				fprintf(stderr, "notice: %s points to an unborn branch (%s)\n", name,
					wt->head_ref + 11);
			else
				handle_ref(name, &oid);
		}
		if (fsck_include_reflogs) {
			worktree_head_reflog(wt, name);
			refs_for_each_reflog(fsck_reflog_cb, NULL);
		}
		free(name);
	}
}
