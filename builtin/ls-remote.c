/* ls-remote.c: list the refs of a remote repository. */
#include "builtin/builtin.h"
#include "lib/wildmatch.h"
#include "lib/config.h"
#include "lib/repo.h"
#include "remote/remote.h"
#include "remote/transport.h"
#include "refs/refs.h"

static const char *const ls_remote_usage[] = {
	"git ls-remote [--heads] [--tags] [--refs] [--upload-pack=<exec>]\n"
	"                     [-q | --quiet] [--exit-code] [--get-url] [--sort=<key>]\n"
	"                     [--symref] [<repository> [<refs>...]]",
	NULL
};

/* git's tail match: a pattern matches a ref whose name ends in "/" + it. */
static int tail_match(const char **patterns, int nr, const char *name)
{
	if (!nr)
		return 1;
	for (int i = 0; i < nr; i++) {
		char *pat = xstrfmt("*/%s", patterns[i]);
		int m = wildmatch(pat, name, 0);
		free(pat);
		if (m)
			return 1;
	}
	return 0;
}

static int wanted(const char *name, int heads, int tags, int refs_only)
{
	if (refs_only && (ends_with(name, "^{}") || check_refname_format(name, 0)))
		return 0;
	if (!heads && !tags)
		return 1;
	return (heads && starts_with(name, "refs/heads/")) ||
	       (tags && starts_with(name, "refs/tags/"));
}

int cmd_ls_remote(int argc, const char **argv)
{
	int quiet = 0, heads = 0, tags = 0, refs_only = 0, get_url = 0;
	int exit_code = 0, symref = 0, found = 0;
	const char *upload_pack = NULL, *sort_key = NULL, *server_option = NULL;
	const char *dest = NULL, *url;
	const char *prefixes[2];
	size_t nr_prefixes = 0;
	struct remote_config rc;
	struct transport *t;
	struct strbuf out = STRBUF_INIT;
	struct option opts[] = {
		OPT__QUIET(&quiet, "do not print remote URL"),
		OPT_STRING(0, "upload-pack", &upload_pack, "exec", "path of git-upload-pack on the remote host"),
		OPT_BOOL('t', "tags", &tags, "limit to tags"),
		OPT_BOOL('h', "heads", &heads, "limit to heads"),
		OPT_BOOL(0, "refs", &refs_only, "do not show peeled tags"),
		OPT_BOOL(0, "get-url", &get_url, "take url.<base>.insteadOf into account"),
		OPT_STRING(0, "sort", &sort_key, "key", "field name to sort on"),
		OPT_SET_INT_F(0, "exit-code", &exit_code, "exit with exit code 2 if no matching refs are found", 2, PARSE_OPT_NONEG),
		OPT_BOOL(0, "symref", &symref, "show underlying ref in addition to the object pointed by it"),
		OPT_STRING('o', "server-option", &server_option, "server-specific", "option to transmit"),
		OPT_END()
	};

	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options(ls_remote_usage, opts);
	argc = parse_options(argc, argv, opts, ls_remote_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc > 0) {
		dest = argv[0];
		argv++;
		argc--;
	}
	remote_config_get(dest, &rc);
	url = rc.url;
	if (!url) {
		die("No remote configured to list refs from.");
	}
	if (get_url) {
		printf("%s\n", url);
		remote_config_release(&rc);
		return 0;
	}
	if (!dest && !quiet) {
		char *anon = url_strip_credentials(url);
		fprintf(stderr, "From %s\n", anon);
		free(anon);
	}
	t = transport_open(url, 1, 0);
	if (heads)
		prefixes[nr_prefixes++] = "refs/heads/";
	if (tags)
		prefixes[nr_prefixes++] = "refs/tags/";
	transport_list_refs(t, prefixes, nr_prefixes);
	for (size_t i = 0; i < t->nr_refs; i++) {
		const struct remote_ref *r = &t->refs[i];
		if (r->unborn)
			continue;
		if (wanted(r->name, heads, tags, refs_only) && tail_match(argv, argc, r->name)) {
			if (symref && r->symref)
				strbuf_addf(&out, "ref: %s\t%s\n", r->symref, r->name);
			strbuf_addf(&out, "%s\t%s\n", oid_to_hex(&r->oid), r->name);
			found = 1;
		}
		if (r->has_peeled) {
			char *pname = xstrfmt("%s^{}", r->name);
			if (wanted(pname, heads, tags, refs_only) && tail_match(argv, argc, pname)) {
				strbuf_addf(&out, "%s\t%s\n", oid_to_hex(&r->peeled), pname);
				found = 1;
			}
			free(pname);
		}
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	transport_close(t);
	remote_config_release(&rc);
	return found ? 0 : exit_code;
}
