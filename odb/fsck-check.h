/* fsck-check.h: the syntax checks git's fsck makes on commits, tags and
 * trees, with git's message ids ("badDate", "duplicateEntries", ...),
 * default severities and wording. Pure functions of an object's bytes:
 * safe from any number of threads at once. Callers must pass buffers with
 * a NUL after the last byte (as odb_read_object gives them): the parsers
 * rely on it to stop. */
#ifndef ODB_FSCK_CHECK_H
#define ODB_FSCK_CHECK_H

#include "odb/odb.h"

enum fsck_msg_type { FSCK_IGNORE, FSCK_INFO, FSCK_WARN, FSCK_ERROR, FSCK_FATAL };

#define FSCK_MSG_IDS(F) \
	F(NUL_IN_HEADER, FSCK_FATAL) \
	F(UNTERMINATED_HEADER, FSCK_FATAL) \
	F(BAD_DATE, FSCK_ERROR) \
	F(BAD_DATE_OVERFLOW, FSCK_ERROR) \
	F(BAD_EMAIL, FSCK_ERROR) \
	F(BAD_NAME, FSCK_ERROR) \
	F(BAD_OBJECT_SHA1, FSCK_ERROR) \
	F(BAD_PARENT_SHA1, FSCK_ERROR) \
	F(BAD_TAG_OBJECT, FSCK_ERROR) \
	F(BAD_TIMEZONE, FSCK_ERROR) \
	F(BAD_TREE, FSCK_ERROR) \
	F(BAD_TREE_SHA1, FSCK_ERROR) \
	F(BAD_TYPE, FSCK_ERROR) \
	F(DUPLICATE_ENTRIES, FSCK_ERROR) \
	F(MISSING_AUTHOR, FSCK_ERROR) \
	F(MISSING_COMMITTER, FSCK_ERROR) \
	F(MISSING_EMAIL, FSCK_ERROR) \
	F(MISSING_NAME_BEFORE_EMAIL, FSCK_ERROR) \
	F(MISSING_OBJECT, FSCK_ERROR) \
	F(MISSING_SPACE_BEFORE_DATE, FSCK_ERROR) \
	F(MISSING_SPACE_BEFORE_EMAIL, FSCK_ERROR) \
	F(MISSING_TAG, FSCK_ERROR) \
	F(MISSING_TAG_ENTRY, FSCK_ERROR) \
	F(MISSING_TREE, FSCK_ERROR) \
	F(MISSING_TYPE, FSCK_ERROR) \
	F(MISSING_TYPE_ENTRY, FSCK_ERROR) \
	F(MULTIPLE_AUTHORS, FSCK_ERROR) \
	F(TREE_NOT_SORTED, FSCK_ERROR) \
	F(UNKNOWN_TYPE, FSCK_ERROR) \
	F(ZERO_PADDED_DATE, FSCK_ERROR) \
	F(GITMODULES_MISSING, FSCK_ERROR) \
	F(GITMODULES_BLOB, FSCK_ERROR) \
	F(GITMODULES_LARGE, FSCK_ERROR) \
	F(GITMODULES_NAME, FSCK_ERROR) \
	F(GITMODULES_SYMLINK, FSCK_ERROR) \
	F(GITMODULES_URL, FSCK_ERROR) \
	F(GITMODULES_PATH, FSCK_ERROR) \
	F(GITMODULES_UPDATE, FSCK_ERROR) \
	F(GITATTRIBUTES_MISSING, FSCK_ERROR) \
	F(GITATTRIBUTES_LARGE, FSCK_ERROR) \
	F(GITATTRIBUTES_LINE_LENGTH, FSCK_ERROR) \
	F(GITATTRIBUTES_BLOB, FSCK_ERROR) \
	F(EMPTY_NAME, FSCK_WARN) \
	F(FULL_PATHNAME, FSCK_WARN) \
	F(HAS_DOT, FSCK_WARN) \
	F(HAS_DOTDOT, FSCK_WARN) \
	F(HAS_DOTGIT, FSCK_WARN) \
	F(NULL_SHA1, FSCK_WARN) \
	F(ZERO_PADDED_FILEMODE, FSCK_WARN) \
	F(NUL_IN_COMMIT, FSCK_WARN) \
	F(BAD_FILEMODE, FSCK_INFO) \
	F(GITMODULES_PARSE, FSCK_INFO) \
	F(GITIGNORE_SYMLINK, FSCK_INFO) \
	F(GITATTRIBUTES_SYMLINK, FSCK_INFO) \
	F(MAILMAP_SYMLINK, FSCK_INFO) \
	F(BAD_TAG_NAME, FSCK_INFO) \
	F(MISSING_TAGGER_ENTRY, FSCK_INFO) \
	F(EXTRA_HEADER_ENTRY, FSCK_IGNORE)

#define FSCK_MSG_ENUM(id, sev) FSCK_MSG_##id,
enum fsck_msg_id { FSCK_MSG_IDS(FSCK_MSG_ENUM) FSCK_MSG_MAX };
#undef FSCK_MSG_ENUM

struct fsck_options {
	int strict;                 /* warnings become errors; 0664 is a bad mode */
	unsigned char *msg_type;    /* per id, after fsck.<id> config; NULL: defaults */
};
#define FSCK_OPTIONS_INIT { 0, NULL }

/* "badDate" for FSCK_MSG_BAD_DATE. */
const char *fsck_msg_id_name(enum fsck_msg_id id);
/* Case-insensitive lookup of a camel-cased id; -1 if unknown. */
int fsck_msg_id_parse(const char *name);
/* The severity in force (strict and fsck.<id> applied). */
enum fsck_msg_type fsck_msg_type(const struct fsck_options *o, enum fsck_msg_id id);
/* fsck.<id>=<severity>: dies with git's messages for an unknown id or
 * severity, or an attempt to demote a fatal id. */
void fsck_set_msg_type(struct fsck_options *o, const char *id, const char *severity);
void fsck_options_release(struct fsck_options *o);

/* Reports are FSCK_WARN or FSCK_ERROR (info reported as warning, fatal as
 * error, ignored not reported); msg is "<camelId>: <text>". */
typedef void (*fsck_report_fn)(void *data, const struct object_id *oid,
			       enum object_type type, enum fsck_msg_type severity,
			       const char *msg);

/*
 * Checks one object's syntax the way git's fsck_object() does. Returns
 * the number of reports at error severity (0: clean or warnings only), as
 * git does; its value decides whether the object counts as broken.
 * Messages printed directly by git's tree parser ("too-short tree object",
 * ...) go to *parse_error (static string) when it is not NULL.
 */
int fsck_check_object(const struct fsck_options *o, const struct object_id *oid,
		      enum object_type type, const char *buf, size_t len,
		      fsck_report_fn report, void *data, const char **parse_error);

/*
 * fsck_check_object() on a tree that also hands each entry it decodes to
 * entry_fn (mode, and the id's RAW_SZ bytes inside buf), in order, so a
 * caller that wants the tree's links parses it once. Only when the check
 * returns 0 with no report and no *parse_error have all entries been
 * handed over; after a report the entries seen may stop short.
 */
typedef void (*fsck_tree_entry_fn)(void *data, unsigned mode, const unsigned char *oid);
int fsck_check_tree_entries(const struct fsck_options *o, const struct object_id *oid,
			    const char *buf, size_t len, fsck_report_fn report, void *data,
			    const char **parse_error, fsck_tree_entry_fn entry_fn,
			    void *entry_data);

/* git's tree entry name tests (also used for index entries). */
int fsck_is_hfs_dotgit(const char *name);
int fsck_is_ntfs_dotgit(const char *name);

#endif
