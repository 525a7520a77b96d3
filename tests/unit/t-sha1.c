/* t-sha1.c: unit tests of sha1/ (both block functions, the streaming API,
 * the run-time choice) and of object hashing. Prints TAP.
 *
 * The block functions are also driven through a small padding routine of
 * this file's own, independent of sha1.c, so that each implementation is
 * checked on its own and sha1.c's padding is checked against a second
 * reading of FIPS 180-4, 5.1.1.
 */
#include "lib/util.h"
#include "sha1/sha1.h"
#include "sha1/object-hash.h"
#include <fcntl.h>
#include <sys/wait.h>

#define PLAN 30

static int test_no;
static int has_shani;

FORMAT_PRINTF(2, 3)
static int check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}

static void skip_no_shani(const char *desc)
{
	printf("ok %d - %s # skip no SHA-NI\n", ++test_no, desc);
}

static void to_hex(char out[41], const unsigned char h[20])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 20; i++) {
		out[2 * i] = digits[h[i] >> 4];
		out[2 * i + 1] = digits[h[i] & 15];
	}
	out[40] = '\0';
}

/* Compares a digest with the expected hex; explains a mismatch. */
static int same_hex(const unsigned char h[20], const char *want)
{
	char got[41];

	to_hex(got, h);
	if (!strcmp(got, want))
		return 1;
	printf("# expected %s\n#      got %s\n", want, got);
	return 0;
}

static int same_digest(const unsigned char a[20], const unsigned char b[20],
		       const char *what, size_t len)
{
	char ha[41], hb[41];

	if (!memcmp(a, b, 20))
		return 1;
	to_hex(ha, a);
	to_hex(hb, b);
	printf("# %s differs at length %zu: %s vs %s\n", what, len, ha, hb);
	return 0;
}

/* SHA-1 of a message with one block function and this file's padding. */
static void ref_sha1(sha1_block_fn fn, const void *data, size_t len,
		     unsigned char out[20])
{
	uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
			  0xc3d2e1f0 };
	unsigned char tail[128];
	size_t whole = len / 64, rest = len % 64, tail_len;
	uint64_t bits = (uint64_t)len * 8;
	int i;

	if (whole)
		fn(h, data, whole);
	memset(tail, 0, sizeof(tail));
	if (rest)
		memcpy(tail, (const unsigned char *)data + whole * 64, rest);
	tail[rest] = 0x80;
	tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
	fn(h, tail, tail_len / 64);
	for (i = 0; i < 5; i++) {
		out[4 * i] = (unsigned char)(h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(h[i] >> 8);
		out[4 * i + 3] = (unsigned char)h[i];
	}
}

/* xorshift64: reproducible data and splits. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static const struct {
	const char *msg, *hex;
} fips[] = {
	{ "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	  "a49b2446a02c645bf419f995b67091253a04a259" },
};
static const char *million_a_hex = "34aa973cd4c4daa4f61eeb2bdbad27316534016f";

/* ---- The run-time choice, observed in children (it happens once per
 * process, so each setting needs a fresh one). ---- */

struct child_result {
	int status;     /* exit code, or -1 if killed */
	char out[256];  /* what it wrote on stdout */
	char err[512];  /* what it wrote on stderr */
};

static void read_all(int fd, char *buf, size_t size)
{
	char scratch[256];
	size_t len = 0;
	ssize_t n;

	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	/* Drain whatever did not fit so the child never blocks. */
	while (read(fd, scratch, sizeof(scratch)) > 0)
		;
}

/* Runs fn in a child with MINI_GIT_SHA1 set to env (NULL: unset). */
static void in_child(const char *env, void (*fn)(void), struct child_result *r)
{
	int out[2], err[2], status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(out) || pipe(err))
		die_errno("pipe");
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (!pid) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		close(out[1]);
		close(err[1]);
		if (env)
			setenv("MINI_GIT_SHA1", env, 1);
		else
			unsetenv("MINI_GIT_SHA1");
		fn();
		fflush(stdout);
		_exit(0);
	}
	close(out[1]);
	close(err[1]);
	read_all(out[0], r->out, sizeof(r->out));
	read_all(err[0], r->err, sizeof(r->err));
	close(out[0]);
	close(err[0]);
	if (waitpid(pid, &status, 0) != pid)
		die_errno("waitpid");
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	/* One line of TAP per test: drop the message's final newline. */
	r->err[strcspn(r->err, "\n")] = '\0';
}

