// SPDX-License-Identifier: GPL-2.0
/*
 * frames.c - a run's frames after the threads stopped: fences that signal
 * late, the FrameTimeline statistics, the GPU mutex waits, the energy
 * limit, the frame tracks of the trace.
 *
 * The first PL_WARMUP_FRAMES frames are left out of every frame figure:
 * they start from an idle phone (lowest OPPs, a strategy's controller at
 * its initial state) and an empty BufferQueue.
 */
#include <stdlib.h>
#include "energy_limit.h"
#include "fence.h"
#include "pl.h"

void pl_frame_gpu_done(struct pl_frame *f)
{
	f->gpu_end = fence_timestamp(f->acquire_fd);
	f->ft.actual.end = f->gpu_end > f->queued ? f->gpu_end : f->queued;
}

/* After the threads stopped: fences that signal late, fds to close. */
static void finish_frames(struct pl *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct pl_frame *f = &p->fr[i];

		if (f->present_fd >= 0) {
			fence_wait(f->present_fd, 200000000, NULL);
			if (fence_status(f->present_fd) == 1) {
				f->ft.actual.present = fence_timestamp(f->present_fd);
				f->ft.sf_actual.present = f->ft.actual.present;
			}
		}
		if (f->acquire_fd >= 0 && f->ft.actual.end == FT_TIME_NONE &&
		    fence_wait(f->acquire_fd, 200000000, NULL) == 1)
			pl_frame_gpu_done(f);
		fence_put(&f->present_fd);
		fence_put(&f->acquire_fd);
	}
}

static void trace_frames(struct pl *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct ft_frame *f = &p->fr[i].ft;
		struct ft_verdict v = ft_classify(f);
		int64_t end = f->actual.end != FT_TIME_NONE ? f->actual.end :
			      p->fr[i].queued;

		if (p->fr[i].skipped)
			continue;	/* never drawn: no frame of FrameTimeline's */

		tb_async(&p->tb, "Expected Timeline", i, f->expected.start,
			 f->expected.end, NULL);
		if (f->actual.start != FT_TIME_NONE && end != FT_TIME_NONE)
			tb_async(&p->tb, "Actual", i, f->actual.start,
				 end, ft_jank_name(v.jank));
		if (p->fr[i].gpu_end > 0)
			tb_instant(&p->tb, p->gpu_tid, "acquire fence signaled",
				   p->fr[i].gpu_end);
	}
}

static double lock_wait_pct(struct pl *p, uint32_t n, double pct, double *max)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), r;
	uint32_t i, k = 0;

	*max = 0;
	if (!v)
		return 0;
	for (i = 0; i < n; i++) {
		if (p->fr[i].queued <= 0)
			continue;
		v[k] = p->fr[i].lock_wait_ns / 1e6;
		if (v[k] > *max)
			*max = v[k];
		k++;
	}
	r = stats_percentile(v, k, pct);
	free(v);
	return r;
}

/*
 * The physical limit for the run: every frame on time at the least energy,
 * plus the background work that was done, at its cheapest (the phone was
 * asked to do it too).
 */
static void energy_limit(struct pl *p, uint32_t n, double run_us)
{
	struct el_frame *ef = calloc(n ? n : 1, sizeof(*ef));
	struct pl_result *r = p->res;
	struct el_result er;
	uint32_t i;

	if (!ef)
		return;
	for (i = 0; i < n; i++)
		el_frame_from_work(&ef[i], &p->fr[i].work, p->wl);
	if (el_limit(&p->cfg->ph->plat, ef, n, run_us, &er) == 0) {
		r->limit_bg_uj = el_background(&p->cfg->ph->plat,
					       r->bg_work_ms_per_s * r->run_s * 1000,
					       run_us > 0);
		r->limit_uj = er.energy_uj + r->limit_bg_uj;
		r->limit_infeasible = er.infeasible;
	}
	free(ef);
}

/*
 * Frames whose doFrame started before RenderThread had synced the frame
 * before: a UI thread running ahead, which HWUI's postAndWait() rules out.
 */
static uint32_t ui_ahead(const struct pl *p, uint32_t n)
{
	uint32_t i, k = 0;

	for (i = 1; i < n; i++)
		k += p->fr[i].ft.actual.start < p->fr[i - 1].synced;
	return k;
}

/*
 * Under a token strategy, the frames after the warm-up whose UI thread
 * woke for doFrame without a token, or whose drawing ran without one, and
 * the drawn ones whose drawing ran on another token than their doFrame:
 * the frame's instance did not follow it (token_passing.c).
 */
static void frames_without_token(const struct pl *p, uint32_t w, uint32_t n,
				 struct pl_result *r)
{
	uint32_t i;

	if (p->token_fd[0] < 0)
		return;
	for (i = w; i < n; i++) {
		const struct pl_frame *f = &p->fr[i];

		r->token_missing_ui += f->ui_token < 0;
		if (f->skipped)
			continue;
		r->token_missing_render += f->render_token < 0;
		r->token_not_followed += f->ui_token >= 0 && f->render_token >= 0 &&
					 f->ui_token != f->render_token;
	}
}

void pl_summarize(struct pl *p)
{
	struct pl_result *r = p->res;
	uint32_t n = p->ui_done, w = n < PL_WARMUP_FRAMES ? n : PL_WARMUP_FRAMES;
	struct ft_frame *ft = calloc(n ? n : 1, sizeof(*ft));
	uint32_t k, nft = 0, skipped = 0;

	finish_frames(p, n);
	r->warmup = w;
	r->ui_ahead = ui_ahead(p, n);
	frames_without_token(p, w, n, r);
	if (ft) {
		for (k = w; k < n; k++) {
			if (p->fr[k].skipped)
				skipped++;
			else
				ft[nft++] = p->fr[k].ft;
		}
		stats_summarize(ft, nft, skipped, &r->sum);
		free(ft);
	}
	for (k = 0; k < r->nbg; k++) {
		r->bg_iter_per_s += r->bg[k].per_s;
		r->bg_work_ms_per_s += r->bg[k].work_ms_per_s;
	}
	energy_limit(p, n, r->run_s * 1e6);
	stats_set_energy(&r->sum, r->energy_uj, r->energy_ok ? r->limit_uj : 0);
	r->gpu_wait_p99_ms = lock_wait_pct(p, n, 99, &r->gpu_wait_max_ms);
	r->sf_wake_p90_ms = stats_percentile(p->sf_late, p->nsf_late, 90);
	trace_frames(p, n);
}
