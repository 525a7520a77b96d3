/* t-fsck-check.c: message ids, severities and a few syntax checks of
 * odb/fsck-check.c, on hand-made objects. Prints TAP. */
#include "lib/util.h"
#include "lib/strbuf.h"
#include "odb/fsck-check.h"

static int test_no;
static struct strbuf got = STRBUF_INIT;

static void check(int ok, const char *what)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++test_no, what);
	if (!ok)
		printf("# reports: %s\n", got.buf);
}

static void collect(void *data, const struct object_id *oid, enum object_type type,
		    enum fsck_msg_type sev, const char *msg)
{
	(void)data;
	(void)oid;
	(void)type;
	strbuf_addf(&got, "%s %s|", sev == FSCK_ERROR ? "error" : "warning", msg);
}

static int run(const struct fsck_options *o, enum object_type t, const char *buf, size_t len)
{
	struct object_id oid;
	memset(&oid, 0, sizeof(oid));
	strbuf_reset(&got);
	return fsck_check_object(o, &oid, t, buf, len, collect, NULL, NULL);
}

/* A tree entry: mode, name, 20 bytes of id. */
static void entry(struct strbuf *sb, const char *mode, const char *name, int idbyte)
{
	strbuf_addf(sb, "%s %s", mode, name);
	strbuf_addch(sb, 0);
	strbuf_addchars(sb, idbyte, 20);
}

struct seen {
	int n, pad;
	struct strbuf log;
};

static void seen_entry(void *data, unsigned mode, const unsigned char *id)
{
	struct seen *sn = data;
	strbuf_addf(&sn->log, "%o:%02x ", mode, id[0]);
	sn->n++;
}

