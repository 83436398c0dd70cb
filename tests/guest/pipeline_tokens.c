// SPDX-License-Identifier: GPL-2.0
/*
 * The frames' SCHED_DEADLINE tokens (emu/pipeline/token_passing.c) on a
 * pipeline whose stages overlap: the UI thread and RenderThread each fit
 * a VSYNC period but not one after the other
 * (tests/guest/workloads/overlap.json), so the UI thread starts each frame
 * while RenderThread still draws the one before.
 * - deadline-token2: every frame's UI thread wakes for doFrame holding a
 *   token, and every frame's drawing runs on the same token: the UI
 *   thread gives its token with the frame and takes the free one to
 *   sleep on;
 * - deadline-token: with one token, the UI thread starts many of these
 *   frames without it (what the second token is for).
 * The swap, which only a late frame that is still drawn needs, is tested
 * in the kernel's own test (tests/guest/dl_token_swap.c).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "pipeline_common.h"

FIXTURE(tokens) {
	struct pl_session s;
	struct workload wl;
};

FIXTURE_SETUP(tokens)
{
	char err[512];

	ASSERT_EQ(0, wl_load(PT_WORKLOADS "overlap.json", &self->wl, err,
			     sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, session_open(&self->s, self->wl.refresh_hz, err,
				  sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(tokens)
{
	session_close(&self->s);
}

static void run(struct __test_metadata *_metadata, FIXTURE_DATA(tokens) *self,
		const char *name, struct pl_result *r)
{
	const struct strategy *st = strategy_find(name);

	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, session_run(&self->s, &self->wl, st, r));
	pt_log_run(r);
	ASSERT_EQ(PL_OK, (int)r->status) TH_LOG("%s", r->error);
	TH_LOG("%s: %u frames drawn, %u skipped; %u token moves; woke for doFrame without a token %u, drawing without one %u, on another token than doFrame %u",
	       name, r->sum.frames, r->sum.skipped, r->token_passes,
	       r->token_missing_ui, r->token_missing_render,
	       r->token_not_followed);
}

TEST_F_TIMEOUT(tokens, two_tokens_cover_every_stage, 180)
{
	struct pl_result r;

	run(_metadata, self, "deadline-token2", &r);
	ASSERT_GT(r.sum.frames, 10u);
	/* the overlap: the UI thread kept its token and RenderThread swapped */
	EXPECT_GT(r.token_passes, 2 * r.sum.frames);
	EXPECT_EQ(0u, r.token_missing_ui);
	EXPECT_EQ(0u, r.token_missing_render);
	EXPECT_EQ(0u, r.token_not_followed);
}

TEST_F_TIMEOUT(tokens, one_token_leaves_the_ui_thread_without, 180)
{
	struct pl_result r;

	run(_metadata, self, "deadline-token", &r);
	ASSERT_GT(r.sum.frames, 10u);
	EXPECT_GE(r.token_missing_ui, (r.sum.frames + r.sum.skipped) / 10)
		TH_LOG("the workload no longer overlaps the stages");
}

TEST_HARNESS_MAIN
