/* t-commit-walk.c: a driver for odb/commit-walk.c and odb/commit-graph.c,
 * used by t1600-commit-graph.sh (which compares it with git) and by
 * perf/contains. Run without arguments (as `make test` does) it has
 * nothing to check on its own and says so in TAP.
 *
 *   t-commit-walk [-c key=value] <command> ...: the commands are
 *   t-commit-walk contains <commit> <tip>...   tips that contain commit
 *   t-commit-walk ahead <commit> <tip>...      the same walk; prints only how many
 *                                              commits a second thread read ahead
 *   t-commit-walk merged <base> <tip>...       tips reachable from base
 *   t-commit-walk is-ancestor <a> <b>          exit 0 if a is an ancestor of b
 *   t-commit-walk ahead-behind <a> <b>         "<ahead>\t<behind>"
 *   t-commit-walk merge-base <a> <b>           best common ancestors, sorted
 *   t-commit-walk pairs <list                  for each line "<a> <b>": "<a> <b> yes|no"
 *                                              (is-ancestor), "ab <a> <b> <ahead>\t<behind>"
 *   t-commit-walk bases <list                  for each line "<a> <b>": "mb <a> <b> <bases> "
 *   t-commit-walk graph                        commits in the commit-graph
 *   t-commit-walk graph-check                  every graph entry against the object
 *   t-commit-walk parse <commit>...            "<id> <date> <parents>" as the walk reads them
 *   t-commit-walk head <object> <n>            odb_read_object_head(): "<type> <size> <got>"
 *                                              and the bytes, or "none"
 */
#include "odb/commit-walk.h"
#include "odb/commit-graph.h"
#include "odb/oid-name.h"
#include "lib/repo.h"
#include "lib/config.h"
#include <inttypes.h>

static void resolve(const char *name, struct object_id *oid)
{
	if (get_oid(name, oid))
		die("bad revision '%s'", name);
}

static int cmp_oid(const void *a, const void *b)
{
	return oidcmp(a, b);
}

/* merged: 0 contains, 1 merged, 2 contains without printing */
static int tips_cmd(int argc, const char **argv, int merged)
{
	struct object_id x, *tips;
	unsigned char *res;
	int n = argc - 2, ret;

	if (n < 0)
		die("usage: %s <commit> <tip>...", argv[0]);
	resolve(argv[1], &x);
	tips = xcalloc(n ? n : 1, sizeof(*tips));
	res = xcalloc(n ? n : 1, 1);
	for (int i = 0; i < n; i++)
		resolve(argv[2 + i], &tips[i]);
	ret = merged == 1 ? commits_merged_into(&x, tips, n, res) : commits_containing(&x, tips, n, res);
	for (int i = 0; i < n && merged != 2; i++)
		if (res[i])
			puts(argv[2 + i]);
	free(tips);
	free(res);
	return ret < 0 ? 1 : 0;
}

/* Many questions in one process: the cache and the flag clearing between
 * walks are exercised too. */
static int batch(int bases)
{
	char line[256], a_name[128], b_name[128];
	while (fgets(line, sizeof(line), stdin)) {
		struct object_id a, b;
		if (sscanf(line, "%127s %127s", a_name, b_name) != 2)
			continue;
		resolve(a_name, &a);
		resolve(b_name, &b);
		if (bases) {
			struct object_id *out;
			int n = commit_merge_bases(&a, &b, &out);
			if (n < 0)
				return 128;
			qsort(out, n, sizeof(*out), cmp_oid);
			printf("mb %s %s ", a_name, b_name);
			for (int i = 0; i < n; i++)
				printf("%s ", oid_to_hex(&out[i]));
			putchar('\n');
			free(out);
		} else {
			size_t ahead, behind;
			int r = commit_is_ancestor(&a, &b);
			if (r < 0 || commit_ahead_behind(&a, &b, &ahead, &behind) < 0)
				return 128;
			printf("%s %s %s\n", a_name, b_name, r ? "yes" : "no");
			printf("ab %s %s %zu\t%zu\n", a_name, b_name, ahead, behind);
		}
	}
	return 0;
}

