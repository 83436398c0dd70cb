// SPDX-License-Identifier: GPL-2.0
/*
 * The LWN article's example (emu/workloads/article-example.json): the UI
 * thread and RenderThread each need about half a frame at fmax, one after
 * the other. schedutil sees two half-busy tasks and picks about half of
 * fmax, where the chain misses its latch; TouchBoost raises the minimum
 * frequency while the user touches the screen, and the frames make it.
 * Needs the emulated phone's cpufreq (phone_cpufreq.enable=1): skipped
 * without it.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "pipeline_common.h"

#define FRAMES	180	/* 3 s at 60 Hz: touch streams of 1.5 s, 0.5 s gaps */

FIXTURE(article) {
	struct pl_session s;
	struct workload wl;
};

FIXTURE_SETUP(article)
{
	char err[512];

	ASSERT_EQ(0, wl_load("emu/workloads/article-example.json", &self->wl,
			     err, sizeof(err))) TH_LOG("%s", err);
	self->wl.frames = FRAMES;
	ASSERT_EQ(0, session_open(&self->s, self->wl.refresh_hz, err,
				  sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(article)
{
	session_close(&self->s);
}

#define RUN(name, r) do { \
	const struct strategy *st_ = strategy_find(name); \
	ASSERT_NE(NULL, st_) TH_LOG("no strategy %s", name); \
	ASSERT_EQ(0, session_run(&self->s, &self->wl, st_, (r))); \
	pt_log_run(r); \
	ASSERT_EQ(PL_OK, (int)(r)->status) TH_LOG("%s", (r)->error); \
} while (0)

TEST_F_TIMEOUT(article, schedutil_misses_touchboost_does_not, 240)
{
	struct pl_result cfs, tb;

	if (!self->s.ph.npol)
		SKIP(return, "no cpufreq: boot with phone_cpufreq.enable=1 (the emulated phone)");
	RUN("cfs", &cfs);
	RUN("touchboost", &tb);
	/*
	 * Judged on janky frames, what the user sees: on the slow debug
	 * kernel RenderThread may miss its latch under both (the frame is
	 * then shown a period later, every frame alike, and is not janky).
	 */
	TH_LOG("janky frames: %u under cfs, %u under touchboost (latch misses %u, %u)",
	       cfs.sum.janky, tb.sum.janky, cfs.app_missed, tb.app_missed);
	/* schedutil alone: the sequential chain misses frames often */
	ASSERT_GE(cfs.sum.janky, FRAMES / 10u);
	/* boosted while touching: at most half as many */
	ASSERT_LE(tb.sum.janky * 2, cfs.sum.janky);
}

TEST_HARNESS_MAIN
