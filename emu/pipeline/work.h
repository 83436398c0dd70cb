/* SPDX-License-Identifier: GPL-2.0 */
/*
 * work.h - CPU work in invariant µs: the time it takes on the fastest CPU
 * at its highest frequency, so that the same work takes longer on a
 * LITTLE CPU or at a lower frequency. Two ways to count it:
 *
 *   invariant  (kernels with /proc/thread-self/invariant_runtime, patch
 *              0018) spin until the thread's invariant run time has
 *              advanced by the work: what the kernel's capacity and
 *              frequency scaling says was done, however many instructions
 *              the virtual CPU got meanwhile. Under QEMU's icount every
 *              vCPU takes its instructions from one stream, and work
 *              counted in instructions took up to four times too long
 *              when four CPUs were busy; run time does not.
 *   loops      otherwise: a fixed number of loop iterations, calibrated
 *              once on the fastest CPU at its highest frequency.
 *
 * FRAMESCHED_WORK=loops in the environment forces the second.
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
/* "invariant" or "loops": how work_spin_us() counts, once calibrated */
const char *work_mode(void);
/* Burn us invariant µs of CPU in the calling thread. */
void work_spin_us(uint64_t us);
/*
 * A stage's work counted from its start: work_mark() when the stage
 * begins, work_spin_us_since(mark, us) to burn what is left of us. What
 * the thread ran in between (the emulator's own fence queries, latching,
 * trace bookkeeping) is part of the stage's work, not added to it: on a
 * LITTLE CPU at 900 MHz SurfaceFlinger's bookkeeping before its
 * composition took 1.2 to 3.3 ms, and composing 1.5 ms of invariant work
 * took 9 ms where the slowdown law says 6.8. Loop counting has no mark
 * (-1): the work is then added, as work_spin_us() does.
 */
int64_t work_mark(void);
void work_spin_us_since(int64_t mark, uint64_t us);
/* The calling thread's invariant run time since @mark, in ns; 0 without one. */
uint64_t work_since(int64_t mark);
/* The same, counted in loop iterations. */
void work_spin_loops(uint64_t loops);
/* sleep until an absolute CLOCK_MONOTONIC time */
void sleep_until_ns(int64_t t);

#endif
