/* config-default.c: the variables git's every command checks, whatever it
 * does (git's default config), with git's verdict on a bad value: most are
 * fatal, a few only warn. Keys arrive in canonical form (section and name
 * in lower case). */
#include "lib/util.h"
#include "lib/config.h"
#include "lib/color.h"
#include "lib/hex.h"

enum check {
	C_BOOL,          /* true/false/yes/no/on/off or a number */
	C_ULONG,         /* the same, never negative */
	C_STRING,        /* any value, but one must be given */
	C_COMPRESSION,   /* C_INT within -1..9 */
	C_SPECIAL        /* checked by its own code below */
};

struct known {
	const char *key;
	enum check check;
};

/* Sorted by key, for bsearch(). */
static const struct known known[] = {
	{ "advice.addembeddedrepo", C_BOOL },
	{ "advice.addemptypathspec", C_BOOL },
	{ "advice.addignoredfile", C_BOOL },
	{ "advice.ambiguousfetchrefspec", C_BOOL },
	{ "advice.amworkdir", C_BOOL },
	{ "advice.checkoutambiguousremotebranchname", C_BOOL },
	{ "advice.commitbeforemerge", C_BOOL },
	{ "advice.detachedhead", C_BOOL },
	{ "advice.fetchshowforcedupdates", C_BOOL },
	{ "advice.graftfiledeprecated", C_BOOL },
	{ "advice.ignoredhook", C_BOOL },
	{ "advice.implicitidentity", C_BOOL },
	{ "advice.nestedtag", C_BOOL },
	{ "advice.objectnamewarning", C_BOOL },
	{ "advice.pushalreadyexists", C_BOOL },
	{ "advice.pushfetchfirst", C_BOOL },
	{ "advice.pushneedsforce", C_BOOL },
	{ "advice.pushnonfastforward", C_BOOL },
	{ "advice.pushnonffcurrent", C_BOOL },
	{ "advice.pushnonffmatching", C_BOOL },
	{ "advice.pushrefneedsupdate", C_BOOL },
	{ "advice.pushunqualifiedrefname", C_BOOL },
	{ "advice.pushupdaterejected", C_BOOL },
	{ "advice.resetnorefresh", C_BOOL },
	{ "advice.resolveconflict", C_BOOL },
	{ "advice.rmhints", C_BOOL },
	{ "advice.sequencerinuse", C_BOOL },
	{ "advice.setupstreamfailure", C_BOOL },
	{ "advice.skippedcherrypicks", C_BOOL },
	{ "advice.statusaheadbehindwarning", C_BOOL },
	{ "advice.statushints", C_BOOL },
	{ "advice.statusuoption", C_BOOL },
	{ "advice.submodulealternateerrorstrategydie", C_BOOL },
	{ "advice.submodulesnotupdated", C_BOOL },
	{ "advice.suggestdetachinghead", C_BOOL },
	{ "advice.updatesparsepath", C_BOOL },
	{ "advice.waitingforeditor", C_BOOL },
	{ "author.email", C_STRING },
	{ "author.name", C_STRING },
	{ "branch.autosetupmerge", C_SPECIAL },
	{ "branch.autosetuprebase", C_SPECIAL },
	{ "color.advice", C_SPECIAL },
	{ "color.advice.hint", C_SPECIAL },
	{ "color.advice.reset", C_SPECIAL },
	{ "color.pager", C_BOOL },
	{ "committer.email", C_STRING },
	{ "committer.name", C_STRING },
	{ "core.abbrev", C_SPECIAL },
	{ "core.askpass", C_STRING },
	{ "core.attributesfile", C_STRING },
	{ "core.autocrlf", C_SPECIAL },
	{ "core.bare", C_BOOL },
	{ "core.bigfilethreshold", C_ULONG },
	{ "core.commentchar", C_SPECIAL },
	{ "core.compression", C_COMPRESSION },
	{ "core.createobject", C_SPECIAL },
	{ "core.deltabasecachelimit", C_ULONG },
	{ "core.disambiguate", C_SPECIAL },
	{ "core.editor", C_STRING },
	{ "core.excludesfile", C_STRING },
	{ "core.filemode", C_BOOL },
	{ "core.fsync", C_SPECIAL },
	{ "core.fsyncmethod", C_SPECIAL },
	{ "core.fsyncobjectfiles", C_SPECIAL },
	{ "core.hookspath", C_STRING },
	{ "core.ignorecase", C_BOOL },
	{ "core.ignorestat", C_BOOL },
	{ "core.logallrefupdates", C_SPECIAL },
	{ "core.loosecompression", C_COMPRESSION },
	{ "core.packedgitlimit", C_ULONG },
	{ "core.packedgitwindowsize", C_ULONG },
	{ "core.precomposeunicode", C_BOOL },
	{ "core.preloadindex", C_BOOL },
	{ "core.protecthfs", C_BOOL },
	{ "core.protectntfs", C_BOOL },
	{ "core.quotepath", C_BOOL },
	{ "core.safecrlf", C_SPECIAL },
	{ "core.sparsecheckout", C_BOOL },
	{ "core.sparsecheckoutcone", C_BOOL },
	{ "core.symlinks", C_BOOL },
	{ "core.trustctime", C_BOOL },
	{ "core.warnambiguousrefs", C_BOOL },
	{ "i18n.commitencoding", C_STRING },
	{ "i18n.logoutputencoding", C_STRING },
	{ "mailmap.blob", C_STRING },
	{ "mailmap.file", C_STRING },
	{ "pack.compression", C_COMPRESSION },
	{ "pack.packsizelimit", C_ULONG },
	{ "pager.color", C_BOOL },
	{ "push.default", C_SPECIAL },
	{ "sparse.expectfilesoutsideofpatterns", C_BOOL },
	{ "user.email", C_STRING },
	{ "user.name", C_STRING },
	{ "user.useconfigonly", C_BOOL },
};

