// SPDX-License-Identifier: GPL-2.0
/*
 * uclamp.c - ADPF (Android's performance hint sessions) as a Pixel runs
 * it: the app's UI thread and RenderThread form one session; after every
 * frame HWUI reports the frame's work against a target, and the power HAL
 * sets both threads' uclamp.min (emu/adpf.c: the controller and the
 * Pixel 6 profile). The threads stay SCHED_OTHER: only the clamp changes.
 *
 * Target, as HWUI sets it (CanvasContext::draw() and HintSessionWrapper,
 * frameworks/base libs/hwui): the frame's deadline less its intended
 * VSYNC (app_duration here) times debug.hwui.target_cpu_time_percent,
 * 70 by default (Properties.cpp).
 *
 * Two variants, the same session otherwise:
 *   uclamp-wall  what HWUI reports today: wall time (strategy_frame's
 *                hwui_work_ns), which depends on the frequency the clamp
 *                bought, so the PID searches for the clamp frame by frame;
 *   uclamp       the invariant run time of the two threads' work (patch
 *                0018), which does not: the clamp the frame needs is
 *                computed (adpf_need()). The article's point: what the
 *                controller lacks is a measure of work independent of
 *                the frequency it runs at.
 * Both within the profile's UclampMin_Low..UclampMin_High (2..480).
 */
#include <stdio.h>

#include "../adpf.h"
#include "variants.h"

#define HWUI_TARGET_CPU_PCT	70

struct uclamp {
	struct sys_undo undo;
	struct adpf_session adpf;
	bool invariant;		/* uclamp, not uclamp-wall */
	const char *who;	/* the strategy's name, for errors */
	bool ready;
	uint32_t applied;	/* uclamp.min the threads have */
	bool warned;
};

static int set_min(struct uclamp *s, const struct strategy_ctx *ctx, uint32_t min,
		   const char *who, char *err, size_t errlen)
{
	struct sched_attr_v1 a = {
		.sched_flags = SA_FLAG_KEEP_ALL | SA_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = min,
	};

	if (sys_undo_app_threads(&s->undo, ctx, &a, who, err, errlen))
		return -1;
	s->applied = min;
	return 0;
}

static int setup(struct strategy_ctx *ctx, bool invariant, const char *who,
		 char *err, size_t errlen)
{
	struct uclamp *s = sys_priv(ctx, sizeof(*s), who, err, errlen);
	struct adpf_config c;
	struct sys_policies pol;

	if (!s)
		return -1;
	if (s->ready)
		return 0;
	/* without cpufreq a clamp changes no frequency: nothing to compare */
	if (sys_policies_find(&pol, who, err, errlen) ||
	    cfs_baseline(&s->undo, ctx, who, err, errlen))
		return -1;
	adpf_config_pixel6_60fps(&c);
	if (adpf_session_init(&s->adpf, &c, err, errlen) ||
	    set_min(s, ctx, s->adpf.out, who, err, errlen))
		return -1;
	s->invariant = invariant;
	s->who = who;
	s->ready = true;
	return 0;
}

static int uclamp_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return setup(ctx, true, "uclamp", err, errlen);
}

static int uclamp_wall_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return setup(ctx, false, "uclamp-wall", err, errlen);
}

static void uclamp_on_frame(struct strategy_ctx *ctx, const struct strategy_frame *f)
{
	struct uclamp *s = ctx->priv;
	uint64_t target = ctx->app_duration_ns * HWUI_TARGET_CPU_PCT / 100;
	char err[256];
	uint32_t min;

	if (!s || !s->ready)
		return;
	min = s->invariant ?
	      adpf_need(&s->adpf.c, f->invariant_work_ns, target) :
	      adpf_report(&s->adpf, f->hwui_work_ns, target);
	if (min == s->applied)
		return;
	if (set_min(s, ctx, min, s->who, err, sizeof(err)) && !s->warned) {
		/* hooks cannot fail the run; say it once */
		fprintf(stderr, "%s\n", err);
		s->warned = true;
	}
}

const struct strategy strategy_uclamp = {
	.name = "uclamp",
	.summary = "ADPF with invariant run time: the uclamp.min each frame's work needs, computed",
	.setup = uclamp_setup,
	.on_frame = uclamp_on_frame,
	.teardown = sys_teardown,
};

const struct strategy strategy_uclamp_wall = {
	.name = "uclamp-wall",
	.summary = "ADPF as a Pixel runs it: a PID on HWUI's wall-time report sets uclamp.min",
	.setup = uclamp_wall_setup,
	.on_frame = uclamp_on_frame,
	.teardown = sys_teardown,
};
