// SPDX-License-Identifier: GPL-2.0
/*
 * frame_work_test.c - per-frame work draws: deterministic, in range, with
 * the configured heavy rate, heavy frames shared between stages.
 */
#include <string.h>
#include "emu_test.h"
#include "frame_work.h"

#define N 20000

static void make(struct workload *wl)
{
	memset(wl, 0, sizeof(*wl));
	wl->seed = 7;
	wl->stage[WL_UI] = (struct wl_dist){ 3000, 500, 0.10, 4000 };
	wl->stage[WL_RENDER] = (struct wl_dist){ 2000, 0, 0.05, 1000 };
	wl->stage[WL_GPU] = (struct wl_dist){ 1000, 1000, 0, 0 };
	wl->stage[WL_SF] = (struct wl_dist){ 800, 0, 0, 0 };
}

TEST(same_seed_same_frames_other_seed_other_frames)
{
	struct workload wl;
	struct frame_work a, b;
	int i, differ = 0;

	make(&wl);
	memset(&a, 0, sizeof(a));	/* padding, for memcmp */
	memset(&b, 0, sizeof(b));
	for (i = 0; i < 100; i++) {
		frame_work_get(&wl, i, &a);
		frame_work_get(&wl, i, &b);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(a)));
	}
	for (i = 0; i < 100; i++) {
		wl.seed = 7;
		frame_work_get(&wl, i, &a);
		wl.seed = 8;
		frame_work_get(&wl, i, &b);
		differ += a.us[WL_UI] != b.us[WL_UI];
	}
	ASSERT_GT(differ, 80);
}

TEST(work_stays_in_range_and_reaches_both_ends)
{
	struct workload wl;
	struct frame_work w;
	uint32_t lo = UINT32_MAX, hi = 0;
	double sum = 0;
	int i;

	make(&wl);
	for (i = 0; i < N; i++) {
		frame_work_get(&wl, i, &w);
		ASSERT_LE(w.us[WL_GPU], 2000);
		lo = w.us[WL_GPU] < lo ? w.us[WL_GPU] : lo;
		hi = w.us[WL_GPU] > hi ? w.us[WL_GPU] : hi;
		sum += w.us[WL_GPU];
		ASSERT_EQ(800, w.us[WL_SF]);	/* no jitter, no heavy */
		ASSERT_EQ(0, w.us[WL_GPU_SUBMIT]);
	}
	ASSERT_EQ(0, lo);
	ASSERT_EQ(2000, hi);
	ASSERT_NEAR(1000, sum / N, 15);		/* mean: base */
}

TEST(heavy_rate_and_size)
{
	struct workload wl;
	struct frame_work w;
	int i, heavy = 0;

	make(&wl);
	for (i = 0; i < N; i++) {
		frame_work_get(&wl, i, &w);
		if (w.heavy[WL_UI]) {
			heavy++;
			ASSERT_GE(w.us[WL_UI], 2500 + 4000);
		} else {
			ASSERT_LE(w.us[WL_UI], 3500);
		}
	}
	/* 10% of 20000, binomial sd ~42 */
	ASSERT_NEAR(0.10 * N, heavy, 200);
}

TEST(heavy_frames_coincide_across_stages)
{
	struct workload wl;
	struct frame_work w;
	int i, render_heavy = 0;

	make(&wl);
	for (i = 0; i < N; i++) {
		frame_work_get(&wl, i, &w);
		/* render's rate is lower: heavy only where ui is heavy too */
		if (w.heavy[WL_RENDER]) {
			ASSERT_TRUE(w.heavy[WL_UI]);
			ASSERT_EQ(3000, w.us[WL_RENDER]);
			render_heavy++;
		}
		ASSERT_FALSE(w.heavy[WL_SF]);
	}
	ASSERT_NEAR(0.05 * N, render_heavy, 150);
}

TEST(uniform_is_in_0_1_and_unbiased)
{
	double sum = 0, u;
	int i;

	for (i = 0; i < N; i++) {
		u = frame_work_uniform(1, i, 2);
		ASSERT_TRUE(u >= 0 && u < 1);
		sum += u;
	}
	ASSERT_NEAR(0.5, sum / N, 0.01);
}

TEST_HARNESS_MAIN
