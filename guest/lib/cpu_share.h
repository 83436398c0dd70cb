/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU hogs pinned on one CPU, and the share of that CPU each one got over
 * a window, from the kernel's own accounting (schedstat). Shared by the
 * guest tests and the benchmarks.
 */
#ifndef FRAMESCHED_CPU_SHARE_H
#define FRAMESCHED_CPU_SHARE_H

#include <pthread.h>
#include <stdbool.h>

#define SCHED_FEATURES	"/sys/kernel/debug/sched/features"

/* A thread spinning on one CPU under one policy until hog_stop(). */
struct hog {
	pthread_t thread;
	int cpu;
	int policy;			/* SCHED_FIFO (prio 50) or SCHED_OTHER */
	const char *cgroup_tasks;	/* join this cgroup v1 "tasks" first */
	volatile int tid;
	volatile int err;		/* errno of a failed setup step */
	volatile bool stop;
};

int hog_start(struct hog *h, int cpu, int policy, const char *cgroup_tasks);
void hog_stop(struct hog *h);

/*
 * Let the hogs settle, then return in share[i] the fraction of the window
 * (seconds) that hogs[i] spent on its CPU.
 */
void measure_shares(struct hog *const *hogs, double *share, int n, double window);

/* Write a string to a sysfs/procfs/debugfs file: 0 or -errno. */
int write_str(const char *path, const char *val);
/* Read a small file into buf, trailing newline stripped: 0 or -errno. */
int read_str(const char *path, char *buf, int size);
/* Turn a /sys/kernel/debug/sched/features flag on or off: 0 or -errno. */
int set_sched_feature(const char *name, bool on);
/*
 * 1 if sched feature @name is on, 0 if it is off (NO_@name), -ENOENT if
 * this kernel has no such feature, or -errno if the file is unreadable.
 */
int sched_feature_state(const char *name);
/* Take CPU @cpu offline or bring it back (its sysfs online file): 0 or -errno. */
int set_cpu_online(int cpu, bool online);

#endif
