// SPDX-License-Identifier: GPL-2.0
/*
 * fmax.c - the reference row: the UI thread and RenderThread SCHED_OTHER
 * with uclamp.min 1024, so that every frame runs on a big CPU at its
 * highest OPP. No device ships this; it answers whether the workload's
 * chain fits its window at all on this phone, and what that costs, which
 * the other rows are judged against.
 */
#include "variants.h"

#define FMAX_UCLAMP	1024

struct fmax {
	struct sys_undo undo;
};

static int fmax_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	struct fmax *s = sys_priv(ctx, sizeof(*s), "fmax", err, errlen);
	struct sched_attr_v1 a = {
		.sched_flags = SA_FLAG_KEEP_ALL | SA_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = FMAX_UCLAMP,
	};

	if (!s)
		return -1;
	if (cfs_baseline(&s->undo, ctx, "fmax", err, errlen))
		return -1;
	return sys_undo_app_threads(&s->undo, ctx, &a, "fmax", err, errlen);
}

const struct strategy strategy_fmax = {
	.name = "fmax",
	.summary = "reference: UI thread and RenderThread at uclamp.min 1024 (a big CPU at fmax)",
	.setup = fmax_setup,
	.teardown = sys_teardown,
};