/* Hashes "abc" (one block) and prints "<impl> <hex>". */
static void child_hash_abc(void)
{
	unsigned char h[20];
	char hex[41];

	sha1_buf(h, "abc", 3);
	to_hex(hex, h);
	printf("%s %s", sha1_impl_name(), hex);
}

/* Stops short of a whole block, then finishes: the choice (and so the
 * error for a bad setting) must wait for sha1_final. */
static void child_lazy(void)
{
	struct sha1_ctx c;
	unsigned char h[20];

	sha1_init(&c);
	sha1_update(&c, "0123456789", 10);
	printf("before-block ");
	fflush(stdout);
	sha1_final(h, &c);
	printf("after-block");
}

static void test_choice(void)
{
	struct child_result r;
	char want[128];

	in_child("portable", child_hash_abc, &r);
	check(r.status == 0 && !strcmp(r.out, "portable a9993e364706816aba3e25717850c26c9cd0d89d"),
	      "MINI_GIT_SHA1=portable uses the portable code (got '%s')", r.out);

	in_child("shani", child_hash_abc, &r);
	if (has_shani)
		check(r.status == 0 && !strcmp(r.out, "shani a9993e364706816aba3e25717850c26c9cd0d89d"),
		      "MINI_GIT_SHA1=shani uses SHA-NI (got '%s')", r.out);
	else
		check(r.status == 128 && !strcmp(r.err, "fatal: MINI_GIT_SHA1=shani: this CPU has no SHA instructions"),
		      "MINI_GIT_SHA1=shani dies on a CPU without SHA-NI (status %d, '%s')",
		      r.status, r.err);

	in_child(NULL, child_hash_abc, &r);
	snprintf(want, sizeof(want), "%s a9993e364706816aba3e25717850c26c9cd0d89d",
		 has_shani ? "shani" : "portable");
	check(r.status == 0 && !strcmp(r.out, want),
	      "without MINI_GIT_SHA1 the CPU decides (got '%s')", r.out);

	in_child("sse", child_hash_abc, &r);
	check(r.status == 128 && starts_with(r.err, "fatal: MINI_GIT_SHA1=sse: ") &&
	      !*r.out, "an unknown MINI_GIT_SHA1 dies (status %d, '%s')",
	      r.status, r.err);

	in_child("sse", child_lazy, &r);
	check(r.status == 128 && !strcmp(r.out, "before-block "),
	      "the choice is made at the first block, not before (status %d, '%s')",
	      r.status, r.out);
}

/* ---- The streaming API, with whatever implementation was chosen. ---- */

static void test_public_vectors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fips); i++) {
		unsigned char h[20];

		sha1_buf(h, fips[i].msg, strlen(fips[i].msg));
		check(same_hex(h, fips[i].hex), "FIPS 180 vector %zu (%zu bytes)",
		      i + 1, strlen(fips[i].msg));
	}
}

static void test_public_million(const unsigned char *a_million)
{
	struct sha1_ctx c;
	unsigned char h[20];
	int i, ok;

	sha1_buf(h, a_million, 1000000);
	ok = same_hex(h, million_a_hex);
	/* The same, streamed 1000 bytes at a time (not a block multiple). */
	sha1_init(&c);
	for (i = 0; i < 1000; i++)
		sha1_update(&c, a_million, 1000);
	sha1_final(h, &c);
	ok &= same_hex(h, million_a_hex);
	check(ok, "one million 'a', one shot and in 1000-byte updates (%s)",
	      sha1_impl_name());
}

static void test_random_splits(const unsigned char *data, size_t len)
{
	unsigned char want[20], got[20];
	int round, ok = 1;

	sha1_buf(want, data, len);
	for (round = 0; round < 200 && ok; round++) {
		struct sha1_ctx c;
		size_t pos = 0;

		sha1_init(&c);
		while (pos < len) {
			/* Mostly small pieces, sometimes empty, sometimes several blocks. */
			uint64_t r = rng();
			size_t n = (r & 7) == 0 ? (size_t)(r >> 8) % 700 : (size_t)(r >> 8) % 70;

			if (n > len - pos)
				n = len - pos;
			sha1_update(&c, data + pos, n);
			pos += n;
		}
		sha1_final(got, &c);
		ok = same_digest(want, got, "split update", len);
	}
	check(ok, "200 random update() splits of %zu bytes equal one shot", len);
}

