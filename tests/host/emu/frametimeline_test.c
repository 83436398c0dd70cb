// SPDX-License-Identifier: GPL-2.0
/*
 * frametimeline_test.c - jank classification: one case per jank type,
 * and the boundaries of the thresholds (present 2 ms, deadline 0,
 * start 2 ms, buffer stuffing's moved deadline).
 */
#include "emu_test.h"
#include "frametimeline.h"

#define MS	1000000LL
#define PERIOD	16666667LL		/* 60 Hz */
#define PRESENT	(100 * MS)		/* expected present of the frame */
#define APP	20500000LL
#define SF	10500000LL

/* a frame that went exactly as predicted */
FIXTURE(ft) {
	struct ft_frame f;
};

FIXTURE_SETUP(ft)
{
	struct ft_frame *f = &self->f;

	ft_frame_init(f, 42, PERIOD);
	ft_frame_predict(f, PRESENT, APP, SF);
	f->actual.start = f->expected.start;
	f->actual.end = f->expected.end - 3 * MS;
	f->actual.present = PRESENT;
	f->sf_actual.start = f->sf_expected.start;
	f->sf_actual.end = f->sf_expected.start + 2 * MS;
	f->sf_actual.present = PRESENT;
}

FIXTURE_TEARDOWN(ft) { }

/*
 * The app missed its latch: a later display frame, itself on time,
 * shows the frame d after its prediction.
 */
static void app_late(struct ft_frame *f, int64_t d)
{
	f->actual.present += d;
	f->sf_expected.start += d;
	f->sf_expected.end += d;
	f->sf_expected.present += d;
	f->sf_actual.start += d;
	f->sf_actual.end += d;
	f->sf_actual.present += d;
}

/* The display frame itself presented d after its prediction. */
static void display_late(struct ft_frame *f, int64_t d)
{
	f->actual.present += d;
	f->sf_actual.present += d;
}

TEST_F(ft, predictions_follow_the_vsync_durations)
{
	ASSERT_EQ(PRESENT - APP - SF, self->f.expected.start);
	ASSERT_EQ(PRESENT - SF, self->f.expected.end);
	ASSERT_EQ(PRESENT - SF, self->f.sf_expected.start);
	ASSERT_EQ(PRESENT, self->f.sf_expected.end);
	ASSERT_EQ(APP + SF, ft_present_latency_ns(&self->f));
}

TEST_F(ft, on_time_is_none)
{
	struct ft_verdict v = ft_classify(&self->f);

	ASSERT_EQ(FT_JANK_NONE, v.jank);
	ASSERT_EQ(0, v.mask);
	ASSERT_EQ(FT_PRESENT_ON_TIME, v.present);
	ASSERT_TRUE(v.on_time_finish);
	ASSERT_FALSE(ft_is_janky(v.jank));
}

TEST_F(ft, present_2ms_late_is_still_on_time)
{
	self->f.actual.end = self->f.expected.end + MS;	/* late finish ... */
	display_late(&self->f, FT_PRESENT_THRESHOLD_NS);	/* ... but shown in time */
	ASSERT_EQ(FT_JANK_NONE, ft_classify(&self->f).jank);
	ASSERT_FALSE(ft_classify(&self->f).on_time_finish);
}

TEST_F(ft, app_deadline_missed)
{
	struct ft_verdict v;

	self->f.actual.end = self->f.expected.end + 1;	/* 1 ns late */
	app_late(&self->f, PERIOD);
	v = ft_classify(&self->f);
	ASSERT_EQ(FT_JANK_APP_DEADLINE_MISSED, v.jank);
	ASSERT_EQ(FT_BIT(FT_JANK_APP_DEADLINE_MISSED), v.mask);
	ASSERT_EQ(FT_PRESENT_LATE, v.present);
	ASSERT_FALSE(v.on_time_finish);
	ASSERT_TRUE(ft_is_janky(v.jank));
}

TEST_F(ft, finishing_at_the_deadline_is_on_time)
{
	struct ft_verdict v;

	self->f.actual.end = self->f.expected.end;	/* threshold 0 */
	app_late(&self->f, PERIOD);
	v = ft_classify(&self->f);
	ASSERT_TRUE(v.on_time_finish);
	/* on time, SF on time, late by a whole vsync: SF's scheduling */
	ASSERT_EQ(FT_JANK_SF_SCHEDULING, v.jank);
}

TEST_F(ft, present_just_over_2ms_late_is_janky)
{
	display_late(&self->f, FT_PRESENT_THRESHOLD_NS + 1);
	ASSERT_EQ(FT_PRESENT_LATE, ft_classify(&self->f).present);
	ASSERT_NE(FT_JANK_NONE, ft_classify(&self->f).jank);
}

