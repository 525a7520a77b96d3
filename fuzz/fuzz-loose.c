/* fuzz-loose: reading a loose object (odb/loose.h): the input is the
 * file objects/xx/yyyy..., read header only and whole; a parsed commit,
 * tag or tree then goes through the object parsers (odb/object.h). */
#include "fuzz/fuzz-harness.h"
#include "odb/loose.h"
#include "odb/object.h"
#include <fcntl.h>
#include <sys/stat.h>

static char dir[] = "/tmp/fuzz-loose.XXXXXX";
static char *file;
static struct object_id oid;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct strbuf sb = STRBUF_INIT;
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	if (!mkdtemp(dir))
		abort();
	memset(oid.hash, 0xab, sizeof(oid.hash));
	loose_path(&sb, dir, &oid);
	file = strbuf_detach(&sb, NULL);
	if (mkdir_leading(file) < 0)
		abort();
	return 0;
}

static void parse_object(enum object_type type, const char *buf, size_t size)
{
	struct commit_info ci;
	struct tag_info ti;
	struct tree_iter it;
	struct tree_entry e;

	if (type == OBJ_COMMIT) {
		parse_commit_buffer(buf, size, &ci);
		commit_info_release(&ci);
	} else if (type == OBJ_TAG) {
		parse_tag_buffer(buf, size, &ti);
	} else if (type == OBJ_TREE) {
		tree_iter_init(&it, buf, size);
		while (tree_iter_next(&it, &e) == 1)
			;
	}
}

static void run(const uint8_t *data, size_t size)
{
	enum object_type t1 = OBJ_NONE, t2 = OBJ_NONE;
	size_t s1 = 0, s2 = 0;
	void *buf = NULL;
	int r1, r2;

	(void)data;
	r1 = loose_read(dir, &oid, &t1, &s1, NULL);
	r2 = loose_read(dir, &oid, &t2, &s2, &buf);
	if (r2 == 1) {
		if (r1 != 1 || t1 != t2 || s1 != s2 || ((char *)buf)[s2])
			abort();
		/* zlib cannot expand more than ~1032 times. */
		if (s2 / 1032 > size + 64)
			abort();
		parse_object(t2, buf, s2);
		free(buf);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_in_full(fd, data, size) < 0 || close(fd))
		abort();
	fuzz_try(run, data, size);
	return 0;
}
