// SPDX-License-Identifier: GPL-2.0
/* The emulated phone as guest programs see it: see phone.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu_share.h"
#include "phone.h"
#include "clock.h"

#define CPUFREQ	"/sys/devices/system/cpu/cpufreq"

void phone_policy_path(char *buf, int len, int policy, const char *name)
{
	snprintf(buf, len, CPUFREQ "/policy%d/%s", policy, name);
}

int phone_policy_read(int policy, const char *name, uint64_t *val)
{
	char path[256], buf[64], *end;
	int ret;

	phone_policy_path(path, sizeof(path), policy, name);
	ret = read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	*val = strtoull(buf, &end, 10);
	return end == buf ? -EINVAL : 0;
}

int phone_param_read(const char *name, uint64_t *val)
{
	char path[256], buf[64], *end;
	int ret;

	snprintf(path, sizeof(path), "/sys/module/phone_cpufreq/parameters/%s", name);
	ret = read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	*val = strtoull(buf, &end, 10);
	return end == buf ? -EINVAL : 0;
}

static int policy_write(int policy, const char *name, unsigned int val)
{
	char path[256], buf[32];

	phone_policy_path(path, sizeof(path), policy, name);
	snprintf(buf, sizeof(buf), "%u", val);
	return write_str(path, buf);
}

/*
 * With fast switching, schedutil applies new limits at the policy's next
 * scheduler update, which an idle policy may not have for a long time:
 * run on its first CPU for a moment, so that the update comes now.
 */
static int poke_policy(int policy)
{
	char path[256], buf[512];
	cpu_set_t old, one;
	int cpu, ret;

	phone_policy_path(path, sizeof(path), policy, "related_cpus");
	ret = read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	if (sscanf(buf, "%d", &cpu) != 1)
		return -EINVAL;
	if (sched_getaffinity(0, sizeof(old), &old))
		return -errno;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -errno;
	return sched_setaffinity(0, sizeof(old), &old) ? -errno : 0;
}

int phone_policy_limit(int policy, unsigned int min_khz, unsigned int max_khz)
{
	uint64_t cur_min;
	int ret = phone_policy_read(policy, "scaling_min_freq", &cur_min);

	if (ret)
		return ret;
	/* never ask for min > max on the way */
	if (min_khz > cur_min) {
		ret = policy_write(policy, "scaling_max_freq", max_khz);
		ret = ret ? ret : policy_write(policy, "scaling_min_freq", min_khz);
	} else {
		ret = policy_write(policy, "scaling_min_freq", min_khz);
		ret = ret ? ret : policy_write(policy, "scaling_max_freq", max_khz);
	}
	return ret ? ret : poke_policy(policy);
}

int phone_energy_uj(int policy, uint64_t *uj)
{
	return phone_policy_read(policy, "energy_uj", uj);
}

static int read_policy(struct phone_policy *p, int id)
{
	char path[256], buf[512], *tok, *save;
	int first, last;

	p->id = id;
	phone_policy_path(path, sizeof(path), id, "related_cpus");
	if (read_str(path, buf, sizeof(buf)))
		return -1;
	if (sscanf(buf, "%d", &first) != 1)
		return -1;
	last = first;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (atoi(tok) != last && atoi(tok) != last + 1)
			return -1;
		last = atoi(tok);
	}
	p->first_cpu = first;
	p->ncpus = last - first + 1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", first);
	if (read_str(path, buf, sizeof(buf)))
		return -1;
	p->capacity = atoi(buf);
	phone_policy_path(path, sizeof(path), id, "scaling_available_frequencies");
	if (read_str(path, buf, sizeof(buf)))
		return -1;
	p->nopp = 0;
	for (tok = strtok_r(buf, " ", &save); tok && p->nopp < PHONE_MAX_OPPS;
	     tok = strtok_r(NULL, " ", &save))
		p->khz[p->nopp++] = strtoul(tok, NULL, 10);
	return p->nopp ? 0 : -1;
}

int phone_read(struct phone *ph)
{
	char path[256], drv[64];
	int cpu = 0;

	memset(ph, 0, sizeof(*ph));
	phone_policy_path(path, sizeof(path), 0, "scaling_driver");
	if (read_str(path, drv, sizeof(drv)) || strcmp(drv, PHONE_DRIVER)) {
		fprintf(stderr, "phone: no " PHONE_DRIVER " policy at " CPUFREQ "/policy0 (boot with phone_cpufreq.enable=1)\n");
		return -1;
	}
	while (ph->npolicies < PHONE_MAX_POLICIES) {
		struct phone_policy *p = &ph->pol[ph->npolicies];

		phone_policy_path(path, sizeof(path), cpu, "related_cpus");
		if (access(path, R_OK))
			break;
		if (read_policy(p, cpu)) {
			fprintf(stderr, "phone: cannot read policy%d (its CPUs must be contiguous)\n", cpu);
			return -1;
		}
		cpu += p->ncpus;
		ph->npolicies++;
	}
	return 0;
}

int phone_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

uint64_t phone_work(uint64_t iters)
{
	volatile uint64_t x = 1;
	uint64_t i;

	for (i = 0; i < iters; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double phone_time_work(int cpu, uint64_t iters, int runs)
{
	double t[16];
	int i;

	if (runs > 16)
		runs = 16;
	if (phone_pin(cpu))
		return -1;
	for (i = 0; i < runs; i++) {
		double start = mono_now();

		phone_work(iters);
		t[i] = mono_now() - start;
	}
	qsort(t, runs, sizeof(t[0]), cmp_double);
	return t[runs / 2];
}

struct rate_arg {
	int cpu;
	const volatile bool *stop;
	double rate;	/* iterations per µs, or -errno */
};

static void *rate_main(void *arg)
{
	struct rate_arg *a = arg;
	uint64_t done = 0;
	double t0;
	int ret = phone_pin(a->cpu);

	if (ret) {
		a->rate = ret;
		return NULL;
	}
	t0 = mono_now();
	while (!*a->stop) {
		phone_work(10000);
		done += 10000;
	}
	a->rate = done / ((mono_now() - t0) * 1e6);
	return NULL;
}

int phone_parallel_rates(const int *cpus, int n, double secs, double *rates)
{
	struct rate_arg a[PHONE_MAX_CPUS];
	pthread_t th[PHONE_MAX_CPUS];
	volatile bool stop = false;
	int i, started, ret = 0;

	if (n < 1 || n > PHONE_MAX_CPUS)
		return -EINVAL;
	for (started = 0; started < n; started++) {
		a[started] = (struct rate_arg){ .cpu = cpus[started], .stop = &stop };
		ret = -pthread_create(&th[started], NULL, rate_main, &a[started]);
		if (ret)
			break;
	}
	if (!ret)
		usleep((useconds_t)(secs * 1e6));
	stop = true;
	for (i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (a[i].rate < 0 && !ret)
			ret = (int)a[i].rate;
		rates[i] = a[i].rate;
	}
	return ret;
}
