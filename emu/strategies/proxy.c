// SPDX-License-Identifier: GPL-2.0
/*
 * proxy.c - deadline and fifo with proxy execution on (the PROXY_EXEC sched
 * feature of the series): a task blocked on a mutex lends its scheduling
 * context to the mutex owner, so the GPU-mutex background app, holding the
 * driver mutex RenderThread waits for, runs on RenderThread's DEADLINE
 * budget or FIFO priority instead of as a CFS task.
 */
#include "variants.h"

static int deadline_pe_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return deadline_setup_as(ctx, "deadline-pe", true, err, errlen);
}

static int fifo_pe_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return fifo_setup_as(ctx, "fifo-pe", false, true, err, errlen);
}

const struct strategy strategy_deadline_pe = {
	.name = "deadline-pe",
	.summary = "deadline with proxy execution (PROXY_EXEC on)",
	.needs_mutex = true,
	.setup = deadline_pe_setup,
	.teardown = sys_teardown,
};

const struct strategy strategy_fifo_pe = {
	.name = "fifo-pe",
	.summary = "fifo with proxy execution (PROXY_EXEC on)",
	.needs_mutex = true,
	.setup = fifo_pe_setup,
	.teardown = sys_teardown,
};
