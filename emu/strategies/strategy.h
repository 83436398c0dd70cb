/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strategy.h - how the pipeline emulator schedules the display pipeline.
 *
 * A strategy is one small file in emu/strategies/ that fills a
 * struct strategy, and one line in strategies.c. The pipeline
 * (emu/pipeline/) calls it from its control thread:
 *
 *   setup()        once, after every pipeline and background thread exists
 *                  and before the first frame: set scheduling classes,
 *                  uclamp, sched features, cpufreq limits, cgroups.
 *   on_input()     on every input event the input source delivers.
 *   on_frame()     after every app frame, with its measured work.
 *   teardown()     once, always (also after a failed setup or an
 *                  interrupted run): put back every system setting
 *                  setup() or the hooks changed (features, scaling_min_freq,
 *                  policies), so that the next strategy starts from the
 *                  same state.
 *
 * Every hook is optional except setup. Hooks run in the control thread,
 * never in a pipeline thread, so a slow hook delays no frame directly; they
 * must not block for long (the control thread also paces input).
 *
 * Errors: setup returns 0, or -1 with a message in err naming what failed
 * (e.g. "deadline: sched_setattr(RenderThread, runtime 9000 us): Device
 * or resource busy"); the pipeline then skips this strategy's run and
 * reports the message, after calling teardown.
 */
#ifndef EMU_STRATEGY_H
#define EMU_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct workload;
struct platform;

/* one token a frame in flight: the UI thread's and RenderThread's */
#define STRATEGY_MAX_TOKENS	2

/* What a strategy may touch. Filled by the pipeline before setup(). */
struct strategy_ctx {
	const struct workload *wl;
	const struct platform *plat;	/* the platform the guest reports */
	pid_t ui_tid;			/* UI thread */
	pid_t render_tid;		/* RenderThread */
	pid_t sf_tid;			/* SurfaceFlinger main thread */
	pid_t gpu_hog_tid;		/* the GPU-mutex background app, or 0 */
	uint64_t period_ns;		/* VSYNC period */
	uint64_t app_duration_ns;	/* the app's window, VSYNC-app to latch */
	/* set by the strategy, reported in the results */
	uint64_t dl_bw_reserved_ppm;	/* SCHED_DEADLINE bandwidth it reserved,
					 * parts per million of one CPU */
	/*
	 * SCHED_DEADLINE tokens that the app threads pass with the frames
	 * (emu/pipeline/token_passing.c); -1: none. Set by setup (a token
	 * given to the UI thread or held by nobody), closed by teardown.
	 */
	int dl_token_fd[STRATEGY_MAX_TOKENS];
	void *priv;			/* the strategy's own state */
};

/* One app frame as the UI thread and RenderThread measured it. */
struct strategy_frame {
	uint64_t index;
	uint64_t vsync_ns;		/* the frame's VSYNC-app */
	uint64_t deadline_ns;		/* its latch (VSYNC-sf) */
	/*
	 * The frame's work as HWUI reports it to ADPF (CanvasContext::draw):
	 * doFrame's start to queueBuffer, less dequeueBuffer and less the
	 * shorter of the sync delay (UI thread done to RenderThread's sync)
	 * and the previous frame's dequeueBuffer. Wall time.
	 */
	uint64_t hwui_work_ns;
	/* invariant run time of the UI thread's and RenderThread's parts */
	uint64_t invariant_work_ns;
	uint64_t end_ns;		/* RenderThread queued the buffer */
	uint64_t work_us;		/* invariant µs the frame asked for */
	bool missed;			/* end_ns > deadline_ns */
};

struct strategy {
	const char *name;		/* [a-z0-9-], as on the command line */
	const char *summary;		/* one line for --list and the README */
	/*
	 * A switch on another strategy that acts only where an app thread
	 * waits on a mutex another thread holds (proxy execution): left out
	 * of the default list on a workload without one, where its row
	 * would be the other one's noise.
	 */
	bool needs_mutex;
	int (*setup)(struct strategy_ctx *ctx, char *err, size_t errlen);
	void (*on_input)(struct strategy_ctx *ctx, uint64_t now_ns);
	void (*on_frame)(struct strategy_ctx *ctx, const struct strategy_frame *f);
	void (*teardown)(struct strategy_ctx *ctx);
};

/* strategies.c: every strategy, in the order of the comparison table */
extern const struct strategy *const strategy_list[];
const struct strategy *strategy_find(const char *name);

#endif
