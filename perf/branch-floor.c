/* branch-floor: the least a `branch` listing can cost, as a yardstick.
 *
 * Run at the top of a non-bare repository, it reads .git/HEAD, lists
 * .git/refs/heads/ (one level: perf/branch's names have no slash) and
 * the refs/heads/ lines of .git/packed-refs (mmap'ed), and prints the
 * branch names sorted, the current one marked "* ". Nothing else: no
 * discovery, no config, no terminal check, no name validation, no
 * packed-refs binary search. perf/branch measures it beside mini-git and
 * git, so that the report shows how far above this floor git's rules put
 * us. Not part of mini-git. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static char *names[65536];
static size_t nr;

static void add(const char *s, size_t len)
{
	if (nr < sizeof(names) / sizeof(*names))
		names[nr++] = strndup(s, len);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char head[256] = "";
	const char *cur = "";
	int fd = open(".git/HEAD", O_RDONLY);
	struct stat st;
	DIR *d;
	struct dirent *e;
	size_t i;

	if (fd >= 0) {
		ssize_t n = read(fd, head, sizeof(head) - 1);
		head[n > 0 ? n : 0] = 0;
		close(fd);
		head[strcspn(head, "\n")] = 0;
		if (!strncmp(head, "ref: refs/heads/", 16))
			cur = head + 16;
	}
	d = opendir(".git/refs/heads");
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			add(e->d_name, strlen(e->d_name));
	if (d)
		closedir(d);
	fd = open(".git/packed-refs", O_RDONLY);
	if (fd >= 0 && !fstat(fd, &st) && st.st_size > 0) {
		const char *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		const char *end = p + st.st_size;
		close(fd);
		while (p != MAP_FAILED && p < end) {
			const char *eol = memchr(p, '\n', end - p);
			if (!eol)
				eol = end;
			if (eol - p > 52 && !memcmp(p + 41, "refs/heads/", 11))
				add(p + 52, eol - p - 52);
			p = eol + 1;
		}
	}
	qsort(names, nr, sizeof(*names), cmp);
	for (i = 0; i < nr; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			printf("%s%s\n", strcmp(names[i], cur) ? "  " : "* ", names[i]);
	return 0;
}
