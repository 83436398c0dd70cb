/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread's capacity- and frequency-invariant run time, as the kernel
 * shows it in /proc/PID/task/TID/invariant_runtime (patch 0018): the time
 * its work would take on the biggest CPU at its highest frequency.
 */
#ifndef FRAMESCHED_INVARIANT_RUNTIME_H
#define FRAMESCHED_INVARIANT_RUNTIME_H

#include <stdint.h>
#include <sys/types.h>

/* Thread @tid's (0: the caller's) invariant run time in ns: 0 or -errno. */
int invariant_runtime_read(pid_t tid, uint64_t *ns);
/* The caller's run time in ns (CLOCK_THREAD_CPUTIME_ID), for comparison. */
uint64_t thread_runtime_ns(void);

#endif
