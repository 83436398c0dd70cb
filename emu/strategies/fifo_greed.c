// SPDX-License-Identifier: GPL-2.0
/*
 * fifo_greed.c - fifo with the RT_RUNTIME_GREED sched feature (patch 0001):
 * a throttled rt_rq runs on when nothing else wants the CPU, so the app
 * keeps the 5% that throttling would leave idle.
 */
#include "variants.h"

static int fifo_greed_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return fifo_setup_as(ctx, "fifo-greed", true, false, err, errlen);
}

const struct strategy strategy_fifo_greed = {
	.name = "fifo-greed",
	.summary = "fifo with RT_RUNTIME_GREED: throttled RT runs on when the CPU would idle",
	.setup = fifo_greed_setup,
	.teardown = sys_teardown,
};
