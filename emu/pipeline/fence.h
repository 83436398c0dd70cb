/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fence.h - sync_file fences as the pipeline sees them: wait, test, and
 * read the signal time (the dma_fence timestamp, CLOCK_MONOTONIC).
 */
#ifndef PL_FENCE_H
#define PL_FENCE_H

#include <stdbool.h>
#include <stdint.h>

#define FENCE_NONE	-1

/* 1 signaled, 0 not yet, -1 error (bad fd or fence signaled with an error) */
int fence_status(int fd);
/*
 * Wait up to timeout_ns (< 0: forever) or until *stop becomes true.
 * 1 signaled, 0 timeout/stop, -1 error. fd FENCE_NONE counts as signaled.
 */
int fence_wait(int fd, int64_t timeout_ns, const volatile bool *stop);
/* The signal time in ns, or -1 if not signaled (or not a sync_file). */
int64_t fence_timestamp(int fd);
/* Close fd unless FENCE_NONE; set it to FENCE_NONE. */
void fence_put(int *fd);

#endif
