// SPDX-License-Identifier: GPL-2.0
/*
 * background.c - the workload's background threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "background.h"
#include "hw.h"
#include "task_profiles.h"
#include "tracebuf.h"
#include "work.h"
#include "clock.h"
#include "sched_attr.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

static int set_class(const struct wl_bg *d, char *err, size_t errlen)
{
	struct sched_attr_v1 a = { .size = sizeof(a) };
	struct sched_param sp = { .sched_priority = (int)d->priority };

	switch (d->type) {
	case WL_BG_RT_PERIODIC:
		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			snprintf(err, errlen, "background %s: SCHED_FIFO %u: %s",
				 d->name, d->priority, strerror(errno));
			return -1;
		}
		return 0;
	case WL_BG_DL_PERIODIC:
		a.sched_policy = SCHED_DEADLINE;
		a.sched_runtime = (uint64_t)d->dl_runtime_us * 1000;
		a.sched_deadline = (uint64_t)d->dl_deadline_us * 1000;
		a.sched_period = (uint64_t)d->period_us * 1000;
		if (sched_attr_set(0, &a)) {
			snprintf(err, errlen,
				 "background %s: SCHED_DEADLINE runtime %u us deadline %u us period %u us: %s",
				 d->name, d->dl_runtime_us, d->dl_deadline_us,
				 d->period_us, strerror(errno));
			return -1;
		}
		return 0;
	default:
		if (setpriority(PRIO_PROCESS, 0, d->nice)) {
			snprintf(err, errlen, "background %s: nice %d: %s",
				 d->name, d->nice, strerror(errno));
			return -1;
		}
		return 0;
	}
}

/* the CPU the entry names, or the background cpuset for fair-class work */
static int pin(const struct background *bg, const struct wl_bg *d, char *err,
	       size_t errlen)
{
	cpu_set_t set;

	if (d->cpu < 0) {
		if (d->type == WL_BG_RT_PERIODIC || d->type == WL_BG_DL_PERIODIC)
			return 0;
		if (tp_join_cpus(bg->cpus)) {
			snprintf(err, errlen, "background %s: background cpuset: %s",
				 d->name, strerror(errno));
			return -1;
		}
		return 0;
	}
	CPU_ZERO(&set);
	CPU_SET(d->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(err, errlen, "background %s: pinning to cpu%d: %s",
			 d->name, d->cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* sleep until t in slices, so that a stop is seen within 50 ms */
static void nap_until(struct background *bg, int64_t t)
{
	while (!bg->stop) {
		int64_t now = mono_ns();

		if (now >= t)
			return;
		sleep_until_ns(t - now > 50000000 ? now + 50000000 : t);
	}
}

static void run_hog(struct bg_thread *t)
{
	while (!t->bg->stop) {
		work_spin_us(BG_HOG_CHUNK_US);
		t->iterations++;
	}
}

static void run_periodic(struct bg_thread *t, int fd)
{
	const struct wl_bg *d = t->def;
	int64_t period = (int64_t)d->period_us * 1000;
	int64_t next = t->bg->t0;

	while (!t->bg->stop) {
		int64_t start = mono_ns();

		if (d->type == WL_BG_GPU_MUTEX_HOG) {
			if (hw_gpu_hold(fd, d->run_us, NULL))
				break;
			tb_slice(t->bg->tb, t->tid, "bg", "gpu mutex held",
				 -1, start, mono_ns());
		} else {
			work_spin_us(d->run_us);
		}
		t->iterations++;
		next += period;
		if (mono_ns() > next) {
			/* overran: count it, and do not try to catch up */
			t->missed++;
			next = mono_ns();
		}
		nap_until(t->bg, next);
	}
}

static void *bg_main(void *arg)
{
	struct bg_thread *t = arg;
	struct background *bg = t->bg;
	char err[256] = "";
	int failed;

	t->tid = (pid_t)syscall(SYS_gettid);
	failed = pin(bg, t->def, err, sizeof(err)) ||
		 set_class(t->def, err, sizeof(err));
	pthread_mutex_lock(&bg->lock);
	bg->ready++;
	if (failed && !bg->failed++)
		snprintf(bg->error, sizeof(bg->error), "%s", err);
	pthread_cond_broadcast(&bg->cond);
	while (!bg->go && !bg->stop)
		pthread_cond_wait(&bg->cond, &bg->lock);
	pthread_mutex_unlock(&bg->lock);
	if (failed || bg->stop)
		return NULL;
	if (t->def->type == WL_BG_CFS_HOG)
		run_hog(t);
	else
		run_periodic(t, bg->display_fd);
	return NULL;
}

int bg_start(struct background *bg, const struct workload *wl, int display_fd,
	     uint64_t cpus, struct tracebuf *tb, char *err,
	     size_t errlen)
{
	uint32_t e, k;

	memset(bg, 0, sizeof(*bg));
	bg->wl = wl;
	bg->display_fd = display_fd;
	bg->cpus = cpus;
	bg->tb = tb;
	pthread_mutex_init(&bg->lock, NULL);
	pthread_cond_init(&bg->cond, NULL);
	for (e = 0; e < wl->nbg; e++) {
		const struct wl_bg *d = &wl->bg[e];
		uint32_t threads = d->type == WL_BG_GPU_MUTEX_HOG ? 1 : d->threads;

		for (k = 0; k < threads; k++) {
			struct bg_thread *t = &bg->th[bg->n];
			char name[32];

			if (bg->n == BG_MAX_THREADS) {
				snprintf(err, errlen, "background: more than %d threads",
					 BG_MAX_THREADS);
				return -1;
			}
			t->bg = bg;
			t->def = d;
			t->entry = e;
			if (pthread_create(&t->thread, NULL, bg_main, t)) {
				snprintf(err, errlen, "background %s: pthread_create failed",
					 d->name);
				return -1;
			}
			t->started = true;
			snprintf(name, sizeof(name), "%.12s%u", d->name, k % 100);
			name[15] = 0;	/* the kernel's limit for comm */
			pthread_setname_np(t->thread, name);
			bg->n++;
		}
	}
	pthread_mutex_lock(&bg->lock);
	while (bg->ready < (int)bg->n)
		pthread_cond_wait(&bg->cond, &bg->lock);
	pthread_mutex_unlock(&bg->lock);
	for (k = 0; k < bg->n; k++) {
		char name[TB_NAME_LEN + 16];

		snprintf(name, sizeof(name), "%s.%u", bg->th[k].def->name, k % 100);
		tb_thread(tb, bg->th[k].tid, name);
	}
	if (bg->failed) {
		snprintf(err, errlen, "%s", bg->error);
		return -1;
	}
	return 0;
}

pid_t bg_gpu_hog_tid(const struct background *bg)
{
	uint32_t k;

	for (k = 0; k < bg->n; k++)
		if (bg->th[k].def->type == WL_BG_GPU_MUTEX_HOG)
			return bg->th[k].tid;
	return 0;
}

void bg_go(struct background *bg)
{
	pthread_mutex_lock(&bg->lock);
	bg->t0 = mono_ns();
	bg->go = true;
	pthread_cond_broadcast(&bg->cond);
	pthread_mutex_unlock(&bg->lock);
}

void bg_stop(struct background *bg, double run_s, struct bg_result *res,
	     uint32_t *nres)
{
	uint32_t k, e;

	pthread_mutex_lock(&bg->lock);
	bg->stop = true;
	pthread_cond_broadcast(&bg->cond);
	pthread_mutex_unlock(&bg->lock);
	for (k = 0; k < bg->n; k++)
		if (bg->th[k].started)
			pthread_join(bg->th[k].thread, NULL);
	*nres = bg->wl ? bg->wl->nbg : 0;
	for (e = 0; e < *nres; e++) {
		const struct wl_bg *d = &bg->wl->bg[e];
		struct bg_result *r = &res[e];

		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", d->name);
		r->type = wl_bg_type_name[d->type];
		for (k = 0; k < bg->n; k++) {
			if (bg->th[k].entry != e)
				continue;
			r->threads++;
			r->iterations += bg->th[k].iterations;
			r->missed += bg->th[k].missed;
		}
		if (run_s > 0) {
			double unit = d->type == WL_BG_CFS_HOG ? BG_HOG_CHUNK_US :
				      d->run_us;

			r->per_s = r->iterations / run_s;
			r->work_ms_per_s = r->per_s * unit / 1000.0;
		}
	}
	pthread_cond_destroy(&bg->cond);
	pthread_mutex_destroy(&bg->lock);
	bg->n = 0;
}
