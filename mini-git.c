/* mini-git.c: main(). Dispatch on argv[0] ("mini-git-branch") or argv[1]
 * through a sorted table, after the global options. Nothing else runs
 * before the command: no config, no repository discovery, no CPU probing. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/fd-batch.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
};

static const struct cmd commands[] = {
#define CMD(name, fn) { name, fn },
#include "builtins.h"
#undef CMD
};

static const struct cmd *find_cmd(const char *name)
{
	size_t lo = 0, hi = ARRAY_SIZE(commands);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, commands[mid].name);
		if (!c)
			return &commands[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static const char main_usage[] =
	"usage: mini-git [--version] [--help] [-C <path>] [-c <name>=<value>]\n"
	"                [--git-dir=<path>] [--work-tree=<path>]\n"
	"                <command> [<args>]\n";

static int print_help(FILE *f)
{
	fputs(main_usage, f);
	fputs("\nThe commands are:\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "   %s\n", commands[i].name);
	return 0;
}

static int run(const struct cmd *c, int argc, const char **argv)
{
	int ret = c->fn(argc, argv);
	/* Like git: report a failed write of our output. */
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return ret;
		die_errno("write failure on standard output");
	}
	return ret;
}

static NORETURN void unknown(const char *name)
{
	fprintf(stderr, "mini-git: '%s' is not a mini-git command. See 'mini-git --help'.\n", name);
	exit(1);
}

int main(int argc, const char **argv)
{
	const char *base = strrchr(argv[0], '/');
	const char *cmdname;
	const struct cmd *c;

	/* Our own stdout buffer: stdio would otherwise fstat(1) to size one.
	 * Output is flushed at exit and before any message on stderr. */
	static char outbuf[8192];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	/* Files opened only to be read are closed in batches, the last
	 * ones by exit (lib/fd-batch.h). */
	static struct fd_batch whole_run;
	fd_batch_begin(&whole_run);

	base = base ? base + 1 : argv[0];
	if (skip_prefix(base, "mini-git-", &cmdname)) {
		c = find_cmd(cmdname);
		if (!c)
			unknown(cmdname);
		argv[0] = c->name;
		return run(c, argc, argv);
	}

	argv++;
	argc--;
	while (argc > 0 && argv[0][0] == '-') {
		const char *a = argv[0], *v;
		if (!strcmp(a, "--version") || !strcmp(a, "-v")) {
			printf("mini-git version %s\n", MINI_GIT_VERSION);
			return 0;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			return print_help(stdout);
		} else if (!strcmp(a, "-C")) {
			if (argc < 2) {
				fprintf(stderr, "no directory given for -C\n%s", main_usage);
				exit(129);
			}
			if (*argv[1] && chdir(argv[1]) < 0)
				die_errno("cannot change to '%s'", argv[1]);
			argv++;
			argc--;
		} else if (!strcmp(a, "-c")) {
			if (argc < 2) {
				fprintf(stderr, "-c expects a configuration string\n%s", main_usage);
				exit(129);
			}
			config_push_parameter(argv[1]);
			argv++;
			argc--;
		} else if (skip_prefix(a, "--git-dir=", &v)) {
			setenv("GIT_DIR", v, 1);
		} else if (!strcmp(a, "--git-dir")) {
			if (argc < 2) {
				fprintf(stderr, "no directory given for --git-dir\n%s", main_usage);
				exit(129);
			}
			setenv("GIT_DIR", argv[1], 1);
			argv++;
			argc--;
		} else if (skip_prefix(a, "--work-tree=", &v)) {
			setenv("GIT_WORK_TREE", v, 1);
		} else if (!strcmp(a, "--work-tree")) {
			if (argc < 2) {
				fprintf(stderr, "no directory given for --work-tree\n%s", main_usage);
				exit(129);
			}
			setenv("GIT_WORK_TREE", argv[1], 1);
			argv++;
			argc--;
		} else if (!strcmp(a, "--no-pager") || !strcmp(a, "-P") ||
			   !strcmp(a, "--no-replace-objects") || !strcmp(a, "--literal-pathspecs")) {
			/* accepted for compatibility; nothing to do */
		} else {
			fprintf(stderr, "unknown option: %s\n%s", a, main_usage);
			exit(129);
		}
		argv++;
		argc--;
	}
	if (argc == 0) {
		print_help(stdout);
		return 1;
	}
	if (!strcmp(argv[0], "help")) {
		if (argc > 1) {
			c = find_cmd(argv[1]);
			if (!c)
				unknown(argv[1]);
			const char *h[] = { c->name, "-h", NULL };
			return run(c, 2, h);
		}
		return print_help(stdout);
	}
	if (!strcmp(argv[0], "version")) {
		printf("mini-git version %s\n", MINI_GIT_VERSION);
		return 0;
	}
	c = find_cmd(argv[0]);
	if (!c)
		unknown(argv[0]);
	argv[0] = c->name;
	return run(c, argc, argv);
}
