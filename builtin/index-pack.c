/* index-pack.c: build a pack's .idx (version 2), from a file or stdin. */
#include "builtin/builtin.h"
#include "lib/config.h"
#include "lib/progress.h"
#include "lib/repo.h"
#include "odb/odb.h"
#include "remote/index-pack.h"
#include <fcntl.h>
#include <sys/stat.h>

static const char index_pack_usage[] =
	"usage: git index-pack [-v] [-o <index-file>] [--keep | --keep=<msg>] [--[no-]rev-index] "
	"[--verify] [--strict] (<pack-file> | --stdin [--fix-thin] [<pack-file>])\n";

static NORETURN void usage_exit(void)
{
	fputs(index_pack_usage, stderr);
	exit(129);
}

/* Copy stdin to fd, all of it. *first_ns (if not NULL) gets the time the
 * first bytes came, where git starts its "Receiving objects" clock. */
static void copy_stdin(int fd, const char *path, uint64_t *first_ns)
{
	char buf[65536];
	for (;;) {
		ssize_t n = xread(0, buf, sizeof(buf));
		if (n < 0)
			die_errno("read error on input");
		if (!n)
			break;
		if (first_ns && !*first_ns)
			*first_ns = progress_now_ns();
		if (write_in_full(fd, buf, (size_t)n) < 0) {
			unlink(path);
			die_errno("unable to write '%s'", path);
		}
	}
}

int cmd_index_pack(int argc, const char **argv)
{
	struct index_pack_opts opts = { 0 };
	const char *pack = NULL, *idx = NULL, *keep_msg = NULL, *v;
	int from_stdin = 0;
	unsigned char hash[RAW_SZ];
	struct object_id id;

	/* git's index-pack parses by hand; so do we, for the same messages. */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (*a != '-' || !a[1]) {
			if (pack)
				usage_exit();
			pack = a;
		} else if (!strcmp(a, "--stdin")) {
			from_stdin = 1;
		} else if (!strcmp(a, "-v")) {
			opts.verbose = 1;
		} else if (!strcmp(a, "--keep")) {
			keep_msg = "";
		} else if (skip_prefix(a, "--keep=", &v)) {
			keep_msg = v;
		} else if (skip_prefix(a, "--threads=", &v)) {
			char *end;
			long n = strtol(v, &end, 10);
			if (!*v || *end || n < 0)
				die("invalid number of threads specified (%s)", v);
			opts.threads = (int)n;
		} else if (!strcmp(a, "--progress-title")) {
			if (opts.progress_title || ++i >= argc)
				usage_exit();
			opts.progress_title = argv[i];
		} else if (!strcmp(a, "-o")) {
			if (idx || ++i >= argc)
				usage_exit();
			idx = argv[i];
		} else if (!strcmp(a, "--fix-thin")) {
			opts.fix_thin = 1;
		} else if (!strcmp(a, "--check-self-contained-and-connected")) {
			opts.check_links = LINKS_IN_PACK;
		} else if (!strcmp(a, "--strict") ||
			   !strcmp(a, "--rev-index") || !strcmp(a, "--no-rev-index") ||
			   starts_with(a, "--strict=") || starts_with(a, "--pack_header=") ||
			   starts_with(a, "--max-input-size=")) {
			/* accepted, and not acted on */
		} else {
			usage_exit();
		}
	}
	if (!pack && !from_stdin)
		usage_exit();
	if (opts.fix_thin && !from_stdin)
		die("the option '%s' requires '%s'", "--fix-thin", "--stdin");
	if (pack && !ends_with(pack, ".pack"))
		die("packfile name '%s' does not end with '.pack'", pack);
	/* Repository discovery moves to the top of the work tree: names given
	 * on the command line are relative to where we started. */
	if (pack) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_realpath_lexical(&sb, pack);
		pack = strbuf_detach(&sb, NULL);
	}
	if (idx) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_realpath_lexical(&sb, idx);
		idx = strbuf_detach(&sb, NULL);
	}

	if (from_stdin) {
		setup_git_directory();
		opts.check_collisions = 1;
		char *dir = xstrfmt("%s/pack", odb_objdir());
		char *tmp = xstrfmt("%s/tmp_pack_XXXXXX", dir);
		int fd = mkstemp(tmp);
		if (fd < 0)
			die_errno("unable to create temporary file '%s'", tmp);
		opts.receiving = 1;
		copy_stdin(fd, tmp, opts.verbose ? &opts.receive_start_ns : NULL);
		if (fsync(fd) < 0 || close(fd) < 0)
			die_errno("unable to write '%s'", tmp);
		if (!pack && !idx) {
			if (index_pack_store(dir, tmp, &opts, keep_msg, hash) < 0)
				exit(128);
			memcpy(id.hash, hash, RAW_SZ);
			printf("%s\t%s\n", keep_msg ? "keep" : "pack", oid_to_hex(&id));
			free(dir);
			free(tmp);
			return 0;
		}
		/* an explicit destination for the pack and/or the index */
		char *dest_pack = pack ? xstrdup(pack) : NULL;
		char *dest_idx = idx ? xstrdup(idx) : NULL;
		if (!dest_idx && dest_pack)
			dest_idx = xstrfmt("%.*s.idx", (int)(strlen(dest_pack) - 5), dest_pack);
		if (!dest_idx)
			dest_idx = xstrfmt("%s.idx", tmp);
		if (index_pack_file(tmp, dest_idx, &opts, hash) < 0) {
			unlink(tmp);
			exit(128);
		}
		if (dest_pack && rename(tmp, dest_pack) < 0)
			die_errno("unable to rename '%s'", tmp);
		memcpy(id.hash, hash, RAW_SZ);
		printf("%s\t%s\n", keep_msg ? "keep" : "pack", oid_to_hex(&id));
		free(dest_pack);
		free(dest_idx);
		free(dir);
		free(tmp);
		return 0;
	}

	if (setup_git_directory_gently() == 0)
		opts.check_collisions = 1;
	config_check_default_all();
	char *dest_idx = idx ? xstrdup(idx) : xstrfmt("%.*s.idx", (int)(strlen(pack) - 5), pack);
	if (index_pack_file(pack, dest_idx, &opts, hash) < 0)
		exit(128);
	memcpy(id.hash, hash, RAW_SZ);
	printf("%s\n", oid_to_hex(&id));
	free(dest_idx);
	free((char *)pack);
	free((char *)idx);
	return 0;
}
