// SPDX-License-Identifier: GPL-2.0
/*
 * fifo.c - the app threads SCHED_FIFO, as Android's "FIFO UI" option does
 * for the top app: UI thread and RenderThread one priority below
 * SurfaceFlinger, reset-on-fork, with RT throttling on (95% of each period)
 * so that a runaway frame cannot starve the CFS system services.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "variants.h"

/* SurfaceFlinger's SCHED_FIFO priority on Android */
#define FIFO_SF_PRIORITY	2
/* RT throttling: the kernel's default share of sched_rt_period_us */
#define FIFO_RT_SHARE_PCT	95

struct fifo {
	struct sys_undo undo;
};

/*
 * One below SurfaceFlinger so that composition preempts the app, never the
 * other way round; both app threads alike, since they run one after the
 * other and neither should preempt the other's frame.
 */
static uint32_t fifo_app_priority(const struct strategy_ctx *ctx)
{
	struct sched_attr_v1 sf;
	uint32_t prio = FIFO_SF_PRIORITY;

	if (ctx->sf_tid > 0 && !sys_sched_getattr(ctx->sf_tid, &sf) &&
	    (sf.sched_policy == SCHED_FIFO || sf.sched_policy == SCHED_RR))
		prio = sf.sched_priority;
	return prio > 1 ? prio - 1 : 1;
}

/* sched_rt_runtime_us = 95% of sched_rt_period_us: 950000 by default */
static int fifo_throttling_on(struct sys_undo *u, const char *who,
			      char *err, size_t errlen)
{
	char val[32];
	uint64_t period;

	if (sys_read_u64(SYS_RT_PERIOD, &period, who, err, errlen))
		return -1;
	snprintf(val, sizeof(val), "%llu",
		 (unsigned long long)(period * FIFO_RT_SHARE_PCT / 100));
	return sys_undo_write(u, SYS_RT_RUNTIME, val, who, err, errlen);
}

int fifo_setup_as(struct strategy_ctx *ctx, const char *who, bool greed,
		  bool proxy_exec, char *err, size_t errlen)
{
	struct sched_attr_v1 a = {
		.sched_policy = SCHED_FIFO,
		.sched_flags = SA_FLAG_RESET_ON_FORK,
	};
	struct fifo *s = sys_priv(ctx, sizeof(*s), who, err, errlen);

	if (!s)
		return -1;
	if (sys_undo_feature(&s->undo, "PROXY_EXEC", proxy_exec, who, err, errlen) ||
	    sys_undo_feature(&s->undo, "RT_RUNTIME_GREED", greed, who, err, errlen) ||
	    fifo_throttling_on(&s->undo, who, err, errlen))
		return -1;
	a.sched_priority = fifo_app_priority(ctx);
	return sys_undo_app_threads(&s->undo, ctx, &a, who, err, errlen);
}

static int fifo_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return fifo_setup_as(ctx, "fifo", false, false, err, errlen);
}

const struct strategy strategy_fifo = {
	.name = "fifo",
	.summary = "UI thread and RenderThread SCHED_FIFO below SurfaceFlinger, RT throttling on",
	.setup = fifo_setup,
	.teardown = sys_teardown,
};
