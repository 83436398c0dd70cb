// SPDX-License-Identifier: GPL-2.0
/*
 * platform_test.c - the default phone and the power formula.
 */
#include "emu_test.h"
#include "platform.h"

TEST(default_phone_is_2_little_2_big)
{
	struct platform p;
	char err[128] = "";

	platform_default(&p);
	ASSERT_EQ(0, platform_check(&p, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(4, plat_ncpus(&p));
	ASSERT_EQ(2, p.nclusters);
	ASSERT_EQ(450, p.cl[0].capacity);
	ASSERT_EQ(300000, p.cl[0].opp[0].khz);
	ASSERT_EQ(1800000, p.cl[0].opp[p.cl[0].nopp - 1].khz);
	ASSERT_EQ(1024, p.cl[1].capacity);
	ASSERT_EQ(500000, p.cl[1].opp[0].khz);
	ASSERT_EQ(2800000, p.cl[1].opp[p.cl[1].nopp - 1].khz);
}

TEST(power_and_capacity_grow_with_frequency)
{
	struct platform p;
	uint32_t c, i;

	platform_default(&p);
	for (c = 0; c < p.nclusters; c++) {
		const struct plat_cluster *cl = &p.cl[c];

		ASSERT_EQ(cl->capacity, plat_opp_capacity(cl, cl->nopp - 1));
		for (i = 1; i < cl->nopp; i++) {
			ASSERT_GT(plat_opp_power_uw(cl, i), plat_opp_power_uw(cl, i - 1));
			ASSERT_GT(plat_opp_capacity(cl, i), plat_opp_capacity(cl, i - 1));
		}
		ASSERT_GT(plat_opp_power_uw(cl, 0), cl->idle_uw);
	}
}

TEST(power_formula_by_hand)
{
	struct platform p;

	platform_default(&p);
	/* big at 2.8 GHz, 1.1 V: 560 * 2800 * 1.21 + 30000 µW */
	ASSERT_EQ(560ull * 2800 * 1100 * 1100 / 1000000 + 30000,
		  plat_opp_power_uw(&p.cl[1], 6));
	ASSERT_EQ(1927280, plat_opp_power_uw(&p.cl[1], 6));
	/* LITTLE at 300 MHz, 0.6 V: 170 * 300 * 0.36 + 8000 */
	ASSERT_EQ(26360, plat_opp_power_uw(&p.cl[0], 0));
}

TEST(wall_time_scales_with_capacity_and_frequency)
{
	struct platform p;

	platform_default(&p);
	/* big at fmax: invariant µs are wall µs */
	ASSERT_NEAR(1000, plat_wall_us(&p.cl[1], 6, 1000), 1e-9);
	/* LITTLE at 900 MHz: cap 450 * 0.5 = 225 */
	ASSERT_NEAR(1000.0 * 1024 / 225, plat_wall_us(&p.cl[0], 2, 1000), 1e-9);
	/* all 4 CPUs idle 1 s: 2 * 4 mW + 2 * 12 mW = 32 mW = 32000 µJ */
	ASSERT_NEAR(32000, plat_idle_uj(&p, 1e6), 1e-9);
}

TEST(check_refuses_descending_opps)
{
	struct platform p;
	char err[128] = "";

	platform_default(&p);
	p.cl[1].opp[3].khz = p.cl[1].opp[2].khz;
	ASSERT_EQ(-1, platform_check(&p, err, sizeof(err)));
	ASSERT_CONTAINS(err, "cluster 1 opp 3");
	platform_default(&p);
	p.cl[0].capacity = 2000;
	ASSERT_EQ(-1, platform_check(&p, err, sizeof(err)));
	ASSERT_CONTAINS(err, "capacity 1..1024");
}

TEST_HARNESS_MAIN
