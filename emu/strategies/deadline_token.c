// SPDX-License-Identifier: GPL-2.0
/*
 * deadline_token.c - one SCHED_DEADLINE reservation for the frame, passed
 * from the UI thread to RenderThread and back (the kernel's tokens,
 * CONFIG_SCHED_DL_TOKEN; guest/lib/dl_token.h).
 *
 * The UI thread holds the token from VSYNC-app; when it hands the frame to
 * RenderThread (DrawFrameTask::postAndWait) it passes the token with it,
 * and RenderThread gives it back once it has queued the buffer. The
 * pipeline threads do the passing (emu/pipeline/token_passing.c); this
 * file sizes and creates the tokens.
 *
 *   runtime  = the chain's invariant worst case: UI + render + GPU submit
 *              (base + jitter + heavy, invariant µs), plus
 *              DL_RUNTIME_MARGIN_PCT and each of its two threads'
 *              DL_RUNTIME_OVERHEAD_US (variants.h). DEADLINE runtime is charged
 *              scale-invariantly in 6.12 (dl_scaled_delta_exec()), so the
 *              worst case needs no conversion to the wall time of a slow
 *              CPU.
 *   deadline = SurfaceFlinger's latch (VSYNC-app + app_duration) less the
 *              GPU's worst case, since the GPU fence must signal by the
 *              latch; at most the VSYNC period, so that one instance
 *              serves one frame.
 *   period   = the deadline. A period longer than the deadline would
 *              let one instance serve a frame at a lower frequency floor
 *              than its density, were it not for the kernel's throttle of
 *              a constrained-deadline task that wakes after its deadline
 *              but before its next period (dl_check_constrained_dl()):
 *              a frame whose activation came late would hold every later
 *              one back to its period's phase (deadline.c says what that
 *              did to the deadline strategy). schedutil's floor is the
 *              density (patch "sched/deadline: Keep schedutil's floor at
 *              the active tasks' density"), equal here to the bandwidth.
 *
 * deadline-token: one token. A frame whose UI thread wakes while
 * RenderThread still holds the token for the one before runs its UI part
 * without it, in the fair class and wherever that woke it
 * (token_passing.c).
 *
 * deadline-token2: two tokens of that size, one a frame in flight, as the
 * article proposes for a UI thread that starts frame N+1 while
 * RenderThread still draws frame N: the UI thread gives its token with
 * the frame and takes the free one to sleep on, and the two threads swap
 * when RenderThread ends a late frame whose successor is already posted
 * (patch "sched/deadline: Let a token's holder give it up or swap it for
 * another"). It reserves twice the bandwidth, as the deadline strategy's
 * two reservations do, but each frame's work runs on one instance with
 * the frame's deadline.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../workload.h"
#include "dl_token.h"
#include "variants.h"

/* the tokens are ctx->dl_token_fd; the undo log restores PROXY_EXEC */
struct token_state {
	struct sys_undo undo;
};

static void token_teardown(struct strategy_ctx *ctx)
{
	int k;

	/* closing a token gives its holder back its policy */
	for (k = 0; k < STRATEGY_MAX_TOKENS; k++) {
		if (ctx->dl_token_fd[k] >= 0)
			close(ctx->dl_token_fd[k]);
		ctx->dl_token_fd[k] = -1;
	}
	sys_teardown(ctx);
}