static void test_sha1sum(const unsigned char *data)
{
	static const size_t lens[] = { 0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 65536 + 17 };
	char path[] = "/tmp/t-sha1.XXXXXX";
	size_t i;
	int fd, ok = 1;

	if (system("command -v sha1sum >/dev/null 2>&1")) {
		printf("ok %d - sha1sum agrees # skip sha1sum not found\n", ++test_no);
		return;
	}
	fd = mkstemp(path);
	if (fd < 0)
		die_errno("mkstemp");
	close(fd);
	for (i = 0; i < ARRAY_SIZE(lens) && ok; i++) {
		char cmd[64], line[128];
		unsigned char h[20];
		FILE *f;

		fd = xopen(path, O_WRONLY | O_TRUNC);
		if (write_in_full(fd, data, lens[i]) < 0)
			die_errno("write %s", path);
		close(fd);
		snprintf(cmd, sizeof(cmd), "sha1sum < %s", path);
		f = popen(cmd, "r");
		if (!f || !fgets(line, sizeof(line), f))
			die("cannot run '%s'", cmd);
		pclose(f);
		line[40] = '\0';
		sha1_buf(h, data, lens[i]);
		ok = same_hex(h, line);
		if (!ok)
			printf("# at length %zu\n", lens[i]);
	}
	unlink(path);
	check(ok, "sha1sum agrees at %zu lengths from 0 to 65553", ARRAY_SIZE(lens));
}

/* ---- Each block function on its own. ---- */

static void test_block_fn(const char *name, sha1_block_fn fn,
			  const unsigned char *a_million, const unsigned char *data)
{
	unsigned char h[20], h1[20];
	uint32_t s1[5] = { 1, 2, 3, 4, 5 }, s2[5] = { 1, 2, 3, 4, 5 };
	size_t i, off, len;
	int ok = 1;

	if (!fn) {
		char desc[64];

		snprintf(desc, sizeof(desc), "%s: FIPS 180 vectors", name);
		skip_no_shani(desc);
		snprintf(desc, sizeof(desc), "%s: one million 'a'", name);
		skip_no_shani(desc);
		snprintf(desc, sizeof(desc), "%s: many blocks in one call", name);
		skip_no_shani(desc);
		snprintf(desc, sizeof(desc), "%s: unaligned input", name);
		skip_no_shani(desc);
		return;
	}

	for (i = 0; i < ARRAY_SIZE(fips); i++) {
		ref_sha1(fn, fips[i].msg, strlen(fips[i].msg), h);
		ok &= same_hex(h, fips[i].hex);
	}
	check(ok, "%s: FIPS 180 vectors", name);

	ref_sha1(fn, a_million, 1000000, h);
	check(same_hex(h, million_a_hex), "%s: one million 'a'", name);

	/* 37 blocks in one call leave the state 37 single calls do. */
	fn(s1, data, 37);
	for (i = 0; i < 37; i++)
		fn(s2, data + 64 * i, 1);
	check(!memcmp(s1, s2, sizeof(s1)), "%s: many blocks in one call", name);

	ok = 1;
	for (off = 1; off < 8 && ok; off++) {
		for (len = 0; len < 300 && ok; len += 37) {
			ref_sha1(fn, data + off, len, h);
			sha1_buf(h1, data + off, len);
			ok = same_digest(h, h1, "unaligned", len);
		}
	}
	check(ok, "%s: unaligned input", name);
}

/* Every length from 0 to 1100 (all padding cases, up to 17 blocks):
 * each implementation against the other and against sha1_buf(). */
