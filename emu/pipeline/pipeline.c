// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - the display pipeline's threads and one run.
 *
 * Who does what (as in Android, see ../../README.md and the LWN article):
 *
 *   VSYNC dispatch  models hardware VSYNC from the display's timestamps
 *                   (re-aligned on every one it reads) and wakes the UI
 *                   thread at VSYNC-app and SurfaceFlinger at VSYNC-sf of
 *                   each future present: app_duration + sf_duration and
 *                   sf_duration before it. SCHED_FIFO, like SF's own.
 *   UI thread       one frame per VSYNC-app it sees (a VSYNC that comes
 *                   while it is still busy is missed, as Choreographer's),
 *                   does the frame's ui work, then hands the frame to
 *                   RenderThread, waiting until RenderThread takes it.
 *   RenderThread    dequeues a buffer (waiting for its release fence),
 *                   does the render work, submits to the GPU (gpu_submit
 *                   CPU work under the driver mutex, then gpu time) and
 *                   queues the buffer with the GPU's fence as acquire fence.
 *   SurfaceFlinger  SCHED_FIFO; at VSYNC-sf latches the newest queued buffer
 *                   whose acquire fence has signaled and whose frame is not
 *                   early (predicted for half a period or more after this
 *                   present, as frameIsEarly()), composes (sf work),
 *                   presents; the present fence's time is the frame's
 *                   present time.
 *   control         the calling thread: input events, on_frame(),
 *                   frequency samples, progress, the end of the run.
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
#include "bufferqueue.h"
#include "android_tuning.h"
#include "energy_limit.h"
#include "fence.h"
#include "frame_work.h"
#include "input_pattern.h"
#include "pipeline.h"
#include "tracebuf.h"
#include "work.h"
#include "clock.h"

#define PRIO_DISPATCH	3	/* SCHED_FIFO: VSYNC dispatch */
#define PRIO_SF		2	/* SurfaceFlinger, as Android */
/*
 * The control thread: input, as Android's input threads (CFS there) it
 * must not delay SurfaceFlinger, and the frequency samples, which are
 * the instrument's. FIFO below SurfaceFlinger, above the app's CFS.
 */
#define PRIO_CONTROL	1
#define MAX_PENDING	16	/* present fences not yet signaled */
#define NTHREADS	4	/* dispatch, UI, RenderThread, SF */

struct pl_frame {
	struct ft_frame ft;
	struct frame_work work;
	int64_t ui_end, queued, gpu_end, latch;
	uint64_t lock_wait_ns;
	int acquire_fd;
	int present_fd;
	bool resolved;		/* presented (time known) or dropped */
};

struct pl {
	const struct pl_config *cfg;
	const struct workload *wl;
	struct pl_result *res;
	struct tracebuf tb;
	struct bufferqueue bq;
	struct background bg;
	struct pl_frame *fr;
	uint32_t n;			/* frames to produce */
	int64_t period, app_ns, sf_ns;

	pthread_mutex_t lock;
	pthread_cond_t cond;		/* every state change below */
	volatile bool stop;
	bool go;
	int ready;			/* pipeline threads with their tid */
	char error[PL_ERR_LEN];
	/* the latest VSYNC-app and VSYNC-sf posts */
	uint64_t app_seq, sf_seq;
	int64_t app_present, sf_present;
	int64_t handoff;		/* UI -> RenderThread, -1: empty */
	uint32_t ui_done, rt_done, resolved;
	int64_t last_latch;

	pthread_t th[NTHREADS];
	bool th_started[NTHREADS];
	pid_t disp_tid, ui_tid, rt_tid, sf_tid, gpu_tid, display_tid;
	int vsync_fd;			/* the dispatcher's own file */
	int pending[MAX_PENDING];	/* frames whose present fence is out */
	int npending;
	double *sf_late;		/* SF's wake-up after VSYNC-sf, ms */
	uint32_t nsf_late, sf_late_cap;
};

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void fail(struct pl *p, const char *fmt, const char *what, int err)
{
	pthread_mutex_lock(&p->lock);
	if (!p->error[0])
		snprintf(p->error, sizeof(p->error), fmt, what, strerror(err));
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* Every pipeline thread: say who it is, then wait for the start. */
static bool thread_ready(struct pl *p, pid_t *tid, const char *name)
{
	bool go;

	*tid = gettid_();
	pthread_setname_np(pthread_self(), name);
	tb_thread(&p->tb, *tid, name);
	pthread_mutex_lock(&p->lock);
	p->ready++;
	pthread_cond_broadcast(&p->cond);
	while (!p->go && !p->stop)
		pthread_cond_wait(&p->cond, &p->lock);
	go = !p->stop;
	pthread_mutex_unlock(&p->lock);
	return go;
}

static int set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

/* --- VSYNC dispatch ---------------------------------------------------- */

/* t moved onto the VSYNC grid through base */
static int64_t snap(int64_t t, int64_t base, int64_t period)
{
	int64_t k = (t - base + (t >= base ? period / 2 : -period / 2)) / period;

	return base + k * period;
}

/* the first VSYNC of the grid whose wake-up (lead before it) is after t */
static int64_t first_after(int64_t t, int64_t lead, int64_t base, int64_t period)
{
	int64_t v = snap(t + lead, base, period);

	while (v - lead <= t)
		v += period;
	return v;
}

static void post(struct pl *p, bool app, int64_t present)
{
	pthread_mutex_lock(&p->lock);
	if (app) {
		p->app_seq++;
		p->app_present = present;
	} else {
		p->sf_seq++;
		p->sf_present = present;
	}
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* Read the display's VSYNCs (non-blocking): the newest re-aligns the model. */
static void resync(struct pl *p, int64_t *base)
{
	struct display_vsync v;

	while (hw_read_vsync(p->vsync_fd, &v) == 1) {
		*base = (int64_t)v.timestamp_ns;
		tb_instant(&p->tb, p->display_tid, "HW_VSYNC", *base);
	}
}

static void *dispatch_main(void *arg)
{
	struct pl *p = arg;
	int64_t base = (int64_t)p->cfg->hw->first_vsync_ns, app_p, sf_p, now;
	int64_t app_lead = p->app_ns + p->sf_ns, sf_lead = p->sf_ns;

	set_fifo(PRIO_DISPATCH);
	if (!thread_ready(p, &p->disp_tid, "VsyncDispatch"))
		return NULL;
	resync(p, &base);
	now = mono_ns();
	app_p = first_after(now, app_lead, base, p->period);
	sf_p = first_after(now, sf_lead, base, p->period);
	while (!p->stop) {
		bool app;
		int64_t wake;

		resync(p, &base);
		app_p = snap(app_p, base, p->period);
		sf_p = snap(sf_p, base, p->period);
		app = app_p - app_lead <= sf_p - sf_lead;
		wake = app ? app_p - app_lead : sf_p - sf_lead;
		sleep_until_ns(wake);
		if (p->stop)
			break;
		post(p, app, app ? app_p : sf_p);
		/* when it really went out: a late dispatch shows in the trace */
		tb_instant(&p->tb, p->disp_tid, app ? "VSYNC-app" : "VSYNC-sf",
			   mono_ns());
		if (app)
			app_p += p->period;
		else
			sf_p += p->period;
	}
	return NULL;
}

/* --- UI thread --------------------------------------------------------- */

/* Wait for a post newer than *seen; false when stopping. */
static bool wait_vsync(struct pl *p, bool app, uint64_t *seen, int64_t *present)
{
	uint64_t *seq = app ? &p->app_seq : &p->sf_seq;

	pthread_mutex_lock(&p->lock);
	while (*seq == *seen && !p->stop)
		pthread_cond_wait(&p->cond, &p->lock);
	*seen = *seq;
	*present = app ? p->app_present : p->sf_present;
	pthread_mutex_unlock(&p->lock);
	return !p->stop;
}

static void *ui_main(void *arg)
{
	struct pl *p = arg;
	uint64_t seen = 0;
	uint32_t i;

	if (!thread_ready(p, &p->ui_tid, "UI thread"))
		return NULL;
	for (i = 0; i < p->n; i++) {
		struct pl_frame *f = &p->fr[i];
		int64_t present, t;

		if (!wait_vsync(p, true, &seen, &present))
			break;
		ft_frame_init(&f->ft, i, p->period);
		ft_frame_predict(&f->ft, present, p->app_ns, p->sf_ns);
		f->ft.actual.start = mono_ns();
		work_spin_us(f->work.us[WL_UI]);
		f->ui_end = mono_ns();
		tb_slice(&p->tb, p->ui_tid, "app", "Choreographer#doFrame", i,
			 f->ft.actual.start, f->ui_end);
		/* syncFrameState: wait until RenderThread has taken the frame */
		pthread_mutex_lock(&p->lock);
		while (p->handoff >= 0 && !p->stop)
			pthread_cond_wait(&p->cond, &p->lock);
		p->handoff = i;
		p->ui_done = i + 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		t = mono_ns();
		if (t - f->ui_end > 100000)
			tb_slice(&p->tb, p->ui_tid, "app", "syncFrameState", i,
				 f->ui_end, t);
	}
	return NULL;
}

/* --- RenderThread ------------------------------------------------------ */

static int64_t take_frame(struct pl *p)
{
	int64_t i;

	pthread_mutex_lock(&p->lock);
	while (p->handoff < 0 && !p->stop)
		pthread_cond_wait(&p->cond, &p->lock);
	i = p->stop ? -1 : p->handoff;
	p->handoff = -1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return i;
}

static void *rt_main(void *arg)
{
	struct pl *p = arg;
	int fd = p->cfg->hw->fd;
	int64_t i;

	if (!thread_ready(p, &p->rt_tid, "RenderThread"))
		return NULL;
	while ((i = take_frame(p)) >= 0) {
		struct pl_frame *f = &p->fr[i];
		struct display_gpu_submit g;
		int64_t t0 = mono_ns(), t1, t2, t3;
		int release_fd, slot;

		slot = bq_dequeue(&p->bq, &release_fd);
		if (slot < 0)
			break;
		if (fence_wait(release_fd, -1, &p->stop) < 0)
			fail(p, "RenderThread: %s: %s", "release fence", errno);
		if (release_fd >= 0)
			tb_instant(&p->tb, p->display_tid, "release fence",
				   fence_timestamp(release_fd));
		fence_put(&release_fd);
		t1 = mono_ns();
		tb_slice(&p->tb, p->rt_tid, "app", "dequeueBuffer", i, t0, t1);
		work_spin_us(f->work.us[WL_RENDER]);
		t2 = mono_ns();
		tb_slice(&p->tb, p->rt_tid, "app", "DrawFrame", i, t1, t2);
		if (hw_gpu_submit(fd, f->work.us[WL_GPU_SUBMIT], f->work.us[WL_GPU],
				  &g)) {
			fail(p, "RenderThread: %s: %s", "DISPLAY_IOC_GPU_SUBMIT", errno);
			bq_queue(&p->bq, slot, i, f->ft.expected.present, FENCE_NONE);
			break;
		}
		t3 = mono_ns();
		tb_slice(&p->tb, p->rt_tid, "app", "GPU submit", i, t2, t3);
		if (g.lock_wait_ns > 100000)
			tb_slice(&p->tb, p->rt_tid, "app", "GPU driver mutex wait", i,
				 t2, t2 + (int64_t)g.lock_wait_ns);
		tb_slice(&p->tb, p->gpu_tid, "gpu", "GPU job", i,
			 (int64_t)g.gpu_start_ns, (int64_t)g.gpu_end_ns);
		f->lock_wait_ns = g.lock_wait_ns;
		f->acquire_fd = g.fence_fd;
		f->queued = mono_ns();
		bq_queue(&p->bq, slot, i, f->ft.expected.present, g.fence_fd);
		tb_slice(&p->tb, p->rt_tid, "app", "queueBuffer", i, t3, f->queued);
		pthread_mutex_lock(&p->lock);
		p->rt_done = (uint32_t)i + 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* --- SurfaceFlinger ---------------------------------------------------- */

static void resolve(struct pl *p, struct pl_frame *f)
{
	pthread_mutex_lock(&p->lock);
	f->resolved = true;
	p->resolved++;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* Read the present fences that have signaled (non-blocking). */
static void reap_presents(struct pl *p)
{
	int k = 0;

	while (k < p->npending) {
		struct pl_frame *f = &p->fr[p->pending[k]];
		int st = fence_status(f->present_fd);

		if (st == 0) {
			k++;
			continue;
		}
		if (st == 1) {
			f->ft.actual.present = fence_timestamp(f->present_fd);
			f->ft.sf_actual.present = f->ft.actual.present;
			tb_instant(&p->tb, p->display_tid, "present fence",
				   f->ft.actual.present);
		} else {
			f->ft.dropped = true;	/* replaced before a VSYNC */
		}
		fence_put(&f->present_fd);
		resolve(p, f);
		p->pending[k] = p->pending[--p->npending];
	}
}

static void gpu_done(struct pl_frame *f)
{
	f->gpu_end = fence_timestamp(f->acquire_fd);
	f->ft.actual.end = f->gpu_end > f->queued ? f->gpu_end : f->queued;
}

/* one VSYNC-sf: latch, compose, present */
static void sf_frame(struct pl *p, int64_t present)
{
	int64_t start = mono_ns(), end;
	struct display_present dp;
	struct pl_frame *f;
	struct bq_latch l;
	int k;

	/* how late SF woke: the emulator's (and the kernel's) wake-up latency */
	if (p->nsf_late < p->sf_late_cap)
		p->sf_late[p->nsf_late++] = (start - (present - p->sf_ns)) / 1e6;
	reap_presents(p);
	bq_latch(&p->bq, present, p->period / 2, &l);
	for (k = 0; k < l.ndropped; k++) {
		struct pl_frame *d = &p->fr[l.dropped[k]];

		gpu_done(d);
		fence_put(&d->acquire_fd);	/* fds are few: close early */
		d->ft.dropped = true;
		resolve(p, d);
	}
	if (l.slot < 0)
		return;		/* nothing new: SF does not compose */
	f = &p->fr[l.frame];
	f->latch = start;
	f->ft.last_latch = p->last_latch;
	p->last_latch = start;
	gpu_done(f);
	tb_flow(&p->tb, "acquire fence", p->gpu_tid, f->gpu_end, p->sf_tid, start);
	work_spin_us(f->work.us[WL_SF]);
	if (hw_present(p->cfg->hw->fd, f->acquire_fd, (uint32_t)l.slot, &dp)) {
		fail(p, "SurfaceFlinger: %s: %s", "DISPLAY_IOC_PRESENT", errno);
		bq_unlatch(&p->bq, l.slot);
		return;
	}
	bq_shown(&p->bq, l.slot, dp.release_fd);
	fence_put(&f->acquire_fd);
	end = mono_ns();
	f->ft.sf_expected.start = present - p->sf_ns;
	f->ft.sf_expected.end = present;
	f->ft.sf_expected.present = present;
	f->ft.sf_actual.start = start;
	f->ft.sf_actual.end = end;
	f->present_fd = dp.present_fd;
	tb_slice(&p->tb, p->sf_tid, "sf", "composite", l.frame, start, end);
	if (p->npending < MAX_PENDING) {
		p->pending[p->npending++] = (int)l.frame;
	} else {		/* cannot happen: one present a VSYNC */
		fence_put(&f->present_fd);
		resolve(p, f);
	}
}

static void *sf_main(void *arg)
{
	struct pl *p = arg;
	uint64_t seen = 0;
	int64_t present;

	set_fifo(PRIO_SF);
	/* a kernel without uclamp runs it without: the RT default is absent too */
	if (android_sf_uclamp() && errno != EOPNOTSUPP)
		fprintf(stderr, "pipeline: SurfaceFlinger uclamp.min: sched_setattr: %s\n",
			strerror(errno));
	if (!thread_ready(p, &p->sf_tid, "surfaceflinger"))
		return NULL;
	while (wait_vsync(p, false, &seen, &present))
		sf_frame(p, present);
	return NULL;
}

/* --- the run ----------------------------------------------------------- */

static void *(*const thread_fn[NTHREADS])(void *) = {
	dispatch_main, ui_main, rt_main, sf_main,
};

static int start_threads(struct pl *p)
{
	int k;

	for (k = 0; k < NTHREADS; k++) {
		if (pthread_create(&p->th[k], NULL, thread_fn[k], p)) {
			snprintf(p->error, sizeof(p->error),
				 "pthread_create failed");
			return -1;
		}
		p->th_started[k] = true;
	}
	pthread_mutex_lock(&p->lock);
	while (p->ready < NTHREADS)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static void stop_threads(struct pl *p)
{
	int k;

	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	bq_stop(&p->bq);
	for (k = 0; k < NTHREADS; k++)
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

static void report_frames(struct pl *p, const struct strategy *s,
			  struct strategy_ctx *ctx, uint32_t *reported)
{
	uint32_t done;

	pthread_mutex_lock(&p->lock);
	done = p->rt_done;
	pthread_mutex_unlock(&p->lock);
	for (; *reported < done; (*reported)++) {
		const struct pl_frame *f = &p->fr[*reported];
		struct strategy_frame sf = {
			.index = *reported,
			.vsync_ns = (uint64_t)f->ft.expected.start,
			.deadline_ns = (uint64_t)f->ft.expected.end,
			.ui_ns = (uint64_t)(f->ui_end - f->ft.actual.start),
			.render_ns = 0,
			.end_ns = (uint64_t)f->queued,
			.work_us = (uint64_t)f->work.us[WL_UI] +
				   f->work.us[WL_RENDER] + f->work.us[WL_GPU_SUBMIT],
			.missed = f->queued > f->ft.expected.end,
		};

		sf.render_ns = (uint64_t)(f->queued - f->ui_end);
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
		p->cfg->count, name, p->rt_done, p->n);
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
		state = p->ui_done + p->rt_done + p->resolved;
		if (p->rt_done == p->n && !drain_end)
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
				 p->rt_done, p->n);
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
			gpu_done(f);
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

static void energy_limit(struct pl *p, uint32_t n, double run_us)
{
	struct el_frame *ef = calloc(n ? n : 1, sizeof(*ef));
	struct el_result er;
	uint32_t i;

	if (!ef)
		return;
	for (i = 0; i < n; i++)
		el_frame_from_work(&ef[i], &p->fr[i].work, p->wl);
	if (el_limit(&p->cfg->ph->plat, ef, n, run_us, &er) == 0) {
		p->res->limit_uj = er.energy_uj;
		p->res->limit_infeasible = er.infeasible;
	}
	free(ef);
}

static void residency_delta(struct gplat_residency *a,
			    const struct gplat_residency *b)
{
	int i, o;

	for (i = 0; i < GPLAT_MAX_POLICIES; i++)
		for (o = 0; o < PLAT_MAX_OPPS; o++)
			a->ms[i][o] = b->ms[i][o] - a->ms[i][o];
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

	if (bg_start(&p->bg, p->wl, p->cfg->hw->fd, &p->tb, r->error,
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
	ctx.render_tid = p->rt_tid;
	ctx.sf_tid = p->sf_tid;
	ctx.gpu_hog_tid = bg_gpu_hog_tid(&p->bg);
	ctx.period_ns = (uint64_t)p->period;
	ctx.app_duration_ns = (uint64_t)p->app_ns;
	if (s->setup(&ctx, r->error, sizeof(r->error))) {
		r->status = PL_FAILED;
		if (!r->error[0])
			snprintf(r->error, sizeof(r->error), "%s: setup failed",
				 s->name);
		goto out;
	}
	r->dl_bw_ppm = ctx.dl_bw_reserved_ppm;
	set_fifo(PRIO_CONTROL);
	e_ok = gplat_energy_uj(p->cfg->ph, &e0) == 0;
	r_ok = gplat_residency(p->cfg->ph, &res0) == 0;
	t0 = mono_ns();
	bg_go(&p->bg);
	pthread_mutex_lock(&p->lock);
	p->go = true;
	pthread_cond_broadcast(&p->cond);
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

static void summarize(struct pl *p)
{
	struct pl_result *r = p->res;
	uint32_t n = p->ui_done, k;
	struct ft_frame *ft = calloc(n ? n : 1, sizeof(*ft));

	finish_frames(p, n);
	if (ft) {
		for (k = 0; k < n; k++)
			ft[k] = p->fr[k].ft;
		stats_summarize(ft, n, &r->sum);
		free(ft);
	}
	energy_limit(p, n, r->run_s * 1e6);
	stats_set_energy(&r->sum, r->energy_uj, r->energy_ok ? r->limit_uj : 0);
	r->gpu_wait_p99_ms = lock_wait_pct(p, n, 99, &r->gpu_wait_max_ms);
	r->sf_wake_p90_ms = stats_percentile(p->sf_late, p->nsf_late, 90);
	for (k = 0; k < r->nbg; k++) {
		r->bg_iter_per_s += r->bg[k].per_s;
		r->bg_work_ms_per_s += r->bg[k].work_ms_per_s;
	}
	trace_frames(p, n);
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
	p->last_latch = FT_TIME_NONE;
	p->vsync_fd = -1;
	/* threads that are not ours in the trace: made-up ids */
	p->gpu_tid = (pid_t)(getpid() + 1000000);
	p->display_tid = (pid_t)(getpid() + 1000001);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
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
		summarize(p);
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
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(sf_late);
	free(fr);
	free(p);
	return 0;
}
