// SPDX-License-Identifier: GPL-2.0
/*
 * A SCHED_DEADLINE task with a constrained deadline gets the frequency its
 * density asks for: runtime 4 ms, deadline 5 ms, period 50 ms, doing 3 ms
 * of work (invariant: 3 ms on a big CPU at fmax) at each activation,
 * finishes that work within its 5 ms deadline in at least 9 of 10
 * activations.
 *
 * schedutil's floor for the deadline class is what cpu_bw_dl() returns.
 * Taken from the bandwidth (runtime / period: 8% of a CPU), it lets the
 * big CPU idle along at its lowest OPP, where the 3 ms of work take about
 * 17 ms; DEADLINE runtime is charged scale-invariantly, so nothing
 * throttles the task either, and the job ends three deadlines late. Taken
 * from the density (runtime / deadline: 80%), the CPU runs at 2.5 GHz or
 * more and the work takes about 3.4 ms. The density also places the task
 * on a big CPU (dl_task_fits_capacity()): a LITTLE CPU cannot do 4 ms of
 * invariant work in 5 ms.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "invariant_runtime.h"
#include "phone.h"
#include "sched_attr.h"

#define ACTIVATIONS	30
#define RUNTIME_NS	4000000ULL
#define DEADLINE_NS	5000000ULL
#define PERIOD_NS	50000000ULL
#define WORK_NS		3000000ULL	/* invariant */

FIXTURE(dens) {
	struct phone ph;
	struct phone_policy *big;
};

FIXTURE_SETUP(dens)
{
	ASSERT_EQ(0, phone_read(&self->ph));
	ASSERT_LE(2, self->ph.npolicies);
	self->big = &self->ph.pol[self->ph.npolicies - 1];
}

FIXTURE_TEARDOWN(dens)
{
	struct phone_policy *p = self->big;

	phone_policy_limit(p->id, p->khz[0], p->khz[p->nopp - 1]);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Iterations of phone_work() that cost @ns of invariant run time. */
static uint64_t size_work(struct phone_policy *big, uint64_t ns)
{
	uint64_t iters = 1 << 14, i0, i1;

	if (phone_pin(big->first_cpu) ||
	    phone_policy_limit(big->id, big->khz[big->nopp - 1],
			       big->khz[big->nopp - 1]))
		return 0;
	for (;;) {
		if (invariant_runtime_read(0, &i0))
			return 0;
		phone_work(iters);
		if (invariant_runtime_read(0, &i1))
			return 0;
		if (i1 - i0 >= ns / 4 || iters >= (1ULL << 40))
			break;
		iters *= 2;
	}
	return iters * ns / (i1 - i0 ? i1 - i0 : 1);
}

/* The policy that @cpu belongs to. */
static const struct phone_policy *policy_of(const struct phone *ph, int cpu)
{
	int i;

	for (i = 0; i < ph->npolicies; i++)
		if (cpu >= ph->pol[i].first_cpu &&
		    cpu < ph->pol[i].first_cpu + ph->pol[i].ncpus)
			return &ph->pol[i];
	return NULL;
}

TEST_F(dens, constrained_deadline_gets_the_frequency_of_its_density)
{
	struct sched_attr_v1 dl = {
		.size = sizeof(dl),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = RUNTIME_NS,
		.sched_deadline = DEADLINE_NS,
		.sched_period = PERIOD_NS,
	};
	struct sched_attr_v1 other = { .size = sizeof(other) };
	struct phone_policy *big = self->big;
	uint64_t iters, next, worst = 0, wall_sum = 0;
	unsigned int lowest_khz = UINT32_MAX;
	int i, on_time = 0, on_big = 0;
	cpu_set_t all;

	iters = size_work(big, WORK_NS);
	ASSERT_TRUE(iters > 0);
	ASSERT_EQ(0, phone_policy_limit(big->id, big->khz[0],
					big->khz[big->nopp - 1]));
	/* a DEADLINE task's affinity must span its root domain */
	CPU_ZERO(&all);
	for (i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); i++)
		CPU_SET(i, &all);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
	ASSERT_EQ(0, sched_attr_set(0, &dl));

	next = mono_ns() + PERIOD_NS;
	for (i = 0; i < ACTIVATIONS; i++) {
		const struct phone_policy *p;
		struct timespec at = {
			.tv_sec = next / 1000000000ULL,
			.tv_nsec = next % 1000000000ULL,
		};
		uint64_t t0, wall, khz = 0;

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		t0 = mono_ns();
		phone_work(iters);
		wall = mono_ns() - t0;
		p = policy_of(&self->ph, sched_getcpu());
		if (p && !phone_policy_read(p->id, "scaling_cur_freq", &khz) &&
		    p == big && khz < lowest_khz)
			lowest_khz = khz;
		on_big += p == big;
		on_time += wall <= DEADLINE_NS;
		if (wall > worst)
			worst = wall;
		wall_sum += wall;
		next += PERIOD_NS;
	}
	ASSERT_EQ(0, sched_attr_set(0, &other));
	TH_LOG("%d of %d activations did %.1f ms of invariant work within the %.1f ms deadline; longest %.2f ms, mean %.2f ms; %d on a big CPU, lowest frequency seen there %u kHz",
	       on_time, ACTIVATIONS, WORK_NS / 1e6, DEADLINE_NS / 1e6,
	       worst / 1e6, wall_sum / 1e6 / ACTIVATIONS,
	       on_big, lowest_khz);
	EXPECT_LE(ACTIVATIONS * 9 / 10, on_big);
	EXPECT_LE(ACTIVATIONS * 9 / 10, on_time);
}

TEST_HARNESS_MAIN
