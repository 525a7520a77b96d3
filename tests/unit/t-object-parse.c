/* t-object-parse.c: unit tests of odb/object.c's parsers on hand-made
 * buffers, including truncated ones: every parse runs on an exact-size
 * heap copy so that ASan catches a read past the end. Prints TAP. */
#include "odb/object.h"
#include "tests/unit/tap.h"
#include <fcntl.h>


/* An exact-size copy: no NUL after the end, so over-reads are caught. */
static char *exact(const char *s, size_t len)
{
	char *p = malloc(len ? len : 1);
	memcpy(p, s, len);
	return p;
}

/* The parsers report malformed input with error(): keep TAP output clean. */
static int saved_stderr = -1;
static void stderr_off(void)
{
	int devnull = open("/dev/null", O_WRONLY);
	fflush(stderr);
	saved_stderr = dup(2);
	dup2(devnull, 2);
	close(devnull);
}
static void stderr_on(void)
{
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
}

static int mem_is(const char *p, size_t n, const char *want)
{
	if (n == strlen(want) && !memcmp(p, want, n))
		return 1;
	printf("# want '%s' got '%.*s'\n", want, (int)n, p ? p : "");
	return 0;
}

#define T1 "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define P1 "1111111111111111111111111111111111111111"
#define P2 "2222222222222222222222222222222222222222"

static const char commit_plain[] =
	"tree " T1 "\n"
	"parent " P1 "\n"
	"parent " P2 "\n"
	"author A U Thor <author@example.com> 1112911993 -0700\n"
	"committer C O Mitter <committer@example.com> 1112912053 +0130\n"
	"\n"
	"subject line\n"
	"continued\n"
	"\n"
	"body\n";

static const char commit_extra[] =
	"tree " T1 "\n"
	"author A <a@b> 5 +0000\n"
	"committer C <c@d> 7 +0000\n"
	"encoding ISO-8859-1\n"
	"gpgsig -----BEGIN PGP SIGNATURE-----\n"
	" \n"
	" committer Fake <f@f> 99 +0000\n"
	" -----END PGP SIGNATURE-----\n"
	"mergetag object " P1 "\n"
	" type commit\n"
	"\n"
	"\n"
	"  \n"
	"  the subject  \n"
	"second line\n";

static void test_commits(void)
{
	struct commit_info ci;
	struct strbuf sb = STRBUF_INIT;
	char *b = exact(commit_plain, sizeof(commit_plain) - 1);
	int r = parse_commit_buffer(b, sizeof(commit_plain) - 1, &ci);

	check(r == 0, "plain commit parses");
	check(!strcmp(oid_to_hex(&ci.tree), T1), "tree id");
	check(ci.nr_parents == 2 && !strcmp(oid_to_hex(&ci.parents[0]), P1) &&
	      !strcmp(oid_to_hex(&ci.parents[1]), P2), "two parents in order");
	check(ci.author_date == 1112911993 && ci.committer_date == 1112912053, "dates");
	check(mem_is(ci.author, ci.author_len, "A U Thor <author@example.com> 1112911993 -0700"),
	      "author line");
	check(mem_is(ci.message, ci.message_len, "subject line\ncontinued\n\nbody\n"), "message");
	message_subject(ci.message, ci.message_len, &sb);
	check(mem_is(sb.buf, sb.len, "subject line continued"), "subject joins the first paragraph");
	commit_info_release(&ci);
	free(b);

	b = exact(commit_extra, sizeof(commit_extra) - 1);
	r = parse_commit_buffer(b, sizeof(commit_extra) - 1, &ci);
	check(r == 0 && ci.nr_parents == 0, "root commit with extra headers parses");
	check(ci.committer_date == 7 && mem_is(ci.committer, ci.committer_len, "C <c@d> 7 +0000"),
	      "continuation lines do not replace the committer");
	strbuf_reset(&sb);
	message_subject(ci.message, ci.message_len, &sb);
	check(mem_is(sb.buf, sb.len, "  the subject second line"), "subject skips blank lines, trims line ends");
	commit_info_release(&ci);
	free(b);

	/* Every truncation must parse or fail cleanly, never over-read. */
	{
		size_t n = sizeof(commit_plain) - 1, bad = 0;
		for (size_t i = 0; i < n; i++) {
			b = exact(commit_plain, i);
			stderr_off();
			r = parse_commit_buffer(b, i, &ci);
			stderr_on();
			if (r == 0) {
				if (i < 46)
					bad++;   /* no complete tree line */
				if (ci.message + ci.message_len != b + i)
					bad++;
				commit_info_release(&ci);
			}
			free(b);
		}
		check(bad == 0, "every truncation of a commit is handled");
	}

	b = exact("tree 123\n", 9);
	stderr_off();
	r = parse_commit_buffer(b, 9, &ci);
	stderr_on();
	check(r == -1, "short tree id is refused");
	free(b);
	b = exact("tree " T1 "\nparent 12\n\n", 58);
	stderr_off();
	r = parse_commit_buffer(b, 58, &ci);
	stderr_on();
	check(r == -1, "bad parent is refused");
	free(b);
	strbuf_release(&sb);
}

