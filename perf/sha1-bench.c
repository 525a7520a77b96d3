/* sha1-bench.c: throughput of our SHA-1, driven by perf/sha1.
 *
 *   sha1-bench speed <bytes>...   hash messages of each size one after
 *                                 another (sha1_buf: init, update, final)
 *                                 and print "<impl> <bytes> <MB/s>" per
 *                                 size, the best of five timed runs
 *   sha1-bench file <path>        print the blob id of the file (mmap +
 *                                 hash_object_buf), like git hash-object
 *
 * The implementation is the one the library chooses, so MINI_GIT_SHA1
 * selects it exactly as it does for mini-git itself. MB/s is 10^6 bytes
 * per second, the unit openssl speed reports in (as kB = 1000 bytes).
 */
#include "lib/util.h"
#include "lib/hex.h"
#include "sha1/sha1.h"
#include "sha1/object-hash.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Keeps the compiler from dropping hashes nobody reads. */
static volatile unsigned char sink;

static double speed(const unsigned char *buf, size_t size, double seconds)
{
	unsigned char out[20];
	size_t iters = 1, done = 0;
	double start = now(), elapsed;

	/* Double the batch until it takes long enough to time, then keep
	 * going until the time is spent. */
	for (;;) {
		size_t i;

		for (i = 0; i < iters; i++) {
			sha1_buf(out, buf, size);
			sink ^= out[0];
		}
		done += iters;
		elapsed = now() - start;
		if (elapsed >= seconds)
			break;
		if (elapsed < seconds / 8)
			iters *= 2;
	}
	return (double)done * (double)size / elapsed / 1e6;
}

static int cmd_speed(int argc, char **argv)
{
	size_t max = 0, i;
	unsigned char *buf;
	int k;

	for (k = 0; k < argc; k++) {
		size_t n = strtoull(argv[k], NULL, 10);
		if (n > max)
			max = n;
	}
	buf = xmalloc(max ? max : 1);
	for (i = 0; i < max; i++)
		buf[i] = (unsigned char)(i * 131 + 7);

	/* Warm up: the first block makes the choice; let the clock settle.
	 * The machine may be shared, so each figure is the best of five. */
	speed(buf, max, 0.05);
	for (k = 0; k < argc; k++) {
		size_t n = strtoull(argv[k], NULL, 10);
		double best = 0;
		int run;

		for (run = 0; run < 5; run++) {
			double mbps = speed(buf, n, 0.1);
			if (mbps > best)
				best = mbps;
		}
		printf("%s %zu %.1f\n", sha1_impl_name(), n, best);
	}
	free(buf);
	return 0;
}

static int cmd_file(const char *path)
{
	int fd = xopen(path, O_RDONLY);
	struct stat st;
	struct object_id oid;
	void *map = NULL;

	if (fstat(fd, &st))
		die_errno("cannot stat '%s'", path);
	if (st.st_size) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED)
			die_errno("cannot mmap '%s'", path);
	}
	close(fd);
	hash_object_buf("blob", map ? map : "", (size_t)st.st_size, &oid);
	printf("%s\n", oid_to_hex(&oid));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "speed"))
		return cmd_speed(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "file"))
		return cmd_file(argv[2]);
	fprintf(stderr, "usage: sha1-bench speed <bytes>... | file <path>\n");
	return 129;
}
