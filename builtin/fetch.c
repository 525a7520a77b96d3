/* fetch.c: download objects and refs from another repository. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "odb/commit-walk.h"
#include "odb/odb.h"
#include "refs/refs.h"
#include "remote/index-pack.h"
#include "lib/progress.h"
#include "remote/remote.h"
#include "remote/transport.h"

static const char *const fetch_usage[] = {
	"git fetch [<options>] [<repository> [<refspec>...]]",
	"git fetch [<options>] <group>",
	"git fetch --multiple [<options>] [(<repository> | <group>)...]",
	"git fetch --all [<options>]",
	NULL
};

struct fetch_item {
	const struct remote_ref *rr;
	char *dst;          /* local ref, or NULL: FETCH_HEAD only */
	int force;
	int for_merge;
	int in_fetch_head;  /* opportunistic updates are not listed there */
	struct strbuf note; /* the summary line, without the leading space */
	int code;           /* ' ', '*', '+', '!', or 0 for up to date */
};

static struct fetch_item *items;
static size_t nr_items, alloc_items;

static struct fetch_item *add_item(const struct remote_ref *rr, char *dst, int force)
{
	struct fetch_item *it;
	ALLOC_GROW(items, nr_items + 1, alloc_items);
	it = &items[nr_items++];
	memset(it, 0, sizeof(*it));
	it->rr = rr;
	it->dst = dst;
	it->force = force;
	it->in_fetch_head = 1;
	strbuf_init(&it->note, 0);
	return it;
}

static int has_item_dst(const char *dst)
{
	for (size_t i = 0; i < nr_items; i++)
		if (items[i].dst && !strcmp(items[i].dst, dst))
			return 1;
	return 0;
}

static const struct remote_ref *find_remote(const struct transport *t, const char *name)
{
	for (size_t i = 0; i < t->nr_refs; i++)
		if (!t->refs[i].unborn && !strcmp(t->refs[i].name, name))
			return &t->refs[i];
	return NULL;
}

/* git's rules for a short source name on the remote side. */
static const struct remote_ref *find_remote_dwim(const struct transport *t, const char *src)
{
	static const char *rules[] = { "%s", "refs/%s", "refs/tags/%s", "refs/heads/%s",
				       "refs/remotes/%s", "refs/remotes/%s/HEAD" };
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		char *name = xstrfmt(rules[i], src);
		const struct remote_ref *r = find_remote(t, name);
		free(name);
		if (r)
			return r;
	}
	return NULL;
}

/* "refs/heads/x" -> "x" as fetch prints names. */
static const char *pretty(const char *name)
{
	const char *s;
	if (skip_prefix(name, "refs/heads/", &s) || skip_prefix(name, "refs/tags/", &s) ||
	    skip_prefix(name, "refs/remotes/", &s))
		return s;
	return name;
}

/* The URL as fetch shows it: no credentials, no trailing "/" or ".git". */
static char *display_url(const char *url)
{
	char *u = url_strip_credentials(url);
	size_t n = strlen(u);
	while (n > 1 && u[n - 1] == '/')
		u[--n] = 0;
	if (n > 4 && !strcmp(u + n - 4, ".git"))
		u[n - 4] = 0;
	return u;
}

static int cmp_oid(const void *a, const void *b)
{
	return oidcmp(a, b);
}

static int collect_have(const struct ref_entry *ref, void *data)
{
	struct oid_array { struct object_id *v; size_t nr, alloc; } *a = data;
	ALLOC_GROW(a->v, a->nr + 1, a->alloc);
	oidcpy(&a->v[a->nr++], &ref->oid);
	return 0;
}

static size_t uniq(struct object_id *v, size_t nr)
{
	size_t j = 0;
	QSORT(v, nr, cmp_oid);
	for (size_t i = 0; i < nr; i++)
		if (!j || !oideq(&v[j - 1], &v[i]))
			oidcpy(&v[j++], &v[i]);
	return j;
}

static const char *kind_of(const char *name)
{
	if (starts_with(name, "refs/tags/"))
		return "tag";
	return "branch";
}

