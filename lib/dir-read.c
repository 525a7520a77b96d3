/* dir-read.c: directory listing without opendir(). */
#include "lib/util.h"
#include "lib/dir-read.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <stddef.h>
#include <sys/syscall.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

int dir_read(const char *path, int (*fn)(const char *name, unsigned type, void *data),
	     void *data)
{
	char buf[16384] __attribute__((aligned(8)));
	int fd = fd_open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0), ret = 0;
	long n;

	if (fd < 0)
		return -1;
	while (!ret && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n && !ret;) {
			struct linux_dirent64 *de = (struct linux_dirent64 *)(buf + off);
			const char *name = de->d_name;
			/* a record must hold its header and fit in what was read */
			if (de->d_reclen < offsetof(struct linux_dirent64, d_name) + 2 ||
			    de->d_reclen > n - off)
				break;
			off += de->d_reclen;
			if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			ret = fn(name, de->d_type, data);
		}
	}
	fd_close_batched(fd);
	return ret;
}
