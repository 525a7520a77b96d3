/* fuzz-config-write: one key's edits (lib/config-write.h) on a config
 * file made of the input, in a private directory that stands in for the
 * repository's common dir. Inputs that do not parse as a config are
 * skipped (reading them dies, the expected answer). Checked beyond not
 * crashing, by reading each result back with config_parse_buf():
 *  - removing every value of branch.x.remote leaves none, and every other
 *    variable, with its value, in its order;
 *  - setting it, where it had one value or none, leaves exactly that value
 *    and the others as they were; where it had several, nothing changes;
 *  - adding a value puts it after the key's others. */
#include "fuzz/fuzz-harness.h"
#include "lib/config.h"
#include "lib/config-write.h"
#include "lib/repo.h"
#include <fcntl.h>

#define KEY "branch.x.remote"

static char dir[] = "/tmp/fuzz-config-write.XXXXXX";
static char *file;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	file = fuzz_private_repo(dir, "config");
	return 0;
}

/* The variables of a config, "key=value\n" each ("key\n" without a
 * value), those of KEY apart. */
struct vars {
	struct strbuf others, key;
	size_t nkey;
};

static int collect(const char *key, const char *value, void *data)
{
	struct vars *v = data;
	struct strbuf *sb = strcmp(key, KEY) ? &v->others : &v->key;
	strbuf_addstr(sb, key);
	if (value) {
		strbuf_addch(sb, '=');
		strbuf_addstr(sb, value);
	}
	strbuf_addch(sb, '\n');
	v->nkey += !strcmp(key, KEY);
	return 0;
}

static void write_file(const uint8_t *data, size_t size)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_in_full(fd, data, size) < 0 || close(fd) < 0)
		abort();
}

static void read_vars(struct vars *v)
{
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_read_file(&sb, file, 0) < 0)
		abort();
	config_parse_buf(sb.buf, sb.len, "fuzz.config", collect, v);
	strbuf_release(&sb);
}

static void release(struct vars *v)
{
	strbuf_release(&v->others);
	strbuf_release(&v->key);
	v->nkey = 0;
}

static int same(const struct strbuf *a, const struct strbuf *b)
{
	return a->len == b->len && !memcmp(a->buf, b->buf, a->len);
}

static void run(const uint8_t *data, size_t size)
{
	struct vars before = { STRBUF_INIT, STRBUF_INIT, 0 }, after = { STRBUF_INIT, STRBUF_INIT, 0 };
	int r;

	/* A NUL ends the text early; a last line ending in a backslash
	 * continues into whatever is appended, in git too. */
	size_t last = size && data[size - 1] == '\n' ? size - 1 : size;
	if (memchr(data, 0, size) || (last && data[last - 1] == '\\'))
		return;
	write_file(data, size);
	read_vars(&before);  /* dies on what is no config */

	r = config_unset_all(KEY);
	read_vars(&after);
	if (r < 0 || (r == 5) != !before.nkey || after.nkey || !same(&before.others, &after.others))
		abort();
	release(&after);

	write_file(data, size);
	r = config_set(KEY, "v");
	read_vars(&after);
	if (before.nkey > 1 ? r != 5 || !same(&after.key, &before.key)
			    : r || after.nkey != 1 || strcmp(after.key.buf, KEY "=v\n"))
		abort();
	if (!same(&before.others, &after.others))
		abort();
	release(&after);

	write_file(data, size);
	if (config_add(KEY, "w"))
		abort();
	read_vars(&after);
	if (after.nkey != before.nkey + 1 || !same(&before.others, &after.others) ||
	    after.key.len != before.key.len + strlen(KEY "=w\n") ||
	    memcmp(after.key.buf, before.key.buf, before.key.len) ||
	    strcmp(after.key.buf + before.key.len, KEY "=w\n"))
		abort();
	release(&after);
	release(&before);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_try(run, data, size);
	return 0;
}
