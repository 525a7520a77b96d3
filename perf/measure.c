/*
 * measure: run a command and report what it cost.
 *
 *   measure [-n RUNS] [-k] [-C DIR] [--] COMMAND [ARG...]
 *
 * One line per run on stdout:
 *   wall_us=<n> minflt=<n> majflt=<n> rss_kb=<n> read_bytes=<n> status=<n>
 * wall_us is fork to exit, on CLOCK_MONOTONIC; the faults and peak RSS
 * come from wait4()'s rusage; read_bytes (bytes the child and the
 * children it reaped made the block layer fetch) comes from
 * /proc/<pid>/io, read while the child is a zombie: waitid(WNOWAIT)
 * tells us it has exited without reaping it, then wait4() reaps it.
 * read_bytes is -1 when the kernel has no I/O accounting. status is the
 * exit code, or 128+signal. The command's stdout and stderr go to
 * /dev/null unless -k (keep) is given; stdin is /dev/null.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long read_io_bytes(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strstr(buf, "\nread_bytes: ");
	if (!p)
		return -1;
	return strtoll(p + 13, NULL, 10);
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int run_once(char **cmd, int keep, const char *dir)
{
	long long t0 = now_us();
	pid_t pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return -1;
	}
	if (!pid) {
		/* errors of our own still reach the caller's stderr */
		int err = fcntl(2, F_DUPFD_CLOEXEC, 3);
		FILE *errf = err >= 0 ? fdopen(err, "w") : stderr;
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			if (!keep) {
				dup2(null, 1);
				dup2(null, 2);
			}
		}
		if (dir && chdir(dir)) {
			fprintf(errf, "measure: %s: %s\n", dir, strerror(errno));
			fflush(errf);
			_exit(127);
		}
		execvp(cmd[0], cmd);
		fprintf(errf, "measure: %s: %s\n", cmd[0], strerror(errno));
		fflush(errf);
		_exit(127);
	}
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, pid, &si, WEXITED | WNOWAIT) < 0) {
		if (errno != EINTR) {
			perror("measure: waitid");
			return -1;
		}
	}
	long long wall = now_us() - t0;
	long long io = read_io_bytes(pid);
	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("measure: wait4");
			return -1;
		}
	}
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("wall_us=%lld minflt=%ld majflt=%ld rss_kb=%ld read_bytes=%lld status=%d\n",
	       wall, ru.ru_minflt, ru.ru_majflt, ru.ru_maxrss, io, code);
	fflush(stdout);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: measure [-n RUNS] [-k] [-C DIR] [--] COMMAND [ARG...]\n");
	exit(129);
}

int main(int argc, char **argv)
{
	int runs = 1, keep = 0, i = 1;
	const char *dir = NULL;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-k")) {
			keep = 1;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > 1000000)
				usage();
			runs = (int)v;
		} else if (!strcmp(argv[i], "-C") && i + 1 < argc) {
			dir = argv[++i];
		} else {
			usage();
		}
	}
	if (i == argc)
		usage();
	for (int r = 0; r < runs; r++)
		if (run_once(argv + i, keep, dir))
			return 1;
	return 0;
}
