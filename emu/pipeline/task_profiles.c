// SPDX-License-Identifier: GPL-2.0
/*
 * task_profiles.c - Android's task profiles for the pipeline's threads
 * (task_profiles.h says which and where each setting comes from).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include "task_profiles.h"

int tp_top_app(void)
{
	return setpriority(PRIO_PROCESS, 0, TP_TOP_APP_NICE);
}

int tp_input_thread(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (sched_setscheduler(0, SCHED_OTHER, &sp))
		return -1;
	return setpriority(PRIO_PROCESS, 0, TP_INPUT_NICE);
}

uint64_t tp_background_cpus(const struct gplat *ph)
{
	uint32_t least = UINT32_MAX;
	uint64_t set = 0;
	int cpu;

	/* ncpus <= GPLAT_MAX_CPUS (16): the mask fits */
	for (cpu = 0; cpu < ph->ncpus; cpu++)
		if (ph->capacity[cpu] < least)
			least = ph->capacity[cpu];
	for (cpu = 0; cpu < ph->ncpus; cpu++)
		if (ph->capacity[cpu] == least)
			set |= 1ULL << cpu;
	/* all alike: no LITTLE CPUs to confine the background to */
	return set == (1ULL << ph->ncpus) - 1 ? 0 : set;
}

int tp_join_cpus(uint64_t cpus)
{
	cpu_set_t set;
	int cpu;

	if (!cpus)
		return 0;
	CPU_ZERO(&set);
	for (cpu = 0; cpu < 64; cpu++)
		if (cpus & (1ULL << cpu))
			CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int tp_system_background(const struct gplat *ph)
{
	return tp_join_cpus(tp_background_cpus(ph));
}