static int token_setup_as(struct strategy_ctx *ctx, const char *who,
			  int ntokens, bool proxy_exec, char *err, size_t errlen)
{
	struct token_state *s = sys_priv(ctx, sizeof(*s), who, err, errlen);
	const struct workload *wl = ctx->wl;
	uint64_t chain_us, gpu_us, deadline, runtime;
	int k;

	if (!s)
		return -1;
	if (!wl || !ctx->period_ns || !ctx->app_duration_ns) {
		snprintf(err, errlen, "%s: the pipeline gave no workload or period", who);
		return -1;
	}
	if (sys_undo_feature(&s->undo, "PROXY_EXEC", proxy_exec, who, err, errlen))
		return -1;

	chain_us = stage_worst_us(&wl->stage[WL_UI]) +
		   stage_worst_us(&wl->stage[WL_RENDER]) +
		   stage_worst_us(&wl->stage[WL_GPU_SUBMIT]);
	gpu_us = stage_worst_us(&wl->stage[WL_GPU]);
	deadline = ctx->app_duration_ns > gpu_us * 1000 ?
		   ctx->app_duration_ns - gpu_us * 1000 : 0;
	if (deadline > ctx->period_ns)
		deadline = ctx->period_ns;
	/* the chain runs on two threads: the second one's overhead too */
	runtime = dl_runtime_for_ns(chain_us) + DL_RUNTIME_OVERHEAD_US * 1000ULL;
	if (runtime > deadline)
		runtime = deadline;
	if (runtime < 1024) {
		snprintf(err, errlen, "%s: the GPU's worst case (%" PRIu64
			 " us) leaves no time before the latch (app_duration %" PRIu64 " us)",
			 who, gpu_us, ctx->app_duration_ns / 1000);
		return -1;
	}
	fprintf(stderr, "%s: token runtime %" PRIu64 " us / deadline = period %" PRIu64
		" us (chain worst case %" PRIu64 " invariant us, GPU %" PRIu64 " us)\n",
		who, runtime / 1000, deadline / 1000, chain_us, gpu_us);

	for (k = 0; k < ntokens; k++) {
		int fd = dl_token_create(runtime, deadline, deadline, 0);

		if (fd < 0) {
			int en = errno;

			snprintf(err, errlen, "%s: %s: %s%s", who, DL_TOKEN_DEV, strerror(en),
				 en == ENOENT ? " (a kernel without CONFIG_SCHED_DL_TOKEN)" :
				 en == EBUSY ? " (DEADLINE admission control refused the bandwidth)" : "");
			return -1;	/* teardown closes those made */
		}
		ctx->dl_token_fd[k] = fd;
	}
	/* nobody holds a new token: the control thread may give it */
	if (dl_token_give(ctx->dl_token_fd[0], ctx->ui_tid)) {
		snprintf(err, errlen, "%s: give the token to the UI thread (%d): %s",
			 who, ctx->ui_tid, strerror(errno));
		return -1;
	}
	ctx->dl_bw_reserved_ppm = ntokens * (runtime * 1000000 / deadline);
	return 0;
}

static int token_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return token_setup_as(ctx, "deadline-token", 1, false, err, errlen);
}

static int token2_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return token_setup_as(ctx, "deadline-token2", 2, false, err, errlen);
}

static int token_pe_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return token_setup_as(ctx, "deadline-token-pe", 1, true, err, errlen);
}

const struct strategy strategy_deadline_token = {
	.name = "deadline-token",
	.summary = "one SCHED_DEADLINE token passed UI thread -> RenderThread -> UI thread with the frame",
	.setup = token_setup,
	.teardown = token_teardown,
};

const struct strategy strategy_deadline_token2 = {
	.name = "deadline-token2",
	.summary = "two SCHED_DEADLINE tokens, one a frame in flight: taken at doFrame, swapped when RenderThread reaches the frame",
	.setup = token2_setup,
	.teardown = token_teardown,
};

const struct strategy strategy_deadline_token_pe = {
	.name = "deadline-token-pe",
	.summary = "deadline-token with proxy execution (PROXY_EXEC on)",
	.needs_mutex = true,
	.setup = token_pe_setup,
	.teardown = token_teardown,
};

static int token2_pe_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return token_setup_as(ctx, "deadline-token2-pe", 2, true, err, errlen);
}

const struct strategy strategy_deadline_token2_pe = {
	.name = "deadline-token2-pe",
	.summary = "deadline-token2 with proxy execution (PROXY_EXEC on)",
	.needs_mutex = true,
	.setup = token2_pe_setup,
	.teardown = token_teardown,
};
