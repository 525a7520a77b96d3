/* t-fsck-check.c: message ids, severities and a few syntax checks of
 * odb/fsck-check.c, on hand-made objects; and the pack walk's zlib
 * decoder against zlib itself. Prints TAP. */
#include "lib/util.h"
#include "lib/strbuf.h"
#include "odb/fsck-check.h"
#include "odb/pack-walk.h"
#include <zlib.h>

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

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* zlib's verdict as the walk asks it: exactly size bytes, stream ended. */
static int zlib_inflate(const unsigned char *in, size_t avail, unsigned char *out, size_t size)
{
	z_stream z;
	int st, ok;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)avail;
	z.next_out = out;
	z.avail_out = (uInt)size + 1;
	st = inflate(&z, Z_FINISH);
	ok = st == Z_STREAM_END && z.total_out == size;
	inflateEnd(&z);
	return ok;
}

/* A bit writer for hand-made deflate streams. */
struct bitw {
	unsigned char buf[64];
	size_t n;
	unsigned bits;
};

static void put(struct bitw *w, unsigned v, unsigned nbits)
{
	for (unsigned i = 0; i < nbits; i++, w->bits++) {
		if (!(w->bits & 7))
			w->buf[w->n++] = 0;
		w->buf[w->n - 1] |= (unsigned char)(((v >> i) & 1) << (w->bits & 7));
	}
}

static void put_code(struct bitw *w, unsigned code, unsigned len)
{
	while (len--)
		put(w, (code >> len) & 1, 1);
}

/*
 * "aa" in one dynamic block whose literal code gives 'a' one bit and the
 * end of block eob_len bits: with 2 the set is incomplete, which zlib
 * refuses ("invalid literal/lengths set") though every code used is
 * valid; with 1 it is complete and both decode it.
 */
static size_t incomplete_stream(unsigned char *out, unsigned eob_len)
{
	static const unsigned char order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	struct bitw w;
	uint32_t s = (uint32_t)adler32(1, (const unsigned char *)"aa", 2);

	memset(&w, 0, sizeof(w));
	w.buf[0] = 0x78;
	w.buf[1] = 0x01;
	w.n = 2;
	w.bits = 16;
	put(&w, 1, 1);          /* final */
	put(&w, 2, 2);          /* dynamic */
	put(&w, 0, 5);          /* 257 literal/length codes */
	put(&w, 0, 5);          /* 1 distance code */
	put(&w, 14, 4);         /* 18 code length codes */
	/* Code length code: 0, 1, 2 and 18, two bits each (00 01 10 11). */
	for (int i = 0; i < 18; i++)
		put(&w, order[i] == 0 || order[i] == 1 || order[i] == 2 || order[i] == 18 ? 2 : 0, 3);
	put_code(&w, 3, 2);     /* 18: 97 zeros */
	put(&w, 97 - 11, 7);
	put_code(&w, 1, 2);     /* 'a': 1 */
	put_code(&w, 3, 2);     /* 18: 138 zeros */
	put(&w, 138 - 11, 7);
	put_code(&w, 3, 2);     /* 18: 20 zeros */
	put(&w, 20 - 11, 7);
	put_code(&w, eob_len, 2);  /* end of block: 1 or 2 */
	put_code(&w, 1, 2);     /* distance 0: 1 */
	/* 'a' is 0; the end of block 1 (length 1) or 10 (length 2). */
	put_code(&w, 0, 1);
	put_code(&w, 0, 1);
	put_code(&w, eob_len == 1 ? 1 : 2, eob_len);
	w.bits = (w.bits + 7) & ~7u;
	put(&w, s >> 24, 8);
	put(&w, (s >> 16) & 0xff, 8);
	put(&w, (s >> 8) & 0xff, 8);
	put(&w, s & 0xff, 8);
	memcpy(out, w.buf, w.n);
	return w.n;
}

/*
 * Streams made by zlib at every level and strategy, then damaged (bits,
 * bytes, a wrong size, a cut): the decoder must never accept what zlib
 * refuses nor decode differently, and must accept every intact stream.
 * Damage inside the compressed data, with a recomputed Adler-32, is what
 * reaches the code-set rules (incomplete and over-subscribed codes, bad
 * repeats, distances too far back) that a checksum would otherwise hide.
 */
