// SPDX-License-Identifier: GPL-2.0
/*
 * work.c - the invariant-µs busy loop and its calibration.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "display.h"
#include "gplat.h"
#include "work.h"
#include "clock.h"

#define INVARIANT_PATH	"/proc/thread-self/invariant_runtime"
/* spin between two reads of the run time: about 20 µs at fmax */
#define INVARIANT_CHUNK_US	20

static double loops_per_us;
static bool invariant;		/* set once, by work_calibrate() */
static __thread int inv_fd = -1;	/* this thread's INVARIANT_PATH */

/* this thread's invariant run time in ns, or -1 */
static int64_t invariant_ns(void)
{
	char buf[32];
	ssize_t n;

	if (inv_fd < 0)
		inv_fd = open(INVARIANT_PATH, O_RDONLY | O_CLOEXEC);
	if (inv_fd < 0)
		return -1;
	n = pread(inv_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

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

/*
 * Spin in chunks until the run time has reached @end; a chunk is never
 * more than what is left, so the overshoot is about one read (or one of
 * the phone's halts, which count as run time).
 */
static void spin_invariant_until(int64_t now, int64_t end)
{
	while (now < end) {
		uint64_t left = (uint64_t)(end - now + 999) / 1000;

		if (left > INVARIANT_CHUNK_US)
			left = INVARIANT_CHUNK_US;
		work_spin_loops((uint64_t)(left * loops_per_us + 0.5));
		now = invariant_ns();
		if (now < 0)
			return;
	}
}

int64_t work_mark(void)
{
	return invariant ? invariant_ns() : -1;
}

void work_spin_us_since(int64_t mark, uint64_t us)
{
	if (mark < 0) {	/* loops, or no run time to read: count loops */
		work_spin_loops((uint64_t)(us * loops_per_us + 0.5));
		return;
	}
	/*
	 * Not read again here: the first chunk counts from the mark, so it
	 * may do up to a chunk more than was left, and a stage that marked
	 * just before (work_spin_us()) costs one read, not two.
	 */
	spin_invariant_until(mark, mark + (int64_t)us * 1000);
}

uint64_t work_since(int64_t mark)
{
	int64_t now = mark < 0 ? -1 : invariant_ns();

	return now > mark ? (uint64_t)(now - mark) : 0;
}

void work_spin_us(uint64_t us)
{
	work_spin_us_since(work_mark(), us);
}

double work_loops_per_us(void)
{
	return loops_per_us;
}

const char *work_mode(void)
{
	return invariant ? "invariant" : "loops";
}

/*
 * FRAMESCHED_WORK: "loops", "invariant", or unset (invariant when the
 * kernel has it). 0 with *inv set, or -1 with the reason in err.
 */
static int choose_mode(bool *inv, char *err, size_t errlen)
{
	const char *env = getenv("FRAMESCHED_WORK");
	bool have = invariant_ns() >= 0;

	if (!env || !*env) {
		*inv = have;
		return 0;
	}
	if (!strcmp(env, "loops")) {
		*inv = false;
		return 0;
	}
	if (strcmp(env, "invariant")) {
		snprintf(err, errlen, "FRAMESCHED_WORK=%s: expected \"loops\" or \"invariant\"",
			 env);
		return -1;
	}
	if (!have) {
		snprintf(err, errlen, "FRAMESCHED_WORK=invariant: %s: %s (a kernel without patch 0017)",
			 INVARIANT_PATH, strerror(errno));
		return -1;
	}
	*inv = true;
	return 0;
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
	if (!ret)
		ret = choose_mode(&invariant, err, errlen);
	return ret;
}
