// SPDX-License-Identifier: GPL-2.0
/*
 * The display pipeline under each strategy, on a light workload and an
 * idle phone (tests/guest/workloads/idle-light.json):
 * - every strategy runs and its frames reach the screen;
 * - with nothing else running and every stage a small part of its
 *   window, no strategy has janky frames (FrameTimeline's rules, Buffer
 *   Stuffing included) nor skips one.
 * A strategy that needs cpufreq is skipped, with its reason, on a kernel
 * booted without the emulated phone; the jank check is skipped when the
 * host starves the VM (see pt_noisy()). One variant per strategy, and a
 * check that every strategy in strategy_list[] has one.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "pipeline_common.h"

static const char *const tested[] = {
	"fmax", "cfs", "touchboost", "uclamp", "fifo", "fifo-greed", "deadline",
	"deadline-pe", "deadline-token", "deadline-token-pe", "fifo-pe",
};

FIXTURE(pipeline) {
	struct pl_session s;
	struct workload wl;
	const struct strategy *st;
};

FIXTURE_VARIANT(pipeline) {
	const char *strategy;
};

FIXTURE_VARIANT_ADD(pipeline, fmax) { .strategy = "fmax" };
FIXTURE_VARIANT_ADD(pipeline, cfs) { .strategy = "cfs" };
FIXTURE_VARIANT_ADD(pipeline, touchboost) { .strategy = "touchboost" };
FIXTURE_VARIANT_ADD(pipeline, uclamp) { .strategy = "uclamp" };
FIXTURE_VARIANT_ADD(pipeline, fifo) { .strategy = "fifo" };
FIXTURE_VARIANT_ADD(pipeline, fifo_greed) { .strategy = "fifo-greed" };
FIXTURE_VARIANT_ADD(pipeline, deadline) { .strategy = "deadline" };
FIXTURE_VARIANT_ADD(pipeline, deadline_pe) { .strategy = "deadline-pe" };
FIXTURE_VARIANT_ADD(pipeline, deadline_token) { .strategy = "deadline-token" };
FIXTURE_VARIANT_ADD(pipeline, deadline_token_pe) { .strategy = "deadline-token-pe" };
FIXTURE_VARIANT_ADD(pipeline, fifo_pe) { .strategy = "fifo-pe" };

FIXTURE_SETUP(pipeline)
{
	char err[512];

	self->st = strategy_find(variant->strategy);
	if (!self->st)
		SKIP(return, "strategy %s is not built in", variant->strategy);
	ASSERT_EQ(0, wl_load(PT_WORKLOADS "idle-light.json", &self->wl, err,
			     sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, session_open(&self->s, self->wl.refresh_hz, err,
				  sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(pipeline)
{
	if (self->st)
		session_close(&self->s);
}

/* Run with frames frames; SKIP when the strategy needs cpufreq. */
#define RUN(nframes, r) do { \
	self->wl.frames = (nframes); \
	ASSERT_EQ(0, session_run(&self->s, &self->wl, self->st, (r))); \
	pt_log_run(r); \
	if (pt_needs_cpufreq(&self->s, (r))) \
		SKIP(return, "%s", (r)->error); \
	ASSERT_EQ(PL_OK, (int)(r)->status) TH_LOG("%s", (r)->error); \
} while (0)

TEST_F_TIMEOUT(pipeline, produces_frames, 120)
{
	struct pl_result r;

	RUN(30, &r);
	/* every frame after the warm-up is drawn or skipped */
	ASSERT_EQ(30u - r.warmup, r.sum.frames + r.sum.skipped);
	/* all but the last few drawn are shown */
	ASSERT_GE(r.sum.presented + 3, r.sum.frames);
	ASSERT_GE(r.sum.presented, 15u);
	/* a token goes to RenderThread and back with each drawn frame */
	if (!strncmp(variant->strategy, "deadline-token", 14)) {
		EXPECT_GE(r.token_passes, r.sum.frames)
			TH_LOG("%u token passes for %u frames", r.token_passes,
			       r.sum.frames);
	} else {
		EXPECT_EQ(0u, r.token_passes);
	}
}

TEST_F_TIMEOUT(pipeline, idle_background_no_jank, 120)
{
	struct pl_result r;

	RUN(120, &r);
	ASSERT_EQ(120u - r.warmup, r.sum.frames);
	if (pt_noisy(&r, PT_NOISY_MS))
		SKIP(return, "host too busy for frame timing: SurfaceFlinger woke %.1f ms (p90) after VSYNC-sf; %u janky frames of %u",
		     r.sf_wake_p90_ms, r.sum.janky, r.sum.frames);
	ASSERT_EQ(0u, r.sum.janky)
		TH_LOG("%u janky frames of %u", r.sum.janky, r.sum.frames);
}

TEST(every_strategy_is_tested)
{
	const struct strategy *const *s;
	size_t i;

	for (s = strategy_list; *s; s++) {
		for (i = 0; i < sizeof(tested) / sizeof(tested[0]); i++)
			if (!strcmp(tested[i], (*s)->name))
				break;
		EXPECT_LT(i, sizeof(tested) / sizeof(tested[0]))
			TH_LOG("strategy %s has no FIXTURE_VARIANT_ADD here",
			       (*s)->name);
	}
}

TEST_HARNESS_MAIN
