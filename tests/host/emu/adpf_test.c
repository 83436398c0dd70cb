// SPDX-License-Identifier: GPL-2.0
/*
 * adpf_test.c - the power HAL's ADPF controller: the PID's arithmetic in
 * its units, its clamp, the Pixel profile, closed loops on a model of a
 * CPU, and the invariant law.
 */
#include <string.h>
#include "emu_test.h"
#include "adpf.h"

#define TARGET	14350000ULL	/* ns: 70% of a 20.5 ms frame deadline */

static void session(struct __test_metadata *_metadata, struct adpf_session *s)
{
	struct adpf_config c;
	char err[128];

	adpf_config_pixel6_60fps(&c);
	ASSERT_EQ(0, adpf_session_init(s, &c, err, sizeof(err))) TH_LOG("%s", err);
}

/*
 * A frame whose work needs capacity @need to take exactly the target; the
 * CPU runs at uclamp.min or at what schedutil picks alone (@floor),
 * whichever is higher, and the frame's time scales with 1 / capacity.
 */
static uint64_t plant(uint32_t u, double need, double floor)
{
	double cap = u > floor ? u : floor;

	return (uint64_t)(TARGET * need / cap);
}

TEST(bad_configs_are_refused_by_field)
{
	struct adpf_session s;
	struct adpf_config c;
	char err[128];

	adpf_config_pixel6_60fps(&c);
	c.po = -1;
	ASSERT_EQ(-1, adpf_session_init(&s, &c, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "PID_Po"));
	adpf_config_pixel6_60fps(&c);
	c.high = 2000;
	ASSERT_EQ(-1, adpf_session_init(&s, &c, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "UclampMin_High"));
	adpf_config_pixel6_60fps(&c);
	c.init = 600;
	ASSERT_EQ(-1, adpf_session_init(&s, &c, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "UclampMin_Init"));
}

TEST(starts_at_init_and_steps_in_100us_units)
{
	struct adpf_session s;

	session(_metadata, &s);
	ASSERT_EQ(162U, s.out);
	/* 1 ms late: e = 10 units, P = Po * 10 = 20; no D on the first report */
	ASSERT_EQ(182U, adpf_report(&s, TARGET + 1000000, TARGET));
	/* on target: e 0, de -10 (Du 0): no change */
	ASSERT_EQ(182U, adpf_report(&s, TARGET, TARGET));
	/* 2 ms early: P = Pu * -20 = -20 */
	ASSERT_EQ(162U, adpf_report(&s, TARGET - 2000000, TARGET));
	/* then 1 ms late: P 20, D = Do * 30 / 143.5 = 104.5 */
	ASSERT_EQ(287U, adpf_report(&s, TARGET + 1000000, TARGET));
}

TEST(output_stays_within_the_profile)
{
	struct adpf_session s;
	int i;

	session(_metadata, &s);
	for (i = 0; i < 50; i++)
		ASSERT_GE(480U, adpf_report(&s, 10 * TARGET, TARGET));
	ASSERT_EQ(480U, s.out);
	for (i = 0; i < 50; i++)
		ASSERT_LE(2U, adpf_report(&s, 0, TARGET));
	ASSERT_EQ(2U, s.out);
}

/* A load that fits under the cap: the loop brings frames to the target. */
TEST(closed_loop_meets_a_reachable_target)
{
	struct adpf_session s;
	uint64_t t = 0;
	int i, late = 0;

	session(_metadata, &s);
	for (i = 0; i < 200; i++) {
		t = plant(s.out, 400, 150);
		if (i >= 100)
			late += t > TARGET * 105 / 100;
		adpf_report(&s, t, TARGET);
	}
	TH_LOG("uclamp.min %u, last frame %.2f of the target", s.out,
	       (double)t / TARGET);
	EXPECT_EQ(0, late);
	EXPECT_GE(s.out, 380U);
	EXPECT_LE(s.out, 480U);
}

/* A load that needs more than the cap: the HAL stops at UclampMin_High. */
TEST(a_need_above_the_cap_is_not_met)
{
	struct adpf_session s;
	int i;

	session(_metadata, &s);
	for (i = 0; i < 100; i++)
		adpf_report(&s, plant(s.out, 800, 150), TARGET);
	EXPECT_EQ(480U, s.out);
	EXPECT_GT(plant(s.out, 800, 150), TARGET);
}

TEST(invariant_need_is_computed_not_searched)
{
	struct adpf_config c;

	adpf_config_pixel6_60fps(&c);
	/* a quarter of the target's time at fmax needs a quarter of 1024 */
	ASSERT_EQ(256U, adpf_need(&c, TARGET / 4, TARGET));
	ASSERT_EQ(480U, adpf_need(&c, TARGET, TARGET));	/* capped */
	ASSERT_EQ(2U, adpf_need(&c, 0, TARGET));
	ASSERT_EQ(480U, adpf_need(&c, 1000, 0));	/* no target: the most */
}

TEST_HARNESS_MAIN