/* Decides and performs one ref update; returns 1 if rejected. */
static int update_one(struct fetch_item *it, const char *rla)
{
	struct object_id old;
	const struct object_id *new = &it->rr->oid;
	char *msg;
	int exists = !refs_read(it->dst, &old), rejected = 0;
	const char *local = pretty(it->dst), *remote = pretty(it->rr->name);
	(void)local;
	(void)remote;

	if (exists && oideq(&old, new))
		return 0;
	if (!exists) {
		const char *what = starts_with(it->dst, "refs/tags/") ? "[new tag]" :
				   starts_with(it->rr->name, "refs/heads/") ? "[new branch]" : "[new ref]";
		msg = xstrfmt("%s: storing %s", rla, starts_with(it->dst, "refs/tags/") ? "tag" : "head");
		if (refs_update(it->dst, new, &(struct object_id){ { 0 } }, msg) < 0) {
			it->code = '!';
			strbuf_addstr(&it->note, "[new ref]");
			free(msg);
			return 1;
		}
		it->code = '*';
		strbuf_addstr(&it->note, what);
		free(msg);
		return 0;
	}
	if (starts_with(it->dst, "refs/tags/") && !it->force) {
		it->code = '!';
		strbuf_addstr(&it->note, "[rejected]\t(would clobber existing tag)");
		return 1;
	}
	int ff = commit_is_ancestor(&old, new) == 1;
	char a[HEX_SZ + 1], b[HEX_SZ + 1];
	snprintf(a, sizeof(a), "%s", odb_abbrev(&old, 0));
	snprintf(b, sizeof(b), "%s", odb_abbrev(new, 0));
	if (ff) {
		msg = xstrfmt("%s: fast-forward", rla);
		it->code = ' ';
		strbuf_addf(&it->note, "%s..%s", a, b);
	} else if (it->force) {
		msg = xstrfmt("%s: forced-update", rla);
		it->code = '+';
		strbuf_addf(&it->note, "%s...%s\t(forced update)", a, b);
	} else {
		it->code = '!';
		strbuf_addstr(&it->note, "[rejected]\t(non-fast-forward)");
		return 1;
	}
	if (refs_update(it->dst, new, &old, msg) < 0) {
		strbuf_reset(&it->note);
		it->code = '!';
		strbuf_addstr(&it->note, "[rejected]\t(unable to update local ref)");
		rejected = 1;
	}
	free(msg);
	return rejected;
}

static void write_fetch_head(const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	for (int pass = 1; pass >= 0; pass--) {
		for (size_t i = 0; i < nr_items; i++) {
			struct fetch_item *it = &items[i];
			const char *s;
			if (!it->in_fetch_head || it->for_merge != pass)
				continue;
			strbuf_addf(&sb, "%s\t%s\t", oid_to_hex(&it->rr->oid), pass ? "" : "not-for-merge");
			if (skip_prefix(it->rr->name, "refs/heads/", &s))
				strbuf_addf(&sb, "branch '%s' of ", s);
			else if (skip_prefix(it->rr->name, "refs/tags/", &s))
				strbuf_addf(&sb, "tag '%s' of ", s);
			else if (strcmp(it->rr->name, "HEAD"))
				strbuf_addf(&sb, "'%s' of ", it->rr->name);
			strbuf_addf(&sb, "%s\n", url);
		}
	}
	const char *path = git_path("FETCH_HEAD");
	FILE *f = fopen(path, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f))
		die_errno("cannot open %s", path);
	strbuf_release(&sb);
}

/* A pack being received is removed if we die before it is stored. */
static char *tmp_pack;

static void remove_tmp_pack(void)
{
	if (tmp_pack)
		unlink(tmp_pack);
}

static void fetch_pack(struct transport *t, struct object_id *wants, size_t nr_wants)
{
	struct { struct object_id *v; size_t nr, alloc; } haves = { 0 };
	struct object_id head;
	const char *dir = xstrfmt("%s/pack", odb_objdir());
	char *tmp = xstrfmt("%s/tmp_pack_XXXXXX", dir);
	struct index_pack_opts opts = { .check_collisions = 1, .receiving = 1, .fix_thin = 1,
					.check_links = LINKS_IN_PACK_OR_OURS,
					.receive_start_ns = progress_now_ns() };
	unsigned char hash[RAW_SZ];
	int fd;

	refs_for_each("refs/", 0, collect_have, &haves);
	if (!refs_read("HEAD", &head))
		collect_have(&(struct ref_entry){ .name = "HEAD", .oid = head }, &haves);
	haves.nr = uniq(haves.v, haves.nr);
	fd = mkstemp(tmp);
	if (fd < 0)
		die_errno("unable to create temporary file '%s'", tmp);
	tmp_pack = tmp;
	atexit(remove_tmp_pack);
	uint64_t got = transport_fetch_pack(t, wants, nr_wants, haves.v, haves.nr, 1, fd);
	if (fsync(fd) < 0 || close(fd) < 0) {
		unlink(tmp);
		die_errno("unable to write '%s'", tmp);
	}
	if (got)
		opts.verbose = transport_pack_meters(t, tmp, 0);
	if (!got) {
		unlink(tmp);
	} else if (index_pack_store(dir, tmp, &opts, NULL, hash) < 0) {
		exit(128);
	}
	tmp_pack = NULL;
	odb_reprepare();
	for (size_t i = 0; i < nr_wants; i++)
		if (!odb_has_object(&wants[i])) {
			die("remote did not send all necessary objects");
		}
	free(haves.v);
	free(tmp);
	free((char *)dir);
}

