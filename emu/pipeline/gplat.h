/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gplat.h - the emulated phone as the guest kernel reports it: cpufreq
 * policies (schedutil), CPU capacities, the Energy Model in debugfs, the
 * per-policy energy meter (energy_uj) and frequency residency.
 *
 * The power model lives in the kernel: struct platform is built from what
 * the guest reports, and platform_default() is used only when the guest
 * has no cpufreq or no Energy Model (gplat.plat_source says which).
 * Without cpufreq, energy and residency are unavailable, not an error.
 */
#ifndef PL_GPLAT_H
#define PL_GPLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "platform.h"

#define GPLAT_MAX_CPUS		16
#define GPLAT_MAX_POLICIES	PLAT_MAX_CLUSTERS

struct gplat_policy {
	int id;				/* policyN */
	int first_cpu;
	uint32_t ncpus;
	uint32_t nfreq;
	uint32_t khz[PLAT_MAX_OPPS];	/* ascending */
	bool energy;			/* has energy_uj */
	uint32_t capacity;		/* at fmax; 0: unknown */
	char name[16];			/* "policyN", for struct platform */
};

struct gplat {
	int ncpus;
	uint32_t capacity[GPLAT_MAX_CPUS];	/* 1024 if not reported */
	bool capacity_known;			/* cpu_capacity exists */
	int npol;				/* 0: no cpufreq */
	struct gplat_policy pol[GPLAT_MAX_POLICIES];
	bool energy;				/* every policy has energy_uj */
	struct platform plat;
	bool plat_from_guest;			/* else platform_default() */
	char plat_source[96];			/* where plat came from */
};

/* Residency snapshot: ms at each frequency of each policy. */
struct gplat_residency {
	uint64_t ms[GPLAT_MAX_POLICIES][PLAT_MAX_OPPS];
};

void gplat_probe(struct gplat *ph);
int gplat_fastest_cpu(const struct gplat *ph);
/* Raise cpu's policy scaling_min_freq to its max; saved gets the old value. */
void gplat_pin_max_freq(const struct gplat *ph, int cpu, char *saved, size_t len);
void gplat_restore_min_freq(const struct gplat *ph, int cpu, const char *saved);
/* Sum of every policy's energy_uj; -1 if unavailable. */
int gplat_energy_uj(const struct gplat *ph, uint64_t *uj);
/* 0, or -1 if unavailable */
int gplat_residency(const struct gplat *ph, struct gplat_residency *r);
/* scaling_cur_freq of policy index i, kHz; 0 if unknown */
uint32_t gplat_cur_khz(const struct gplat *ph, int i);
/* Whether sched feature NAME exists; *on gets its state. */
bool gplat_sched_feature(const char *name, bool *on);
/* Set a sched feature: 0, or -1. */
int gplat_set_sched_feature(const char *name, bool on);

#endif
