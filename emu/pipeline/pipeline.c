// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - one run of the display pipeline: start the threads (one
 * file per role, pl.h), hand their ids to the strategy, open the start
 * gate, then the control loop in the calling thread: input events on the
 * workload's touch pattern, on_frame() for every frame drawn, frequency
 * samples, progress, the end of the run; stop, tear down, summarise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "clock.h"
#include "input_pattern.h"
#include "fence.h"
#include "pl.h"
#include "task_profiles.h"
#include "work.h"

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Wake every thread, whatever it waits for. */
static void wake_all(struct pl *p)
{
	pthread_cond_broadcast(&p->start_cond);
	pthread_cond_broadcast(&p->ui_cond);
	pthread_cond_broadcast(&p->render_cond);
	pthread_cond_broadcast(&p->sf_cond);
}

void pl_fail(struct pl *p, const char *fmt, const char *what, int err)
{
	pthread_mutex_lock(&p->lock);
	if (!p->error[0])
		snprintf(p->error, sizeof(p->error), fmt, what, strerror(err));
	p->stop = true;
	wake_all(p);
	pthread_mutex_unlock(&p->lock);
}

bool pl_thread_ready(struct pl *p, pid_t *tid, const char *name)
{
	bool go;

	*tid = gettid_();
	pthread_setname_np(pthread_self(), name);
	tb_thread(&p->tb, *tid, name);
	pthread_mutex_lock(&p->lock);
	p->ready++;
	pthread_cond_broadcast(&p->start_cond);
	while (!p->go && !p->stop)
		pthread_cond_wait(&p->start_cond, &p->lock);
	go = !p->stop;
	pthread_mutex_unlock(&p->lock);
	return go;
}

int pl_set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

void pl_resolve(struct pl *p)
{
	pthread_mutex_lock(&p->lock);
	p->resolved++;
	pthread_mutex_unlock(&p->lock);
}

bool pl_wait_vsync(struct pl *p, const uint64_t *seq, const int64_t *posted,
		   pthread_cond_t *cond, uint64_t *seen, int64_t *present)
{
	pthread_mutex_lock(&p->lock);
	while (*seq == *seen && !p->stop)
		pthread_cond_wait(cond, &p->lock);
	*seen = *seq;
	*present = *posted;
	pthread_mutex_unlock(&p->lock);
	return !p->stop;
}

/* --- the run ----------------------------------------------------------- */

static void *(*const thread_fn[PL_NTHREADS])(void *) = {
	vsync_main, ui_main, render_main, sf_main,
};

