// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/task/TID/invariant_runtime (patch 0018) on the emulated
 * phone: a thread pinned to a CPU of capacity C held at frequency f of
 * its cluster's fmax gains C/1024 * f/fmax ns of invariant run time per
 * ns it runs (within 5%), on each cluster at its lowest and highest OPP;
 * and the work a fixed loop does costs the same invariant time on a
 * LITTLE CPU at its lowest OPP as on a big CPU at fmax (within 15%: the
 * phone's cycle stealing emulates the slowdown only on average).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "invariant_runtime.h"
#include "phone.h"

FIXTURE(inv) {
	struct phone ph;
};

FIXTURE_SETUP(inv)
{
	ASSERT_EQ(0, phone_read(&self->ph));
	ASSERT_LE(2, self->ph.npolicies);
}

FIXTURE_TEARDOWN(inv)
{
	int i;

	for (i = 0; i < self->ph.npolicies; i++) {
		struct phone_policy *p = &self->ph.pol[i];

		phone_policy_limit(p->id, p->khz[0], p->khz[p->nopp - 1]);
	}
}

/* Hold @p at @khz until scaling_cur_freq says so. */
static int hold_opp(struct phone_policy *p, unsigned int khz)
{
	uint64_t cur = 0;
	int i, r = phone_policy_limit(p->id, khz, khz);

	for (i = 0; !r && i < 100; i++) {
		if (!phone_policy_read(p->id, "scaling_cur_freq", &cur) && cur == khz)
			return 0;
		usleep(10000);
	}
	return r ? r : -ETIMEDOUT;
}

/* invariant ns per ns of run time over @ns of running */
static double scale_over(uint64_t ns)
{
	uint64_t i0, i1, t0, t1;

	if (invariant_runtime_read(0, &i0))
		return -1;
	t0 = thread_runtime_ns();
	while (thread_runtime_ns() < t0 + ns)
		;
	if (invariant_runtime_read(0, &i1))
		return -1;
	t1 = thread_runtime_ns();
	return (double)(i1 - i0) / (double)(t1 - t0);
}

TEST_F(inv, scaled_by_capacity_and_frequency)
{
	int i, k;

	for (i = 0; i < self->ph.npolicies; i++) {
		struct phone_policy *p = &self->ph.pol[i];
		unsigned int opp[2] = { p->khz[0], p->khz[p->nopp - 1] };

		ASSERT_EQ(0, phone_pin(p->first_cpu));
		for (k = 0; k < 2; k++) {
			double want = p->capacity / 1024.0 * opp[k] /
				      p->khz[p->nopp - 1];
			double got;

			ASSERT_EQ(0, hold_opp(p, opp[k]));
			got = scale_over(200000000);
			TH_LOG("cpu%d (capacity %u) at %u kHz: %.3f of the run time, law %.3f",
			       p->first_cpu, p->capacity, opp[k], got, want);
			ASSERT_GT(got, 0) TH_LOG("no /proc/thread-self/invariant_runtime");
			EXPECT_LT(got, want * 1.05);
			EXPECT_GT(got, want * 0.95);
		}
		phone_policy_limit(p->id, p->khz[0], p->khz[p->nopp - 1]);
	}
}

/* the invariant cost of @iters of work on @cpu at @khz of policy @p */
static double work_cost_ms(struct phone_policy *p, unsigned int khz,
			   uint64_t iters)
{
	uint64_t i0, i1;

	if (phone_pin(p->first_cpu) || hold_opp(p, khz) ||
	    invariant_runtime_read(0, &i0))
		return -1;
	phone_work(iters);
	if (invariant_runtime_read(0, &i1))
		return -1;
	return (i1 - i0) / 1e6;
}

TEST_F(inv, same_work_same_cost)
{
	struct phone_policy *little = &self->ph.pol[0];
	struct phone_policy *big = &self->ph.pol[self->ph.npolicies - 1];
	uint64_t iters = 1;
	double fast, slow;

	/* size the work: about 100 ms on the big CPU at fmax */
	do {
		iters *= 2;
		fast = work_cost_ms(big, big->khz[big->nopp - 1], iters);
		ASSERT_GT(fast, 0);
	} while (fast < 100 && iters < (1ull << 40));
	fast = work_cost_ms(big, big->khz[big->nopp - 1], iters);
	slow = work_cost_ms(little, little->khz[0], iters);
	TH_LOG("%llu iterations: %.1f invariant ms on cpu%d at fmax, %.1f on cpu%d at %u kHz",
	       (unsigned long long)iters, fast, big->first_cpu, slow,
	       little->first_cpu, little->khz[0]);
	ASSERT_GT(slow, 0);
	EXPECT_LT(slow, fast * 1.15);
	EXPECT_GT(slow, fast * 0.85);
}

TEST_HARNESS_MAIN
