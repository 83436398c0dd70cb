// SPDX-License-Identifier: GPL-2.0
/*
 * phone_probe: a fixed, frame-like workload on the emulated phone, and
 * the figures a pipeline run reports (completion latency, deadline
 * misses, energy, frequency residency), as one JSON line on stdout.
 * bench/determinism runs it in repeated boots to measure how far two runs
 * of the same workload differ, with and without tools/vm --deterministic.
 *
 *   phone_probe [-f FRAMES] [-p PERIOD_US] [-w WORK_US]
 *
 * Every PERIOD_US (default 16667) an unpinned thread wakes and does
 * WORK_US (default 4000) invariant µs of work; half of the frames do twice
 * as much (a fixed pattern), so schedutil has something to follow.
 * Latency is wake-up to end of work; a frame misses when it ends after the
 * next period starts.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "phone.h"
#include "clock.h"
#include "args.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* iterations of phone_work() per invariant µs, on the fastest CPU at fmax */
static double calibrate(const struct phone *ph)
{
	const struct phone_policy *b = &ph->pol[ph->npolicies - 1];
	uint64_t iters = 200000;
	double t;

	phone_policy_limit(b->id, b->khz[b->nopp - 1], b->khz[b->nopp - 1]);
	usleep(20000);
	while ((t = phone_time_work(b->first_cpu, iters, 3)) < 0.02)
		iters *= 2;
	phone_policy_limit(b->id, b->khz[0], b->khz[b->nopp - 1]);
	return iters / (t * 1e6);
}

static void unpin(int ncpus)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < ncpus; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	unsigned long frames = 300, period_us = 16667, work_us = 4000;
	uint64_t e0[PHONE_MAX_POLICIES], e1[PHONE_MAX_POLICIES], *lat;
	uint64_t start, next, missed = 0;
	double per_us, energy = 0;
	struct phone ph;
	unsigned long i;
	int opt, p, ncpus = 0;

	while ((opt = getopt(argc, argv, "f:p:w:")) != -1) {
		switch (opt) {
		case 'f': frames = arg_int("phone_probe", "-f", optarg, 1, 100000); break;
		case 'p': period_us = arg_int("phone_probe", "-p", optarg, 1000, 1000000); break;
		case 'w': work_us = arg_int("phone_probe", "-w", optarg, 1, 1000000); break;
		default:
			fprintf(stderr, "usage: phone_probe [-f FRAMES] [-p PERIOD_US] [-w WORK_US]\n");
			return 2;
		}
	}
	if (phone_read(&ph))
		return 1;
	for (p = 0; p < ph.npolicies; p++)
		ncpus += ph.pol[p].ncpus;
	per_us = calibrate(&ph);
	unpin(ncpus);
	lat = calloc(frames, sizeof(*lat));
	if (!lat)
		return 1;

	for (p = 0; p < ph.npolicies; p++)
		phone_energy_uj(ph.pol[p].id, &e0[p]);
	start = next = mono_ns();
	for (i = 0; i < frames; i++) {
		struct timespec ts = {
			.tv_sec = next / 1000000000ULL, .tv_nsec = next % 1000000000ULL,
		};
		uint64_t w = work_us * (i % 2 ? 2 : 1), end;

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		phone_work((uint64_t)(w * per_us));
		end = mono_ns();
		lat[i] = end - next;
		next += period_us * 1000ULL;
		missed += end > next;
	}
	for (p = 0; p < ph.npolicies; p++) {
		phone_energy_uj(ph.pol[p].id, &e1[p]);
		energy += e1[p] - e0[p];
	}
	qsort(lat, frames, sizeof(*lat), cmp_u64);
	printf("{\"frames\": %lu, \"missed\": %llu, \"elapsed_ms\": %.3f, "
	       "\"latency_p50_ms\": %.3f, \"latency_p90_ms\": %.3f, "
	       "\"latency_p99_ms\": %.3f, \"energy_mj\": %.3f, "
	       "\"iters_per_us\": %.2f}\n",
	       frames, (unsigned long long)missed, (mono_ns() - start) / 1e6,
	       lat[frames / 2] / 1e6, lat[frames * 9 / 10] / 1e6,
	       lat[frames * 99 / 100] / 1e6, energy / 1e3, per_us);
	free(lat);
	return 0;
}
