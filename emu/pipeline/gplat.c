// SPDX-License-Identifier: GPL-2.0
/*
 * gplat.c - read the emulated phone from sysfs and debugfs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gplat.h"

/* a file-system root for the paths below: a fake tree, for testing */
#ifndef GPLAT_ROOT
#define GPLAT_ROOT	""
#endif
#define CPU_DIR		GPLAT_ROOT "/sys/devices/system/cpu"
#define CPUFREQ_DIR	CPU_DIR "/cpufreq"
#define EM_DIR		GPLAT_ROOT "/sys/kernel/debug/energy_model"
#define FEATURES	"/sys/kernel/debug/sched/features"

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = 0;
		ret = 0;
	}
	fclose(f);
	return ret;
}

static int read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;

	if (read_line(path, buf, sizeof(buf)))
		return -1;
	*v = strtoull(buf, &end, 10);
	return end == buf ? -1 : 0;
}

static int write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "we");
	int ret;

	if (!f)
		return -1;
	ret = fputs(s, f) < 0;
	ret |= fclose(f) != 0;
	return ret ? -1 : 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* "0-1" or "2 3": the first CPU and the count */
static void parse_cpus(const char *s, int *first, uint32_t *n)
{
	int a, b;

	*n = 0;
	*first = -1;
	if (sscanf(s, "%d-%d", &a, &b) == 2 && b >= a) {
		*first = a;
		*n = (uint32_t)(b - a + 1);
		return;
	}
	for (char *p = (char *)s; *p; ) {
		char *end;
		long c = strtol(p, &end, 10);

		if (end == p)
			break;
		if (*first < 0)
			*first = (int)c;
		(*n)++;
		p = end;
	}
}

static void probe_policy(struct gplat_policy *pp, int id)
{
	char path[128], buf[512];
	uint64_t v;

	memset(pp, 0, sizeof(*pp));
	pp->id = id;
	snprintf(pp->name, sizeof(pp->name), "policy%d", id);
	snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/related_cpus", id);
	if (read_line(path, buf, sizeof(buf)) == 0)
		parse_cpus(buf, &pp->first_cpu, &pp->ncpus);
	if (pp->first_cpu < 0) {
		pp->first_cpu = id;
		pp->ncpus = 1;
	}
	snprintf(path, sizeof(path),
		 CPUFREQ_DIR "/policy%d/scaling_available_frequencies", id);
	if (read_line(path, buf, sizeof(buf)) == 0) {
		for (char *p = buf; pp->nfreq < PLAT_MAX_OPPS; ) {
			char *end;
			unsigned long k = strtoul(p, &end, 10);

			if (end == p)
				break;
			pp->khz[pp->nfreq++] = (uint32_t)k;
			p = end;
		}
		qsort(pp->khz, pp->nfreq, sizeof(pp->khz[0]), cmp_u32);
	}
	snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/energy_uj", id);
	pp->energy = read_u64(path, &v) == 0;
}

static int cmp_policy_cap(const void *a, const void *b)
{
	const struct gplat_policy *x = a, *y = b;
	uint32_t cx = x->capacity, cy = y->capacity;

	if (cx != cy)
		return (cx > cy) - (cx < cy);
	return (x->id > y->id) - (x->id < y->id);
}

/* Busy power of each OPP from the Energy Model; -1 if it is not there. */
static int em_power(const struct gplat_policy *pp, struct plat_cluster *cl)
{
	char path[160];
	uint32_t i;
	uint64_t uw;

	for (i = 0; i < pp->nfreq; i++) {
		snprintf(path, sizeof(path), EM_DIR "/cpu%d/ps:%u/power",
			 pp->first_cpu, pp->khz[i]);
		if (read_u64(path, &uw) || !uw)
			return -1;
		cl->opp[i].power_uw = (uint32_t)uw;
	}
	return 0;
}

/* Idle power is not in the Energy Model: take the default phone's. */
static uint32_t default_idle_uw(uint32_t capacity)
{
	struct platform d;
	uint32_t c;

	platform_default(&d);
	for (c = 0; c < d.nclusters; c++)
		if (d.cl[c].capacity == capacity)
			return d.cl[c].idle_uw;
	return 0;
}