TEST_F(ft, buffer_stuffing)
{
	struct ft_verdict v;

	/* SF latched the previous buffer after this frame's deadline */
	self->f.last_latch = self->f.expected.end + 2 * MS;
	self->f.actual.end = self->f.last_latch + PERIOD - 1;
	app_late(&self->f, PERIOD);
	v = ft_classify(&self->f);
	ASSERT_EQ(FT_JANK_BUFFER_STUFFING, v.jank);
	ASSERT_EQ(FT_BIT(FT_JANK_BUFFER_STUFFING), v.mask);
	ASSERT_TRUE(v.on_time_finish);	/* against the moved deadline */
	ASSERT_TRUE(ft_is_janky(v.jank));	/* shown a period late */
}

TEST_F(ft, stuffing_deadline_is_last_latch_plus_a_period)
{
	struct ft_verdict v;

	self->f.last_latch = self->f.expected.end;	/* "at or before" */
	self->f.actual.end = self->f.last_latch + PERIOD;
	app_late(&self->f, PERIOD);
	v = ft_classify(&self->f);
	ASSERT_EQ(FT_JANK_APP_DEADLINE_MISSED, v.jank);
	ASSERT_EQ(FT_BIT(FT_JANK_APP_DEADLINE_MISSED) |
		  FT_BIT(FT_JANK_BUFFER_STUFFING), v.mask);
}

TEST_F(ft, latch_before_the_deadline_is_no_stuffing)
{
	self->f.last_latch = self->f.expected.end - 1;
	self->f.actual.end = self->f.expected.end + MS;
	app_late(&self->f, PERIOD);
	ASSERT_EQ(FT_BIT(FT_JANK_APP_DEADLINE_MISSED), ft_classify(&self->f).mask);
}

TEST_F(ft, surfaceflinger_cpu_deadline_missed)
{
	struct ft_verdict v;

	self->f.sf_actual.end = self->f.sf_expected.end + 1;
	display_late(&self->f, PERIOD);
	ASSERT_EQ(FT_JANK_SF_CPU_DEADLINE_MISSED, ft_classify_display(&self->f));
	v = ft_classify(&self->f);
	ASSERT_EQ(FT_JANK_SF_CPU_DEADLINE_MISSED, v.jank);
	ASSERT_TRUE(v.on_time_finish);
	ASSERT_TRUE(ft_is_janky(v.jank));
}

TEST_F(ft, app_cause_wins_over_surfaceflinger)
{
	struct ft_verdict v;

	self->f.actual.end = self->f.expected.end + MS;
	self->f.sf_actual.end = self->f.sf_expected.end + MS;
	display_late(&self->f, PERIOD);
	v = ft_classify(&self->f);
	ASSERT_EQ(FT_JANK_APP_DEADLINE_MISSED, v.jank);
	ASSERT_TRUE(v.mask & FT_BIT(FT_JANK_SF_CPU_DEADLINE_MISSED));
}

TEST_F(ft, stuffed_but_surfaceflinger_late)
{
	self->f.last_latch = self->f.expected.end;
	self->f.sf_actual.end = self->f.sf_expected.end + MS;
	display_late(&self->f, PERIOD);
	ASSERT_EQ(FT_JANK_SF_CPU_DEADLINE_MISSED, ft_classify(&self->f).jank);
	ASSERT_TRUE(ft_classify(&self->f).mask & FT_BIT(FT_JANK_BUFFER_STUFFING));
}

TEST_F(ft, surfaceflinger_started_late)
{
	self->f.sf_actual.start = self->f.sf_expected.start + FT_START_THRESHOLD_NS + 1;
	display_late(&self->f, PERIOD);
	ASSERT_EQ(FT_JANK_SF_SCHEDULING, ft_classify_display(&self->f));
	ASSERT_EQ(FT_JANK_SF_SCHEDULING, ft_classify(&self->f).jank);
}

TEST_F(ft, surfaceflinger_start_2ms_late_is_in_time)
{
	self->f.sf_actual.start = self->f.sf_expected.start + FT_START_THRESHOLD_NS;
	display_late(&self->f, PERIOD);
	ASSERT_EQ(FT_JANK_DISPLAY_HAL, ft_classify_display(&self->f));
}

TEST_F(ft, display_hal)
{
	display_late(&self->f, 2 * PERIOD);
	ASSERT_EQ(FT_JANK_DISPLAY_HAL, ft_classify(&self->f).jank);
}

TEST_F(ft, prediction_error_late)
{
	display_late(&self->f, 5 * MS);		/* not a whole number of vsyncs */
	ASSERT_EQ(FT_JANK_PREDICTION_ERROR, ft_classify_display(&self->f));
	ASSERT_EQ(FT_JANK_PREDICTION_ERROR, ft_classify(&self->f).jank);
}

