/*
 * evict: drop the page cache of files and directory trees without root,
 * with posix_fadvise(POSIX_FADV_DONTNEED), so that the next read comes
 * from the disk.
 *
 *   evict [-v] PATH...    evict; -v prints "evicted <files> <pages>"
 *   evict -c PATH...      evict nothing; print "<resident> <total>"
 *                         pages (mincore) over the regular files
 *
 * Only clean pages that no process maps can go: a library in use by a
 * running program stays resident (the kernel keeps mapped pages), which
 * is why perf/run prefers drop_caches when it may write it, and why -c
 * exists: to see what was really left in memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_only;
static int failed;
static unsigned long long nr_files, nr_pages, nr_resident;
static long page_size;

static void count_resident(int fd, off_t size)
{
	unsigned long long pages = ((unsigned long long)size + page_size - 1) / page_size;
	nr_pages += pages;
	if (!size)
		return;
	void *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return;
	unsigned char *vec = malloc(pages);
	if (vec && !mincore(p, size, vec)) {
		for (unsigned long long i = 0; i < pages; i++)
			nr_resident += vec[i] & 1;
	}
	free(vec);
	munmap(p, size);
}

static int one_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "evict: %s: %s\n", path, strerror(errno));
		failed = 1;
		return 0;
	}
	nr_files++;
	if (check_only) {
		count_resident(fd, st->st_size);
	} else {
		nr_pages += ((unsigned long long)st->st_size + page_size - 1) / page_size;
		int err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (err) {
			fprintf(stderr, "evict: %s: %s\n", path, strerror(err));
			failed = 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int verbose = 0, i = 1;
	page_size = sysconf(_SC_PAGESIZE);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-c"))
			check_only = 1;
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "usage: evict [-v | -c] PATH...\n");
			return 129;
		}
	}
	if (i == argc) {
		fprintf(stderr, "usage: evict [-v | -c] PATH...\n");
		return 129;
	}
	for (; i < argc; i++) {
		if (nftw(argv[i], one_file, 32, FTW_PHYS) < 0) {
			fprintf(stderr, "evict: %s: %s\n", argv[i], strerror(errno));
			failed = 1;
		}
	}
	if (check_only)
		printf("%llu %llu\n", nr_resident, nr_pages);
	else if (verbose)
		printf("evicted %llu %llu\n", nr_files, nr_pages);
	return failed;
}
