// SPDX-License-Identifier: GPL-2.0
/*
 * The pipeline's hand-offs behave as Android's (cfs, no boost):
 * - on an easy workload (tests/guest/workloads/idle-light.json) no buffer
 *   backlog stands: no frame is Buffer Stuffing and the median present
 *   latency is within half a period of the nominal one (app + sf
 *   durations), not one or two periods more;
 * - the UI thread never starts a frame before RenderThread has synced the
 *   one before (HWUI's DrawFrameTask::postAndWait()), also when
 *   RenderThread needs more than a period a frame (render-heavy.json);
 * - a RenderThread that falls behind skips frames rather than keep a
 *   backlog of queued buffers.
 * The latch order itself is a host test (tests/host/emu/bufferqueue_test.c).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "pipeline_common.h"

FIXTURE(handoffs) {
	struct pl_session s;
	struct workload wl;
	const struct strategy *st;
};

FIXTURE_SETUP(handoffs)
{
	char err[512];

	self->st = strategy_find("cfs");
	ASSERT_NE(NULL, self->st);
	ASSERT_EQ(0, session_open(&self->s, 60, err, sizeof(err)))
		TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(handoffs)
{
	session_close(&self->s);
}

static int load(struct workload *wl, const char *name)
{
	char path[256], err[512];

	snprintf(path, sizeof(path), PT_WORKLOADS "%s", name);
	if (wl_load(path, wl, err, sizeof(err))) {
		fprintf(stderr, "# %s\n", err);
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(handoffs, easy_workload_has_no_backlog, 180)
{
	struct pl_result r;
	double nominal_ms, period_ms;

	ASSERT_EQ(0, load(&self->wl, "idle-light.json"));
	self->wl.frames = 150;
	ASSERT_EQ(0, session_run(&self->s, &self->wl, self->st, &r));
	pt_log_run(&r);
	ASSERT_EQ(PL_OK, (int)r.status) TH_LOG("%s", r.error);
	nominal_ms = (self->wl.app_duration_us + self->wl.sf_duration_us) / 1000.0;
	period_ms = 1000.0 / self->wl.refresh_hz;
	EXPECT_EQ(0u, r.sum.jank[FT_JANK_BUFFER_STUFFING])
		TH_LOG("%u frames Buffer Stuffing of %u",
		       r.sum.jank[FT_JANK_BUFFER_STUFFING], r.sum.frames);
	EXPECT_LE(r.sum.latency_p50_ms, nominal_ms + period_ms / 2)
		TH_LOG("p50 present latency %.1f ms, nominal %.1f ms",
		       r.sum.latency_p50_ms, nominal_ms);
	EXPECT_EQ(0u, r.ui_ahead);
}

TEST_F_TIMEOUT(handoffs, ui_thread_waits_for_renderthread_sync, 180)
{
	struct pl_result r;

	ASSERT_EQ(0, load(&self->wl, "render-heavy.json"));
	ASSERT_EQ(0, session_run(&self->s, &self->wl, self->st, &r));
	pt_log_run(&r);
	ASSERT_EQ(PL_OK, (int)r.status) TH_LOG("%s", r.error);
	/* the workload does make RenderThread the bottleneck */
	ASSERT_GT(r.sum.janky + r.sum.skipped, 0u);
	EXPECT_EQ(0u, r.ui_ahead)
		TH_LOG("%u frames began before the previous one was synced",
		       r.ui_ahead);
	/*
	 * A slow RenderThread skips rather than stuff the queue. Without the
	 * skip every frame after the first late one is stuffed; with it, a
	 * few are when a skip decision and a latch meet (3 of 24 seen).
	 */
	EXPECT_LE(r.sum.jank[FT_JANK_BUFFER_STUFFING], r.sum.frames / 4)
		TH_LOG("%u frames Buffer Stuffing of %u",
		       r.sum.jank[FT_JANK_BUFFER_STUFFING], r.sum.frames);
}

TEST_HARNESS_MAIN
