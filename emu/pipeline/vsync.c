// SPDX-License-Identifier: GPL-2.0
/*
 * vsync.c - VSYNC dispatch: a model of hardware VSYNC, re-aligned on every
 * timestamp the display reports, that wakes the UI thread at VSYNC-app
 * (app_duration + sf_duration before a present) and SurfaceFlinger at
 * VSYNC-sf (sf_duration before it), as SurfaceFlinger's VSyncDispatch does
 * by durations. SCHED_FIFO above SurfaceFlinger, as the kernel's own
 * timer would be.
 */
#include "clock.h"
#include "hw.h"
#include "pl.h"
#include "work.h"

#define PRIO_DISPATCH	3

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

/* one post wakes one thread: the UI thread or SurfaceFlinger */
static void post(struct pl *p, bool app, int64_t present)
{
	pthread_mutex_lock(&p->lock);
	if (app) {
		p->app_seq++;
		p->app_present = present;
		pthread_cond_signal(&p->ui_cond);
	} else {
		p->sf_seq++;
		p->sf_present = present;
		pthread_cond_signal(&p->sf_cond);
	}
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

void *vsync_main(void *arg)
{
	struct pl *p = arg;
	int64_t base = (int64_t)p->cfg->hw->first_vsync_ns, app_p, sf_p, now;
	int64_t app_lead = p->app_ns + p->sf_ns, sf_lead = p->sf_ns;

	pl_set_fifo(PRIO_DISPATCH);
	if (!pl_thread_ready(p, &p->disp_tid, "VsyncDispatch"))
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
