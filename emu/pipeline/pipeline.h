/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline.h - one run of the display pipeline under one strategy.
 *
 * pl_run() starts the threads (VSYNC dispatch, UI thread, RenderThread,
 * SurfaceFlinger, the workload's background load), hands their ids to the
 * strategy's setup(), opens the start gate, runs the workload's frames
 * from its own (control) thread - input events, on_frame(), frequency
 * samples, progress - then stops everything, calls teardown() (always)
 * and classifies every frame with emu/frametimeline.
 */
#ifndef PL_PIPELINE_H
#define PL_PIPELINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "background.h"
#include "hw.h"
#include "gplat.h"
#include "stats.h"
#include "strategy.h"
#include "thread_settings.h"
#include "workload.h"

#define PL_ERR_LEN	256
#define PL_WARMUP_FRAMES 3	/* left out of the frame figures (frames.c) */

/* What a run is given. */
struct pl_config {
	const struct workload *wl;
	const struct gplat *ph;
	struct hw *hw;
	const char *trace_path;		/* NULL: no trace */
	int index, count;		/* "strategy index/count" in progress */
	bool progress;			/* progress lines on stderr */
	volatile sig_atomic_t *interrupt;	/* set by SIGINT/SIGTERM */
};

enum pl_status { PL_OK, PL_FAILED, PL_INTERRUPTED };

struct pl_result {
	char strategy[32];
	enum pl_status status;
	char error[PL_ERR_LEN];
	uint32_t frames_requested;
	uint32_t warmup;		/* first frames left out of sum */
	uint32_t ui_ahead;		/* doFrame began before the previous sync */
	struct run_summary sum;		/* FrameTimeline numbers */
	uint32_t app_missed;		/* RenderThread queued after the latch */
	double run_s;			/* guest wall time of the run */
	bool energy_ok;			/* energy_uj was there */
	double energy_uj;
	double limit_uj;		/* the physical limit, same frames and background */
	double limit_bg_uj;		/* of which the background work's */
	uint32_t limit_infeasible;	/* frames no OPP could show on time */
	uint64_t dl_bw_ppm;		/* ctx->dl_bw_reserved_ppm */
	uint32_t token_passes;		/* DEADLINE tokens given, taken, given
					 * up; a swap counts two */
	uint32_t token_missing_ui;	/* frames past the warm-up whose UI
					 * thread woke for doFrame */
	uint32_t token_missing_render;	/* ... or drawing ran without a token */
	uint32_t token_not_followed;	/* drawn on another token than doFrame */
	uint32_t nsettings;		/* read back after the setup */
	struct pl_thread_settings settings[PL_MAX_SETTINGS];
	bool residency_ok;
	struct gplat_residency residency;	/* ms per policy and OPP */
	uint32_t nbg;
	struct bg_result bg[WL_MAX_BG];
	double bg_iter_per_s;		/* every background thread */
	double bg_work_ms_per_s;	/* invariant ms of work per second */
	uint64_t inputs;		/* input events delivered */
	double gpu_wait_p99_ms;		/* RenderThread's wait for the GPU mutex */
	double gpu_wait_max_ms;
	/*
	 * SurfaceFlinger's wake-up after VSYNC-sf, p90: SCHED_FIFO on an idle
	 * phone wakes within microseconds, so more is the emulator (a vCPU
	 * the host did not run), and every timing of the run is that noisy.
	 */
	double sf_wake_p90_ms;
	char trace_file[512];
};

/* 0 when the run happened (r->status says how it went), -1 on ENOMEM. */
int pl_run(const struct pl_config *cfg, const struct strategy *s,
	   struct pl_result *r);

#endif
