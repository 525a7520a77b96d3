/* show-ref: list refs with their object names, or verify given ones. */
#include "builtin/builtin.h"
#include "lib/repo.h"
#include "refs/refs.h"
#include "odb/object.h"
#include "lib/sorted.h"

static const char *const show_ref_usage[] = {
	"git show-ref [-q | --quiet] [--verify] [--head] [-d | --dereference]\n"
	"                    [-s | --hash[=<n>]] [--abbrev[=<n>]] [--tags]\n"
	"                    [--heads] [--] [<pattern>...]",
	"git show-ref --exclude-existing[=<pattern>]",
	NULL
};

static int deref_tags, show_head, tags_only, heads_only, found_match, verify, quiet, hash_only;
static int abbrev;
static const char **patterns;
static const char *exclude_pattern;
static int exclude_existing;

static const char *abbrev_hex(const struct object_id *oid)
{
	return abbrev ? odb_abbrev(oid, abbrev < 0 ? 0 : abbrev) : oid_to_hex(oid);
}

static int peeled_of(const struct ref_entry *e, struct object_id *out)
{
	enum object_type t;
	size_t size;
	if (e->flags & REF_KNOWS_PEELED) {
		if (is_null_oid(&e->peeled))
			return -1;
		oidcpy(out, &e->peeled);
		return 0;
	}
	if (odb_read_header(&e->oid, &t, &size) < 0 || t != OBJ_TAG)
		return -1;
	return peel_to_non_tag(&e->oid, out, &t);
}

/* "<hex>[ <name><suffix>]\n", written without printf's format parsing:
 * a listing of thousands of refs spends most of its time here. */
static void put_line(const char *hex, const char *name, const char *suffix)
{
	fputs_unlocked(hex, stdout);
	if (name) {
		putc_unlocked(' ', stdout);
		fputs_unlocked(name, stdout);
		fputs_unlocked(suffix, stdout);
	}
	putc_unlocked('\n', stdout);
}

static void show_one(const struct ref_entry *e)
{
	struct object_id peeled;
	if (!odb_has_object(&e->oid))
		die("git show-ref: bad ref %s (%s)", e->name, oid_to_hex(&e->oid));
	if (quiet)
		return;
	put_line(abbrev_hex(&e->oid), hash_only ? NULL : e->name, "");
	if (deref_tags && !peeled_of(e, &peeled))
		put_line(abbrev_hex(&peeled), e->name, "^{}");
}

static int show_ref(const struct ref_entry *e, void *data)
{
	const char *name = e->name;
	(void)data;
	if (show_head && !strcmp(name, "HEAD"))
		goto match;
	if (tags_only || heads_only) {
		int m = heads_only && starts_with(name, "refs/heads/");
		m |= tags_only && starts_with(name, "refs/tags/");
		if (!m)
			return 0;
	}
	if (patterns && *patterns) {
		size_t reflen = strlen(name);
		for (const char **p = patterns; *p; p++) {
			size_t len = strlen(*p);
			if (len > reflen || memcmp(*p, name + reflen - len, len))
				continue;
			if (len == reflen || name[reflen - len - 1] == '/')
				goto match;
		}
		return 0;
	}
match:
	found_match++;
	show_one(e);
	return 0;
}

/* --hash[=<n>]: ids only; a length as --abbrev takes one. As in git,
 * --no-hash is --hash too. */
static int opt_hash(const struct option *o, const char *arg, int unset)
{
	hash_only = 1;
	return arg ? parse_opt_abbrev_cb(o, arg, unset) : 0;
}

static int opt_exclude(const struct option *o, const char *arg, int unset)
{
	(void)o;
	exclude_existing = !unset;
	exclude_pattern = arg;
	return 0;
}

struct names {
	char **v;
	size_t nr, alloc;
};

static int add_existing(const struct ref_entry *e, void *data)
{
	struct names *n = data;
	ALLOC_GROW(n->v, n->nr + 1, n->alloc);
	n->v[n->nr++] = xstrdup(e->name);
	return 0;
}

