/* fuzz-harness.h: what every fuzz target shares.
 *
 * die() ends the process with exit(128). For a parser that dies on bad
 * input that is a correct answer, not a crash, so the targets are linked
 * with -Wl,--wrap=exit: inside FUZZ_TRY an exit() jumps back to the
 * target instead. Memory the dying code had allocated is unreachable
 * after the jump; to keep leak detection meaningful, FUZZ_RUN_DYING runs
 * the input once with leak tracking off to learn whether it dies, and
 * runs it again with leak tracking on only when it does not.
 *
 * Messages printed by error()/die() go to /dev/null (they would slow the
 * fuzzer down a lot) unless FUZZ_VERBOSE is set; sanitizer reports and
 * libFuzzer's own output use file descriptor 2 and are not affected. */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include "lib/util.h"
#include <setjmp.h>
#include <stdint.h>
#include <sanitizer/lsan_interface.h>

static jmp_buf fuzz_jmp;
static int fuzz_jmp_armed;

void __real_exit(int code) __attribute__((noreturn));
void __wrap_exit(int code) __attribute__((noreturn));
void __wrap_exit(int code)
{
	if (fuzz_jmp_armed) {
		fuzz_jmp_armed = 0;
		longjmp(fuzz_jmp, code ? code : -1);
	}
	__real_exit(code);
}

static void fuzz_quiet_stderr(void)
{
	static int done;
	if (done || getenv("FUZZ_VERBOSE"))
		return;
	done = 1;
	FILE *devnull = fopen("/dev/null", "w");
	if (devnull)
		stderr = devnull;
}

/* Runs fn(data, size); returns 0 when it returned, else the exit code it
 * tried to exit with (128 for die()). */
static int fuzz_try(void (*fn)(const uint8_t *, size_t), const uint8_t *data, size_t size)
{
	int code = setjmp(fuzz_jmp);
	if (code) {
		fuzz_jmp_armed = 0;
		return code;
	}
	fuzz_jmp_armed = 1;
	fn(data, size);
	fuzz_jmp_armed = 0;
	return 0;
}

/* See the top of this file. Returns what fuzz_try returned. */
static int fuzz_run_dying(void (*fn)(const uint8_t *, size_t), const uint8_t *data, size_t size)
{
	int code;

	__lsan_disable();
	code = fuzz_try(fn, data, size);
	__lsan_enable();
	if (code)
		return code;
	return fuzz_try(fn, data, size);
}

/* A copy of the input in a buffer of exactly size bytes, so that ASan
 * sees any read past its end (libFuzzer's own buffer is exact too, but a
 * target often needs a slice of it). */
static void *fuzz_dup(const void *data, size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		abort();
	if (size)
		memcpy(p, data, size);
	return p;
}

#endif
