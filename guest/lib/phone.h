/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated phone (phone-cpufreq) as guest programs see it: its
 * cpufreq policies, their OPPs and limits, the energy meter, and a fixed
 * amount of CPU work to time on it. Shared by tests/phone and benchmarks.
 */
#ifndef FRAMESCHED_PHONE_H
#define FRAMESCHED_PHONE_H

#include <stdbool.h>
#include <stdint.h>

#define PHONE_MAX_POLICIES	4
#define PHONE_MAX_OPPS		16
#define PHONE_MAX_CPUS		8	/* phone_parallel_rates() */
#define PHONE_DRIVER		"phone-cpufreq"

struct phone_policy {
	int id;				/* N of cpufreq/policyN */
	int first_cpu, ncpus;		/* its CPUs: first_cpu.. (contiguous) */
	unsigned int capacity;		/* cpu_capacity of its CPUs */
	int nopp;
	unsigned int khz[PHONE_MAX_OPPS];	/* ascending */
};

struct phone {
	int npolicies;
	struct phone_policy pol[PHONE_MAX_POLICIES];	/* by first CPU */
};

/*
 * Read the platform from sysfs: 0, or -1 with a message on stderr (no
 * cpufreq, another driver, CPUs of a policy not contiguous).
 */
int phone_read(struct phone *ph);
/* policyN's file @name: "/sys/devices/system/cpu/cpufreq/policyN/name" */
void phone_policy_path(char *buf, int len, int policy, const char *name);
/* Read a number from policyN's file @name: 0 or -errno. */
int phone_policy_read(int policy, const char *name, uint64_t *val);
/* Read phone_cpufreq's module parameter @name (a number): 0 or -errno. */
int phone_param_read(const char *name, uint64_t *val);
/*
 * Set policyN's scaling_min_freq and scaling_max_freq, in the right order,
 * and visit its first CPU so that schedutil applies them now: 0 or -errno.
 */
int phone_policy_limit(int policy, unsigned int min_khz, unsigned int max_khz);
/* Cumulative energy of policyN in µJ (energy_uj): 0 or -errno. */
int phone_energy_uj(int policy, uint64_t *uj);
/* Pin the calling thread to @cpu: 0 or -errno. */
int phone_pin(int cpu);
/* A fixed amount of CPU work: @iters iterations of an integer loop. */
uint64_t phone_work(uint64_t iters);
/* Seconds that phone_work(@iters) takes on @cpu, the median of @runs. */
double phone_time_work(int cpu, uint64_t iters, int runs);
/*
 * Run phone_work() on each of the @n CPUs @cpus at once, one pinned
 * thread each, for about @secs seconds; rates[i] is the speed on cpus[i]
 * in iterations per µs. 0, or -errno (no thread started is left behind).
 */
int phone_parallel_rates(const int *cpus, int n, double secs, double *rates);

#endif