static int do_exclude_existing(const char *match)
{
	struct names existing = { 0 };
	struct strbuf line = STRBUF_INIT;
	size_t matchlen = match ? strlen(match) : 0;
	refs_for_each("refs/", 0, add_existing, &existing);
	while (strbuf_getline(&line, stdin, '\n') >= 0) {
		char *buf = line.buf, *ref;
		size_t len = line.len;
		if (len >= 3 && !strcmp(buf + len - 3, "^{}"))
			buf[len -= 3] = 0;
		for (ref = buf + len; buf < ref; ref--)
			if (ref[-1] == ' ' || ref[-1] == '\t' || ref[-1] == '\n' || ref[-1] == '\r')
				break;
		if (match && ((size_t)(buf + len - ref) < matchlen || strncmp(ref, match, matchlen)))
			continue;
		if (check_refname_format(ref, 0)) {
			warning("ref '%s' ignored", ref);
			continue;
		}
		if (!bsearch(&ref, existing.v, existing.nr, sizeof(char *), cmp_strings))
			printf("%s\n", buf);
	}
	strbuf_release(&line);
	for (size_t i = 0; i < existing.nr; i++)
		free(existing.v[i]);
	free(existing.v);
	return 0;
}

int cmd_show_ref(int argc, const char **argv)
{
	struct option opts[] = {
		OPT_BOOL(0, "tags", &tags_only, "only show tags (can be combined with heads)"),
		OPT_BOOL(0, "heads", &heads_only, "only show heads (can be combined with tags)"),
		OPT_BOOL(0, "verify", &verify, "stricter reference checking, requires exact ref path"),
		OPT_BOOL_F('h', NULL, &show_head, "show the HEAD reference, even if it would be filtered out",
			   PARSE_OPT_HIDDEN),
		OPT_BOOL_F(0, "head", &show_head, "show the HEAD reference, even if it would be filtered out", 0),
		OPT_BOOL('d', "dereference", &deref_tags, "dereference tags into object IDs"),
		OPT_CALLBACK_F('s', "hash", &abbrev, "n", "only show SHA1 hash using <n> digits", PARSE_OPT_OPTARG, opt_hash),
		OPT__ABBREV(&abbrev),
		OPT__QUIET(&quiet, "do not print results to stdout (useful with --verify)"),
		OPT_CALLBACK_F(0, "exclude-existing", &exclude_pattern, "pattern", "show refs from stdin that aren't in local repository", PARSE_OPT_OPTARG | PARSE_OPT_NONEG, opt_exclude),
		OPT_END()
	};

	setup_for_command(argc, argv);
	argc = parse_options(argc, argv, opts, show_ref_usage, 0);
	if (exclude_existing)
		return do_exclude_existing(exclude_pattern);
	argv[argc] = NULL;
	patterns = argc ? argv : NULL;
	if (verify) {
		if (!patterns)
			die("--verify requires a reference");
		for (const char **p = patterns; *p; p++) {
			struct ref_entry e = { .name = *p };
			if ((starts_with(*p, "refs/") || !strcmp(*p, "HEAD")) && !refs_read(*p, &e.oid))
				show_one(&e);
			else if (!quiet)
				die("'%s' - not a valid ref", *p);
			else
				return 1;
		}
		return 0;
	}
	if (!quiet) {
		/* A listing of thousands of refs: 64 KiB writes, not 8 KiB
		 * ones (nothing has been written to stdout yet). */
		static char outbuf[65536];
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	}
	if (show_head) {
		struct ref_entry e = { .name = "HEAD" };
		if (!refs_read("HEAD", &e.oid))
			show_ref(&e, NULL);
	}
	/* --heads or --tags alone: only that part of refs/ is read. Else,
	 * as git, packed-refs from its start: records before "refs/" are
	 * listed too, and a dangerous name there dies. */
	refs_for_each(heads_only && !tags_only ? "refs/heads/" :
		      tags_only && !heads_only ? "refs/tags/" : "",
		      REFS_INCLUDE_BROKEN, show_ref, NULL);
	if (!found_match)
		return 1;
	return 0;
}
