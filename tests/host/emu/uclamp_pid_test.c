// SPDX-License-Identifier: GPL-2.0
/*
 * uclamp_pid_test.c - the uclamp strategy's PID controller: range, closed
 * loop convergence on a model of a CPU, asymmetry and anti-windup.
 */
#include <string.h>
#include "emu_test.h"
#include "uclamp_pid.h"

#define TARGET	20500000ULL	/* ns, the app's window at 60 Hz */

static void pid_new(struct __test_metadata *_metadata, struct uclamp_pid *c)
{
	struct uclamp_pid_gains g;
	char err[128];

	uclamp_pid_default_gains(&g);
	ASSERT_EQ(0, uclamp_pid_init(c, &g, err, sizeof(err))) TH_LOG("%s", err);
}

/*
 * A frame that needs capacity `need` to take exactly the target; the CPU
 * runs at uclamp.min or at what schedutil picks alone (`floor`), whichever
 * is higher, and the frame's time scales with 1 / capacity.
 */
static uint64_t plant(uint32_t u, double need, double floor)
{
	double cap = u > floor ? u : floor;

	return (uint64_t)(TARGET * need / cap);
}

TEST(bad_gains_are_refused_by_name)
{
	struct uclamp_pid_gains g;
	struct uclamp_pid c;
	char err[128] = "";

	uclamp_pid_default_gains(&g);
	g.ki = -1;
	ASSERT_EQ(-1, uclamp_pid_init(&c, &g, err, sizeof(err)));
	ASSERT_CONTAINS(err, "ki");
	uclamp_pid_default_gains(&g);
	g.kp_down = NAN;
	ASSERT_EQ(-1, uclamp_pid_init(&c, &g, err, sizeof(err)));
	ASSERT_CONTAINS(err, "kp_down");
}

TEST(output_stays_in_uclamp_range)
{
	struct uclamp_pid c;
	uint32_t u;
	int i;

	pid_new(_metadata, &c);
	ASSERT_EQ(0, uclamp_pid_update(&c, TARGET, 0));	/* no target: as is */
	for (i = 0; i < 100; i++) {
		u = uclamp_pid_update(&c, 100 * TARGET, TARGET);
		ASSERT_LE(u, UCLAMP_PID_MAX);
	}
	ASSERT_EQ(UCLAMP_PID_MAX, u);
	for (i = 0; i < 1000; i++)
		u = uclamp_pid_update(&c, 0, TARGET);
	ASSERT_EQ(0, u);
}

TEST(late_frames_raise_early_frames_lower)
{
	struct uclamp_pid c;
	uint32_t u;

	pid_new(_metadata, &c);
	u = uclamp_pid_update(&c, TARGET * 3 / 2, TARGET);
	ASSERT_GT(u, 0);
	ASSERT_LT(uclamp_pid_update(&c, TARGET / 2, TARGET), u);
}

/* From one level, a frame late by x moves it more than one early by x. */
TEST(boosts_faster_than_it_decays)
{
	struct uclamp_pid a, b;
	uint32_t level, up, down;
	int i;

	pid_new(_metadata, &a);
	for (i = 0; i < 5; i++)
		uclamp_pid_update(&a, TARGET * 3 / 2, TARGET);
	for (i = 0; i < 5; i++)
		level = uclamp_pid_update(&a, TARGET, TARGET);
	ASSERT_GT(level, 100);
	ASSERT_LT(level, 1000);
	b = a;
	up = uclamp_pid_update(&a, TARGET * 13 / 10, TARGET) - level;
	down = level - uclamp_pid_update(&b, TARGET * 7 / 10, TARGET);
	ASSERT_GT(up, 2 * down) TH_LOG("up %u, down %u from %u", up, down, level);
}

/* The article's chain: needs ~70% capacity, schedutil alone gives ~40%. */
TEST(closed_loop_meets_the_target)
{
	double need = 0.7 * UCLAMP_PID_MAX, late = 0;
	struct uclamp_pid c;
	uint64_t work;
	uint32_t u = 0;
	int i;

	pid_new(_metadata, &c);
	for (i = 0; i < 300; i++) {
		work = plant(u, need, 0.4 * UCLAMP_PID_MAX);
		u = uclamp_pid_update(&c, work, TARGET);
		if (i >= 250)
			late += work > TARGET * 11 / 10;
	}
	/* settled near the need: neither late nor burning a lot more */
	ASSERT_EQ(0, late);
	ASSERT_NEAR(need, u, 0.15 * UCLAMP_PID_MAX);
}

/* Once the load eases, the controller comes down and saves energy. */
TEST(closed_loop_follows_a_lighter_load)
{
	struct uclamp_pid c;
	uint32_t u = 0;
	int i;

	pid_new(_metadata, &c);
	for (i = 0; i < 200; i++)
		u = uclamp_pid_update(&c, plant(u, 900, 300), TARGET);
	ASSERT_GT(u, 700);
	for (i = 0; i < 300; i++)
		u = uclamp_pid_update(&c, plant(u, 400, 300), TARGET);
	ASSERT_LT(u, 550);
}

/*
 * Anti-windup: after a long stretch no boost can fix (a frame 3x too big
 * even at 1024), an easy frame must bring the output down within a few
 * dozen frames, not after as many frames as it was saturated.
 */
TEST(no_windup_after_saturation)
{
	struct uclamp_pid c;
	uint32_t u = 0;
	int i;

	pid_new(_metadata, &c);
	for (i = 0; i < 1000; i++)
		u = uclamp_pid_update(&c, 3 * TARGET, TARGET);
	ASSERT_EQ(UCLAMP_PID_MAX, u);
	ASSERT_LE(c.integral, UCLAMP_PID_MAX);
	for (i = 0; i < 30 && u >= UCLAMP_PID_MAX / 2; i++)
		u = uclamp_pid_update(&c, TARGET / 2, TARGET);
	ASSERT_LT(u, UCLAMP_PID_MAX / 2) TH_LOG("still %u after %d easy frames", u, i);
}

/* One pathological frame must not slam the clamp to the top. */
TEST(one_huge_frame_is_bounded)
{
	struct uclamp_pid c;
	uint32_t u;

	pid_new(_metadata, &c);
	u = uclamp_pid_update(&c, 50 * TARGET, TARGET);
	ASSERT_LT(u, UCLAMP_PID_MAX * 3 / 4);
	ASSERT_GT(u, 0);
}

TEST_HARNESS_MAIN
