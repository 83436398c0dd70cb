// SPDX-License-Identifier: GPL-2.0
/*
 * cfs.c - the baseline: every thread SCHED_OTHER, schedutil alone picks
 * the frequency, no hint from user space.
 */
#include "variants.h"

struct cfs {
	struct sys_undo undo;
};

/*
 * One app thread in the fair class, with no utilization clamp. The
 * pipeline starts its threads SCHED_OTHER; a thread already in the fair
 * class keeps its policy and nice value, so that a run never inherits
 * another strategy's class or clamps but keeps what the pipeline chose.
 */
static int fair_thread(struct sys_undo *u, pid_t tid, const char *role,
		       const char *who, char *err, size_t errlen)
{
	struct sched_attr_v1 a = {
		.sched_policy = SCHED_OTHER,
		.sched_flags = SA_FLAG_UTIL_CLAMP_MIN | SA_FLAG_UTIL_CLAMP_MAX,
		.sched_util_min = SA_UCLAMP_RESET,
		.sched_util_max = SA_UCLAMP_RESET,
	};
	struct sched_attr_v1 cur;

	if (tid > 0 && !sys_sched_getattr(tid, &cur) &&
	    (cur.sched_policy == SCHED_OTHER || cur.sched_policy == SCHED_BATCH ||
	     cur.sched_policy == SCHED_IDLE))
		a.sched_flags |= SA_FLAG_KEEP_ALL;
	return sys_undo_setattr(u, tid, role, &a, who, err, errlen);
}

int cfs_baseline(struct sys_undo *u, const struct strategy_ctx *ctx,
		 const char *who, char *err, size_t errlen)
{
	/* the -pe rows turn it on; every other row runs without it */
	if (sys_undo_feature(u, "PROXY_EXEC", false, who, err, errlen) ||
	    fair_thread(u, ctx->ui_tid, "UI thread", who, err, errlen))
		return -1;
	return fair_thread(u, ctx->render_tid, "RenderThread", who, err, errlen);
}

static int cfs_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	struct cfs *s = sys_priv(ctx, sizeof(*s), "cfs", err, errlen);

	if (!s)
		return -1;
	return cfs_baseline(&s->undo, ctx, "cfs", err, errlen);
}

const struct strategy strategy_cfs = {
	.name = "cfs",
	.summary = "every thread SCHED_OTHER, schedutil alone",
	.setup = cfs_setup,
	.teardown = sys_teardown,
};
