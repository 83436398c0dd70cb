// SPDX-License-Identifier: GPL-2.0
/*
 * stats_test.c - nearest-rank percentiles and the per-run summary.
 */
#include "emu_test.h"
#include "stats.h"

#define MS	1000000LL
#define PERIOD	16666667LL

TEST(percentiles_of_1_to_100)
{
	double v[100];
	int i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;		/* unsorted on purpose */
	ASSERT_NEAR(50, stats_percentile(v, 100, 50), 0);
	ASSERT_NEAR(90, stats_percentile(v, 100, 90), 0);
	ASSERT_NEAR(99, stats_percentile(v, 100, 99), 0);
	ASSERT_NEAR(100, stats_percentile(v, 100, 100), 0);
	ASSERT_NEAR(1, stats_percentile(v, 100, 0.5), 0);
}

TEST(nearest_rank_on_few_values)
{
	double v[] = { 30, 10, 20, 40, 50, 60, 70, 80, 90, 100 };

	/* rank ceil(0.9 * 10) = 9 exactly, not 10 by rounding */
	ASSERT_NEAR(90, stats_percentile(v, 10, 90), 0);
	ASSERT_NEAR(100, stats_percentile(v, 10, 99), 0);
	/* rank ceil(0.5 * 10) = 5: a sample, not an interpolation */
	ASSERT_NEAR(50, stats_percentile(v, 10, 50), 0);
	ASSERT_NEAR(10, stats_percentile(v, 10, 1), 0);
}

TEST(percentile_edge_cases)
{
	double one = 7.5, two[] = { 2, 1 };

	ASSERT_NEAR(0, stats_percentile(NULL, 0, 50), 0);
	ASSERT_NEAR(7.5, stats_percentile(&one, 1, 99), 0);
	ASSERT_NEAR(1, stats_percentile(two, 2, 50), 0);
	ASSERT_NEAR(2, stats_percentile(two, 2, 51), 0);
}

/* frame i predicted to present at (i + 3) periods, ended in time */
static void good_frame(struct ft_frame *f, int i)
{
	ft_frame_init(f, i, PERIOD);
	ft_frame_predict(f, (i + 3) * PERIOD, 20500000, 10500000);
	f->actual.start = f->expected.start;
	f->actual.end = f->expected.end - MS;
	f->actual.present = f->expected.present;
	f->sf_actual = f->sf_expected;
	f->sf_actual.end = f->sf_expected.start + MS;
}

/* the app missed its latch: shown one period late, by an on-time display frame */
static void app_late(struct ft_frame *f)
{
	f->actual.end = f->expected.end + MS;
	f->actual.present += PERIOD;
	f->sf_expected.start += PERIOD;
	f->sf_expected.end += PERIOD;
	f->sf_expected.present += PERIOD;
	f->sf_actual.start += PERIOD;
	f->sf_actual.end += PERIOD;
	f->sf_actual.present += PERIOD;
}

TEST(summary_counts_janks_and_latency)
{
	struct ft_frame f[10];
	struct run_summary s;
	int i;

	for (i = 0; i < 10; i++)
		good_frame(&f[i], i);
	app_late(&f[2]);
	app_late(&f[5]);
	f[7].dropped = true;
	f[7].actual.present = FT_TIME_NONE;
	/* stuffed: the app was on time, the frame a period late: janky */
	f[8].last_latch = f[8].expected.end;
	f[8].actual.present += PERIOD;
	f[8].sf_expected.present += PERIOD;
	f[8].sf_actual.present += PERIOD;
	f[8].sf_expected.end += PERIOD;
	f[8].sf_actual.end += PERIOD;

	ASSERT_EQ(0, stats_summarize(f, 10, 2, &s));
	ASSERT_EQ(10, s.frames);
	ASSERT_EQ(2, s.skipped);
	ASSERT_EQ(9, s.presented);
	/* 6 on time of 12 produced: the skipped two count against it */
	ASSERT_EQ(6, s.on_time);
	ASSERT_NEAR(50.0, s.on_time_pct, 1e-9);
	ASSERT_EQ(1, s.dropped);
	ASSERT_EQ(2, s.jank[FT_JANK_APP_DEADLINE_MISSED]);
	ASSERT_EQ(1, s.jank[FT_JANK_DROPPED]);
	ASSERT_EQ(1, s.jank[FT_JANK_BUFFER_STUFFING]);
	ASSERT_EQ(6, s.jank[FT_JANK_NONE]);
	ASSERT_EQ(4, s.janky);
	ASSERT_NEAR(40.0, s.janky_pct, 1e-9);
	/* latencies: 6 x 31 ms, 3 x 31 ms + one period */
	ASSERT_NEAR(31.0, s.latency_p50_ms, 1e-9);
	ASSERT_NEAR(31.0 + PERIOD / 1e6, s.latency_p90_ms, 1e-9);
	ASSERT_NEAR(31.0 + PERIOD / 1e6, s.latency_p99_ms, 1e-9);
}

TEST(summary_of_nothing)
{
	struct run_summary s;

	ASSERT_EQ(0, stats_summarize(NULL, 0, 0, &s));
	ASSERT_EQ(0, s.frames);
	ASSERT_NEAR(0, s.on_time_pct, 0);
	ASSERT_NEAR(0, s.janky_pct, 0);
	ASSERT_NEAR(0, s.latency_p99_ms, 0);
}

TEST(energy_per_frame_and_ratio)
{
	struct run_summary s = { .frames = 200 };

	stats_set_energy(&s, 500000, 200000);	/* µJ */
	ASSERT_NEAR(2.5, s.energy_per_frame_mj, 1e-12);
	ASSERT_NEAR(2.5, s.energy_vs_limit, 1e-12);
	stats_set_energy(&s, 500000, 0);
	ASSERT_NEAR(0, s.energy_vs_limit, 0);
}

TEST_HARNESS_MAIN
