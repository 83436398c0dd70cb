/* SPDX-License-Identifier: GPL-2.0 */
/*
 * variants.h - the pieces of strategies that their variants reuse
 * (touchboost and uclamp build on cfs; fifo-greed and the -pe rows are fifo
 * and deadline with other sched features). Only the strategy files include
 * it; the pipeline sees strategy.h.
 */
#ifndef EMU_STRATEGIES_VARIANTS_H
#define EMU_STRATEGIES_VARIANTS_H

#include <stdbool.h>
#include "strategy.h"
#include "sys.h"

/*
 * cfs.c: the fair-class baseline that touchboost and uclamp build on:
 * PROXY_EXEC off, both app threads SCHED_OTHER without clamps.
 */
int cfs_baseline(struct sys_undo *u, const struct strategy_ctx *ctx,
		 const char *who, char *err, size_t errlen);

/* fifo.c: the app threads SCHED_FIFO below SurfaceFlinger, RT throttling on */
int fifo_setup_as(struct strategy_ctx *ctx, const char *who, bool greed,
		  bool proxy_exec, char *err, size_t errlen);

struct wl_dist;

/* deadline.c: a stage's worst case, base + jitter + heavy, invariant us */
uint64_t stage_worst_us(const struct wl_dist *d);

/*
 * Above the workload's worst case: the emulated phone's interrupts run on
 * a reservation too (DL_RUNTIME_MARGIN_PCT), and so does the thread's own
 * part of each frame outside its stage's work: hand-offs, BufferQueue and
 * fence calls, the trace's bookkeeping (DL_RUNTIME_OVERHEAD_US a thread).
 */
#define DL_RUNTIME_MARGIN_PCT	5
#define DL_RUNTIME_OVERHEAD_US	500

/* deadline.c: the DEADLINE runtime, in ns, of a thread whose stages' worst
 * case is @worst_us invariant us */
uint64_t dl_runtime_for_ns(uint64_t worst_us);

/* deadline.c: the app threads SCHED_DEADLINE, worst-case runtimes */
int deadline_setup_as(struct strategy_ctx *ctx, const char *who,
		      bool proxy_exec, char *err, size_t errlen);

#endif
