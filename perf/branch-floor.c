/* branch-floor: the least a `branch` listing can cost, as a yardstick.
 *
 * Run at the top of a non-bare repository, it reads .git/HEAD, lists
 * .git/refs/heads/ (one level: perf/branch's names have no slash) and
 * the refs/heads/ lines of .git/packed-refs (mmap'ed), and prints the
 * branch names sorted, the current one marked "* ". Each of those takes
 * the fewest system calls it can: an open and a read for HEAD, an open
 * and getdents until one returns nothing for the directory, an open, an
 * fstat and an mmap for packed-refs, one write; no close (exit closes),
 * no malloc, no stdio. Nothing else either: no discovery, no config, no
 * ownership check, no terminal check, no name validation, no binary
 * search. perf/branch measures it beside mini-git and git, so that the
 * report shows how far above this floor git's rules put us. Not part of
 * mini-git. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_NAMES 65536

static char name_room[1 << 22], out[1 << 22], dents[16384];
static const char *names[MAX_NAMES];
static size_t name_len[MAX_NAMES], nr, room_used;

static void add(const char *s, size_t len)
{
	if (nr == MAX_NAMES || room_used + len > sizeof(name_room))
		return;
	memcpy(name_room + room_used, s, len);
	names[nr] = name_room + room_used;
	name_len[nr++] = len;
	room_used += len;
}

static int cmp(size_t a, size_t b)
{
	size_t n = name_len[a] < name_len[b] ? name_len[a] : name_len[b];
	int c = memcmp(names[a], names[b], n);
	return c ? c : (name_len[a] > name_len[b]) - (name_len[a] < name_len[b]);
}

static void swap(size_t a, size_t b)
{
	const char *p = names[a];
	size_t l = name_len[a];
	names[a] = names[b];
	name_len[a] = name_len[b];
	names[b] = p;
	name_len[b] = l;
}

/* Heap sort: no memory beyond the arrays. */
static void sift(size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && cmp(c + 1, c) > 0)
			c++;
		if (cmp(i, c) >= 0)
			return;
		swap(i, c);
		i = c;
	}
}

static void sort_names(void)
{
	for (size_t i = nr / 2; i-- > 0;)
		sift(i, nr);
	for (size_t n = nr; n > 1; n--) {
		swap(0, n - 1);
		sift(0, n - 1);
	}
}

struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

int main(void)
{
	char head[256];
	const char *cur = "";
	size_t cur_len = 0, o = 0;
	struct stat st;
	int fd = open(".git/HEAD", O_RDONLY);

	if (fd >= 0) {
		ssize_t n = read(fd, head, sizeof(head));
		if (n > 16 && !memcmp(head, "ref: refs/heads/", 16)) {
			cur = head + 16;
			while (16 + cur_len < (size_t)n && cur[cur_len] != '\n')
				cur_len++;
		}
	}
	fd = open(".git/refs/heads", O_RDONLY | O_DIRECTORY);
	for (long n; fd >= 0 && (n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0;) {
		for (long at = 0; at < n;) {
			const struct dent64 *e = (const struct dent64 *)(dents + at);
			if (e->name[0] != '.')
				add(e->name, strlen(e->name));
			at += e->reclen;
		}
	}
	fd = open(".git/packed-refs", O_RDONLY);
	if (fd >= 0 && !fstat(fd, &st) && st.st_size > 0) {
		const char *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		const char *end = p + st.st_size;
		while (p != MAP_FAILED && p < end) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			if (!eol)
				eol = end;
			if (eol - p > 52 && !memcmp(p + 41, "refs/heads/", 11))
				add(p + 52, (size_t)(eol - p - 52));
			p = eol + 1;
		}
	}
	sort_names();
	for (size_t i = 0; i < nr; i++) {
		if (i && !cmp(i, i - 1))
			continue;  /* a loose ref and its packed twin */
		if (o + name_len[i] + 3 > sizeof(out))
			break;
		int is_cur = name_len[i] == cur_len && !memcmp(names[i], cur, cur_len);
		memcpy(out + o, is_cur ? "* " : "  ", 2);
		memcpy(out + o + 2, names[i], name_len[i]);
		o += name_len[i] + 2;
		out[o++] = '\n';
	}
	for (size_t done = 0; done < o;) {
		ssize_t w = write(1, out + done, o - done);
		if (w <= 0)
			return 1;
		done += (size_t)w;
	}
	return 0;
}
