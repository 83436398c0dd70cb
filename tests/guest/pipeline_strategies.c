// SPDX-License-Identifier: GPL-2.0
/*
 * The display pipeline under each strategy, on a light workload and an
 * idle phone (tests/guest/workloads/idle-light.json):
 * - every strategy runs and its frames reach the screen;
 * - with nothing else running and every stage a small part of its
 *   window, no strategy has janky frames (FrameTimeline's rules, Buffer
 *   Stuffing included) nor skips one;
 * - the kernel, asked after the setup, says each thread runs with what
 *   its strategy documents (emu/strategies/STRATEGY.c) and SurfaceFlinger
 *   with its task profile (emu/pipeline/task_profiles.h).
 * A strategy that needs cpufreq is skipped, with its reason, on a kernel
 * booted without the emulated phone; the jank check is skipped when the
 * host starves the VM (see pt_noisy()). One variant per strategy, and a
 * check that every strategy in strategy_list[] has one.
 */
#define _GNU_SOURCE
#include <unistd.h>
#include "kselftest_harness.h"
#include "pipeline_common.h"
#include "android_tuning.h"
#include "task_profiles.h"
#include "../../emu/strategies/variants.h"

static const char *const tested[] = {
	"fmax", "cfs", "touchboost", "uclamp", "uclamp-wall", "fifo", "fifo-greed",
	"deadline",
	"deadline-pe", "deadline-token", "deadline-token2", "deadline-token-pe",
	"deadline-token2-pe", "fifo-pe",
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
FIXTURE_VARIANT_ADD(pipeline, uclamp_wall) { .strategy = "uclamp-wall" };
FIXTURE_VARIANT_ADD(pipeline, fifo) { .strategy = "fifo" };
FIXTURE_VARIANT_ADD(pipeline, fifo_greed) { .strategy = "fifo-greed" };
FIXTURE_VARIANT_ADD(pipeline, deadline) { .strategy = "deadline" };
FIXTURE_VARIANT_ADD(pipeline, deadline_pe) { .strategy = "deadline-pe" };
FIXTURE_VARIANT_ADD(pipeline, deadline_token) { .strategy = "deadline-token" };
FIXTURE_VARIANT_ADD(pipeline, deadline_token2) { .strategy = "deadline-token2" };
FIXTURE_VARIANT_ADD(pipeline, deadline_token_pe) { .strategy = "deadline-token-pe" };
FIXTURE_VARIANT_ADD(pipeline, deadline_token2_pe) { .strategy = "deadline-token2-pe" };
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
	/* a token goes to RenderThread and back (or is swapped) with each drawn frame */
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

static const struct pl_thread_settings *setting(const struct pl_result *r,
						const char *role)
{
	uint32_t i;

	for (i = 0; i < r->nsettings; i++)
		if (!strcmp(r->settings[i].role, role) && r->settings[i].ok)
			return &r->settings[i];
	return NULL;
}

static bool named(const char *strategy, const char *prefix)
{
	return !strncmp(strategy, prefix, strlen(prefix));
}

/* The app threads' window before the GPU, as deadline.c computes it. */
static uint64_t cpu_window_us(const struct workload *wl)
{
	uint64_t gpu = stage_worst_us(&wl->stage[WL_GPU]);

	return wl->app_duration_us > gpu ? wl->app_duration_us - gpu :
	       wl->app_duration_us;
}

TEST_F_TIMEOUT(pipeline, settings_are_the_documented_ones, 120)
{
	const struct pl_thread_settings *ui, *rt, *sf;
	uint64_t period_us = 1000000 / self->wl.refresh_hz;
	uint64_t all = (1ULL << sysconf(_SC_NPROCESSORS_ONLN)) - 1;
	uint64_t sf_cpus = tp_background_cpus(&self->s.ph);
	const char *st = variant->strategy;
	struct pl_result r;

	RUN(10, &r);
	ui = setting(&r, "UI thread");
	rt = setting(&r, "RenderThread");
	sf = setting(&r, "SurfaceFlinger");
	ASSERT_NE(NULL, ui);
	ASSERT_NE(NULL, rt);
	ASSERT_NE(NULL, sf);

	/* SurfaceFlinger: SCHED_FIFO 2, its uclamp.min, system-background */
	EXPECT_EQ(SCHED_FIFO, (int)sf->policy);
	EXPECT_EQ(TP_SF_FIFO_PRIO, (int)sf->priority);
	EXPECT_EQ(ANDROID_SF_UCLAMP_MIN, (int)sf->util_min);
	EXPECT_EQ(sf_cpus ? sf_cpus : all, sf->cpus);

	if (named(st, "deadline-token")) {
		uint64_t chain = stage_worst_us(&self->wl.stage[WL_UI]) +
				 stage_worst_us(&self->wl.stage[WL_RENDER]) +
				 stage_worst_us(&self->wl.stage[WL_GPU_SUBMIT]);
		uint64_t d = cpu_window_us(&self->wl);

		if (d > period_us)
			d = period_us;
		/* the UI thread holds the token at the start */
		ASSERT_EQ(SCHED_DEADLINE, (int)ui->policy);
		EXPECT_EQ((dl_runtime_for_ns(chain) + DL_RUNTIME_OVERHEAD_US * 1000ULL) / 1000,
			  ui->runtime_ns / 1000);
		EXPECT_EQ(d, ui->deadline_ns / 1000);
		EXPECT_EQ(ui->deadline_ns, ui->period_ns);
		EXPECT_EQ(SCHED_OTHER, (int)rt->policy);
		EXPECT_EQ(TP_TOP_APP_NICE, rt->nice);
	} else if (named(st, "deadline")) {
		uint64_t w_ui = stage_worst_us(&self->wl.stage[WL_UI]);
		uint64_t w_rt = stage_worst_us(&self->wl.stage[WL_RENDER]) +
				stage_worst_us(&self->wl.stage[WL_GPU_SUBMIT]);
		uint64_t win = cpu_window_us(&self->wl);
		uint64_t d_ui = ui->deadline_ns / 1000, d_rt = rt->deadline_ns / 1000;

		ASSERT_EQ(SCHED_DEADLINE, (int)ui->policy);
		ASSERT_EQ(SCHED_DEADLINE, (int)rt->policy);
		/* the invariant worst case, its margin and the thread's overhead,
		 * nothing converted to a slow CPU's wall time */
		EXPECT_EQ(dl_runtime_for_ns(w_ui) / 1000, ui->runtime_ns / 1000);
		EXPECT_EQ(dl_runtime_for_ns(w_rt) / 1000, rt->runtime_ns / 1000);
		/* the window split by worst case, each deadline its period */
		EXPECT_LE(d_ui + d_rt, win);
		EXPECT_GE(d_ui + d_rt + 2, win);
		EXPECT_LE(d_ui * w_rt, (d_rt + 1) * w_ui);
		EXPECT_GE((d_ui + 1) * w_rt, d_rt * w_ui);
		EXPECT_EQ(ui->deadline_ns, ui->period_ns);
		EXPECT_EQ(rt->deadline_ns, rt->period_ns);
	} else if (named(st, "fifo")) {
		EXPECT_EQ(SCHED_FIFO, (int)ui->policy);
		EXPECT_EQ(SCHED_FIFO, (int)rt->policy);
		EXPECT_GT(TP_SF_FIFO_PRIO, (int)ui->priority);
		EXPECT_EQ(ui->priority, rt->priority);
	} else {
		/* fmax, cfs, touchboost, uclamp: the top app's fair threads */
		EXPECT_EQ(SCHED_OTHER, (int)ui->policy);
		EXPECT_EQ(SCHED_OTHER, (int)rt->policy);
		EXPECT_EQ(TP_TOP_APP_NICE, ui->nice);
		EXPECT_EQ(TP_TOP_APP_NICE, rt->nice);
		if (named(st, "uclamp")) {
			/* the Pixel 6 ADPF profile: UclampMin_Low..High */
			EXPECT_LE(2U, ui->util_min);
			EXPECT_GE(480U, ui->util_min);
			EXPECT_EQ(ui->util_min, rt->util_min);
		}
	}
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
