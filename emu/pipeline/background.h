/* SPDX-License-Identifier: GPL-2.0 */
/*
 * background.h - the workload's background load: what else the phone
 * does while the pipeline runs (CPU hogs, periodic CFS, SCHED_FIFO and
 * SCHED_DEADLINE tasks, the app holding the GPU driver mutex), and how
 * much of its work it got done (what a strategy costs everyone else).
 */
#ifndef PL_BACKGROUND_H
#define PL_BACKGROUND_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "workload.h"

#define BG_MAX_THREADS	64
#define BG_HOG_CHUNK_US	1000	/* a hog's iteration: 1 ms of invariant work */

struct bg_result {
	char name[WL_NAME_LEN];
	const char *type;
	uint32_t threads;
	uint64_t iterations;	/* periodic: jobs done; hog: chunks */
	double per_s;
	double work_ms_per_s;	/* invariant ms of work done per second */
	uint64_t missed;	/* periodic jobs that ended after their period */
};

struct bg_thread {
	struct background *bg;
	const struct wl_bg *def;
	uint32_t entry;
	pthread_t thread;
	pid_t tid;
	volatile uint64_t iterations;
	volatile uint64_t missed;
	bool started;
};

struct tracebuf;

struct background {
	const struct workload *wl;
	int display_fd;			/* gpu_mutex_hog's file */
	struct tracebuf *tb;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int ready;			/* threads that set themselves up */
	int failed;			/* ... and could not */
	char error[256];
	bool go, stop;
	int64_t t0;
	uint64_t cpus;			/* the background cpuset, a CPU a bit */
	uint32_t n;
	struct bg_thread th[BG_MAX_THREADS];
};

/*
 * Start every thread of wl's background (each sets its own class, then
 * waits for bg_go()). Fair-class entries that name no CPU run on the
 * CPUs of @cpus, the background cpuset (task_profiles.h; 0: anywhere).
 * 0, or -1 with the reason in err.
 */
int bg_start(struct background *bg, const struct workload *wl, int display_fd,
	     uint64_t cpus, struct tracebuf *tb, char *err,
	     size_t errlen);
/* The first gpu_mutex_hog thread's id, or 0. */
pid_t bg_gpu_hog_tid(const struct background *bg);
void bg_go(struct background *bg);
/* Stop and join; fill one result per workload entry over run_s seconds. */
void bg_stop(struct background *bg, double run_s, struct bg_result *res,
	     uint32_t *nres);

#endif
