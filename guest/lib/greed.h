/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RT_RUNTIME_GREED experiment: a SCHED_FIFO hog, alone or with a CFS
 * hog, pinned on one CPU, in the root group or in an RT cgroup (v1).
 */
#ifndef FRAMESCHED_GREED_H
#define FRAMESCHED_GREED_H

#include <stdbool.h>

#define GREED_CPU		1
#define GREED_CPU_V1		"/run/framesched-cpu-v1"
#define GREED_GROUP		GREED_CPU_V1 "/greed"
#define GREED_GROUP_TASKS	GREED_GROUP "/tasks"
#define RT_RUNTIME_US		"/proc/sys/kernel/sched_rt_runtime_us"

/*
 * Run the hogs for @window seconds with RT_RUNTIME_GREED on or off; the
 * RT hog joins @cgroup_tasks if not NULL. Shares of GREED_CPU in *rt and,
 * with @with_cfs, *cfs. Returns 0, or -1 with a message on stderr.
 */
int greed_run(bool greed, bool with_cfs, const char *cgroup_tasks,
	      double window, double *rt, double *cfs);

/* Mount the cgroup v1 cpu controller and make GREED_GROUP with @runtime_us. */
int greed_group_create(const char *runtime_us);
/* Undo greed_group_create(); harmless if it was not done. */
void greed_group_destroy(void);

#endif