static int start_threads(struct pl *p)
{
	int k;

	for (k = 0; k < PL_NTHREADS; k++) {
		if (pthread_create(&p->th[k], NULL, thread_fn[k], p)) {
			snprintf(p->error, sizeof(p->error),
				 "pthread_create failed");
			return -1;
		}
		p->th_started[k] = true;
	}
	pthread_mutex_lock(&p->lock);
	while (p->ready < PL_NTHREADS)
		pthread_cond_wait(&p->start_cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static void stop_threads(struct pl *p)
{
	int k;

	pthread_mutex_lock(&p->lock);
	p->stop = true;
	wake_all(p);
	pthread_mutex_unlock(&p->lock);
	bq_stop(&p->bq);
	for (k = 0; k < PL_NTHREADS; k++)
		if (p->th_started[k])
			pthread_join(p->th[k], NULL);
}

static void sample_freqs(struct pl *p, int64_t now)
{
	const struct gplat *ph = p->cfg->ph;
	char name[40];
	int i;

	for (i = 0; i < ph->npol; i++) {
		uint32_t khz = gplat_cur_khz(ph, i);

		snprintf(name, sizeof(name), "%s freq (MHz)", ph->pol[i].name);
		if (khz)
			tb_counter(&p->tb, name, now, khz / 1000.0);
	}
}

/*
 * HWUI's actual work duration of frame @f (CanvasContext::draw(), in
 * frameworks/base libs/hwui/renderthread/CanvasContext.cpp): from
 * doFrame's start to the end of the draw, less dequeueBuffer, less the
 * shorter of the sync delay and the previous frame's dequeueBuffer
 * (*@last_dequeue, updated).
 */
static uint64_t hwui_work_ns(const struct pl_frame *f, int64_t *last_dequeue)
{
	int64_t sync_delay = f->synced - f->ui_end;
	int64_t d = f->queued - f->ft.actual.start - f->dequeue_ns -
		    (sync_delay < *last_dequeue ? sync_delay : *last_dequeue);

	*last_dequeue = f->dequeue_ns;
	return d > 0 ? (uint64_t)d : 0;
}

static void report_frames(struct pl *p, const struct strategy *s,
			  struct strategy_ctx *ctx, uint32_t *reported)
{
	uint32_t done;

	pthread_mutex_lock(&p->lock);
	done = p->render_done;
	pthread_mutex_unlock(&p->lock);
	for (; *reported < done; (*reported)++) {
		const struct pl_frame *f = &p->fr[*reported];
		struct strategy_frame sf;

		if (f->skipped)
			continue;	/* not drawn: no work to report */
		sf = (struct strategy_frame){
			.index = *reported,
			.vsync_ns = (uint64_t)f->ft.expected.start,
			.deadline_ns = (uint64_t)f->ft.expected.end,
			.hwui_work_ns = hwui_work_ns(f, &p->last_dequeue_ns),
			.invariant_work_ns = f->ui_inv_ns + f->render_inv_ns,
			.end_ns = (uint64_t)f->queued,
			.work_us = (uint64_t)f->work.us[WL_UI] +
				   f->work.us[WL_RENDER] + f->work.us[WL_GPU_SUBMIT],
			.missed = f->queued > f->ft.expected.end,
		};

		p->res->app_missed += sf.missed;
		if (s->on_frame)
			s->on_frame(ctx, &sf);
	}
}

static void progress(struct pl *p, const char *name)
{
	if (!p->cfg->progress)
		return;
	fprintf(stderr, "pipeline: [%d/%d] %s: frame %u/%u\n", p->cfg->index,
		p->cfg->count, name, p->render_done, p->n);
}

/*
 * The control loop: input events on time, on_frame() for every queued
 * frame, a frequency sample every VSYNC period, progress every 2 s. Ends
 * when every frame is presented or dropped, on error, on a signal, or
 * when nothing moved for a while (a stall).
 */
static void control(struct pl *p, const struct strategy *s,
		    struct strategy_ctx *ctx, int64_t t0)
{
	const struct wl_input *in = &p->wl->input;
	uint64_t next_in = input_next_event_us(in, 0);
	int64_t last_progress = t0, last_move = t0, drain_end = 0;
	uint32_t reported = 0, moved = 0;

	for (;;) {
		int64_t now = mono_ns(), wake;
		uint32_t state;

		if (p->cfg->interrupt && *p->cfg->interrupt) {
			p->res->status = PL_INTERRUPTED;
			break;
		}
		if (p->stop)
			break;
		while (next_in != UINT64_MAX && t0 + (int64_t)next_in * 1000 <= now) {
			if (s->on_input)
				s->on_input(ctx, (uint64_t)now);
			tb_instant(&p->tb, p->ui_tid, "input", now);
			p->res->inputs++;
			next_in = input_next_event_us(in, next_in + 1);
		}
		report_frames(p, s, ctx, &reported);
		sample_freqs(p, now);
		pthread_mutex_lock(&p->lock);
		state = p->ui_done + p->render_done + p->resolved;
		if (p->render_done == p->n && !drain_end)
			drain_end = now + 30 * p->period;
		pthread_mutex_unlock(&p->lock);
		if (p->resolved >= p->n)
			break;
		if (drain_end && now > drain_end)
			break;		/* left queued: counted as never shown */
		if (state != moved) {
			moved = state;
			last_move = now;
		} else if (now - last_move > 20000000000LL) {
			snprintf(p->error, sizeof(p->error),
				 "stalled: no frame moved for 20 s (frame %u of %u)",
				 p->render_done, p->n);
			break;
		}
		if (now - last_progress > 2000000000LL) {
			progress(p, s->name);
			last_progress = now;
		}
		wake = now + p->period;
		if (next_in != UINT64_MAX && t0 + (int64_t)next_in * 1000 < wake)
			wake = t0 + (int64_t)next_in * 1000;
		sleep_until_ns(wake);
	}
	report_frames(p, s, ctx, &reported);
}

static void residency_delta(struct gplat_residency *a,
			    const struct gplat_residency *b)
{
	int i, o;

	for (i = 0; i < GPLAT_MAX_POLICIES; i++)
		for (o = 0; o < PLAT_MAX_OPPS; o++)
			a->ms[i][o] = b->ms[i][o] - a->ms[i][o];
}

/* What the threads run with once the strategy has set them up. */
static void read_settings(const struct strategy_ctx *ctx, struct pl_result *r)
{
	const struct { const char *role; pid_t tid; } t[] = {
		{ "UI thread", ctx->ui_tid },
		{ "RenderThread", ctx->render_tid },
		{ "SurfaceFlinger", ctx->sf_tid },
		{ "GPU-mutex holder", ctx->gpu_hog_tid },
	};
	size_t i;

	r->nsettings = 0;
	for (i = 0; i < sizeof(t) / sizeof(t[0]) && r->nsettings < PL_MAX_SETTINGS; i++)
		if (t[i].tid > 0)
			thread_settings_read(t[i].tid, t[i].role,
					     &r->settings[r->nsettings++]);
}

/* Start, set up, run, tear down: everything between the threads. */
static void run_strategy(struct pl *p, const struct strategy *s)
{
	struct strategy_ctx ctx = { 0 };
	struct pl_result *r = p->res;
	struct gplat_residency res0, res1;
	uint64_t e0 = 0, e1 = 0;
	bool e_ok, r_ok;
	int64_t t0, t1;
	int k;

	if (bg_start(&p->bg, p->wl, p->cfg->hw->fd,
		     tp_background_cpus(p->cfg->ph), &p->tb, r->error,
		     sizeof(r->error)) || start_threads(p)) {
		if (!r->error[0])
			snprintf(r->error, sizeof(r->error), "%s", p->error);
		r->status = PL_FAILED;
		stop_threads(p);
		bg_stop(&p->bg, 0, r->bg, &r->nbg);
		return;
	}
	ctx.wl = p->wl;
	ctx.plat = &p->cfg->ph->plat;
	ctx.ui_tid = p->ui_tid;
	ctx.render_tid = p->render_tid;
	ctx.sf_tid = p->sf_tid;
	ctx.gpu_hog_tid = bg_gpu_hog_tid(&p->bg);
	ctx.period_ns = (uint64_t)p->period;
	ctx.app_duration_ns = (uint64_t)p->app_ns;
	for (k = 0; k < STRATEGY_MAX_TOKENS; k++)
		ctx.dl_token_fd[k] = -1;
	if (s->setup(&ctx, r->error, sizeof(r->error))) {
		r->status = PL_FAILED;
		if (!r->error[0])
			snprintf(r->error, sizeof(r->error), "%s: setup failed",
				 s->name);
		goto out;
	}
	r->dl_bw_ppm = ctx.dl_bw_reserved_ppm;
	read_settings(&ctx, r);
	tokens_init(p, ctx.dl_token_fd);	/* the threads read them after the gate */
	/*
	 * The control thread delivers input and the strategies' hooks, as
	 * Android's input threads and power HAL do, in the fair class: it
	 * must not take a CPU from the threads it measures, as a realtime
	 * priority shared with the fifo strategies' app threads did.
	 */
	if (tp_input_thread())
		fprintf(stderr, "pipeline: control thread: nice %d: %s\n",
			TP_INPUT_NICE, strerror(errno));
	e_ok = gplat_energy_uj(p->cfg->ph, &e0) == 0;
	r_ok = gplat_residency(p->cfg->ph, &res0) == 0;
	t0 = mono_ns();
	bg_go(&p->bg);
	pthread_mutex_lock(&p->lock);
	p->go = true;
	pthread_cond_broadcast(&p->start_cond);
	pthread_mutex_unlock(&p->lock);
	control(p, s, &ctx, t0);
	t1 = mono_ns();
	e_ok = e_ok && gplat_energy_uj(p->cfg->ph, &e1) == 0;
	r_ok = r_ok && gplat_residency(p->cfg->ph, &res1) == 0;
	r->run_s = (t1 - t0) / 1e9;
	r->energy_ok = e_ok;
	r->energy_uj = e_ok ? (double)(e1 - e0) : 0;
	r->residency_ok = r_ok;
	if (r_ok) {
		residency_delta(&res0, &res1);
		r->residency = res0;
	}
	{
		struct sched_param sp = { 0 };

		sched_setscheduler(0, SCHED_OTHER, &sp);
	}
out:
	stop_threads(p);
	bg_stop(&p->bg, r->run_s, r->bg, &r->nbg);
	if (s->teardown)
		s->teardown(&ctx);
	if (p->error[0] && r->status == PL_OK) {
		r->status = PL_FAILED;
		snprintf(r->error, sizeof(r->error), "%s", p->error);
	}
}

static void pl_init(struct pl *p, const struct pl_config *cfg,
		    struct pl_result *r, struct pl_frame *fr)
{
	uint32_t i;

	memset(p, 0, sizeof(*p));
	p->fr = fr;
	p->cfg = cfg;
	p->wl = cfg->wl;
	p->res = r;
	p->n = cfg->wl->frames;
	p->period = (int64_t)cfg->hw->period_ns;
	p->app_ns = (int64_t)cfg->wl->app_duration_us * 1000;
	p->sf_ns = (int64_t)cfg->wl->sf_duration_us * 1000;
	p->handoff = -1;
	for (i = 0; i < STRATEGY_MAX_TOKENS; i++)
		p->token_fd[i] = -1;
	p->last_latch = FT_TIME_NONE;
	p->vsync_fd = -1;
	/* threads that are not ours in the trace: made-up ids */
	p->gpu_tid = (pid_t)(getpid() + 1000000);
	p->display_tid = (pid_t)(getpid() + 1000001);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->start_cond, NULL);
	pthread_cond_init(&p->ui_cond, NULL);
	pthread_cond_init(&p->render_cond, NULL);
	pthread_cond_init(&p->sf_cond, NULL);
	tb_init(&p->tb);
	tb_thread(&p->tb, p->gpu_tid, "GPU");
	tb_thread(&p->tb, p->display_tid, "display");
	bq_init(&p->bq);
	for (i = 0; i < p->n; i++) {
		frame_work_get(cfg->wl, i, &p->fr[i].work);
		ft_frame_init(&p->fr[i].ft, i, p->period);
		p->fr[i].acquire_fd = p->fr[i].present_fd = FENCE_NONE;
	}
}

int pl_run(const struct pl_config *cfg, const struct strategy *s,
	   struct pl_result *r)
{
	struct pl *p = calloc(1, sizeof(*p));
	struct pl_frame *fr = calloc(cfg->wl->frames, sizeof(*fr));
	uint32_t cap = cfg->wl->frames * 4 + 64;
	double *sf_late = calloc(cap, sizeof(*sf_late));
	char name[64];

	memset(r, 0, sizeof(*r));
	snprintf(r->strategy, sizeof(r->strategy), "%s", s->name);
	r->frames_requested = cfg->wl->frames;
	if (!p || !fr || !sf_late) {
		free(p);
		free(fr);
		free(sf_late);
		return -1;
	}
	pl_init(p, cfg, r, fr);
	p->sf_late = sf_late;
	p->sf_late_cap = cap;
	p->vsync_fd = hw_reopen();
	if (p->vsync_fd < 0) {
		r->status = PL_FAILED;
		snprintf(r->error, sizeof(r->error), "display: reopen: %s",
			 strerror(errno));
	} else {
		run_strategy(p, s);
		close(p->vsync_fd);
	}
	if (r->status != PL_FAILED || p->ui_done)
		pl_summarize(p);
	if (cfg->trace_path && p->ui_done) {
		snprintf(name, sizeof(name), "framesched-pipeline %s", s->name);
		if (tb_write(&p->tb, cfg->trace_path, name))
			fprintf(stderr, "pipeline: writing %s: %s\n",
				cfg->trace_path, strerror(errno));
		else
			snprintf(r->trace_file, sizeof(r->trace_file), "%s",
				 cfg->trace_path);
	}
	bq_destroy(&p->bq);
	tb_free(&p->tb);
	pthread_cond_destroy(&p->start_cond);
	pthread_cond_destroy(&p->ui_cond);
	pthread_cond_destroy(&p->render_cond);
	pthread_cond_destroy(&p->sf_cond);
	pthread_mutex_destroy(&p->lock);
	free(sf_late);
	free(fr);
	free(p);
	return 0;
}