int cmd_fetch(int argc, const char **argv)
{
	int quiet = 0, verbose = 0, force = 0, no_tags = 0, progress = -1;
	struct remote_config rc;
	struct transport *t;
	struct strbuf rla = STRBUF_INIT;
	struct { struct object_id *v; size_t nr, alloc; } wants = { 0 };
	const char *dest = NULL;
	char *url;
	int rejected = 0;
	char *merge_ref = NULL;
	struct option opts[] = {
		OPT__VERBOSE(&verbose, "be more verbose"),
		OPT__QUIET(&quiet, "be more quiet"),
		OPT_BOOL('f', "force", &force, "force overwrite of local reference"),
		OPT_BOOL('n', NULL, &no_tags, "do not fetch all tags (--no-tags)"),
		OPT_BOOL(0, "progress", &progress, "force progress reporting"),
		OPT_END()
	};

	strbuf_addstr(&rla, "fetch");
	for (int i = 1; i < argc; i++)
		strbuf_addf(&rla, " %s", argv[i]);
	setup_for_command(argc, argv);
	argc = parse_options(argc, argv, opts, fetch_usage, 0);
	if (argc > 0)
		dest = argv[0];
	remote_config_get(dest, &rc);
	if (!rc.url) {
		if (!dest)
			die("No remote repository specified.  Please, specify either a URL or a\n"
			    "remote name from which new revisions should be fetched.");
		rc.url = xstrdup(dest);
	}
	url = display_url(rc.url);
	t = transport_open(rc.url, quiet, progress);
	transport_list_refs(t, NULL, 0);
	/* git empties FETCH_HEAD once it has reached the remote */
	{
		FILE *f = fopen(git_path("FETCH_HEAD"), "w");
		if (!f)
			die_errno("cannot open %s", git_path("FETCH_HEAD"));
		fclose(f);
	}

	/* The branch whose upstream this fetch brings in (FETCH_HEAD's merge line). */
	if (rc.name && argc <= 1) {
		struct strbuf target = STRBUF_INIT;
		const char *b, *v;
		if (refs_read_symref("HEAD", &target) && skip_prefix(target.buf, "refs/heads/", &b)) {
			char *k1 = xstrfmt("branch.%s.remote", b), *k2 = xstrfmt("branch.%s.merge", b);
			if (config_get(k1, &v) && v && !strcmp(v, rc.name) && config_get(k2, &v) && v)
				merge_ref = xstrdup(v);
			free(k1);
			free(k2);
		}
		strbuf_release(&target);
	}

	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			struct refspec_item spec;
			const struct remote_ref *r;
			const char *s = argv[i];
			char *dst = NULL;
			if (refspec_parse(s, &spec) < 0)
				die("invalid refspec '%s'", s);
			if (spec.pattern) {
				for (size_t k = 0; k < t->nr_refs; k++) {
					char *m = t->refs[k].unborn ? NULL : refspec_map(&spec, t->refs[k].name);
					if (!m)
						continue;
					struct fetch_item *it = add_item(&t->refs[k], *m ? m : NULL, spec.force || force);
					it->for_merge = 0;
					if (!*m)
						free(m);
				}
				refspec_release(&spec);
				continue;
			}
			r = find_remote_dwim(t, spec.src);
			if (!r)
				die("couldn't find remote ref %s", spec.src);
			if (spec.dst && *spec.dst) {
				if (starts_with(spec.dst, "refs/"))
					dst = xstrdup(spec.dst);
				else
					dst = xstrfmt("%s%s", starts_with(r->name, "refs/tags/") ? "refs/tags/" :
						      "refs/heads/", spec.dst);
				if (check_refname_format(dst, 0))
					die("invalid refspec '%s'", s);
			}
			struct fetch_item *it = add_item(r, dst, spec.force || force);
			it->for_merge = 1;
			refspec_release(&spec);
		}
		/* Remote-tracking refs the configured refspecs map these to. */
		size_t n = nr_items;
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < rc.nr_fetch; k++) {
				char *m = refspec_map(&rc.fetch[k], items[i].rr->name);
				if (!m || !*m || has_item_dst(m)) {
					free(m);
					continue;
				}
				struct fetch_item *it = add_item(items[i].rr, m, rc.fetch[k].force || force);
				it->in_fetch_head = 0;
			}
	} else if (rc.nr_fetch) {
		for (size_t k = 0; k < rc.nr_fetch; k++)
			for (size_t i = 0; i < t->nr_refs; i++) {
				char *m = t->refs[i].unborn ? NULL : refspec_map(&rc.fetch[k], t->refs[i].name);
				if (!m)
					continue;
				struct fetch_item *it = add_item(&t->refs[i], *m ? m : NULL, rc.fetch[k].force || force);
				if (!*m)
					free(m);
				it->for_merge = merge_ref && !strcmp(merge_ref, t->refs[i].name);
			}
	} else {
		const struct remote_ref *h = find_remote(t, "HEAD");
		if (!h)
			die("couldn't find remote ref HEAD");
		add_item(h, NULL, 0)->for_merge = 1;
	}

	/* Objects we lack. */
	for (size_t i = 0; i < nr_items; i++)
		if (!odb_has_object(&items[i].rr->oid)) {
			ALLOC_GROW(wants.v, wants.nr + 1, wants.alloc);
			oidcpy(&wants.v[wants.nr++], &items[i].rr->oid);
		}
	/* Tags that point at what we have or fetch: their tag objects too. */
	size_t first_tag = nr_items;
	if (!no_tags) {
		for (size_t i = 0; i < t->nr_refs; i++) {
			const struct remote_ref *r = &t->refs[i];
			struct object_id local;
			if (r->unborn || !starts_with(r->name, "refs/tags/") || has_item_dst(r->name) ||
			    !refs_read(r->name, &local))
				continue;
			const struct object_id *target = r->has_peeled ? &r->peeled : &r->oid;
			int wanted = 0;
			for (size_t k = 0; k < nr_items && !wanted; k++)
				wanted = oideq(&items[k].rr->oid, target);
			if (!wanted && !odb_has_object(target))
				continue;  /* include-tag may still send it; checked after */
			if (!odb_has_object(&r->oid)) {
				ALLOC_GROW(wants.v, wants.nr + 1, wants.alloc);
				oidcpy(&wants.v[wants.nr++], &r->oid);
			}
		}
	}
	wants.nr = uniq(wants.v, wants.nr);
	if (wants.nr)
		fetch_pack(t, wants.v, wants.nr);
	if (!no_tags) {
		for (size_t i = 0; i < t->nr_refs; i++) {
			const struct remote_ref *r = &t->refs[i];
			struct object_id local;
			if (r->unborn || !starts_with(r->name, "refs/tags/") || has_item_dst(r->name) ||
			    !refs_read(r->name, &local) || !odb_has_object(&r->oid))
				continue;
			add_item(r, xstrdup(r->name), 0);
		}
	}
	(void)first_tag;

	/* Ref updates, then FETCH_HEAD, then the summary. */
	for (size_t i = 0; i < nr_items; i++) {
		struct fetch_item *it = &items[i];
		if (it->dst)
			rejected |= update_one(it, rla.buf);
		else {
			it->code = '*';
			strbuf_addstr(&it->note, kind_of(it->rr->name));
		}
	}
	write_fetch_head(url);
	if (!quiet) {
		int width = 10, shown = 0;
		for (size_t i = 0; i < nr_items; i++) {
			int rlen = (int)strlen(pretty(items[i].rr->name));
			int llen = items[i].dst ? (int)strlen(pretty(items[i].dst)) : 0;
			if (!items[i].code || !items[i].dst || !strcmp(items[i].rr->name, "HEAD"))
				continue;
			if (21 + rlen + 4 + llen >= 80)
				continue;
			if (width < rlen)
				width = rlen;
		}
		for (size_t i = 0; i < nr_items; i++) {
			struct fetch_item *it = &items[i];
			char *tab;
			const char *suffix = "";
			if (!it->code)
				continue;
			if (!shown++)
				fprintf(stderr, "From %s\n", url);
			tab = strchr(it->note.buf, '\t');
			if (tab) {
				*tab = 0;
				suffix = tab + 1;
			}
			fprintf(stderr, " %c %-*s %-*s -> %s%s%s\n", it->code, 17, it->note.buf, width,
				pretty(it->rr->name), it->dst ? pretty(it->dst) : "FETCH_HEAD",
				*suffix ? "  " : "", suffix);
		}
	}
	if (transport_close(t))
		exit(128);
	remote_config_release(&rc);
	for (size_t i = 0; i < nr_items; i++) {
		free(items[i].dst);
		strbuf_release(&items[i].note);
	}
	free(items);
	free(wants.v);
	free(url);
	free(merge_ref);
	strbuf_release(&rla);
	return rejected ? 1 : 0;
}
