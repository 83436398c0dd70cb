// SPDX-License-Identifier: GPL-2.0
/*
 * uclamp.c - an ADPF-like controller (Android's performance hint sessions):
 * the UI thread and RenderThread form one group; after every frame, the
 * group's measured work (UI thread + RenderThread wall time) against a
 * target feeds a PID controller (emu/uclamp_pid.c) whose output becomes
 * both threads' uclamp.min, so that schedutil and task placement see the
 * chain's need instead of two half-busy tasks.
 *
 * Target: UCLAMP_TARGET_PCT of the app's window (app_duration), the rest
 * left for what the measured work does not include (the hand-off between
 * the threads, the wait for the GPU to finish before the latch) and for
 * jitter. The threads stay SCHED_OTHER: only the clamp changes.
 */
#include <stdio.h>

#include "../uclamp_pid.h"
#include "variants.h"

#define UCLAMP_TARGET_PCT	90

struct uclamp {
	struct sys_undo undo;
	struct uclamp_pid pid;
	bool ready;
	uint32_t applied;	/* uclamp.min the threads have */
	bool warned;
};

static int set_min(struct uclamp *s, const struct strategy_ctx *ctx, uint32_t min,
		   char *err, size_t errlen)
{
	struct sched_attr_v1 a = {
		.sched_flags = SA_FLAG_KEEP_ALL | SA_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = min,
	};

	if (sys_undo_app_threads(&s->undo, ctx, &a, "uclamp", err, errlen))
		return -1;
	s->applied = min;
	return 0;
}

static int uclamp_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	struct uclamp *s = sys_priv(ctx, sizeof(*s), "uclamp", err, errlen);
	struct uclamp_pid_gains g;
	struct sys_policies pol;

	if (!s)
		return -1;
	if (s->ready)
		return 0;
	/* without cpufreq a clamp changes no frequency: nothing to compare */
	if (sys_policies_find(&pol, "uclamp", err, errlen) ||
	    cfs_baseline(&s->undo, ctx, "uclamp", err, errlen))
		return -1;
	uclamp_pid_default_gains(&g);
	if (uclamp_pid_init(&s->pid, &g, err, errlen) ||
	    set_min(s, ctx, 0, err, errlen))
		return -1;
	s->ready = true;
	return 0;
}

static void uclamp_on_frame(struct strategy_ctx *ctx, const struct strategy_frame *f)
{
	struct uclamp *s = ctx->priv;
	uint64_t target = ctx->app_duration_ns * UCLAMP_TARGET_PCT / 100;
	char err[256];
	uint32_t min;

	if (!s || !s->ready)
		return;
	min = uclamp_pid_update(&s->pid, f->ui_ns + f->render_ns, target);
	if (min == s->applied)
		return;
	if (set_min(s, ctx, min, err, sizeof(err)) && !s->warned) {
		/* hooks cannot fail the run; say it once */
		fprintf(stderr, "%s\n", err);
		s->warned = true;
	}
}

const struct strategy strategy_uclamp = {
	.name = "uclamp",
	.summary = "ADPF-like: a PID on each frame's work sets uclamp.min of UI thread and RenderThread",
	.setup = uclamp_setup,
	.on_frame = uclamp_on_frame,
	.teardown = sys_teardown,
};
