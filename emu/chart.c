// SPDX-License-Identifier: GPL-2.0
/*
 * chart.c - SVG scatter chart for the strategy comparison.
 */
#include <math.h>
#include "chart.h"
#include "escape.h"

/* plot area inside the SVG */
#define PL	70.0
#define PR	(CHART_WIDTH - 150.0)	/* room for labels on the right */
#define PT	40.0
#define PB	(CHART_HEIGHT - 55.0)
#define NTICKS	5

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
	"#9467bd", "#8c564b", "#e377c2", "#17becf",
};

struct axes {
	double xmax, ymax, xstep, ystep;
};

double chart_tick_step(double max, int n)
{
	double raw, mag, f;

	if (!(max > 0) || n < 1)
		return 1;
	raw = max / n;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void put_text(FILE *f, const char *s)
{
	escape_xml(f, s);
}

static double sx(const struct axes *a, double x)
{
	return PL + (PR - PL) * x / a->xmax;
}

static double sy(const struct axes *a, double y)
{
	return PB - (PB - PT) * y / a->ymax;
}

/* axes from 0 to a whole number of ticks above the largest value */
static void fit(struct axes *a, const struct chart *c,
		const struct chart_point *p, size_t n)
{
	double xm = c->x_mark > 0 ? c->x_mark : 0, ym = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		xm = fmax(xm, p[i].x);
		ym = fmax(ym, p[i].y);
	}
	xm = xm > 0 ? xm * 1.05 : 1;
	ym = ym > 0 ? ym * 1.05 : 1;
	a->xstep = chart_tick_step(xm, NTICKS);
	a->ystep = chart_tick_step(ym, NTICKS);
	a->xmax = ceil(xm / a->xstep - 1e-9) * a->xstep;
	a->ymax = ceil(ym / a->ystep - 1e-9) * a->ystep;
}

static void grid(FILE *f, const struct axes *a)
{
	double v;

	for (v = 0; v <= a->xmax + a->xstep / 2; v += a->xstep)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			sx(a, v), PT, sx(a, v), PB, sx(a, v), PB + 16, v);
	for (v = 0; v <= a->ymax + a->ystep / 2; v += a->ystep)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			PL, sy(a, v), PR, sy(a, v), PL - 6, sy(a, v) + 4, v);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
		PL, PT, PR - PL, PB - PT);
}

static void labels(FILE *f, const struct chart *c)
{
	fputs("<text x=\"320\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">", f);
	put_text(f, c->title);
	fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		(PL + PR) / 2, CHART_HEIGHT - 14);
	put_text(f, c->xlabel);
	fprintf(f, "</text>\n<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">",
		(PT + PB) / 2, (PT + PB) / 2);
	put_text(f, c->ylabel);
	fputs("</text>\n", f);
}

static void mark(FILE *f, const struct chart *c, const struct axes *a)
{
	if (!(c->x_mark > 0))
		return;
	fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"5,4\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">",
		sx(a, c->x_mark), PT, sx(a, c->x_mark), PB,
		sx(a, c->x_mark) + 4, PT + 14);
	put_text(f, c->x_mark_label);
	fputs("</text>\n", f);
}

static void points(FILE *f, const struct axes *a, const struct chart_point *p,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *col = palette[i % (sizeof(palette) / sizeof(*palette))];

		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>",
			sx(a, p[i].x), sy(a, p[i].y), col);
		put_text(f, p[i].label);
		fprintf(f, ": %g, %g</title></circle>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">",
			p[i].x, p[i].y, sx(a, p[i].x) + 8, sy(a, p[i].y) - 6, col);
		put_text(f, p[i].label);
		fputs("</text>\n", f);
	}
}

int chart_svg(FILE *f, const struct chart *c, const struct chart_point *p,
	      size_t n)
{
	struct axes a;
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(p[i].x) || !isfinite(p[i].y) ||
		    p[i].x < 0 || p[i].y < 0)
			return -1;
	if (c->x_mark > 0 && !isfinite(c->x_mark))
		return -1;
	fit(&a, c, p, n);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		CHART_WIDTH, CHART_HEIGHT, CHART_WIDTH, CHART_HEIGHT);
	labels(f, c);
	grid(f, &a);
	mark(f, c, &a);
	points(f, &a, p, n);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
