/* fuzz-harness.h: what every fuzz target shares.
 *
 * die() ends the process with exit(128). For a parser that dies on bad
 * input that is a correct answer, not a crash, so the targets are linked
 * with -Wl,--wrap=exit (and malloc, calloc, realloc, free, mmap,
 * munmap): inside
 * fuzz_try() an exit() jumps back to the target instead. Whatever was
 * allocated during that run and not yet freed is then freed by the
 * harness, after the target's own cleanup hook has dropped any global
 * state pointing at it, so a run that dies leaks nothing and libFuzzer's
 * per-input leak check stays on. One limit: a static buffer that first
 * grows during a dying run would be freed under its owner's feet, so
 * targets make such buffers grow in LLVMFuzzerInitialize (see
 * fuzz-packed-refs.c). A realloc() of memory allocated outside a run
 * stays untracked, as it belongs to long-lived state.
 *
 * Messages printed by error()/die() go to /dev/null (they would slow the
 * fuzzer down a lot) unless FUZZ_VERBOSE is set; sanitizer reports and
 * libFuzzer's own output do not use the stderr FILE and are not affected. */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include "lib/util.h"
#include "lib/repo.h"
#include <setjmp.h>
#include <stdint.h>

static jmp_buf fuzz_jmp;
static int fuzz_armed;
/* Called after a die, before the leftovers are freed. */
static void (*fuzz_cleanup)(void);

/* Open-addressing set of the live allocations of the current run. */
static void **fuzz_live;
static size_t fuzz_live_cap, fuzz_live_nr;
#define FUZZ_TOMB ((void *)1)

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);

static size_t fuzz_slot(const void *p)
{
	return (size_t)(((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull) & (fuzz_live_cap - 1);
}

static void fuzz_track(void *p)
{
	size_t i;
	if (!p)
		return;
	if ((fuzz_live_nr + 1) * 2 > fuzz_live_cap) {
		void **old = fuzz_live;
		size_t oldcap = fuzz_live_cap;
		fuzz_live_cap = oldcap ? oldcap * 2 : 1024;
		fuzz_live = __real_calloc(fuzz_live_cap, sizeof(*fuzz_live));
		if (!fuzz_live)
			abort();
		fuzz_live_nr = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i] && old[i] != FUZZ_TOMB)
				fuzz_track(old[i]);
		__real_free(old);
	}
	for (i = fuzz_slot(p); fuzz_live[i] && fuzz_live[i] != FUZZ_TOMB; i = (i + 1) & (fuzz_live_cap - 1))
		;
	fuzz_live[i] = p;
	fuzz_live_nr++;
}

/* 1 if p was tracked (and is no longer). */
static int fuzz_untrack(void *p)
{
	size_t i;
	if (!p || !fuzz_live_nr)
		return 0;
	for (i = fuzz_slot(p); fuzz_live[i]; i = (i + 1) & (fuzz_live_cap - 1))
		if (fuzz_live[i] == p) {
			fuzz_live[i] = FUZZ_TOMB;
			fuzz_live_nr--;
			return 1;
		}
	return 0;
}

static void fuzz_untrack_all(int release)
{
	for (size_t i = 0; i < fuzz_live_cap; i++) {
		if (fuzz_live[i] && fuzz_live[i] != FUZZ_TOMB && release)
			__real_free(fuzz_live[i]);
		fuzz_live[i] = NULL;
	}
	fuzz_live_nr = 0;
}

void *__wrap_malloc(size_t n);
void *__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);
	if (fuzz_armed)
		fuzz_track(p);
	return p;
}

void *__wrap_calloc(size_t a, size_t b);
void *__wrap_calloc(size_t a, size_t b)
{
	void *p = __real_calloc(a, b);
	if (fuzz_armed)
		fuzz_track(p);
	return p;
}

void *__wrap_realloc(void *old, size_t n);
void *__wrap_realloc(void *old, size_t n)
{
	int tracked = fuzz_untrack(old);
	void *p = __real_realloc(old, n);
	if (!p && n && tracked)
		fuzz_track(old);
	else if (fuzz_armed && (tracked || !old))
		fuzz_track(p);
	return p;
}

void __wrap_free(void *p);
void __wrap_free(void *p)
{
	fuzz_untrack(p);
	__real_free(p);
}

/* Maps made during the run, unmapped after a die like allocations. */
#include <sys/mman.h>
#define FUZZ_MAPS 64
static struct { void *addr; size_t len; } fuzz_maps[FUZZ_MAPS];

void *__real_mmap(void *, size_t, int, int, int, off_t);
int __real_munmap(void *, size_t);

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = __real_mmap(addr, len, prot, flags, fd, off);
	if (fuzz_armed && p != MAP_FAILED)
		for (int i = 0; i < FUZZ_MAPS; i++)
			if (!fuzz_maps[i].addr) {
				fuzz_maps[i].addr = p;
				fuzz_maps[i].len = len;
				break;
			}
	return p;
}

int __wrap_munmap(void *addr, size_t len);
int __wrap_munmap(void *addr, size_t len)
{
	for (int i = 0; i < FUZZ_MAPS; i++)
		if (fuzz_maps[i].addr == addr)
			fuzz_maps[i].addr = NULL;
	return __real_munmap(addr, len);
}

static void fuzz_unmap_all(int release)
{
	for (int i = 0; i < FUZZ_MAPS; i++)
		if (fuzz_maps[i].addr) {
			if (release)
				__real_munmap(fuzz_maps[i].addr, fuzz_maps[i].len);
			fuzz_maps[i].addr = NULL;
		}
}

void __real_exit(int code) __attribute__((noreturn));
void __wrap_exit(int code) __attribute__((noreturn));
void __wrap_exit(int code)
{
	if (fuzz_armed) {
		fuzz_armed = 0;
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

/* Makes a private directory from templ (mkdtemp) that stands in for the
 * repository's git and common dirs, and grows common_path()'s buffers
 * once, outside any run; returns "<dir>/<file>". */
static char *fuzz_private_repo(char *templ, const char *file)
{
	if (!mkdtemp(templ))
		abort();
	the_repo.gitdir = the_repo.commondir = templ;
	for (int i = 0; i < 4; i++)
		(void)common_path("%0512d", 0);
	return xstrfmt("%s/%s", templ, file);
}

/* Runs fn(data, size); returns 0 when it returned, else the code it
 * tried to exit with (128 for die()), after cleaning up. */
static int fuzz_try(void (*fn)(const uint8_t *, size_t), const uint8_t *data, size_t size)
{
	int code = setjmp(fuzz_jmp);
	if (code) {
		fuzz_armed = 0;
		if (fuzz_cleanup)
			fuzz_cleanup();
		fuzz_untrack_all(1);
		fuzz_unmap_all(1);
		return code;
	}
	fuzz_armed = 1;
	fn(data, size);
	fuzz_armed = 0;
	/* What the run kept belongs to the target's state now. */
	if (fuzz_live_nr)
		fuzz_untrack_all(0);
	fuzz_unmap_all(0);
	return 0;
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

/* The input as a C string: a copy with a NUL after it (the input may
 * hold NULs of its own). */
static char *fuzz_str(const void *data, size_t size)
{
	char *p = malloc(size + 1);
	if (!p)
		abort();
	if (size)
		memcpy(p, data, size);
	p[size] = 0;
	return p;
}

#endif