static int cmp_known(const void *key, const void *k)
{
	return strcmp(key, ((const struct known *)k)->key);
}

/* One of words (a NULL-ended list), compared as cmp compares. */
static int one_of(const char *value, const char *const *words, int (*cmp)(const char *, const char *))
{
	for (; *words; words++)
		if (!cmp(value, *words))
			return 1;
	return 0;
}

/* A non-negative number with git's units; git's messages otherwise. */
static void check_ulong(const char *key, const char *value)
{
	if (value && strchr(value, '-'))
		die("bad numeric config value '%s' for '%s': invalid unit", value, key);
	config_parse_long(key, value);
}

/* core.fsync: components separated by commas, each perhaps negated with
 * '-' and matched by its first letters; "none" only as all that is left.
 * An unknown one is named in a warning and ignored. */
static void check_fsync(const char *value)
{
	static const char *const names[] = {
		"loose-object", "pack", "pack-metadata", "commit-graph", "index", "reference",
		"objects", "derived-metadata", "committed", "added", "all", NULL };
	const char *p = value;

	for (;;) {
		const char *end;
		size_t len;
		int found = 0;

		p += strspn(p, ", \t\n\r");
		end = strchrnul(p, ',');
		len = (size_t)(end - p);
		if (!strcmp(p, "none")) {
			p = end;
			continue;
		}
		if (*p == '-') {
			p++;
			if (!--len)
				warning("invalid value for variable core.fsync");
		}
		if (!len)
			return;
		for (const char *const *n = names; *n; n++)
			if (!strncmp(*n, p, len))
				found = 1;
		if (!found)
			warning("ignoring unknown core.fsync component '%.*s'", (int)len, p);
		p = end;
	}
}

static void check_special(const char *key, const char *value)
{
	static const char *const rebase[] = { "never", "local", "remote", "always", NULL };
	static const char *const push[] = { "nothing", "matching", "simple", "upstream", "tracking",
					    "current", NULL };
	static const char *const hints[] = { "none", "commit", "committish", "tree", "treeish",
					    "blob", NULL };
	static const char *const methods[] = { "fsync", "writeout-only", "batch", NULL };
	const char *slot;
	long n;

	/* Values that are words, or else booleans. */
	if ((!strcmp(key, "core.logallrefupdates") && value && !strcasecmp(value, "always")) ||
	    (!strcmp(key, "core.autocrlf") && value && !strcasecmp(value, "input")) ||
	    (!strcmp(key, "core.safecrlf") && value && !strcasecmp(value, "warn")) ||
	    (!strcmp(key, "branch.autosetupmerge") && value &&
	     (!strcmp(value, "always") || !strcmp(value, "inherit") || !strcmp(value, "simple"))))
		return;
	if (!strcmp(key, "core.logallrefupdates") || !strcmp(key, "core.autocrlf") ||
	    !strcmp(key, "core.safecrlf") || !strcmp(key, "branch.autosetupmerge")) {
		config_parse_bool(key, value);
		return;
	}
	if (!strcmp(key, "core.fsyncobjectfiles")) {
		warning("core.fsyncObjectFiles is deprecated; use core.fsync instead");
		config_parse_bool(key, value);
		return;
	}
	if (!strcmp(key, "color.advice")) {
		config_parse_colorbool(key, value);
		return;
	}

	/* The rest need a value. */
	if (!value)
		config_die_missing_value(key);
	if (!strcmp(key, "core.abbrev")) {
		if (!strcasecmp(value, "auto") || !config_maybe_bool(value))
			return;
		n = config_parse_int(key, value);
		if (n < 4 || n > HEX_SZ) {
			error("abbrev length out of range: %ld", n);
			config_die_bad_variable();
		}
	} else if (!strcmp(key, "branch.autosetuprebase")) {
		if (!one_of(value, rebase, strcmp)) {
			error("malformed value for %s", key);
			config_die_bad_variable();
		}
	} else if (!strcmp(key, "push.default")) {
		if (!one_of(value, push, strcmp)) {
			error("malformed value for %s: %s", key, value);
			error("must be one of nothing, matching, simple, upstream or current");
			config_die_bad_variable();
		}
	} else if (!strcmp(key, "core.disambiguate")) {
		if (!one_of(value, hints, strcasecmp)) {
			error("unknown hint type for '%s': %s", key, value);
			config_die_bad_variable();
		}
	} else if (!strcmp(key, "core.commentchar")) {
		if (strcasecmp(value, "auto") && (!value[0] || value[1])) {
			error("core.commentChar should only be one character");
			config_die_bad_variable();
		}
	} else if (!strcmp(key, "core.createobject")) {
		if (strcmp(value, "rename") && strcmp(value, "link"))
			die("invalid mode for object creation: %s", value);
	} else if (!strcmp(key, "core.fsync")) {
		check_fsync(value);
	} else if (!strcmp(key, "core.fsyncmethod")) {
		if (!one_of(value, methods, strcmp))
			warning("ignoring unknown core.fsyncMethod value '%s'", value);
	} else if (skip_prefix(key, "color.advice.", &slot)) {
		struct strbuf sb = STRBUF_INIT;
		if (color_parse(value, &sb) < 0)
			config_die_bad_variable();
		strbuf_release(&sb);
	}
}

