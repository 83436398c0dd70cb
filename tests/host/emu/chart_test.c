// SPDX-License-Identifier: GPL-2.0
/*
 * chart_test.c - the SVG scatter chart: well-formed pieces, points where
 * their values say, labels escaped, bad values refused. The sample is
 * left in $EMU_TEST_OUT for an XML parser in tests/host/emu.sh.
 */
#include <stdlib.h>
#include <string.h>
#include "emu_test.h"
#include "chart.h"

static const struct chart_point pts[] = {
	{ "cfs", 2.0, 12.5 },
	{ "touchboost", 3.5, 0 },
	{ "<fifo&greed>", 2.5, 1.0 },
	{ "deadline", 4.2, 3.0 },
};

static const struct chart cfg = {
	.title = "article-example: jank vs energy",
	.xlabel = "energy per frame (mJ)",
	.ylabel = "janky frames (%)",
	.x_mark = 1.5, .x_mark_label = "physical limit",
};

/* chart into a malloc'd string, NULL if chart_svg failed */
static char *render(const struct chart *c, const struct chart_point *p, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r = chart_svg(f, c, p, n);

	fclose(f);
	if (r) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* the n-th circle's centre */
static int circle(const char *svg, int n, double *cx, double *cy)
{
	const char *s = svg;

	while ((s = strstr(s, "<circle ")) && n--)
		s++;
	return s && sscanf(s, "<circle cx=\"%lf\" cy=\"%lf\"", cx, cy) == 2 ? 0 : -1;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

TEST(sample_is_a_complete_svg)
{
	char *svg = render(&cfg, pts, 4);
	const char *dir = getenv("EMU_TEST_OUT");

	ASSERT_NE(NULL, svg);
	if (dir) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/chart.svg", dir);
		f = fopen(path, "w");
		if (f) {
			fputs(svg, f);
			fclose(f);
		}
	}
	ASSERT_EQ(0, strncmp(svg, "<?xml", 5));
	ASSERT_CONTAINS(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	ASSERT_EQ(0, strcmp(svg + strlen(svg) - 7, "</svg>\n"));
	ASSERT_EQ(4, count(svg, "<circle "));
	ASSERT_CONTAINS(svg, "energy per frame (mJ)");
	ASSERT_CONTAINS(svg, "physical limit");
	ASSERT_EQ(0, count(svg, "<script"));
	ASSERT_EQ(0, count(svg, "href"));
	free(svg);
}

TEST(labels_are_escaped)
{
	char *svg = render(&cfg, pts, 4);

	ASSERT_NE(NULL, svg);
	ASSERT_CONTAINS(svg, "&lt;fifo&amp;greed&gt;");
	ASSERT_EQ(0, count(svg, "<fifo"));
	free(svg);
}

TEST(points_sit_where_their_values_say)
{
	char *svg = render(&cfg, pts, 4);
	double x[4], y[4];
	int i;

	ASSERT_NE(NULL, svg);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, circle(svg, i, &x[i], &y[i]));
		ASSERT_TRUE(x[i] > 0 && x[i] < CHART_WIDTH);
		ASSERT_TRUE(y[i] > 0 && y[i] < CHART_HEIGHT);
	}
	/* more energy: further right; more jank: higher (smaller y) */
	ASSERT_LT(x[0], x[2]);
	ASSERT_LT(x[2], x[1]);
	ASSERT_LT(x[1], x[3]);
	ASSERT_LT(y[0], y[3]);
	ASSERT_LT(y[3], y[2]);
	ASSERT_LT(y[2], y[1]);
	/* linear: equal value steps, equal pixel steps (2.0 -> 2.5 -> 3.5) */
	ASSERT_NEAR(2 * (x[2] - x[0]), x[1] - x[2], 0.2);
	free(svg);
}

TEST(no_points_and_all_zero_still_draw)
{
	struct chart_point zero = { "idle", 0, 0 };
	char *svg = render(&cfg, NULL, 0);

	ASSERT_NE(NULL, svg);
	ASSERT_EQ(0, count(svg, "<circle "));
	free(svg);
	svg = render(&(struct chart){ .title = "z" }, &zero, 1);
	ASSERT_NE(NULL, svg);
	ASSERT_EQ(1, count(svg, "<circle "));
	ASSERT_EQ(0, count(svg, "nan"));
	ASSERT_EQ(0, count(svg, "inf"));
	free(svg);
}

TEST(bad_values_are_refused)
{
	struct chart_point neg = { "neg", -1, 2 }, nan_pt = { "nan", 1, NAN };
	struct chart_point inf_pt = { "inf", INFINITY, 1 };

	ASSERT_EQ(NULL, render(&cfg, &neg, 1));
	ASSERT_EQ(NULL, render(&cfg, &nan_pt, 1));
	ASSERT_EQ(NULL, render(&cfg, &inf_pt, 1));
}

TEST(tick_steps_are_1_2_5)
{
	ASSERT_NEAR(2, chart_tick_step(7.3, 5), 1e-12);
	ASSERT_NEAR(0.2, chart_tick_step(0.9, 5), 1e-12);
	ASSERT_NEAR(20, chart_tick_step(100, 5), 1e-12);
	ASSERT_NEAR(0.5, chart_tick_step(2.4, 5), 1e-12);
	ASSERT_NEAR(1, chart_tick_step(0, 5), 0);
}

TEST_HARNESS_MAIN