static void test_inflate(void)
{
	enum { MAX = 20000 };
	unsigned char *src = xmalloc(MAX), *comp = xmalloc(MAX * 2 + 64);
	unsigned char *a = xmalloc(MAX + 2), *b = xmalloc(MAX + 2 + PACK_WALK_INFLATE_SLACK);
	int bad = 0, refused_intact = 0, accepted = 0;

	for (int it = 0; it < 3000; it++) {
		size_t n = rnd() % (it % 50 ? 1500 : MAX), cl, size, avail;
		int kind = (int)(rnd() % 3), damage = it % 4, fixsum = damage == 3;
		z_stream z;

		for (size_t i = 0; i < n; i++)
			src[i] = kind == 0 ? (unsigned char)rnd() :
				 kind == 1 ? (unsigned char)"abcdefgh \n"[rnd() % 10] :
				 i > 30 && rnd() % 4 ? src[i - 1 - rnd() % 30] : (unsigned char)rnd();
		memset(&z, 0, sizeof(z));
		deflateInit2(&z, (int)(rnd() % 10), Z_DEFLATED, 15 - (int)(rnd() % 4 ? 0 : rnd() % 7),
			     8, (int)(rnd() % 5));
		z.next_in = src;
		z.avail_in = (uInt)n;
		z.next_out = comp;
		z.avail_out = MAX * 2 + 64;
		deflate(&z, Z_FINISH);
		cl = z.total_out;
		deflateEnd(&z);
		size = n;
		avail = cl;
		if (damage && cl > 6) {
			for (int k = 1 + (int)(rnd() % 2); k; k--) {
				size_t pos = damage == 1 ? rnd() % cl : 2 + rnd() % (cl - 6 < 40 ? cl - 6 : 40);
				if (rnd() % 2)
					comp[pos] ^= (unsigned char)(1 << (rnd() % 8));
				else
					comp[pos] = (unsigned char)rnd();
			}
		}
		if (fixsum) {
			/* Whatever raw inflate makes of the damaged data becomes
			 * the expected result, under a correct checksum. */
			z_stream r;
			int st;
			memset(&r, 0, sizeof(r));
			inflateInit2(&r, -15);
			r.next_in = comp + 2;
			r.avail_in = (uInt)(cl - 2);
			r.next_out = a;
			r.avail_out = MAX + 2;
			st = inflate(&r, Z_FINISH);
			if (st == Z_STREAM_END && 2 + r.total_in + 4 <= MAX * 2 + 64) {
				uint32_t s = (uint32_t)adler32(1, a, (uInt)r.total_out);
				unsigned char *p = comp + 2 + r.total_in;
				p[0] = (unsigned char)(s >> 24);
				p[1] = (unsigned char)(s >> 16);
				p[2] = (unsigned char)(s >> 8);
				p[3] = (unsigned char)s;
				avail = 2 + r.total_in + 4;
				size = r.total_out;
			}
			inflateEnd(&r);
		}
		if (damage == 2 && rnd() % 2)
			size += size && rnd() % 2 ? (size_t)-1 : 1;
		if (damage == 2 && rnd() % 4 == 0)
			avail = rnd() % (avail + 1);
		{
			int za = zlib_inflate(comp, avail, a, size);
			int fa = !pack_walk_inflate(comp, avail, b, size);
			accepted += fa;
			if (fa && (!za || memcmp(a, b, size)))
				bad++;
			if (!damage && !fa)
				refused_intact++;
		}
	}
	{
		unsigned char st[64], o1[8], o2[8 + PACK_WALK_INFLATE_SLACK];
		size_t len = incomplete_stream(st, 1);
		check(zlib_inflate(st, len, o1, 2) && !pack_walk_inflate(st, len, o2, 2) &&
		      !memcmp(o2, "aa", 2), "hand-made dynamic block decodes");
		len = incomplete_stream(st, 2);
		check(!zlib_inflate(st, len, o1, 2) && pack_walk_inflate(st, len, o2, 2),
		      "incomplete literal code refused, as zlib does");
	}
	check(!bad, "decoder accepts only what zlib accepts, with zlib's result");
	check(!refused_intact && accepted > 1000, "decoder accepts every intact stream");
	free(src);
	free(comp);
	free(a);
	free(b);
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

	fsck_set_msg_type(&o, "missingTaggerEntry", "error");
	check(run(&o, OBJ_TAG, no_tagger, strlen(no_tagger)) == 1 &&
	      !strcmp(got.buf, "error missingTaggerEntry: invalid format - expected 'tagger' line|"),
	      "fsck.missingTaggerEntry=error");
	fsck_set_msg_type(&o, "missingtaggerentry", "ignore");
	check(run(&o, OBJ_TAG, no_tagger, strlen(no_tagger)) == 0 && !got.len,
	      "fsck.missingtaggerentry=ignore");
	fsck_options_release(&o);
	strbuf_release(&t);
	test_inflate();
	strbuf_release(&got);
	printf("1..%d\n", test_no);
	return 0;
}
