/* fsck.c: verify every object (loose and packed, alternates included),
 * their syntax and the connectivity from refs, HEAD, reflogs and the
 * index, with git 2.39's messages and exit bits.
 *
 * Shape: all ids are collected first (loose file names, .idx tables) into
 * one sorted table. Packs are then verified by pack_walk() on every core;
 * each verified object records its outgoing links as table indexes (ids
 * not in the table go to a "missing" list), so connectivity needs no
 * second read of any object. Messages of one pack are kept per entry and
 * printed in pack order when the pack is done, which is git's order.
 * --connectivity-only verifies nothing: the same table, then a walk that
 * reads what it reaches (builtin/fsck/conn-walk.c).
 *
 * This file holds the command: options, configuration, the order of the
 * phases and the exit code; builtin/fsck/ holds the parts (fsck.h). */
#include "builtin/builtin.h"
#include "builtin/fsck/fsck.h"
#include "lib/config.h"
#include "lib/progress.h"
#include "lib/repo.h"
#include "lib/thread-pool.h"
#include "odb/odb.h"
#include "refs/refs.h"

int fsck_errors_found;
int fsck_check_full = 1, fsck_connectivity_only, fsck_show_dangling = 1, fsck_show_unreachable;
int fsck_show_root, fsck_show_tags, fsck_verbose, fsck_show_progress = -1;
static int check_strict;
int fsck_include_reflogs = 1;
static int keep_cache;
/* --verbose lines of git's object pass (none with --connectivity-only) */
int fsck_verbose_objs;
struct fsck_options fsck_check_opts = FSCK_OPTIONS_INIT;

static const char *const fsck_usage[] = {
	"git fsck [--tags] [--root] [--unreachable] [--cache] [--no-reflogs]\n"
	"                [--[no-]full] [--strict] [--verbose] [--lost-found]\n"
	"                [--[no-]dangling] [--[no-]progress] [--connectivity-only]\n"
	"                [--[no-]name-objects] [<object>...]",
	NULL
};

static int fsck_config(const char *key, const char *value, void *data UNUSED)
{
	const char *id;
	if (!strcmp(key, "fsck.skiplist"))
		return 0;
	if (skip_prefix(key, "fsck.", &id)) {
		fsck_set_msg_type(&fsck_check_opts, id, value);
		return 0;
	}
	return 0;
}

int cmd_fsck(int argc, const char **argv)
{
	int lost_found = 0, name_objects = 0;
	struct option opts[] = {
		OPT__VERBOSE(&fsck_verbose, "be verbose"),
		OPT_BOOL(0, "unreachable", &fsck_show_unreachable, "show unreachable objects"),
		OPT_BOOL(0, "dangling", &fsck_show_dangling, "show dangling objects"),
		OPT_BOOL(0, "tags", &fsck_show_tags, "report tags"),
		OPT_BOOL(0, "root", &fsck_show_root, "report root nodes"),
		OPT_BOOL(0, "cache", &keep_cache, "make index objects head nodes"),
		OPT_BOOL(0, "reflogs", &fsck_include_reflogs, "make reflogs head nodes (default)"),
		OPT_BOOL(0, "full", &fsck_check_full, "also consider packs and alternate objects"),
		OPT_BOOL(0, "connectivity-only", &fsck_connectivity_only, "check only connectivity"),
		OPT_BOOL(0, "strict", &check_strict, "enable more strict checking"),
		OPT_BOOL(0, "lost-found", &lost_found, "write dangling objects in .git/lost-found"),
		OPT_BOOL(0, "progress", &fsck_show_progress, "show progress"),
		OPT_BOOL(0, "name-objects", &name_objects, "show verbose names for reachable objects"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, fsck_usage, 0);
	if (fsck_show_progress == -1)
		fsck_show_progress = isatty(2);
	if (fsck_verbose)
		fsck_show_progress = 0;
	if (lost_found)
		die("--lost-found is not supported by mini-git fsck");
	if (name_objects)
		die("--name-objects is not supported by mini-git fsck");
	if (argc)
		die("fsck of given objects is not supported by mini-git fsck");
	fsck_check_opts.strict = check_strict;
	setup_git_directory();
	config_for_each(CONFIG_ALL, fsck_config, NULL);
	config_check_repo_settings();
	fsck_msg_id_name(0);

	add_objdir(odb_objdir(), 1, 0);
	for (size_t i = 0; i < fsck_nr_dirs; i++) {
		scan_loose((uint32_t)i);
		end_run();
		scan_packs(fsck_dirs[i].path, fsck_dirs[i].local);
	}
	fsck_verbose_objs = fsck_verbose && !fsck_connectivity_only;
	QSORT(fsck_packs, fsck_nr_packs, cmp_pack);
	open_packs();
	if (fsck_check_full && !fsck_connectivity_only)
		start_checksums();
	sort_table();
	if (fsck_connectivity_only) {
		/* Listed is stored: nothing is read before the walk. */
		for (size_t i = 0; i < fsck_nr_objs; i++)
			fsck_objs[i].flags |= HAS_OBJ;
		conn_reader_setup();
	} else {
		map_pack_positions();
	}

	if (!fsck_connectivity_only) {
		size_t next = 0;
		fsck_sequential_pass = 1;
		for (size_t i = 0; i < fsck_nr_dirs; i++) {
			struct progress *dm = NULL;
			if (fsck_show_progress)
				dm = start_progress("Checking object directories", 256);
			next = verify_loose(next, (uint32_t)i);
			/* git's meter never sees the subdirectories: the end only. */
			display_progress(dm, 256);
			stop_progress(&dm);
		}
		fsck_sequential_pass = 0;
		fsck_verified_before = fsck_nr_loose > 0;
		if (fsck_check_full) {
			size_t total = 0;
			for (size_t i = 0; i < fsck_nr_packs; i++)
				total += fsck_packs[i].p.idx.nr;
			if (fsck_show_progress)
				fsck_obj_meter = start_progress("Checking objects", total);
			for (size_t i = 0; i < fsck_nr_packs; i++) {
				fsck_current_stage = (uint16_t)(i + 1 < NO_STAGE ? i + 1 : NO_STAGE - 1);
				verify_one_pack(&fsck_packs[i]);
				fsck_verified_before = 1;
			}
			if (fsck_some_pack_unusable)
				recompute_in_pack();
			stop_progress(&fsck_obj_meter);
		}
	}
	if (keep_cache || !argc)
		index_read();
	build_missing();
	if (!fsck_connectivity_only)
		mark_used_links();

	refs_for_each("refs/", REFS_INCLUDE_BROKEN, fsck_ref_cb, NULL);
	head_link();
	if (fsck_include_reflogs) {
		main_reflogs();
		if (!fsck_reflog_saw_head && file_exists(git_path("logs/HEAD")))
			refs_for_each_reflog_entry("HEAD", reflog_ent_cb, (void *)"HEAD");
	}
	linked_worktrees();
	if (!fsck_default_refs) {
		fprintf(stderr, "notice: No default references\n");
		fsck_show_unreachable = 0;
	}
	index_roots();
	if (fsck_connectivity_only) {
		conn_traverse();
		if (fsck_show_dangling)
			conn_mark_unreachable();
		conn_finish_missing();
	}
	check_connectivity();
	thread_pool_free(fsck_pool);
	fflush(stdout);
	return fsck_errors_found;
}