TEST_F(ft, prediction_error_early)
{
	struct ft_verdict v;

	display_late(&self->f, -5 * MS);
	v = ft_classify(&self->f);
	ASSERT_EQ(FT_PRESENT_EARLY, v.present);
	ASSERT_EQ(FT_JANK_PREDICTION_ERROR, v.jank);
}

TEST_F(ft, vsync_multiple_within_2ms_is_scheduling)
{
	/* app-only view: a display frame we know nothing about */
	self->f.sf_actual.present = FT_TIME_NONE;
	self->f.actual.present += PERIOD + FT_PRESENT_THRESHOLD_NS - 1;
	ASSERT_EQ(FT_JANK_SF_SCHEDULING, ft_classify(&self->f).jank);
	self->f.actual.present = PRESENT + PERIOD + FT_PRESENT_THRESHOLD_NS;
	ASSERT_EQ(FT_JANK_PREDICTION_ERROR, ft_classify(&self->f).jank);
	self->f.actual.present = PRESENT + PERIOD - FT_PRESENT_THRESHOLD_NS;
	ASSERT_EQ(FT_JANK_SF_SCHEDULING, ft_classify(&self->f).jank);
}

TEST_F(ft, early_present_after_late_finish_is_unknown)
{
	self->f.actual.end = self->f.expected.end + MS;
	display_late(&self->f, -PERIOD);
	ASSERT_EQ(FT_JANK_UNKNOWN, ft_classify(&self->f).jank);
}

TEST_F(ft, dropped)
{
	struct ft_verdict v;

	self->f.dropped = true;
	self->f.actual.present = FT_TIME_NONE;
	v = ft_classify(&self->f);
	ASSERT_EQ(FT_JANK_DROPPED, v.jank);
	ASSERT_EQ(FT_PRESENT_DROPPED, v.present);
	ASSERT_TRUE(ft_is_janky(v.jank));
	ASSERT_EQ(-1, ft_present_latency_ns(&self->f));
}

TEST_F(ft, never_presented_is_unknown)
{
	self->f.actual.present = FT_TIME_NONE;
	ASSERT_EQ(FT_JANK_UNKNOWN, ft_classify(&self->f).jank);
	ASSERT_EQ(FT_PRESENT_UNKNOWN, ft_classify(&self->f).present);
}

TEST_F(ft, expired_prediction_is_app_deadline_missed)
{
	self->f.prediction_expired = true;
	ASSERT_EQ(FT_JANK_APP_DEADLINE_MISSED, ft_classify(&self->f).jank);
}

TEST_F(ft, classification_is_pure)
{
	struct ft_frame copy = self->f;

	app_late(&self->f, PERIOD);
	ASSERT_EQ(ft_classify(&self->f).mask, ft_classify(&self->f).mask);
	app_late(&copy, PERIOD);
	ASSERT_EQ(ft_classify(&copy).jank, ft_classify(&self->f).jank);
}

TEST(names_are_perfettos)
{
	ASSERT_STREQ("None", ft_jank_name(FT_JANK_NONE));
	ASSERT_STREQ("App Deadline Missed", ft_jank_name(FT_JANK_APP_DEADLINE_MISSED));
	ASSERT_STREQ("Buffer Stuffing", ft_jank_name(FT_JANK_BUFFER_STUFFING));
	ASSERT_STREQ("SurfaceFlinger CPU Deadline Missed",
		     ft_jank_name(FT_JANK_SF_CPU_DEADLINE_MISSED));
	ASSERT_STREQ("Prediction Error", ft_jank_name(FT_JANK_PREDICTION_ERROR));
	ASSERT_STREQ("Dropped Frame", ft_jank_name(FT_JANK_DROPPED));
	ASSERT_STREQ("Late Present", ft_present_name(FT_PRESENT_LATE));
	ASSERT_STREQ("?", ft_jank_name(FT_JANK_COUNT));
}

TEST(primary_cause_order)
{
	ASSERT_EQ(FT_JANK_NONE, ft_primary(0));
	ASSERT_EQ(FT_JANK_BUFFER_STUFFING, ft_primary(FT_BIT(FT_JANK_BUFFER_STUFFING)));
	ASSERT_EQ(FT_JANK_PREDICTION_ERROR,
		  ft_primary(FT_BIT(FT_JANK_BUFFER_STUFFING) | FT_BIT(FT_JANK_PREDICTION_ERROR)));
	ASSERT_EQ(FT_JANK_SF_CPU_DEADLINE_MISSED,
		  ft_primary(FT_BIT(FT_JANK_DISPLAY_HAL) | FT_BIT(FT_JANK_SF_CPU_DEADLINE_MISSED)));
}

TEST_HARNESS_MAIN