static void test_all_lengths(const unsigned char *data)
{
	unsigned char pub[20], port[20], ni[20];
	size_t len;
	int ok = 1;

	for (len = 0; len <= 1100 && ok; len++) {
		sha1_buf(pub, data, len);
		ref_sha1(sha1_block_portable, data, len, port);
		ok = same_digest(pub, port, "sha1_buf vs portable", len);
	}
	check(ok, "lengths 0..1100: portable equals sha1_buf (%s)", sha1_impl_name());

	if (!has_shani) {
		skip_no_shani("lengths 0..1100: SHA-NI equals portable");
		return;
	}
	ok = 1;
	for (len = 0; len <= 1100 && ok; len++) {
		ref_sha1(sha1_block_portable, data, len, port);
		ref_sha1(sha1_block_shani, data, len, ni);
		ok = same_digest(port, ni, "portable vs SHA-NI", len);
	}
	check(ok, "lengths 0..1100: SHA-NI equals portable");
}

/* ---- Object ids. ---- */

static void test_object_hash(const unsigned char *data)
{
	struct object_id oid, oid2;
	struct sha1_ctx c;
	char buf[64], *type;
	unsigned char h[20];
	int n;

	hash_object_buf("blob", "", 0, &oid);
	check(same_hex(oid.hash, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"),
	      "empty blob id");
	hash_object_buf("blob", "hello\n", 6, &oid);
	check(same_hex(oid.hash, "ce013625030ba8dba906f756967f9e9ca394464a"),
	      "blob id of \"hello\\n\"");
	hash_object_buf("tree", "", 0, &oid);
	check(same_hex(oid.hash, "4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
	      "empty tree id");

	n = object_header_format(buf, sizeof(buf), "commit", 1234567);
	check(n == 15 && !memcmp(buf, "commit 1234567\0", 15),
	      "object_header_format: \"commit 1234567\\0\", length 15 (got %d)", n);
	n = object_header_format(buf, 7, "blob", 6);
	check(n == 7 && !memcmp(buf, "blob 6\0", 7),
	      "object_header_format: exact fit (got %d)", n);
	n = object_header_format(buf, 6, "blob", 6);
	check(n == -1, "object_header_format: one byte short is -1 (got %d)", n);

	/* Streaming equals one shot equals hashing header + data by hand. */
	hash_object_header(&c, "commit", 3000);
	sha1_update(&c, data, 1000);
	sha1_update(&c, data + 1000, 2000);
	sha1_final(oid.hash, &c);
	hash_object_buf("commit", data, 3000, &oid2);
	{
		unsigned char *all = xmalloc(3000 + 32);

		n = object_header_format((char *)all, 32, "commit", 3000);
		memcpy(all + n, data, 3000);
		sha1_buf(h, all, 3000 + (size_t)n);
		free(all);
	}
	check(oideq(&oid, &oid2) && !memcmp(h, oid.hash, 20),
	      "hash_object_header + updates equals hash_object_buf and sha1 of header + data");

	/* A type name longer than any header buffer. */
	type = xmalloc(201);
	memset(type, 'x', 200);
	type[200] = '\0';
	hash_object_buf(type, "abc", 3, &oid);
	{
		char *all = xstrfmt("%s 3", type);
		size_t alen = strlen(all) + 1;

		all = xrealloc(all, alen + 3);
		memcpy(all + alen, "abc", 3);
		sha1_buf(h, all, alen + 3);
		free(all);
	}
	free(type);
	check(!memcmp(h, oid.hash, 20), "hash_object_buf with a 200-byte type name");
}

int main(void)
{
	unsigned char *a_million, *data;
	size_t i;

	has_shani = sha1_cpu_has_shani();
	printf("1..%d\n", PLAN);
	printf("# CPU %s SHA-NI\n", has_shani ? "has" : "lacks");

	/* First, while this process has not chosen yet. */
	test_choice();

	a_million = xmalloc(1000000);
	memset(a_million, 'a', 1000000);
	data = xmalloc(70000);
	for (i = 0; i < 70000; i++)
		data[i] = (unsigned char)(rng() >> 56);

	test_public_vectors();
	test_public_million(a_million);
	test_random_splits(data, 5000);
	test_sha1sum(data);

	test_block_fn("portable", sha1_block_portable, a_million, data);
	test_block_fn("SHA-NI", has_shani ? sha1_block_shani : NULL, a_million, data);
	test_all_lengths(data);

	test_object_hash(data);

	free(a_million);
	free(data);
	if (test_no != PLAN)
		printf("# ran %d tests, planned %d\n", test_no, PLAN);
	return test_no == PLAN ? 0 : 1;
}
