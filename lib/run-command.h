/* run-command.h: start a program with pipes to its stdin and stdout. */
#ifndef LIB_RUN_COMMAND_H
#define LIB_RUN_COMMAND_H

#include "lib/util.h"

struct child_process {
	const char **argv;      /* argv[0] is the path to execute */
	int search_path;        /* argv[0] without a '/' is looked up in PATH */
	pid_t pid;
	/* in: -1 asks for a pipe whose write end is returned here; 0 keeps
	 * ours. out: -1 asks for a pipe whose read end is returned here. */
	int in, out;
};

/* 0, or -1 with errno set when the program cannot be started (nothing
 * is printed: the caller may try another path). */
int start_command(struct child_process *cp);
/* Closes our ends and waits: the exit code, or 128 + signal number. */
int finish_command(struct child_process *cp);

#endif
