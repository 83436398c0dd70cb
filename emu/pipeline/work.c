// SPDX-License-Identifier: GPL-2.0
/*
 * work.c - the invariant-µs busy loop and its calibration.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "display.h"
#include "gplat.h"
#include "work.h"
#include "clock.h"

static double loops_per_us;

void sleep_until_ns(int64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000, .tv_nsec = t % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * The loop: an empty asm keeps the compiler from folding it away. Not
 * inlined, so that calibration and work run the same instructions: inlined
 * with a constant count, gcc -O2 counts down in two instructions an
 * iteration where the out-of-line loop takes three, and under icount,
 * where time is instructions, the work took 1.5 times what was asked.
 */
__attribute__((noinline)) void work_spin_loops(uint64_t loops)
{
	uint64_t i;

	for (i = 0; i < loops; i++)
		__asm__ __volatile__("" ::: "memory");
}

void work_spin_us(uint64_t us)
{
	work_spin_loops((uint64_t)(us * loops_per_us + 0.5));
}

double work_loops_per_us(void)
{
	return loops_per_us;
}

/*
 * The fastest of several rounds: interference (an interrupt, the host
 * descheduling the vCPU under TCG) only ever makes a round slower. Each
 * round is long (about 40 ms) against the emulated phone's cycle stealing,
 * which alternates runs of 0.5 ms or more with halts: a round that fits in
 * one run would time the virtual CPU, not the phone's CPU.
 */
static double measure_loops_per_us(void)
{
	const int64_t round_ns = 40000000;
	uint64_t loops = 1000000;
	double best = 0;
	int64_t t0, dt;
	int r;

	/* warm up, let the frequency settle, and size the rounds */
	for (;;) {
		t0 = mono_ns();
		work_spin_loops(loops);
		dt = mono_ns() - t0;
		if (dt >= round_ns / 4 || loops >= (1ull << 40))
			break;
		loops *= 2;
	}
	if (dt > 0)
		loops = (uint64_t)((double)loops * round_ns / dt) + 1;
	for (r = 0; r < 6; r++) {
		t0 = mono_ns();
		work_spin_loops(loops);
		dt = mono_ns() - t0;
		if (dt > 0 && loops * 1000.0 / dt > best)
			best = loops * 1000.0 / dt;
	}
	return best;
}

int work_calibrate(const struct gplat *ph, int display_fd, char *err,
		   size_t errlen)
{
	int cpu = gplat_fastest_cpu(ph);
	cpu_set_t old, set;
	char saved[32] = "";
	int ret = 0;

	if (sched_getaffinity(0, sizeof(old), &old)) {
		snprintf(err, errlen, "calibration: sched_getaffinity: %s",
			 strerror(errno));
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(err, errlen, "calibration: pinning to cpu%d: %s", cpu,
			 strerror(errno));
		return -1;
	}
	gplat_pin_max_freq(ph, cpu, saved, sizeof(saved));
	loops_per_us = measure_loops_per_us();
	if (display_fd >= 0) {
		int r = display_calibrate(display_fd, NULL);

		if (r) {
			snprintf(err, errlen, "calibration: DISPLAY_IOC_CALIBRATE: %s",
				 strerror(-r));
			ret = -1;
		}
	}
	gplat_restore_min_freq(ph, cpu, saved);
	sched_setaffinity(0, sizeof(old), &old);
	if (!ret && loops_per_us <= 0) {
		snprintf(err, errlen, "calibration: the clock did not advance");
		ret = -1;
	}
	return ret;
}
