/* t-packed-refs: packed-refs files of every shape, read through the refs
 * interface in a scratch repository: sorted (binary search), unsorted
 * (sorted in memory), peeled lines, large files (mmap), loose overrides. */
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/repo.h"
#include "refs/refs.h"
#include "refs/refs-internal.h"
#include "lib/malloc-arena.h"
#include "tests/unit/tap.h"
#include <fcntl.h>
#include <sys/stat.h>



static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_in_full(fd, text, strlen(text)) < 0)
		die_errno("cannot write %s", path);
	close(fd);
}

static void hex_of(char *out, unsigned n)
{
	snprintf(out, 41, "%040x", n);
}

struct collect {
	struct strbuf names;
	int n;
};

static int collect(const struct ref_entry *e, void *data)
{
	struct collect *c = data;
	strbuf_addf(&c->names, "%s%s", c->n++ ? " " : "", e->name);
	return 0;
}

static const char *list(const char *prefix)
{
	static struct collect c = { STRBUF_INIT, 0 };
	strbuf_reset(&c.names);
	c.n = 0;
	refs_for_each(prefix, 0, collect, &c);
	return c.names.buf;
}

int main(void)
{
	char dir[] = "/tmp/t-packed-refs.XXXXXX", hex[41];
	struct object_id oid;
	struct strbuf big = STRBUF_INIT, peeled = STRBUF_INIT;
	unsigned flags;

	if (!mkdtemp(dir))
		die_errno("mkdtemp");
	if (chdir(dir) < 0)
		die_errno("chdir");
	mkdir(".git", 0777);
	mkdir(".git/objects", 0777);
	mkdir(".git/refs", 0777);
	mkdir(".git/refs/heads", 0777);
	write_file(".git/HEAD", "ref: refs/heads/main\n");
	write_file(".git/config", "[core]\n\trepositoryformatversion = 0\n");
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("HOME", dir, 1);
	setup_git_directory();

	/* sorted, fully peeled */
	write_file(".git/packed-refs",
		   "# pack-refs with: peeled fully-peeled sorted \n"
		   "1111111111111111111111111111111111111111 refs/heads/a\n"
		   "2222222222222222222222222222222222222222 refs/heads/main\n"
		   "3333333333333333333333333333333333333333 refs/tags/t1\n"
		   "^4444444444444444444444444444444444444444\n"
		   "5555555555555555555555555555555555555555 refs/tags/t2\n");
	refs_invalidate();
	check(!refs_read("refs/heads/main", &oid) && oid.hash[0] == 0x22, "sorted: lookup");
	check(refs_read("refs/heads/nope", &oid) < 0, "sorted: missing name");
	check(!strcmp(list("refs/heads/"), "refs/heads/a refs/heads/main"), "sorted: prefix heads");
	check(!strcmp(list("refs/tags/"), "refs/tags/t1 refs/tags/t2"), "sorted: prefix tags");
	check(!strcmp(list("refs/tags/t2"), "refs/tags/t2"), "sorted: prefix without a slash");
	check(refs_resolve("HEAD", &oid, &flags) && (flags & REF_ISSYMREF) && (flags & REF_ISPACKED),
	      "HEAD to a packed branch");

	/* unsorted, no header */
	write_file(".git/packed-refs",
		   "5555555555555555555555555555555555555555 refs/tags/t2\n"
		   "2222222222222222222222222222222222222222 refs/heads/main\n"
		   "3333333333333333333333333333333333333333 refs/tags/t1\n"
		   "^4444444444444444444444444444444444444444\n"
		   "1111111111111111111111111111111111111111 refs/heads/a\n");
	refs_invalidate();
	check(!strcmp(list("refs/"), "refs/heads/a refs/heads/main refs/tags/t1 refs/tags/t2"),
	      "unsorted: listed in order");
	check(!refs_read("refs/tags/t1", &oid) && oid.hash[0] == 0x33, "unsorted: lookup");

	/* loose overrides packed */
	write_file(".git/refs/heads/main", "9999999999999999999999999999999999999999\n");
	refs_invalidate();
	check(!refs_read("refs/heads/main", &oid) && oid.hash[0] == 0x99, "loose wins over packed");
	check(!strcmp(list("refs/heads/"), "refs/heads/a refs/heads/main"), "no duplicate in a listing");
	if (malloc_arena_enabled()) {
		/* Reading a loose ref gives back all it took from the start-up
		 * arena, which takes back only its newest block: a listing of
		 * thousands of loose refs must not use it up. */
		struct strbuf target = STRBUF_INIT;
		void *before = malloc(32), *after;
		free(before);
		read_loose_ref_fresh("refs/heads/main", &oid, &target);
		after = malloc(32);
		free(after);
		check(before == after && oid.hash[0] == 0x99,
		      "reading a loose ref leaves the arena as it was");
	} else {
		tap_skip("this build has no arena", "reading a loose ref leaves the arena as it was");
	}
	unlink(".git/refs/heads/main");

	/* a large sorted file, mapped: every name found, prefixes exact */
	strbuf_addstr(&big, "# pack-refs with: peeled fully-peeled sorted \n");
	for (unsigned i = 0; i < 3; i++) {
		hex_of(hex, i + 1);
		strbuf_addf(&big, "%s refs/heads/b%u\n", hex, i);
	}
	for (unsigned i = 0; i < 20000; i++) {
		hex_of(hex, i + 100);
		strbuf_addf(&big, "%s refs/tags/v%05u\n", hex, i);
	}
	write_file(".git/packed-refs", big.buf);
	refs_invalidate();
	check(!strcmp(list("refs/heads/"), "refs/heads/b0 refs/heads/b1 refs/heads/b2"),
	      "large: only the heads slice");
	{
		int all = 1;
		for (unsigned i = 0; i < 20000; i += 997) {
			char name[64];
			snprintf(name, sizeof(name), "refs/tags/v%05u", i);
			if (refs_read(name, &oid) || oid.hash[19] != (unsigned char)(i + 100))
				all = 0;
		}
		check(all, "large: binary search finds every probe");
		/* the first probe is the last whole line of the first page:
		 * names on both sides of it and on the line across it */
		for (unsigned i = 0; i < 200; i++) {
			char name[64];
			snprintf(name, sizeof(name), "refs/tags/v%05u", i);
			if (refs_read(name, &oid) || oid.hash[19] != (unsigned char)(i + 100))
				all = 0;
		}
		check(all, "large: every name around the end of the first page");
	}
	/* the same with a peeled line after every tag: a probe that lands on
	 * one goes back to its record */
	strbuf_addstr(&peeled, "# pack-refs with: peeled fully-peeled sorted \n");
	for (unsigned i = 0; i < 3000; i++) {
		hex_of(hex, i + 100);
		strbuf_addf(&peeled, "%s refs/tags/v%05u\n", hex, i);
		hex_of(hex, i + 7);
		strbuf_addf(&peeled, "^%s\n", hex);
	}
	write_file(".git/packed-refs", peeled.buf);
	refs_invalidate();
	{
		int all = 1;
		for (unsigned i = 0; i < 3000; i += i < 200 ? 1 : 101) {
			char name[64];
			snprintf(name, sizeof(name), "refs/tags/v%05u", i);
			if (refs_read(name, &oid) || oid.hash[19] != (unsigned char)(i + 100))
				all = 0;
		}
		check(all, "large, peeled: every name found");
		check(!strcmp(list("refs/tags/v0004"), "refs/tags/v00040 refs/tags/v00041 refs/tags/v00042 "
				"refs/tags/v00043 refs/tags/v00044 refs/tags/v00045 refs/tags/v00046 "
				"refs/tags/v00047 refs/tags/v00048 refs/tags/v00049"),
		      "large, peeled: a slice across the first page's end");
	}
	write_file(".git/packed-refs", big.buf);
	refs_invalidate();
	check(refs_read("refs/tags/v99999", &oid) < 0 && refs_read("refs/tags/a", &oid) < 0 &&
	      refs_read("refs/zzz", &oid) < 0, "large: names before, between and after");

	/* names and contents of loose files */
	write_file(".git/refs/heads/sym", "ref: refs/heads/b1\n");
	write_file(".git/refs/heads/crlf", "1111111111111111111111111111111111111111\r\n");
	write_file(".git/refs/heads/bad", "not a ref\n");
	refs_invalidate();
	check(refs_resolve("refs/heads/sym", &oid, &flags) && (flags & REF_ISSYMREF) && oid.hash[19] == 2,
	      "loose symref to a packed ref");
	check(!refs_read("refs/heads/crlf", &oid), "trailing CR LF accepted");
	check(!refs_resolve("refs/heads/bad", &oid, &flags) && (flags & REF_ISBROKEN), "garbage is broken");

	strbuf_release(&big);
	strbuf_release(&peeled);
	if (chdir("/") == 0) {
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		check(!system(cmd), "scratch directory removed");
	}
	return tap_done();
}