/*
 * A policy's capacity: cpu_capacity of its first CPU, or, where the
 * architecture has no such file (x86), the Energy Model's performance at
 * the highest OPP; 0 if neither.
 */
static uint32_t policy_capacity(const struct gplat *ph,
				const struct gplat_policy *pp)
{
	char path[160];
	uint64_t v;

	if (ph->capacity_known)
		return ph->capacity[pp->first_cpu];
	snprintf(path, sizeof(path), EM_DIR "/cpu%d/ps:%u/performance",
		 pp->first_cpu, pp->khz[pp->nfreq - 1]);
	return read_u64(path, &v) == 0 ? (uint32_t)v : 0;
}

static void build_platform(struct gplat *ph)
{
	struct platform *p = &ph->plat;
	char err[160];
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < ph->npol; i++) {
		const struct gplat_policy *pp = &ph->pol[i];
		struct plat_cluster *cl = &p->cl[p->nclusters];
		uint32_t o;

		if (!pp->nfreq)
			goto fallback;
		cl->name = pp->name;
		cl->ncpus = pp->ncpus;
		cl->capacity = pp->capacity;
		cl->idle_uw = default_idle_uw(cl->capacity);
		cl->nopp = pp->nfreq;
		for (o = 0; o < pp->nfreq; o++)
			cl->opp[o].khz = pp->khz[o];
		if (em_power(pp, cl))
			goto fallback;
		p->nclusters++;
	}
	if (platform_check(p, err, sizeof(err)) == 0) {
		snprintf(ph->plat_source, sizeof(ph->plat_source),
			 "guest (cpufreq, %s, Energy Model)",
			 ph->capacity_known ? "cpu_capacity" :
					      "EM performance as capacity");
		ph->plat_from_guest = true;
		return;
	}
fallback:
	platform_default(p);
	snprintf(ph->plat_source, sizeof(ph->plat_source), "default (%s)",
		 ph->npol ? "no usable Energy Model in debugfs" : "no cpufreq");
}

void gplat_probe(struct gplat *ph)
{
	char path[128];
	uint64_t v;
	int cpu, id;

	memset(ph, 0, sizeof(*ph));
	for (cpu = 0; cpu < GPLAT_MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d", cpu);
		if (access(path, F_OK))
			break;
	}
	ph->ncpus = cpu ? cpu : 1;
	for (cpu = 0; cpu < ph->ncpus; cpu++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpu_capacity", cpu);
		if (read_u64(path, &v) == 0 && v) {
			ph->capacity[cpu] = (uint32_t)v;
			ph->capacity_known = true;
		} else {
			ph->capacity[cpu] = PLAT_CAPACITY_SCALE;
		}
	}
	for (id = 0; id < GPLAT_MAX_CPUS && ph->npol < GPLAT_MAX_POLICIES; id++) {
		snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d", id);
		if (access(path, F_OK))
			continue;
		probe_policy(&ph->pol[ph->npol++], id);
	}
	for (id = 0; id < ph->npol; id++)
		ph->pol[id].capacity = ph->pol[id].nfreq ?
				       policy_capacity(ph, &ph->pol[id]) : 0;
	qsort(ph->pol, ph->npol, sizeof(ph->pol[0]), cmp_policy_cap);
	ph->energy = ph->npol > 0;
	for (id = 0; id < ph->npol; id++)
		ph->energy &= ph->pol[id].energy;
	build_platform(ph);
}

static uint32_t top_khz(const struct gplat_policy *pp)
{
	return pp->nfreq ? pp->khz[pp->nfreq - 1] : 0;
}

/*
 * The highest-capacity CPU: from cpu_capacity; else the first CPU of the
 * policy with the largest capacity (the Energy Model's performance), or
 * else with the highest top frequency; else CPU 0.
 */
