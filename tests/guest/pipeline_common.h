/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the pipeline tests share: load a test workload, open a session
 * (display module, calibration), run one strategy, and tell a strategy
 * that needs the emulated phone's cpufreq from one that failed.
 */
#ifndef PIPELINE_COMMON_H
#define PIPELINE_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "session.h"
#include "workload.h"

#define PT_WORKLOADS	"tests/guest/workloads/"

/* A strategy that cannot run without cpufreq says so in its error. */
static inline bool pt_needs_cpufreq(const struct pl_session *s,
				    const struct pl_result *r)
{
	return r->status == PL_FAILED && s->ph.npol == 0 &&
	       strstr(r->error, "cpufreq");
}

/*
 * SurfaceFlinger (SCHED_FIFO) woke more than this after VSYNC-sf in a
 * tenth of the VSYNCs: the host starved the VM's vCPUs (TCG on a busy
 * host), and frame-exact assertions would test the host, not the kernel.
 */
#define PT_NOISY_MS	2.0
/*
 * With a busy background CPU, QEMU's icount mode itself delays wake-ups of
 * the other vCPUs by a few ms (one instruction counter for all of them):
 * tests that compare runs with the same background tolerate that much.
 */
#define PT_NOISY_BUSY_MS	10.0

static inline bool pt_noisy(const struct pl_result *r, double ms)
{
	return r->sf_wake_p90_ms > ms;
}

static inline void pt_log_run(const struct pl_result *r)
{
	fprintf(stderr, "# %-12s %s: frames %u presented %u on-time %.1f%% janky %u (%.1f%%) stuffed %u skipped %u dropped %u app-missed %u ui-ahead %u p50 %.1f ms p99 %.1f ms gpu-mutex p99 %.1f ms sf-wake p90 %.2f ms%s%s\n",
		r->strategy, r->status == PL_OK ? "ok" : "not ok",
		r->sum.frames, r->sum.presented, r->sum.on_time_pct,
		r->sum.janky, r->sum.janky_pct,
		r->sum.jank[FT_JANK_BUFFER_STUFFING], r->sum.skipped,
		r->sum.dropped, r->app_missed, r->ui_ahead,
		r->sum.latency_p50_ms, r->sum.latency_p99_ms,
		r->gpu_wait_p99_ms, r->sf_wake_p90_ms, r->error[0] ? ": " : "",
		r->error);
}

#endif
