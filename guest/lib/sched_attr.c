// SPDX-License-Identifier: GPL-2.0
/* sched_attr.c - sched_setattr() and sched_getattr(), see sched_attr.h */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#include "sched_attr.h"

int sched_attr_set(pid_t tid, const struct sched_attr_v1 *a)
{
	return syscall(SYS_sched_setattr, tid, a, 0) ? -1 : 0;
}

int sched_attr_get(pid_t tid, struct sched_attr_v1 *a)
{
	return syscall(SYS_sched_getattr, tid, a, sizeof(*a), 0) ? -1 : 0;
}