static int graph_check(void)
{
	uint32_t nr = commit_graph_nr();
	int bad = 0;
	for (uint32_t pos = 0; pos < nr; pos++) {
		struct commit_graph_entry e;
		struct object_id oid, p;
		struct commit_info ci;
		enum object_type t;
		size_t size;
		char *buf;
		commit_graph_oid(pos, &oid);
		if (commit_graph_entry(pos, &e) < 0) {
			printf("corrupt entry %s\n", oid_to_hex(&oid));
			bad++;
			continue;
		}
		buf = odb_read_object(&oid, &t, &size);
		if (!buf || t != OBJ_COMMIT || parse_commit_buffer(buf, size, &ci)) {
			printf("unreadable %s\n", oid_to_hex(&oid));
			bad++;
			free(buf);
			continue;
		}
		if (!oideq(&ci.tree, &e.tree) || ci.committer_date != e.date ||
		    ci.nr_parents != e.nr_parents) {
			printf("mismatch %s\n", oid_to_hex(&oid));
			bad++;
		}
		for (uint32_t i = 0; i < e.nr_parents && i < ci.nr_parents; i++) {
			int64_t pp = commit_graph_parent(pos, i);
			if (pp < 0) {
				bad++;
				continue;
			}
			commit_graph_oid((uint32_t)pp, &p);
			if (!oideq(&p, &ci.parents[i])) {
				printf("parent %u mismatch %s\n", i, oid_to_hex(&oid));
				bad++;
			}
		}
		commit_info_release(&ci);
		free(buf);
	}
	printf("%u commits checked, %d bad\n", nr, bad);
	return !!bad;
}

/* What a walk knows of each commit: "<id> <date> <parents>", as git's
 * log --format="%H %ct %P" prints it. */
static int parse_cmd(int argc, const char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct object_id oid;
		struct commit_node *c;
		resolve(argv[i], &oid);
		c = commit_lookup(&oid);
		if (commit_parse(c))
			return 128;
		printf("%s %" PRIu64 " ", oid_to_hex(&c->oid), (uint64_t)c->date);
		for (uint16_t j = 0; j < c->nr_parents; j++)
			printf("%s%s", j ? " " : "", oid_to_hex(&c->parents[j]->oid));
		putchar('\n');
	}
	return 0;
}

/* odb_read_object_head(): "<type> <size> <count>" and the bytes, or
 * "none" when it leaves the object to the whole-object reader. */
static int head_cmd(const char *name, const char *count)
{
	struct object_id oid;
	enum object_type type;
	size_t size, n = strtoul(count, NULL, 10);
	unsigned char *buf = xmalloc(n + ODB_HEAD_SLACK);
	ssize_t got;

	resolve(name, &oid);
	got = odb_read_object_head(&oid, &type, &size, buf, n);
	if (got < 0) {
		puts("none");
	} else {
		printf("%s %zu %zd\n", type_name(type), size, got);
		fwrite(buf, 1, (size_t)got, stdout);
	}
	free(buf);
	return 0;
}

int main(int argc, const char **argv)
{
	struct object_id a, b;

	if (argc < 2) {
		puts("1..0 # SKIP a driver for t1600-commit-graph.sh and perf/contains");
		return 0;
	}
	argv++;
	argc--;
	while (argc > 2 && !strcmp(argv[0], "-c")) {
		config_push_parameter(argv[1]);
		argv += 2;
		argc -= 2;
	}
	setup_git_directory();
	if (!strcmp(argv[0], "contains"))
		return tips_cmd(argc, argv, 0);
	if (!strcmp(argv[0], "ahead")) {
		int r = tips_cmd(argc, argv, 2);
		printf("%zu\n", commit_walk_read_ahead());
		return r;
	}
	if (!strcmp(argv[0], "merged"))
		return tips_cmd(argc, argv, 1);
	if (!strcmp(argv[0], "is-ancestor") && argc == 3) {
		resolve(argv[1], &a);
		resolve(argv[2], &b);
		switch (commit_is_ancestor(&a, &b)) {
		case 1:
			return 0;
		case 0:
			return 1;
		default:
			return 128;
		}
	}
	if (!strcmp(argv[0], "ahead-behind") && argc == 3) {
		size_t ahead, behind;
		resolve(argv[1], &a);
		resolve(argv[2], &b);
		if (commit_ahead_behind(&a, &b, &ahead, &behind) < 0)
			return 128;
		printf("%zu\t%zu\n", ahead, behind);
		return 0;
	}
	if (!strcmp(argv[0], "merge-base") && argc == 3) {
		struct object_id *bases;
		int n;
		resolve(argv[1], &a);
		resolve(argv[2], &b);
		n = commit_merge_bases(&a, &b, &bases);
		if (n < 0)
			return 128;
		qsort(bases, n, sizeof(*bases), cmp_oid);
		for (int i = 0; i < n; i++)
			puts(oid_to_hex(&bases[i]));
		free(bases);
		return n ? 0 : 1;
	}
	if (!strcmp(argv[0], "pairs"))
		return batch(0);
	if (!strcmp(argv[0], "bases"))
		return batch(1);
	if (!strcmp(argv[0], "graph")) {
		printf("%u\n", commit_graph_nr());
		return 0;
	}
	if (!strcmp(argv[0], "graph-check"))
		return graph_check();
	if (!strcmp(argv[0], "parse"))
		return parse_cmd(argc, argv);
	if (!strcmp(argv[0], "head") && argc == 3)
		return head_cmd(argv[1], argv[2]);
	die("unknown driver command '%s'", argv[0]);
}
