/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chart.h - an SVG scatter chart: janky-frame % (y) against energy per
 * frame (x), one labelled point per strategy. Self-contained SVG text (no
 * scripts, fonts or external files); both axes start at 0.
 */
#ifndef EMU_CHART_H
#define EMU_CHART_H

#include <stddef.h>
#include <stdio.h>

struct chart_point {
	const char *label;
	double x, y;
};

struct chart {
	const char *title;
	const char *xlabel;		/* e.g. "energy per frame (mJ)" */
	const char *ylabel;		/* e.g. "janky frames (%)" */
	double x_mark;			/* dashed vertical line if > 0 */
	const char *x_mark_label;	/* e.g. "physical limit" */
};

#define CHART_WIDTH	640
#define CHART_HEIGHT	420

/*
 * Write the chart to f. -1 (and nothing written) if a point is negative
 * or not finite; -1 if a write failed; else 0.
 */
int chart_svg(FILE *f, const struct chart *c, const struct chart_point *p,
	      size_t n);
/* The tick step for 0..max with about n ticks: 1, 2 or 5 times 10^k. */
double chart_tick_step(double max, int n);

#endif
