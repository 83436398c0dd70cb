/* SPDX-License-Identifier: GPL-2.0 */
/*
 * platform.h - the emulated phone's CPUs: clusters, OPPs and their power.
 *
 * Everything is integers so that the guest kernel driver written later can
 * take the same table (platform.c) without floating point:
 *
 *   busy power of one CPU at an OPP, in µW:
 *	P = cdyn * f[MHz] * V[mV]^2 / 10^6 + static_uw
 *   (cdyn in µW per MHz per V², i.e. P_dyn = C·f·V²)
 *   capacity of a CPU at an OPP:
 *	cap(f) = capacity * f / fmax
 *   a CPU that is powered but idle draws idle_uw.
 *
 * Work is counted in invariant µs: µs at capacity 1024 and fmax. A stage of
 * W invariant µs takes W * 1024 / cap(f) µs of wall time.
 */
#ifndef EMU_PLATFORM_H
#define EMU_PLATFORM_H

#include <stdint.h>
#include <stddef.h>

#define PLAT_MAX_CLUSTERS	4
#define PLAT_MAX_OPPS		16
#define PLAT_CAPACITY_SCALE	1024

struct plat_opp {
	uint32_t khz;
	uint32_t mv;
	uint32_t power_uw;	/* measured busy power (e.g. the kernel's Energy
				 * Model); 0: the formula above from mv */
};

struct plat_cluster {
	const char *name;
	uint32_t ncpus;
	uint32_t capacity;	/* at the highest OPP, <= 1024 */
	uint32_t cdyn;		/* µW / (MHz·V²) */
	uint32_t static_uw;	/* leakage of a busy CPU */
	uint32_t idle_uw;	/* a powered, idle CPU (shallow idle) */
	uint32_t nopp;
	struct plat_opp opp[PLAT_MAX_OPPS];	/* ascending khz */
};

struct platform {
	uint32_t nclusters;
	struct plat_cluster cl[PLAT_MAX_CLUSTERS];
};

/* The default small phone: 2 LITTLE (cap 450) + 2 big (cap 1024). */
void platform_default(struct platform *p);
/* 0 if sane (ascending OPPs, capacities in range), else -1 and a message. */
int platform_check(const struct platform *p, char *err, size_t errlen);
uint32_t plat_ncpus(const struct platform *p);
/* Busy power of one CPU of cluster c at OPP i, in µW. */
uint64_t plat_opp_power_uw(const struct plat_cluster *c, uint32_t i);
/* Capacity of one CPU of cluster c at OPP i (0..1024). */
uint32_t plat_opp_capacity(const struct plat_cluster *c, uint32_t i);
/* Wall µs that work_us invariant µs take on cluster c at OPP i. */
double plat_wall_us(const struct plat_cluster *c, uint32_t i, double work_us);
/* Energy in µJ of every CPU idling for duration_us. */
double plat_idle_uj(const struct platform *p, double duration_us);

#endif
