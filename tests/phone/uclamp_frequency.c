// SPDX-License-Identifier: GPL-2.0
/*
 * A SCHED_FIFO task's uclamp.min sets its CPU's frequency as soon as it
 * wakes: pinned alone on a CPU of each cluster, a task at uclamp.min
 * 2/3 of the CPU's capacity sees its policy at or above the OPP that
 * clamp asks of schedutil (fmax * min / capacity, rounded up to an OPP)
 * 1 ms into at least 9 of 10 of its activations.
 *
 * The realtime class asks schedutil for a frequency when its runqueue
 * gains the task, and nothing asks again while the task runs alone; a
 * kernel that adds the task's clamps to the runqueue only after the
 * class's enqueue leaves the CPU at the frequency it had asleep until
 * something else (a load-balance softirq) asks again (the
 * pipeline's SurfaceFlinger, at uclamp.min 205, composed at 600 MHz on
 * a LITTLE CPU where its clamp asks 900).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "invariant_runtime.h"
#include "phone.h"
#include "sched_attr.h"

#define ACTIVATIONS	40
#define SLEEP_US	20000
#define RUN_NS		1000000ULL

FIXTURE(clamp) {
	struct phone ph;
};

FIXTURE_SETUP(clamp)
{
	ASSERT_EQ(0, phone_read(&self->ph));
	ASSERT_LE(2, self->ph.npolicies);
}

FIXTURE_TEARDOWN(clamp)
{
}

/* The lowest OPP of @p at or above what util @min asks of schedutil. */
static unsigned int opp_for_min(const struct phone_policy *p, unsigned int min)
{
	double want = (double)p->khz[p->nopp - 1] * min / p->capacity;
	int i;

	for (i = 0; i < p->nopp; i++)
		if (p->khz[i] >= want)
			return p->khz[i];
	return p->khz[p->nopp - 1];
}

/*
 * Activations of the calling thread (SCHED_FIFO 1 at uclamp.min @min, on
 * @p's first CPU) that found @p at @khz or above after RUN_NS of running.
 */
static int activations_at(const struct phone_policy *p, unsigned int min,
			  unsigned int khz, uint64_t *seen_min)
{
	struct sched_attr_v1 a = {
		.size = sizeof(a),
		.sched_policy = SCHED_FIFO,
		.sched_priority = 1,
		.sched_flags = SA_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = min,
	};
	int i, hits = 0;

	*seen_min = UINT64_MAX;
	if (phone_pin(p->first_cpu) || sched_attr_set(0, &a))
		return -1;
	for (i = 0; i < ACTIVATIONS; i++) {
		uint64_t t0, cur = 0;

		usleep(SLEEP_US);
		t0 = thread_runtime_ns();
		while (thread_runtime_ns() < t0 + RUN_NS)
			;
		if (phone_policy_read(p->id, "scaling_cur_freq", &cur))
			return -1;
		if (cur < *seen_min)
			*seen_min = cur;
		hits += cur >= khz;
	}
	return hits;
}

TEST_F(clamp, rt_task_gets_its_frequency_on_each_cluster)
{
	int i;

	for (i = 0; i < self->ph.npolicies; i++) {
		const struct phone_policy *p = &self->ph.pol[i];
		unsigned int min = p->capacity * 2 / 3;
		unsigned int khz = opp_for_min(p, min);
		uint64_t seen_min;
		int hits;

		/* the clamp must ask more than the lowest OPP to tell anything */
		ASSERT_LT(p->khz[0], khz);
		hits = activations_at(p, min, khz, &seen_min);
		ASSERT_LE(0, hits);
		TH_LOG("policy%d (capacity %u): uclamp.min %u asks %u kHz; %d of %d activations there, lowest seen %llu kHz",
		       p->id, p->capacity, min, khz, hits, ACTIVATIONS,
		       (unsigned long long)seen_min);
		EXPECT_LE(ACTIVATIONS * 9 / 10, hits);
	}
}

TEST_HARNESS_MAIN