int config_check_default(const char *key, const char *value, void *data)
{
	const struct known *k;
	long n;

	(void)data;
	/* Most keys are in no other section: one test before the search. */
	if (!strchr("abcimpsu", key[0]))
		return 0;
	k = bsearch(key, known, ARRAY_SIZE(known), sizeof(*known), cmp_known);
	if (!k)
		return 0;
	switch (k->check) {
	case C_BOOL:
		config_parse_bool(key, value);
		break;
	case C_ULONG:
		check_ulong(key, value);
		break;
	case C_STRING:
		if (!value)
			config_die_missing_value(key);
		break;
	case C_COMPRESSION:
		n = config_parse_int(key, value);
		if (n < -1 || n > 9)
			die("bad %s compression level %ld", key[0] == 'p' ? "pack" : "zlib", n);
		break;
	case C_SPECIAL:
		check_special(key, value);
		break;
	}
	return 0;
}

void config_check_default_all(void)
{
	config_for_each(CONFIG_ALL, config_check_default, NULL);
}

/* The last value of key dies as missing: where config_for_each() reaches
 * it, so that the message names its file and line. */
struct last_of {
	const char *key;
	size_t left;    /* occurrences before the last */
};

static int die_at_last(const char *key, const char *value, void *data)
{
	struct last_of *l = data;
	(void)value;
	if (!strcmp(key, l->key) && !l->left--)
		config_die_missing_value(key);
	return 0;
}

static const char *needs_value(const char *key, const char *value)
{
	const char **all;
	if (value)
		return value;
	struct last_of l = { key, config_get_all(key, &all) - 1 };
	free(all);
	config_for_each(CONFIG_ALL, die_at_last, &l);
	BUG("the last %s was not found again", key);
}

void config_check_repo_settings(void)
{
	static const char *const order[] = {
		"feature.manyfiles", "feature.experimental", "core.commitgraph",
		"commitgraph.generationversion", "commitgraph.readchangedpaths",
		"gc.writecommitgraph", "fetch.writecommitgraph", "pack.usesparse",
		"core.multipackindex", "index.sparse", "index.version", "core.untrackedcache",
		"fetch.negotiationalgorithm", NULL };
	static const char *const algorithms[] = { "skipping", "noop", "consecutive", "default", NULL };
	static int checked;

	if (checked++)
		return;
	for (const char *const *k = order; *k; k++) {
		const char *v;
		if (!config_get(*k, &v))
			continue;
		if (!strcmp(*k, "index.version") || !strcmp(*k, "commitgraph.generationversion"))
			config_parse_int(*k, v);
		else if (!strcmp(*k, "core.untrackedcache"))
			needs_value(*k, v);
		else if (!strcmp(*k, "fetch.negotiationalgorithm")) {
			if (!one_of(needs_value(*k, v), algorithms, strcasecmp))
				die("unknown fetch negotiation algorithm '%s'", v);
		} else
			config_parse_bool(*k, v);
	}
}
