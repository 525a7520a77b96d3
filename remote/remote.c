/* remote.c: remote configuration and refspecs. */
#include "remote/remote.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "refs/refs.h"

int looks_like_url(const char *s)
{
	return strstr(s, "://") || strchr(s, '/') || !strcmp(s, ".") || !strcmp(s, "..");
}

int refspec_parse(const char *spec, struct refspec_item *out)
{
	const char *colon;
	char *src, *dst = NULL;
	int sp, dp = 0;

	memset(out, 0, sizeof(*out));
	if (*spec == '+') {
		out->force = 1;
		spec++;
	}
	colon = strrchr(spec, ':');
	if (colon) {
		src = xstrndup(spec, colon - spec);
		dst = xstrdup(colon + 1);
	} else {
		src = xstrdup(spec);
	}
	sp = strchr(src, '*') != NULL;
	if (dst)
		dp = strchr(dst, '*') != NULL;
	if ((dst && *dst && sp != dp) ||
	    (sp && strchr(strchr(src, '*') + 1, '*')) ||
	    (*src && check_refname_format(src, REFNAME_ALLOW_ONELEVEL | (sp ? REFNAME_REFSPEC_PATTERN : 0))) ||
	    (dst && *dst && check_refname_format(dst, REFNAME_ALLOW_ONELEVEL | (dp ? REFNAME_REFSPEC_PATTERN : 0)))) {
		free(src);
		free(dst);
		return -1;
	}
	out->pattern = sp;
	out->src = src;
	out->dst = dst;
	return 0;
}

void refspec_release(struct refspec_item *it)
{
	free(it->src);
	free(it->dst);
}

char *refspec_map(const struct refspec_item *it, const char *name)
{
	if (!it->pattern) {
		if (strcmp(it->src, name))
			return NULL;
		return xstrdup(it->dst ? it->dst : "");
	}
	const char *star = strchr(it->src, '*');
	size_t pre = star - it->src, post = strlen(star + 1), nl = strlen(name);
	if (nl < pre + post || strncmp(name, it->src, pre) || strcmp(name + nl - post, star + 1))
		return NULL;
	if (!it->dst)
		return xstrdup("");
	const char *dstar = strchr(it->dst, '*');
	return xstrfmt("%.*s%.*s%s", (int)(dstar - it->dst), it->dst,
		       (int)(nl - pre - post), name + pre, dstar + 1);
}

static char *current_branch_remote(void)
{
	struct strbuf target = STRBUF_INIT;
	const char *v, *b;
	char *ret = NULL;
	if (refs_read_symref("HEAD", &target) && skip_prefix(target.buf, "refs/heads/", &b)) {
		char *key = xstrfmt("branch.%s.remote", b);
		if (config_get(key, &v) && v)
			ret = xstrdup(v);
		free(key);
	}
	strbuf_release(&target);
	return ret;
}

void remote_config_get(const char *dest, struct remote_config *rc)
{
	memset(rc, 0, sizeof(*rc));
	if (dest && looks_like_url(dest)) {
		rc->url = xstrdup(dest);
		return;
	}
	if (setup_git_directory_gently() < 0) {
		if (dest)
			rc->url = xstrdup(dest);
		return;
	}
	rc->name = dest ? xstrdup(dest) : current_branch_remote();
	if (!rc->name)
		rc->name = xstrdup(remote_default_name());
	char *key = xstrfmt("remote.%s.url", rc->name);
	const char *v;
	if (config_get(key, &v) && v)
		rc->url = xstrdup(v);
	free(key);
	if (!rc->url) {
		if (dest)
			rc->url = xstrdup(dest);
		return;
	}
	const char **vals;
	key = xstrfmt("remote.%s.fetch", rc->name);
	size_t n = config_get_all(key, &vals);
	free(key);
	rc->fetch = xcalloc(n ? n : 1, sizeof(*rc->fetch));
	for (size_t i = 0; i < n; i++) {
		if (!vals[i] || refspec_parse(vals[i], &rc->fetch[rc->nr_fetch]) < 0)
			die("invalid refspec '%s'", vals[i] ? vals[i] : "");
		rc->nr_fetch++;
	}
	free(vals);
}

void remote_config_release(struct remote_config *rc)
{
	for (size_t i = 0; i < rc->nr_fetch; i++)
		refspec_release(&rc->fetch[i]);
	free(rc->fetch);
	free(rc->name);
	free(rc->url);
}

/* A variable git's remote machinery stores as a string: a name with no
 * value is refused. */
static void need_value(const char *key, const char *value)
{
	if (!value)
		config_die_missing_value(key);
}

/* The remotes git knows of: one (its name), or many. */
static char *only_remote;
static int many_remotes;

static void note_remote(const char *name, size_t len)
{
	if (many_remotes || (only_remote && !strncmp(only_remote, name, len) && !only_remote[len]))
		return;
	if (only_remote)
		many_remotes = 1;
	else
		only_remote = xstrndup(name, len);
}

static int check_remote_var(const char *key, const char *value, void *data)
{
	static const char *const strings[] = { "url", "pushurl", "push", "fetch", "receivepack",
		"uploadpack", "tagopt", "proxy", "proxyauthmethod", "vcs", NULL };
	static const char *const bools[] = { "mirror", "skipdefaultupdate", "skipfetchall", "prune",
		"prunetags", NULL };
	const char *rest, *var;
	(void)data;

	if (skip_prefix(key, "branch.", &rest)) {
		if (!(var = strrchr(rest, '.')))
			return 0;
		if (var == rest)
			config_die_bad_variable();   /* [branch ""] */
		var++;
		if (!strcmp(var, "remote") || !strcmp(var, "pushremote") || !strcmp(var, "merge"))
			need_value(key, value);
		return 0;
	}
	if (skip_prefix(key, "url.", &rest)) {
		if ((var = strrchr(rest, '.')) &&
		    (!strcmp(var + 1, "insteadof") || !strcmp(var + 1, "pushinsteadof")))
			need_value(key, value);
		return 0;
	}
	if (!skip_prefix(key, "remote.", &rest))
		return 0;
	if (!(var = strrchr(rest, '.'))) {
		if (!strcmp(rest, "pushdefault"))
			need_value(key, value);
		return 0;
	}
	if (*rest == '/') {
		/* git names the rest of the key here, the variable too */
		warning("config remote shorthand cannot begin with '/': %s", rest);
		return 0;
	}
	/* any variable of a remote makes it one git knows */
	note_remote(rest, (size_t)(var - rest));
	var++;
	for (size_t i = 0; strings[i]; i++)
		if (!strcmp(var, strings[i]))
			need_value(key, value);
	for (size_t i = 0; bools[i]; i++)
		if (!strcmp(var, bools[i]))
			config_parse_bool(key, value);
	return 0;
}

void remote_config_check(void)
{
	static int checked;

	if (checked)
		return;
	checked = 1;
	config_for_each(CONFIG_ALL, check_remote_var, NULL);
}

const char *remote_default_name(void)
{
	remote_config_check();
	return only_remote && !many_remotes ? only_remote : "origin";
}

void remote_looked_up(const char *name)
{
	remote_config_check();
	note_remote(name, strlen(name));
}
