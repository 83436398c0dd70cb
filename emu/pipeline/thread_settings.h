/* SPDX-License-Identifier: GPL-2.0 */
/*
 * thread_settings.h - what the kernel says a pipeline thread runs with,
 * read back after a strategy's setup: its policy and parameters, clamps
 * and the CPUs it may run on. run.json's "thread_settings" holds them, so
 * that a table's row can be checked against what its strategy documents.
 */
#ifndef PL_THREAD_SETTINGS_H
#define PL_THREAD_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define PL_MAX_SETTINGS	4	/* UI thread, RenderThread, SurfaceFlinger, GPU-mutex holder */

struct pl_thread_settings {
	char role[24];
	pid_t tid;
	bool ok;			/* read; else err_no says why */
	int err_no;
	uint32_t policy;		/* SCHED_* */
	int32_t nice;
	uint32_t priority;		/* realtime priority */
	uint64_t runtime_ns, deadline_ns, period_ns;	/* SCHED_DEADLINE */
	uint32_t util_min, util_max;
	uint64_t cpus;			/* affinity, CPU n is bit n (n < 64) */
};

/* Read thread @tid's settings into @s under @role; s->ok says if it could. */
void thread_settings_read(pid_t tid, const char *role,
			  struct pl_thread_settings *s);

#endif
