/* init.c: create an empty repository git accepts, or re-initialise one. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include <fcntl.h>
#include <sys/stat.h>
#include "lib/repo.h"

static const char *const init_usage[] = {
	"git init [-q | --quiet] [--bare] [--template=<template-directory>]\n"
	"         [--separate-git-dir <git-dir>] [--object-format=<format>]\n"
	"         [-b <branch-name> | --initial-branch=<branch-name>]\n"
	"         [--shared[=<permissions>]] [<directory>]",
	NULL
};

static void write_file_if_missing(const char *dir, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd >= 0) {
		if (write_in_full(fd, text, strlen(text)) < 0)
			die_errno("could not write '%s'", path);
		close(fd);
	} else if (errno != EEXIST)
		die_errno("could not create '%s'", path);
	free(path);
}

static void make_dir(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		die_errno("cannot mkdir %s", path);
	free(path);
}

int cmd_init(int argc, const char **argv)
{
	int quiet = 0, bare = 0, reinit;
	const char *branch = NULL, *template_dir = NULL, *objfmt = NULL;
	struct strbuf gitdir = STRBUF_INIT, head = STRBUF_INIT, abs = STRBUF_INIT;
	const char *dir = NULL;
	struct option opts[] = {
		OPT_STRING(0, "template", &template_dir, "template-directory",
			   "directory from which templates will be used"),
		OPT_BOOL(0, "bare", &bare, "create a bare repository"),
		OPT__QUIET(&quiet, "be quiet"),
		OPT_STRING('b', "initial-branch", &branch, "name",
			   "override the name of the initial branch"),
		OPT_STRING(0, "object-format", &objfmt, "hash", "specify the hash algorithm to use"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, init_usage, 0);
	if (argc > 1)
		usage_with_options(init_usage, opts);
	config_check_default_all();
	if (objfmt && strcmp(objfmt, "sha1"))
		die("unknown hash algorithm '%s'", objfmt);
	if (argc == 1) {
		char *with_slash = xstrfmt("%s/", argv[0]);
		dir = argv[0];
		if (mkdir_leading(with_slash) < 0)
			die_errno("cannot mkdir %s", dir);
		free(with_slash);
		if (chdir(dir) < 0)
			die_errno("cannot chdir to %s", dir);
	}
	if (getenv("GIT_DIR")) {
		strbuf_addstr(&gitdir, getenv("GIT_DIR"));
		bare = bare || !getenv("GIT_WORK_TREE");
	} else
		strbuf_addstr(&gitdir, bare ? "." : ".git");
	if (!bare || strcmp(gitdir.buf, "."))
		if (mkdir(gitdir.buf, 0777) < 0 && errno != EEXIST)
			die_errno("cannot mkdir %s", gitdir.buf);

	reinit = is_git_directory(gitdir.buf);
	make_dir(gitdir.buf, "refs");
	make_dir(gitdir.buf, "refs/heads");
	make_dir(gitdir.buf, "refs/tags");
	make_dir(gitdir.buf, "objects");
	make_dir(gitdir.buf, "objects/info");
	make_dir(gitdir.buf, "objects/pack");
	make_dir(gitdir.buf, "hooks");
	make_dir(gitdir.buf, "info");
	make_dir(gitdir.buf, "branches");
	write_file_if_missing(gitdir.buf, "description",
		"Unnamed repository; edit this file 'description' to name the repository.\n");
	write_file_if_missing(gitdir.buf, "info/exclude",
		"# git ls-files --others --exclude-from=.git/info/exclude\n"
		"# Lines that start with '#' are comments.\n"
		"# For a project mostly in C, the following would be a good set of\n"
		"# exclude patterns (uncomment them if you want to use them):\n"
		"# *.[oa]\n"
		"# *~\n");
	if (!reinit) {
		const char *def = NULL;
		if (!branch && config_get("init.defaultbranch", &def) && def && *def)
			branch = def;
		if (!branch) {
			branch = "master";
			if (!quiet)
				fputs("hint: Using 'master' as the name for the initial branch. This default branch name\n"
				      "hint: is subject to change. To configure the initial branch name to use in all\n"
				      "hint: of your new repositories, which will suppress this warning, call:\n"
				      "hint: \n"
				      "hint: \tgit config --global init.defaultBranch <name>\n"
				      "hint: \n"
				      "hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and\n"
				      "hint: 'development'. The just-created branch can be renamed via this command:\n"
				      "hint: \n"
				      "hint: \tgit branch -m <name>\n", stderr);
		}
		strbuf_addf(&head, "ref: refs/heads/%s\n", branch);
		write_file_if_missing(gitdir.buf, "HEAD", head.buf);
		write_file_if_missing(gitdir.buf, "config", bare ?
			"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n" :
			"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
			"\tlogallrefupdates = true\n");
	} else if (branch) {
		warning("re-init: ignored --initial-branch=%s", branch);
	}
	if (!quiet) {
		strbuf_realpath_lexical(&abs, gitdir.buf);
		printf("%s%s Git repository in %s%s\n",
		       reinit ? "Reinitialized" : "Initialized",
		       reinit ? " existing" : " empty",
		       abs.buf, "/");
	}
	strbuf_release(&gitdir);
	strbuf_release(&head);
	strbuf_release(&abs);
	return 0;
}
