/* progress.h: git's progress meter on stderr ("Title:  NN% (n/total)\r",
 * then ", done.\n"), byte for byte as git 2.39 prints it.
 *
 * A line is printed when the integer percentage n*100/total changes, and
 * once a second the next update is printed even if it has not (the
 * clock is read at updates; no timer, no signal). With total 0 only the
 * count is shown, once a second and at the end. stop_progress() prints
 * the last value again with ", done.". A NULL meter is a no-op, so a
 * command makes one only when it shows progress and pays nothing else.
 *
 * progress_add() counts from any thread: the shared count is one atomic
 * add, and only an update that crosses the next percentage (or a clock
 * check, every few dozen updates) takes the lock. The lines printed are
 * those one thread calling display_progress(1), (2), ... (n) would
 * print, whatever the interleaving. Do not mix it with display_progress()
 * on one meter while threads run. */
#ifndef LIB_PROGRESS_H
#define LIB_PROGRESS_H

#include <stdint.h>

struct progress;

struct progress *start_progress(const char *title, uint64_t total);
/* Shows nothing before about GIT_PROGRESS_DELAY seconds (default 2). */
struct progress *start_delayed_progress(const char *title, uint64_t total);
void display_progress(struct progress *p, uint64_t n);
/* Bytes received so far: ", <bytes> | <rate>/s" after the counts. */
void display_throughput(struct progress *p, uint64_t total_bytes);
/* The clock the meter runs on (CLOCK_MONOTONIC, nanoseconds). */
uint64_t progress_now_ns(void);
/* Throughput and the once-a-second clock count from start_ns (a transfer
 * that began before the meter). */
void progress_set_start(struct progress *p, uint64_t start_ns);
void progress_add(struct progress *p, uint64_t k);
/* A command about to fail: shows what progress_add() counted, then frees
 * the meter without ", done." (git dies with its last line standing). */
void progress_abandon(struct progress **p);
void stop_progress(struct progress **p);
void stop_progress_msg(struct progress **p, const char *msg);

#endif
