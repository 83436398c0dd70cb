/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's struct sched_attr (include/uapi/linux/sched/types.h, VER1:
 * with utilization clamps) and its system calls, which glibc 2.36 does not
 * wrap. One home for every program of the project that sets a policy
 * beyond sched_setscheduler(): DEADLINE parameters, uclamp values (the
 * pipeline's strategies through emu/strategies/sys.h, its background
 * entries, the tests).
 */
#ifndef FRAMESCHED_SCHED_ATTR_H
#define FRAMESCHED_SCHED_ATTR_H

#include <stdint.h>
#include <sys/types.h>

struct sched_attr_v1 {
	uint32_t size;			/* sizeof(struct sched_attr_v1) */
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;		/* SCHED_DEADLINE, ns */
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;	/* 0..1024 */
	uint32_t sched_util_max;
};

/* sched_flags (include/uapi/linux/sched.h) */
#define SA_FLAG_RESET_ON_FORK	0x01
#define SA_FLAG_RECLAIM		0x02
#define SA_FLAG_DL_OVERRUN	0x04
#define SA_FLAG_KEEP_POLICY	0x08
#define SA_FLAG_KEEP_PARAMS	0x10
#define SA_FLAG_UTIL_CLAMP_MIN	0x20
#define SA_FLAG_UTIL_CLAMP_MAX	0x40
#define SA_FLAG_KEEP_ALL	(SA_FLAG_KEEP_POLICY | SA_FLAG_KEEP_PARAMS)
#define SA_UCLAMP_RESET		0xffffffffu	/* util_min/max: the default */

/* 0, or -1 with errno, as the system calls (tid 0: the caller). */
int sched_attr_set(pid_t tid, const struct sched_attr_v1 *a);
int sched_attr_get(pid_t tid, struct sched_attr_v1 *a);

#endif
