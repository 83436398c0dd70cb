// SPDX-License-Identifier: GPL-2.0
/*
 * platform.c - the default emulated phone, in one table.
 *
 * The numbers are made up to look like a 2020-era mid-range SoC, not taken
 * from a real device: LITTLE at 300-1800 MHz, 0.60-1.00 V; big at
 * 500-2800 MHz, 0.65-1.10 V. cdyn is chosen so that a big CPU at fmax
 * burns about 2 W and a LITTLE one about 0.3 W, which puts the LITTLE
 * cluster ~3x more efficient per unit of work at the low end, as EAS
 * energy models of such phones do.
 */
#include <stdio.h>
#include "platform.h"

static const struct platform platform_phone = {
	.nclusters = 2,
	.cl = {
		{
			.name = "little", .ncpus = 2, .capacity = 450,
			.cdyn = 170, .static_uw = 8000, .idle_uw = 4000,
			.nopp = 6,
			.opp = {
				{  300000,  600 }, {  600000,  660 },
				{  900000,  730 }, { 1200000,  800 },
				{ 1500000,  890 }, { 1800000, 1000 },
			},
		},
		{
			.name = "big", .ncpus = 2, .capacity = 1024,
			.cdyn = 560, .static_uw = 30000, .idle_uw = 12000,
			.nopp = 7,
			.opp = {
				{  500000,  650 }, {  900000,  700 },
				{ 1300000,  760 }, { 1700000,  830 },
				{ 2100000,  910 }, { 2500000, 1000 },
				{ 2800000, 1100 },
			},
		},
	},
};

void platform_default(struct platform *p)
{
	*p = platform_phone;
}

int platform_check(const struct platform *p, char *err, size_t errlen)
{
	uint32_t c, i;

	if (p->nclusters < 1 || p->nclusters > PLAT_MAX_CLUSTERS) {
		snprintf(err, errlen, "platform: expected 1..%d clusters",
			 PLAT_MAX_CLUSTERS);
		return -1;
	}
	for (c = 0; c < p->nclusters; c++) {
		const struct plat_cluster *cl = &p->cl[c];

		if (cl->ncpus < 1 || cl->capacity < 1 ||
		    cl->capacity > PLAT_CAPACITY_SCALE) {
			snprintf(err, errlen,
				 "platform: cluster %u: expected ncpus >= 1 and capacity 1..1024",
				 c);
			return -1;
		}
		if (cl->nopp < 1 || cl->nopp > PLAT_MAX_OPPS) {
			snprintf(err, errlen, "platform: cluster %u: expected 1..%d OPPs",
				 c, PLAT_MAX_OPPS);
			return -1;
		}
		for (i = 0; i < cl->nopp; i++) {
			if (cl->opp[i].khz == 0 ||
			    (cl->opp[i].mv == 0 && cl->opp[i].power_uw == 0) ||
			    (i && cl->opp[i].khz <= cl->opp[i - 1].khz)) {
				snprintf(err, errlen,
					 "platform: cluster %u opp %u: expected khz > 0, mv or power_uw > 0, and khz ascending",
					 c, i);
				return -1;
			}
		}
	}
	return 0;
}

uint32_t plat_ncpus(const struct platform *p)
{
	uint32_t c, n = 0;

	for (c = 0; c < p->nclusters; c++)
		n += p->cl[c].ncpus;
	return n;
}

uint64_t plat_opp_power_uw(const struct plat_cluster *c, uint32_t i)
{
	uint64_t mhz = c->opp[i].khz / 1000, mv = c->opp[i].mv;

	if (c->opp[i].power_uw)
		return c->opp[i].power_uw;
	return (uint64_t)c->cdyn * mhz * mv * mv / 1000000 + c->static_uw;
}

uint32_t plat_opp_capacity(const struct plat_cluster *c, uint32_t i)
{
	uint64_t fmax = c->opp[c->nopp - 1].khz;

	return (uint32_t)((uint64_t)c->capacity * c->opp[i].khz / fmax);
}

double plat_wall_us(const struct plat_cluster *c, uint32_t i, double work_us)
{
	double fmax = c->opp[c->nopp - 1].khz;
	double cap = (double)c->capacity * c->opp[i].khz / fmax;

	/* exact ratio, not the rounded plat_opp_capacity() */
	return work_us * PLAT_CAPACITY_SCALE / cap;
}

double plat_idle_uj(const struct platform *p, double duration_us)
{
	double uw = 0;
	uint32_t c;

	for (c = 0; c < p->nclusters; c++)
		uw += (double)p->cl[c].ncpus * p->cl[c].idle_uw;
	return uw * duration_us / 1e6;
}
