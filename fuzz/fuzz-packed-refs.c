/* fuzz-packed-refs: reading packed-refs (refs/refs-internal.h) as the
 * refs code does: packed_refs_get() on the file, then prefix iteration
 * and lookups by name, and the loose ref parser on the same bytes. The
 * file lives in a private directory that stands in for the repository's
 * common dir. A malformed file dies ("unexpected line in ..."), which is
 * the expected answer.
 *
 * There is no public entry point that parses a buffer; one
 * (packed_refs_parse_buf) would spare the file write per input. */
#include "fuzz/fuzz-harness.h"
#include "refs/refs-internal.h"
#include "lib/repo.h"
#include <fcntl.h>

static char dir[] = "/tmp/fuzz-packed-refs.XXXXXX";
static char *file;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	file = fuzz_private_repo(dir, "packed-refs");
	fuzz_cleanup = packed_refs_forget;
	return 0;
}

static int count_ref(struct ref_entry *e, void *data)
{
	/* An empty or unsafe name is git's "packed refname is dangerous"
	 * (checked by the refs layer above, tests/t7000), not a crash. */
	if (!e->name)
		abort();
	(*(size_t *)data)++;
	return 0;
}

static void run(const uint8_t *data, size_t size)
{
	static const char *prefixes[] = { "", "refs/", "refs/heads/", "refs/tags/", "refs/tags/v", "zzz" };
	static const char *names[] = { "refs/heads/main", "refs/heads/master", "refs/tags/v1.0", "HEAD", "" };
	struct packed_refs *pr;
	struct ref_entry e;
	size_t n = 0;

	packed_refs_forget();
	pr = packed_refs_get();
	if (!pr)
		abort();
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		packed_refs_for_each(pr, prefixes[i], count_ref, &n);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		packed_refs_find(pr, names[i], &e);
	/* The first name in the file, whatever it is. */
	if (size > 42 && data[0] != '#') {
		char *name = xstrndup((const char *)data + 41, size - 41);
		char *nl = strchr(name, '\n');
		if (nl)
			*nl = 0;
		packed_refs_find(pr, name, &e);
		free(name);
	}
	packed_refs_forget();
	(void)size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct object_id oid;
	struct strbuf target = STRBUF_INIT;
	char *copy = fuzz_dup(data, size);
	int fd;

	parse_loose_ref(copy, size, &oid, &target);
	strbuf_release(&target);
	free(copy);

	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_in_full(fd, data, size) < 0 || close(fd))
		abort();
	fuzz_try(run, data, size);
	return 0;
}
