/* run-command.c: posix_spawn (vfork-like in glibc: no page-table copy of
 * the parent) with pipes. */
#include "lib/run-command.h"
#include "lib/fd-batch.h"
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

int start_command(struct child_process *cp)
{
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	int err;

	/* Children are few: the pipes need not wait for room (fd-batch.h). */
	fd_batch_flush();
	if (cp->in < 0 && pipe2(pin, O_CLOEXEC) < 0)
		return -1;
	if (cp->out < 0 && pipe2(pout, O_CLOEXEC) < 0) {
		err = errno;
		if (pin[0] >= 0) {
			close(pin[0]);
			close(pin[1]);
		}
		errno = err;
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	/* dup2 clears FD_CLOEXEC on the target, so the child keeps 0 and 1. */
	if (pin[0] >= 0)
		posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	if (pout[1] >= 0)
		posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	err = (cp->search_path ? posix_spawnp : posix_spawn)(&cp->pid, cp->argv[0], &fa, NULL,
							     (char *const *)cp->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (pin[0] >= 0)
		close(pin[0]);
	if (pout[1] >= 0)
		close(pout[1]);
	if (err) {
		if (pin[1] >= 0)
			close(pin[1]);
		if (pout[0] >= 0)
			close(pout[0]);
		errno = err;
		return -1;
	}
	if (pin[1] >= 0)
		cp->in = pin[1];
	if (pout[0] >= 0)
		cp->out = pout[0];
	return 0;
}

int finish_command(struct child_process *cp)
{
	int status;
	if (cp->in > 0) {
		close(cp->in);
		cp->in = 0;
	}
	if (cp->out > 1) {
		close(cp->out);
		cp->out = 1;
	}
	while (waitpid(cp->pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_errno("waitpid failed");
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}
