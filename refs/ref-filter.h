/* ref-filter.h: selecting, sorting and formatting refs for branch and
 * for-each-ref: one format language (git's %(atom) syntax), one sorter.
 * Objects are read only for atoms, sort keys and filters that need them. */
#ifndef REFS_REF_FILTER_H
#define REFS_REF_FILTER_H

#include "refs/refs.h"
#include "lib/parse-options.h"

enum ref_kind {
	FILTER_REFS_TAGS = 1,
	FILTER_REFS_BRANCHES = 2,
	FILTER_REFS_REMOTES = 4,
	FILTER_REFS_OTHERS = 8,
	FILTER_REFS_ALL = 15,
	FILTER_REFS_DETACHED_HEAD = 16,
};

/* What a branch's upstream and push settings give, worked out for the
 * items that ask (ref-filter.c). */
struct ref_item_remote;
/* An object read for a listing, shared by the items that name it
 * (ref-object.c). */
struct shared_obj;

/* One ref of a listing. An item is made for every ref listed, so what
 * only some listings need hangs off it, made on first use. */
struct ref_item {
	struct object_id oid;
	unsigned flags;         /* REF_* */
	unsigned kind;
	signed char obj_state;  /* the object: 0 not read yet, 1 read, -1 missing */
	signed char peel_state; /* peeled: 0 not known, 1 from packed-refs, 2 read */
	unsigned char populated;
	unsigned nsort;         /* sort keys worked out */
	struct object_id peeled;
	char *symref;           /* target of a symbolic ref */
	struct shared_obj *obj, *pobj;  /* the object, the one its tag points at */
	struct ref_item_remote *remote;
	char **sort_vals;
	char refname[];
};

struct ref_array {
	struct ref_item **items;
	size_t nr, alloc;
};

struct ref_filter {
	const char **patterns;      /* NULL-terminated, or NULL */
	int match_as_path;          /* for-each-ref: prefixes and pathname globs */
	int ignore_case;
	unsigned kind;
	struct object_id *points_at;
	size_t points_at_nr;
	struct object_id *with_commit, *no_commit;
	size_t with_commit_nr, no_commit_nr;
	struct object_id *merged, *no_merged;
	size_t merged_nr, no_merged_nr;
	const char *head_desc;      /* what a detached HEAD is called */
	/* branch -v: as git, a ref whose commit cannot be read is left out
	 * of the listing instead of stopping it */
	int verbose;
	/* filled by the options below */
	size_t points_at_alloc, with_commit_alloc, no_commit_alloc, merged_alloc, no_merged_alloc;
};

/* Frees the object id lists the options filled. */
void ref_filter_release(struct ref_filter *f);

struct ref_format;
struct ref_sorting;

/* Parse a format, to be quoted in the style quote (QUOTE_*, 0 for none);
 * dies with git's message on a bad atom. */
struct ref_format *ref_format_parse(const char *fmt, int use_color, int quote);
/* Does the format need objects (for the fast path)? */
int ref_format_needs_object(const struct ref_format *f);
/* Append one formatted ref; -1 (after an error) to stop. */
int ref_format_item(struct strbuf *out, struct ref_item *it, struct ref_format *f);
/* Print the first n refs of a, one formatted line each; with
 * skip_empty, a ref whose line formats empty prints nothing (branch's
 * --format), else an empty line (for-each-ref). */
void ref_array_print(struct ref_array *a, size_t n, struct ref_format *f, int skip_empty);
/* The lines ref_array_print() would print for all of a, without their
 * newlines (for a listing in columns). */
char **ref_array_lines(struct ref_array *a, struct ref_format *f, int skip_empty, size_t *nr);
void ref_format_free(struct ref_format *f);
enum { QUOTE_NONE = 0, QUOTE_SHELL = 1, QUOTE_PERL = 2, QUOTE_PYTHON = 4, QUOTE_TCL = 8 };

