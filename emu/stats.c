// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - percentiles and per-run summary.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_percentile(double *v, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	/* the small epsilon keeps 0.9 * 10 from becoming rank 10 by rounding */
	rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

int stats_summarize(const struct ft_frame *f, size_t n, uint32_t skipped,
		    struct run_summary *s)
{
	double *lat = malloc((n ? n : 1) * sizeof(*lat));
	size_t i, nlat = 0;

	memset(s, 0, sizeof(*s));
	if (!lat)
		return -1;
	for (i = 0; i < n; i++) {
		struct ft_verdict v = ft_classify(&f[i]);
		int64_t l = ft_present_latency_ns(&f[i]);

		s->jank[v.jank]++;
		s->janky += ft_is_janky(v.jank);
		s->on_time += v.present == FT_PRESENT_ON_TIME;
		s->dropped += f[i].dropped;
		if (l >= 0)
			lat[nlat++] = l / 1e6;
	}
	s->frames = (uint32_t)n;
	s->skipped = skipped;
	s->presented = (uint32_t)nlat;
	s->janky_pct = n ? 100.0 * s->janky / n : 0;
	s->on_time_pct = n + skipped ? 100.0 * s->on_time / (n + skipped) : 0;
	s->latency_p50_ms = stats_percentile(lat, nlat, 50);
	s->latency_p90_ms = stats_percentile(lat, nlat, 90);
	s->latency_p99_ms = stats_percentile(lat, nlat, 99);
	free(lat);
	return 0;
}

void stats_set_energy(struct run_summary *s, double energy_uj, double limit_uj)
{
	s->energy_uj = energy_uj;
	s->limit_uj = limit_uj;
	s->energy_per_frame_mj = s->frames ? energy_uj / 1000.0 / s->frames : 0;
	s->energy_vs_limit = limit_uj > 0 ? energy_uj / limit_uj : 0;
}
