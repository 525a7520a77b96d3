/* fuzz-fsck: fsck's syntax checks on commits, tags and trees
 * (odb/fsck-check.h), with default and strict severities. First input
 * byte: the object type (low two bits: commit, tree, tag, blob); the
 * rest: the object's bytes, given with a NUL after the last one, as
 * fsck-check.c asks of its callers (odb_read_object and the pack walk
 * give that NUL); a read past the NUL is caught. */
#include "fuzz/fuzz-harness.h"
#include "odb/fsck-check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static void on_report(void *data, const struct object_id *oid, enum object_type type,
		      enum fsck_msg_type severity, const char *msg)
{
	(void)oid; (void)type;
	if (severity != FSCK_WARN && severity != FSCK_ERROR)
		abort();
	if (!msg || !strchr(msg, ':'))
		abort();
	(*(int *)data)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum object_type types[] = { OBJ_COMMIT, OBJ_TREE, OBJ_TAG, OBJ_BLOB };
	struct fsck_options lax = FSCK_OPTIONS_INIT, strict = FSCK_OPTIONS_INIT;
	struct object_id oid;
	const char *parse_error;
	char *buf;
	int n = 0, errs;

	if (size < 1)
		return 0;
	strict.strict = 1;
	memset(oid.hash, 0x5a, sizeof(oid.hash));
	buf = malloc(size);
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	parse_error = NULL;
	errs = fsck_check_object(&lax, &oid, types[data[0] & 3], buf, size - 1, on_report, &n,
				 &parse_error);
	if (errs < 0 || errs > n + 1)
		abort();
	n = 0;
	errs = fsck_check_object(&strict, &oid, types[data[0] & 3], buf, size - 1, on_report, &n,
				 &parse_error);
	if (errs < 0)
		abort();
	free(buf);
	return 0;
}
