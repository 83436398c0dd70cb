/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - a run's numbers as an Android performance engineer reads them.
 *
 * Percentiles use the nearest-rank method: the p-th percentile of n values
 * is the smallest value v such that at least p% of the values are <= v,
 * i.e. the value at rank ceil(p/100 * n) (1-based) of the sorted values.
 * It is always one of the samples (no interpolation), so "p99 = 33.3 ms"
 * means a frame really took 33.3 ms.
 */
#ifndef EMU_STATS_H
#define EMU_STATS_H

#include <stddef.h>
#include "frametimeline.h"

struct run_summary {
	uint32_t frames;		/* records classified */
	uint32_t skipped;		/* frames the app did not draw (no record) */
	uint32_t presented;
	uint32_t on_time;		/* presented within 2 ms of the expected present */
	uint32_t dropped;
	uint32_t janky;			/* ft_is_janky() of the main cause */
	uint32_t jank[FT_JANK_COUNT];	/* frames per main cause */
	double janky_pct;		/* janky / frames * 100 */
	double on_time_pct;		/* on_time / (frames + skipped) * 100 */
	/* present latency (VSYNC-app to on screen) of presented frames, ms */
	double latency_p50_ms, latency_p90_ms, latency_p99_ms;
	/* energy, filled by stats_set_energy(); 0 until then */
	double energy_uj, energy_per_frame_mj, limit_uj, energy_vs_limit;
};

/*
 * Nearest-rank percentile of v[0..n-1], p in (0, 100]. Sorts v in place.
 * Returns 0 for n == 0.
 */
double stats_percentile(double *v, size_t n, double p);
/*
 * Classify every record and fill s (energy fields zeroed); @skipped
 * frames were produced by the app but never drawn (no record): they count
 * against on_time_pct, not in janky_pct, whose base is FrameTimeline's
 * records. 0, or -1 on ENOMEM.
 */
int stats_summarize(const struct ft_frame *f, size_t n, uint32_t skipped,
		    struct run_summary *s);
/* Energy of the run and of the physical limit (µJ); limit 0: no ratio. */
void stats_set_energy(struct run_summary *s, double energy_uj, double limit_uj);

#endif
