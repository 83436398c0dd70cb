// SPDX-License-Identifier: GPL-2.0
/*
 * input_pattern_test.c - touch streams with gaps.
 */
#include "emu_test.h"
#include "input_pattern.h"

/* from 100 ms: 50 ms of touch at 100 Hz, 30 ms gap, 2 streams */
static const struct wl_input in = {
	.start_ms = 100, .touch_ms = 50, .gap_ms = 30, .event_hz = 100,
	.streams = 2,
};

TEST(touching_only_inside_streams)
{
	ASSERT_FALSE(input_touching(&in, 0));
	ASSERT_FALSE(input_touching(&in, 99999));
	ASSERT_TRUE(input_touching(&in, 100000));
	ASSERT_TRUE(input_touching(&in, 149999));
	ASSERT_FALSE(input_touching(&in, 150000));	/* gap */
	ASSERT_FALSE(input_touching(&in, 179999));
	ASSERT_TRUE(input_touching(&in, 180000));	/* second stream */
	ASSERT_TRUE(input_touching(&in, 229999));
	ASSERT_FALSE(input_touching(&in, 230000));
	ASSERT_FALSE(input_touching(&in, 260000));	/* no third stream */
}

TEST(events_every_period_inside_streams)
{
	ASSERT_EQ(100000, input_next_event_us(&in, 0));
	ASSERT_EQ(100000, input_next_event_us(&in, 100000));
	ASSERT_EQ(110000, input_next_event_us(&in, 100001));
	ASSERT_EQ(140000, input_next_event_us(&in, 131000));
	/* after the last event of a stream: the next stream's first */
	ASSERT_EQ(180000, input_next_event_us(&in, 140001));
	ASSERT_EQ(180000, input_next_event_us(&in, 160000));
	ASSERT_EQ(UINT64_MAX, input_next_event_us(&in, 220001));
}

TEST(no_input_and_endless_input)
{
	struct wl_input none = { .event_hz = 120 };
	struct wl_input endless = { .touch_ms = 10, .gap_ms = 10, .event_hz = 1000 };

	ASSERT_FALSE(input_touching(&none, 12345));
	ASSERT_EQ(UINT64_MAX, input_next_event_us(&none, 0));
	ASSERT_TRUE(input_touching(&endless, 1000000000ull));
	ASSERT_FALSE(input_touching(&endless, 1000015000ull));
	ASSERT_EQ(1000020000ull, input_next_event_us(&endless, 1000010000ull));
}

TEST_HARNESS_MAIN