static void test_idents(void)
{
	struct ident id;
	const char *s = "Some One <one@example.com> 1234567890 -0700";
	char *b = exact(s, strlen(s));

	check(parse_ident(b, strlen(s), &id) == 0 && mem_is(id.name, id.name_len, "Some One") &&
	      mem_is(id.email, id.email_len, "one@example.com") && id.date == 1234567890 &&
	      mem_is(id.tz, id.tz_len, "-0700"), "ident fields");
	free(b);

	s = "Odd <x> <y> 42 +0100";
	b = exact(s, strlen(s));
	check(parse_ident(b, strlen(s), &id) == 0 && mem_is(id.email, id.email_len, "x") &&
	      id.date == 42, "date after the last '>'");
	free(b);

	s = "No Date <n@d>";
	b = exact(s, strlen(s));
	check(parse_ident(b, strlen(s), &id) == 0 && id.date == 0 && !id.tz, "ident without date");
	free(b);

	s = "Huge <h@h> 99999999999999999999999 +0000";
	b = exact(s, strlen(s));
	check(parse_ident(b, strlen(s), &id) == 0 && id.date == 0, "overflowing date reads as 0");
	free(b);

	s = "no email at all";
	b = exact(s, strlen(s));
	check(parse_ident(b, strlen(s), &id) == -1, "ident without <> is refused");
	free(b);
}

static void test_tags(void)
{
	static const char tag[] =
		"object " P1 "\n"
		"type commit\n"
		"tag v1.0\n"
		"tagger T <t@t> 100 +0000\n"
		"\n"
		"Release\n";
	struct tag_info ti;
	char *b = exact(tag, sizeof(tag) - 1);

	check(parse_tag_buffer(b, sizeof(tag) - 1, &ti) == 0 && ti.type == OBJ_COMMIT &&
	      !strcmp(oid_to_hex(&ti.object), P1) && mem_is(ti.tag, ti.tag_len, "v1.0") &&
	      ti.tagger_date == 100 && mem_is(ti.message, ti.message_len, "Release\n"),
	      "tag fields");
	free(b);
	b = exact(tag, 55);
	stderr_off();
	int r = parse_tag_buffer(b, 55, &ti);
	stderr_on();
	check(r == -1, "tag cut in its type line is refused");
	free(b);
}

static void test_trees(void)
{
	char buf[200];
	size_t n = 0;
	struct tree_iter it;
	struct tree_entry e;
	int r;

	memcpy(buf + n, "100644 a.txt", 13), n += 13;
	memset(buf + n, 0xab, 20), n += 20;
	memcpy(buf + n, "40000 dir", 10), n += 10;
	memset(buf + n, 0xcd, 20), n += 20;
	char *b = exact(buf, n);
	tree_iter_init(&it, b, n);
	r = tree_iter_next(&it, &e);
	check(r == 1 && e.mode == 0100644 && mem_is(e.name, e.name_len, "a.txt") &&
	      e.oid->hash[0] == 0xab, "first tree entry");
	r = tree_iter_next(&it, &e);
	check(r == 1 && e.mode == 040000 && mem_is(e.name, e.name_len, "dir") &&
	      e.oid->hash[19] == 0xcd, "second tree entry");
	check(tree_iter_next(&it, &e) == 0, "end of tree");
	free(b);

	b = exact(buf, n - 1);
	tree_iter_init(&it, b, n - 1);
	r = tree_iter_next(&it, &e);
	check(r == 1 && tree_iter_next(&it, &e) == -1, "truncated id is malformed");
	free(b);

	b = exact("1x0644 a", 9);
	tree_iter_init(&it, b, 9);
	check(tree_iter_next(&it, &e) == -1, "non-octal mode is malformed");
	free(b);
}

int main(void)
{
	test_commits();
	test_idents();
	test_tags();
	test_trees();
	return tap_done();
}
