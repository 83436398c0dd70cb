/* SPDX-License-Identifier: GPL-2.0 */
/*
 * work.h - CPU work in invariant µs: a fixed number of loop iterations,
 * calibrated once on the fastest CPU at its highest frequency, so that
 * the same work takes longer on a LITTLE CPU or at a lower frequency.
 */
#ifndef PL_WORK_H
#define PL_WORK_H

#include <stdint.h>

struct gplat;

/*
 * Measure loops per invariant µs on the highest-capacity CPU, pinned,
 * with its policy's scaling_min_freq raised to the maximum while it runs
 * (restored after). Also asks the display module, through display_fd
 * (or -1), to calibrate its own loop there. Returns 0 or -1 (message in
 * err).
 */
int work_calibrate(const struct gplat *ph, int display_fd, char *err,
		   size_t errlen);
/* loops per invariant µs; 0 before calibration */
double work_loops_per_us(void);
/* Burn us invariant µs of CPU in the calling thread. */
void work_spin_us(uint64_t us);
/* The same, counted in loop iterations. */
void work_spin_loops(uint64_t loops);
/* sleep until an absolute CLOCK_MONOTONIC time */
void sleep_until_ns(int64_t t);

#endif
