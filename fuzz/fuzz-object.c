/* fuzz-object: the commit, tag, tree and ident parsers and the subject
 * extraction (odb/object.h), each on an exact-size copy of the input, as
 * they promise never to read buf[len]. */
#include "fuzz/fuzz-harness.h"
#include "odb/object.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fuzz_quiet_stderr();
	return 0;
}

static void in_range(const char *p, size_t n, const char *buf, size_t len)
{
	if (!p) {
		if (n)
			abort();
		return;
	}
	if (p < buf || p > buf + len || n > (size_t)(buf + len - p))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);
	struct commit_info ci;
	struct tag_info ti;
	struct ident id;
	struct tree_iter it;
	struct tree_entry e;
	struct strbuf sb = STRBUF_INIT;
	int r, guard = 0;

	if (!parse_commit_buffer(buf, size, &ci)) {
		in_range(ci.author, ci.author_len, buf, size);
		in_range(ci.committer, ci.committer_len, buf, size);
		in_range(ci.message, ci.message_len, buf, size);
		if (ci.author)
			parse_ident(ci.author, ci.author_len, &id);
		message_subject(ci.message, ci.message_len, &sb);
		strbuf_reset(&sb);
	}
	commit_info_release(&ci);

	if (!parse_tag_buffer(buf, size, &ti)) {
		in_range(ti.tag, ti.tag_len, buf, size);
		in_range(ti.tagger, ti.tagger_len, buf, size);
		in_range(ti.message, ti.message_len, buf, size);
		message_subject(ti.message, ti.message_len, &sb);
	}

	if (!parse_ident(buf, size, &id)) {
		in_range(id.name, id.name_len, buf, size);
		in_range(id.email, id.email_len, buf, size);
		in_range(id.tz, id.tz_len, buf, size);
	}

	message_subject(buf, size, &sb);
	if (sb.len > size)
		abort();

	tree_iter_init(&it, buf, size);
	while ((r = tree_iter_next(&it, &e)) == 1) {
		in_range(e.name, e.name_len, buf, size);
		in_range((const char *)e.oid, 20, buf, size);
		if (++guard > (int)size + 1)
			abort();   /* no progress */
	}
	strbuf_release(&sb);
	free(buf);
	return 0;
}
