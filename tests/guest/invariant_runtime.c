// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/task/TID/invariant_runtime (patch 0018) on a kernel without
 * frequency invariance and with every CPU of capacity 1024 (the debug
 * boot: no emulated phone), where it must equal the run time:
 * - it is there, for the thread itself and for another thread;
 * - it advances as the thread runs, by what CLOCK_THREAD_CPUTIME_ID
 *   advances (within 5%), its current run included;
 * - it does not advance while the thread sleeps;
 * - it is the thread's own, not the reader's nor the process's.
 * The scaled case is tests/phone/invariant_runtime.c.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "invariant_runtime.h"
#include "clock.h"

/* spin for @ns of this thread's run time */
static void burn(uint64_t ns)
{
	uint64_t end = thread_runtime_ns() + ns;

	while (thread_runtime_ns() < end)
		;
}

TEST(readable_for_self)
{
	uint64_t ns;
	int r = invariant_runtime_read(0, &ns);

	ASSERT_EQ(0, r) TH_LOG("/proc/thread-self/invariant_runtime: %s (a kernel without patch 0018?)",
			       strerror(-r));
	ASSERT_EQ(0, invariant_runtime_read((pid_t)syscall(SYS_gettid), &ns));
}

TEST(equals_run_time_without_scaling)
{
	uint64_t i0, i1, t0, t1;
	double ratio;

	/*
	 * A first read warms the path up (under TCG, code run for the first
	 * time is translated on the thread's time); then the reads sit
	 * inside the CPU clock's interval, so only they differ from it.
	 */
	ASSERT_EQ(0, invariant_runtime_read(0, &i0));
	t0 = thread_runtime_ns();
	ASSERT_EQ(0, invariant_runtime_read(0, &i0));
	burn(200000000);
	/* no sleep between: the current run must be in the value */
	ASSERT_EQ(0, invariant_runtime_read(0, &i1));
	t1 = thread_runtime_ns();
	ratio = (double)(i1 - i0) / (double)(t1 - t0);
	TH_LOG("invariant %.1f ms for a run time of %.1f ms: %.3f",
	       (i1 - i0) / 1e6, (t1 - t0) / 1e6, ratio);
	ASSERT_GT(ratio, 0.95);
	ASSERT_LT(ratio, 1.05);
}

/*
 * Reading the file costs run time too, milliseconds of it on a debug
 * kernel under TCG, so "still" cannot be an absolute bound: the value
 * may advance by what the thread's own CPU clock advances around it
 * (5% and half a millisecond of slack for the clocks' granularity),
 * not by the sleep.
 */
static void assert_no_more_than_cpu_time(struct __test_metadata *_metadata,
					 const char *who, uint64_t inv,
					 uint64_t cpu, uint64_t slept)
{
	TH_LOG("%s: invariant %.2f ms, CPU time %.2f ms, in a %.0f ms sleep",
	       who, inv / 1e6, cpu / 1e6, slept / 1e6);
	/* the thread must have slept most of it, or the test shows nothing */
	ASSERT_LT(cpu, slept / 2) TH_LOG("%s ran most of the sleep", who);
	ASSERT_LE(inv, cpu + cpu / 20 + 500000u);
}

TEST(still_while_asleep)
{
	struct timespec ts = { .tv_nsec = 200000000 };
	uint64_t i0, i1, t0, t1;

	t0 = thread_runtime_ns();
	ASSERT_EQ(0, invariant_runtime_read(0, &i0));
	nanosleep(&ts, NULL);
	ASSERT_EQ(0, invariant_runtime_read(0, &i1));
	t1 = thread_runtime_ns();
	assert_no_more_than_cpu_time(_metadata, "sleeper", i1 - i0, t1 - t0,
				     ts.tv_nsec);
}

struct spinner {
	atomic_int tid;
	atomic_bool stop;
};

static void *spin_main(void *arg)
{
	struct spinner *s = arg;

	atomic_store(&s->tid, (int)syscall(SYS_gettid));
	while (!atomic_load(&s->stop))
		;
	return NULL;
}

TEST(per_thread)
{
	struct timespec ts = { .tv_nsec = 300000000 };
	struct spinner s = { 0 };
	uint64_t other0, other1, self0, self1, t0, t1;
	pthread_t th;

	ASSERT_EQ(0, pthread_create(&th, NULL, spin_main, &s));
	while (!atomic_load(&s.tid))
		usleep(1000);
	t0 = thread_runtime_ns();
	ASSERT_EQ(0, invariant_runtime_read(atomic_load(&s.tid), &other0));
	ASSERT_EQ(0, invariant_runtime_read(0, &self0));
	nanosleep(&ts, NULL);
	ASSERT_EQ(0, invariant_runtime_read(atomic_load(&s.tid), &other1));
	ASSERT_EQ(0, invariant_runtime_read(0, &self1));
	t1 = thread_runtime_ns();
	atomic_store(&s.stop, true);
	pthread_join(th, NULL);
	TH_LOG("spinning thread %.1f ms, sleeping reader %.2f ms in 300 ms",
	       (other1 - other0) / 1e6, (self1 - self0) / 1e6);
	/* the spinner had a CPU of its own most of the 300 ms */
	ASSERT_GT(other1 - other0, 100000000u);
	assert_no_more_than_cpu_time(_metadata, "reader", self1 - self0,
				     t1 - t0, ts.tv_nsec);
}

TEST_HARNESS_MAIN
