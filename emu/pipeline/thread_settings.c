// SPDX-License-Identifier: GPL-2.0
/*
 * thread_settings.c - read back a pipeline thread's scheduling settings
 * (thread_settings.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "../strategies/sys.h"
#include "thread_settings.h"

void thread_settings_read(pid_t tid, const char *role,
			  struct pl_thread_settings *s)
{
	struct sched_attr_v1 a;
	cpu_set_t set;
	int cpu;

	memset(s, 0, sizeof(*s));
	snprintf(s->role, sizeof(s->role), "%s", role);
	s->tid = tid;
	if (sys_sched_getattr(tid, &a) ||
	    sched_getaffinity(tid, sizeof(set), &set)) {
		s->err_no = errno;
		return;
	}
	s->policy = a.sched_policy;
	s->nice = a.sched_nice;
	s->priority = a.sched_priority;
	s->runtime_ns = a.sched_runtime;
	s->deadline_ns = a.sched_deadline;
	s->period_ns = a.sched_period;
	s->util_min = a.sched_util_min;
	s->util_max = a.sched_util_max;
	for (cpu = 0; cpu < 64 && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			s->cpus |= 1ULL << cpu;
	s->ok = true;
}