/* Sort keys: "refname", "-committerdate"... each new key becomes primary. */
void ref_sorting_add(struct ref_sorting **s, const char *key);
void ref_sorting_detached_first(struct ref_sorting *s);
/* --ignore-case: text keys and the final name order ignore case. */
void ref_sorting_ignore_case(struct ref_sorting *s);
int ref_sorting_needs_object(const struct ref_sorting *s);
void ref_array_sort(struct ref_sorting *s, struct ref_array *a);
/* What ref_array_sort() works out for each item as the sort first looks
 * at it, before any output, as git does: the ref's object (and the one a
 * tag points at, for "*" atoms) when the format or a sort key needs it,
 * so that a missing one stops the command in git's order; head_lookups:
 * how many "refname 'HEAD' is ambiguous." warnings the detached HEAD's
 * description gives on the way; sort_read_first: git reads the sort keys
 * before the format (branch), which decides which trailer separator all
 * of them show. Called before ref_array_sort(). */
void ref_array_populate(const struct ref_format *f, const struct ref_sorting *s,
			size_t head_lookups, int sort_read_first);
void ref_sorting_free(struct ref_sorting *s);

/* Sort keys as the command line gives them, parsed only when a listing
 * needs them (git's order of errors). cleared: --no-sort was given, which
 * also drops keys from configuration (branch.sort). */
struct ref_sort_keys {
	const char **v;
	size_t nr, alloc;
	int cleared;
};
/* The keys (after conf, when not cleared) as a sorting; "refname" if none. */
struct ref_sorting *ref_sorting_from_keys(const struct ref_sort_keys *k,
					  const char **conf, size_t conf_nr);

/* Colour for the listings: --color (when: NULL if not given), else the
 * config key (color.branch), else color.ui, else auto. for-each-ref
 * passes NULL: like git's, it reads no colour configuration. */
int ref_filter_use_color(const char *when, const char *config_key);

/* Options branch and for-each-ref share. The commit of --contains,
 * --merged and their negatives may be left out only as the last word of
 * the command line (HEAD then), as in git. */
int ref_filter_opt_commit(const struct option *o, const char *arg, int unset);
int ref_filter_opt_points_at(const struct option *o, const char *arg, int unset);
int ref_filter_opt_sort(const struct option *o, const char *arg, int unset);
int ref_filter_opt_color(const struct option *o, const char *arg, int unset);

/* name: "contains", "no-contains", "merged" or "no-merged" (hidden: "with"
 * or "without"); f: a struct ref_filter * */
#define OPT_REF_COMMIT_F(name, f, h, fl) { .type = OPTION_CALLBACK, .long_name = (name), .value = (f), \
	.argh = "commit", .help = (h), .flags = PARSE_OPT_NONEG | PARSE_OPT_LASTARG_DEFAULT | (fl), \
	.callback = ref_filter_opt_commit, .defval = (intptr_t)"HEAD" }
#define OPT_REF_COMMIT(name, f, h) OPT_REF_COMMIT_F(name, f, h, 0)
#define OPT_REF_POINTS_AT(f, h) OPT_CALLBACK_F(0, "points-at", (f), "object", (h), 0, ref_filter_opt_points_at)
/* k: a struct ref_sort_keys * */
#define OPT_REF_SORT(k) OPT_CALLBACK_F(0, "sort", (k), "key", "field name to sort on", 0, ref_filter_opt_sort)
/* w: a const char ** that receives "always", "never" or the argument */
#define OPT_REF_COLOR(w, h) OPT_CALLBACK_F(0, "color", (w), "when", (h), PARSE_OPT_OPTARG, ref_filter_opt_color)

/* Collect the refs the filter selects. */
int filter_refs(struct ref_array *a, struct ref_filter *f);
void ref_array_clear(struct ref_array *a);
/* The item's name in git's messages: a detached HEAD is "HEAD" there,
 * not the description the listing shows. */
const char *ref_item_name(const struct ref_item *it);
void ref_item_free(struct ref_item *it);

/* The current branch ("refs/heads/x"), NULL when detached; the_repo-cached. */
const char *ref_filter_head(void);
size_t ref_refname_atoms(const struct ref_format *f, const struct ref_sorting *sorting);

/* Branch tracking: upstream ref of a local branch ("refs/remotes/o/x"),
 * or NULL. The config is read once. */
const char *branch_upstream(const char *branch_short, const char **remote, const char **merge);
/* The same, or NULL with git's reason in why ("no upstream configured
 * for branch 'x'", ...). */
const char *upstream_or_why(const char *branch_short, struct strbuf *why);
/* The remote-tracking ref a push of the branch would update (what
 * <branch>@{push} names), or NULL with git's reason in why. */
const char *branch_push_tracking(const char *branch_short, struct strbuf *why);

#endif