int main(void)
{
	struct fsck_options o = FSCK_OPTIONS_INIT, strict = FSCK_OPTIONS_INIT;
	struct strbuf t = STRBUF_INIT;
	const char *good_commit =
		"tree 0123456789012345678901234567890123456789\n"
		"author A U Thor <a@example.com> 1112911993 -0700\n"
		"committer C O Mitter <c@example.com> 1112911993 -0700\n\nmsg\n";
	const char *zero_date =
		"tree 0123456789012345678901234567890123456789\n"
		"author A U Thor <a@example.com> 01112911993 -0700\n"
		"committer C O Mitter <c@example.com> 1112911993 -0700\n\nmsg\n";
	const char *no_tagger =
		"object 0123456789012345678901234567890123456789\ntype commit\ntag v1\n\nmsg\n";

	strict.strict = 1;
	check(!strcmp(fsck_msg_id_name(FSCK_MSG_BAD_TREE_SHA1), "badTreeSha1"), "camel-cased ids");
	check(fsck_msg_id_parse("missingtaggerentry") == FSCK_MSG_MISSING_TAGGER_ENTRY,
	      "ids parse case-insensitively");
	check(fsck_msg_id_parse("noSuchThing") < 0, "unknown id is -1");
	check(fsck_msg_type(&o, FSCK_MSG_MISSING_TAGGER_ENTRY) == FSCK_INFO &&
	      fsck_msg_type(&o, FSCK_MSG_NULL_SHA1) == FSCK_WARN &&
	      fsck_msg_type(&strict, FSCK_MSG_NULL_SHA1) == FSCK_ERROR &&
	      fsck_msg_type(&o, FSCK_MSG_EXTRA_HEADER_ENTRY) == FSCK_IGNORE,
	      "default severities; --strict makes warnings errors");

	check(run(&o, OBJ_COMMIT, good_commit, strlen(good_commit)) == 0 && !got.len,
	      "a good commit has no report");
	check(run(&o, OBJ_COMMIT, zero_date, strlen(zero_date)) == 1 &&
	      !strcmp(got.buf, "error zeroPaddedDate: invalid author/committer line - zero-padded date|"),
	      "zero-padded date is an error with git's wording");
	check(run(&o, OBJ_TAG, no_tagger, strlen(no_tagger)) == 0 &&
	      !strcmp(got.buf, "warning missingTaggerEntry: invalid format - expected 'tagger' line|"),
	      "missing tagger: info, reported as a warning, not counted");

	entry(&t, "100644", "a", 1);
	entry(&t, "100644", "a", 2);
	check(run(&o, OBJ_TREE, t.buf, t.len) == 1 &&
	      !strcmp(got.buf, "error duplicateEntries: contains duplicate file entries|"),
	      "duplicate entries");
	strbuf_reset(&t);
	entry(&t, "100644", "b", 1);
	entry(&t, "100664", "a", 2);
	check(run(&o, OBJ_TREE, t.buf, t.len) == 1 &&
	      !strcmp(got.buf, "error treeNotSorted: not properly sorted|"),
	      "unsorted; 100664 tolerated without --strict");
	check(run(&strict, OBJ_TREE, t.buf, t.len) == 1 &&
	      !strcmp(got.buf, "warning badFilemode: contains bad file modes|error treeNotSorted: not properly sorted|"),
	      "--strict: 100664 is a bad mode (info, so a warning)");
	strbuf_reset(&t);
	entry(&t, "100644", "a", 1);
	entry(&t, "40000", "a.c", 2);
	entry(&t, "40000", "a", 3);
	check(run(&o, OBJ_TREE, t.buf, t.len) == 1 && strstr(got.buf, "duplicateEntries"),
	      "blob a, tree a.c, tree a: a duplicate that is not adjacent");
	strbuf_reset(&t);
	entry(&t, "100644", ".Git", 1);
	check(run(&o, OBJ_TREE, t.buf, t.len) == 0 &&
	      !strcmp(got.buf, "warning hasDotgit: contains '.git'|"), ".Git is .git");
	check(fsck_is_hfs_dotgit(".g\xe2\x80\x8cit") && fsck_is_ntfs_dotgit("git~1") &&
	      fsck_is_ntfs_dotgit(".git. .") && !fsck_is_ntfs_dotgit(".gitx"),
	      "HFS+ ignorable code points and NTFS short names");
	check(run(&o, OBJ_TREE, "100644 a\0abc", 12) == 1 &&
	      !strcmp(got.buf, "error badTree: cannot be parsed as a tree|"), "truncated tree");

	{
		/* Names are scanned eight bytes at a time: a '/' or '\\' at
		 * every place around the word boundaries, a NUL at every
		 * place, and ids made of those bytes right after the NUL. */
		int ok_slash = 1, ok_plain = 1, ok_bs = 1;
		char name[40];
		for (int len = 1; len <= 24; len++) {
			for (int at = 0; at < len; at++) {
				memset(name, 'x', (size_t)len);
				name[len] = '\0';
				name[at] = '/';
				strbuf_reset(&t);
				entry(&t, "100644", name, 1);
				ok_slash &= run(&o, OBJ_TREE, t.buf, t.len) == 0 &&
					    !strcmp(got.buf, "warning fullPathname: contains full pathnames|");
			}
			static const int idbytes[] = { '/', '\\', 1 };
			for (int k = 0; k < 3; k++) {
				memset(name, 'x', (size_t)len);
				name[len] = '\0';
				strbuf_reset(&t);
				entry(&t, "100644", name, idbytes[k]);
				ok_plain &= run(&o, OBJ_TREE, t.buf, t.len) == 0 && !got.len;
			}
			if (len <= 16) {
				memset(name, 'x', (size_t)len);
				memcpy(name + len, "\\.git", 6);
				strbuf_reset(&t);
				entry(&t, "100644", name, '\\');
				ok_bs &= run(&o, OBJ_TREE, t.buf, t.len) == 0 &&
					 !strcmp(got.buf, "warning hasDotgit: contains '.git'|");
			}
		}
		check(ok_slash, "a '/' anywhere in a name of 1-24 bytes is found");
		check(ok_plain, "ids of '/' and '\\' bytes after the name are not the name's");
		check(ok_bs, "'\\.git' after any prefix is .git (NTFS)");
	}
	{
		struct seen sn = { 0, 0, STRBUF_INIT };
		struct object_id oid;
		memset(&oid, 0, sizeof(oid));
		strbuf_reset(&t);
		entry(&t, "100644", "a", 1);
		entry(&t, "40000", "b", 2);
		entry(&t, "160000", "c", 3);
		strbuf_reset(&got);
		check(fsck_check_tree_entries(&o, &oid, t.buf, t.len, collect, NULL, NULL,
					      seen_entry, &sn) == 0 && !got.len &&
		      !strcmp(sn.log.buf, "100644:01 40000:02 160000:03 "),
		      "fsck_check_tree_entries hands over every entry in order");
		strbuf_release(&sn.log);
	}

	fsck_set_msg_type(&o, "missingTaggerEntry", "error");
	check(run(&o, OBJ_TAG, no_tagger, strlen(no_tagger)) == 1 &&
	      !strcmp(got.buf, "error missingTaggerEntry: invalid format - expected 'tagger' line|"),
	      "fsck.missingTaggerEntry=error");
	fsck_set_msg_type(&o, "missingtaggerentry", "ignore");
	check(run(&o, OBJ_TAG, no_tagger, strlen(no_tagger)) == 0 && !got.len,
	      "fsck.missingtaggerentry=ignore");
	fsck_options_release(&o);
	strbuf_release(&t);
	strbuf_release(&got);
	printf("1..%d\n", test_no);
	return 0;
}