int gplat_fastest_cpu(const struct gplat *ph)
{
	int cpu, i, best = 0;

	if (ph->capacity_known) {
		for (cpu = 1; cpu < ph->ncpus; cpu++)
			if (ph->capacity[cpu] > ph->capacity[best])
				best = cpu;
		return best;
	}
	if (!ph->npol)
		return 0;
	for (i = 1; i < ph->npol; i++) {
		bool by_cap = ph->pol[i].capacity && ph->pol[best].capacity;
		uint32_t a = by_cap ? ph->pol[i].capacity : top_khz(&ph->pol[i]);
		uint32_t b = by_cap ? ph->pol[best].capacity : top_khz(&ph->pol[best]);

		if (a > b)
			best = i;
	}
	return ph->pol[best].first_cpu;
}

static const struct gplat_policy *policy_of(const struct gplat *ph, int cpu)
{
	int i;

	for (i = 0; i < ph->npol; i++)
		if (cpu >= ph->pol[i].first_cpu &&
		    cpu < ph->pol[i].first_cpu + (int)ph->pol[i].ncpus)
			return &ph->pol[i];
	return NULL;
}

void gplat_pin_max_freq(const struct gplat *ph, int cpu, char *saved, size_t len)
{
	const struct gplat_policy *pp = policy_of(ph, cpu);
	char path[128], max[32];

	saved[0] = 0;
	if (!pp)
		return;
	snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/cpuinfo_max_freq",
		 pp->id);
	if (read_line(path, max, sizeof(max)))
		return;
	snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/scaling_min_freq",
		 pp->id);
	if (read_line(path, saved, len))
		return;
	if (write_str(path, max))
		saved[0] = 0;
	usleep(20000);	/* let the governor apply it */
}

void gplat_restore_min_freq(const struct gplat *ph, int cpu, const char *saved)
{
	const struct gplat_policy *pp = policy_of(ph, cpu);
	char path[128];

	if (!pp || !saved[0])
		return;
	snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/scaling_min_freq",
		 pp->id);
	if (write_str(path, saved))
		fprintf(stderr, "pipeline: restoring %s to %s failed\n", path, saved);
}

int gplat_energy_uj(const struct gplat *ph, uint64_t *uj)
{
	char path[128];
	uint64_t v;
	int i;

	*uj = 0;
	if (!ph->energy)
		return -1;
	for (i = 0; i < ph->npol; i++) {
		snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/energy_uj",
			 ph->pol[i].id);
		if (read_u64(path, &v))
			return -1;
		*uj += v;
	}
	return 0;
}

int gplat_residency(const struct gplat *ph, struct gplat_residency *r)
{
	char path[128], line[128];
	int i;

	memset(r, 0, sizeof(*r));
	if (!ph->npol)
		return -1;
	for (i = 0; i < ph->npol; i++) {
		FILE *f;

		snprintf(path, sizeof(path),
			 CPUFREQ_DIR "/policy%d/stats/time_in_state", ph->pol[i].id);
		f = fopen(path, "re");
		if (!f)
			return -1;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long khz, t;
			uint32_t o;

			if (sscanf(line, "%llu %llu", &khz, &t) != 2)
				continue;
			for (o = 0; o < ph->pol[i].nfreq; o++)
				if (ph->pol[i].khz[o] == khz)
					r->ms[i][o] = t * 10;	/* 10 ms units */
		}
		fclose(f);
	}
	return 0;
}

uint32_t gplat_cur_khz(const struct gplat *ph, int i)
{
	char path[128];
	uint64_t v;

	snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/scaling_cur_freq",
		 ph->pol[i].id);
	return read_u64(path, &v) ? 0 : (uint32_t)v;
}

bool gplat_sched_feature(const char *name, bool *on)
{
	char buf[4096], *tok, *save = NULL;
	FILE *f = fopen(FEATURES, "re");
	size_t n;
	bool found = false;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		bool neg = !strncmp(tok, "NO_", 3);

		if (!strcmp(neg ? tok + 3 : tok, name)) {
			found = true;
			if (on)
				*on = !neg;
		}
	}
	return found;
}

int gplat_set_sched_feature(const char *name, bool on)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s%s", on ? "" : "NO_", name);
	return write_str(FEATURES, buf);
}
