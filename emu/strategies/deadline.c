// SPDX-License-Identifier: GPL-2.0
/*
 * deadline.c - UI thread and RenderThread each SCHED_DEADLINE, with run
 * times chosen pessimistically from the workload, as the article says one
 * must: the bandwidth throttling of SCHED_DEADLINE makes a frame whose
 * stage overruns its runtime wait for the next period.
 *
 * For each thread:
 *   runtime  = the stage's worst case (base + jitter + heavy, invariant µs)
 *              plus DL_RUNTIME_MARGIN_PCT and the thread's per-frame
 *              DL_RUNTIME_OVERHEAD_US (variants.h). DEADLINE runtime is charged
 *              scale-invariantly (dl_scaled_delta_exec()), so the worst
 *              case needs no conversion to the wall time of a slow CPU.
 *   deadline = the stage's share of the frame's window, in proportion to
 *              the stages' worst cases. The window runs from VSYNC-app to
 *              SurfaceFlinger's latch (app_duration) less the GPU's worst
 *              case, since the GPU fence must signal by the latch; the UI
 *              thread's deadline counts from VSYNC-app, RenderThread's
 *              from the hand-off, which comes at most the UI thread's
 *              deadline after VSYNC-app. At most the period.
 *   period   = the deadline.
 *
 * The stage's deadline is what sets its frequency and its CPU: schedutil
 * runs a CPU at least at the density (runtime / deadline) of its active
 * DEADLINE tasks (patch "sched/deadline: Keep schedutil's floor at the
 * active tasks' density"), and capacity fitting places a task only where
 * its runtime fits its deadline. The period cannot be the VSYNC period
 * with a shorter deadline: a task with a constrained deadline that wakes
 * after its deadline but before its next period is throttled until that
 * period (dl_check_constrained_dl()), and RenderThread's activations,
 * the UI thread's hand-offs, come at varying times: once one came late,
 * each later hand-off waited for the late one's period, 8 ms a frame, and
 * in a measured run of the article's example 298 of 600 frames were
 * drawn, every one late. So each stage reserves its density, and
 * the two reservations together reserve more than the chain's worst case
 * once: the price of two reservations that the token (deadline_token.c)
 * does not pay. Both runtimes shrink together if the pair would not pass
 * admission control.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../platform.h"
#include "../workload.h"
#include "variants.h"

/* Part of the estimated free DEADLINE bandwidth the app may take. */
#define DL_ADMIT_PCT	90
#define DL_MIN_RUNTIME_NS	1024ULL	/* the kernel's smallest runtime */

struct deadline {
	struct sys_undo undo;
};

struct dl_thread {
	const char *role;
	pid_t tid;
	uint64_t worst_us;	/* invariant µs */
	uint64_t runtime_ns;
	uint64_t deadline_ns;	/* and period */
	bool fits;		/* runtime fits the deadline on the biggest CPU */
};

uint64_t stage_worst_us(const struct wl_dist *d)
{
	return (uint64_t)d->base_us + d->jitter_us +
	       (d->heavy_rate > 0 ? d->heavy_us : 0);
}

uint64_t dl_runtime_for_ns(uint64_t worst_us)
{
	return (worst_us * (100 + DL_RUNTIME_MARGIN_PCT) / 100 +
		DL_RUNTIME_OVERHEAD_US) * 1000;
}

static uint32_t biggest_capacity(const struct platform *p)
{
	uint32_t c, big = 0;

	for (c = 0; c < p->nclusters; c++)
		if (p->cl[c].capacity > big)
			big = p->cl[c].capacity;
	return big ? big : PLAT_CAPACITY_SCALE;
}

/* Sum of rt of every fair server (debugfs), in CPUs; 0 without them. */
static double fair_server_bw(void)
{
	char path[SYS_PATH_LEN], err[SYS_PATH_LEN];
	uint64_t runtime, period;
	struct dirent *d;
	double bw = 0;
	DIR *dir;

	dir = opendir(SYS_FAIR_SERVER);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "cpu", 3))
			continue;
		snprintf(path, sizeof(path), "%s/cpu%d/runtime", SYS_FAIR_SERVER,
			 atoi(d->d_name + 3));
		if (sys_read_u64(path, &runtime, "", err, sizeof(err)))
			continue;
		snprintf(path, sizeof(path), "%s/cpu%d/period", SYS_FAIR_SERVER,
			 atoi(d->d_name + 3));
		if (sys_read_u64(path, &period, "", err, sizeof(err)) || !period)
			continue;
		bw += (double)runtime / period;
	}
	closedir(dir);
	return bw;
}

/* Capacity of the online CPUs, in CPUs of 1024, the slowest counted first. */
static double online_capacity(const struct platform *p)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t used[PLAT_MAX_CLUSTERS] = { 0 }, c;
	double cap = 0;

	while (online-- > 0) {
		const struct plat_cluster *slow = NULL;
		uint32_t pick = 0;

		for (c = 0; c < p->nclusters; c++)
			if (used[c] < p->cl[c].ncpus &&
			    (!slow || p->cl[c].capacity < slow->capacity)) {
				slow = &p->cl[c];
				pick = c;
			}
		if (!slow)
			break;
		used[pick]++;
		cap += (double)slow->capacity / PLAT_CAPACITY_SCALE;
	}
	return cap;
}

/*
 * DEADLINE bandwidth still free, in CPUs: the root domain's capacity times
 * sched_rt_runtime_us / sched_rt_period_us (what admission control allows),
 * less the fair servers and the workload's own DEADLINE background tasks.
 * The capacities are the platform's: a kernel that counts every CPU as 1024
 * allows more, never less. A negative rt runtime turns admission off.
 */
static int free_bw(const struct strategy_ctx *ctx, double *bw,
		   const char *who, char *err, size_t errlen)
{
	int64_t rt_runtime, rt_period;
	uint32_t i;

	if (sys_read_s64(SYS_RT_RUNTIME, &rt_runtime, who, err, errlen) ||
	    sys_read_s64(SYS_RT_PERIOD, &rt_period, who, err, errlen))
		return -1;
	if (rt_runtime < 0 || rt_period <= 0) {
		*bw = 1e9;
		return 0;
	}
	*bw = online_capacity(ctx->plat) * rt_runtime / rt_period - fair_server_bw();
	for (i = 0; i < ctx->wl->nbg; i++) {
		const struct wl_bg *b = &ctx->wl->bg[i];

		if (b->type == WL_BG_DL_PERIODIC && b->period_us)
			*bw -= (double)b->threads * b->dl_runtime_us / b->period_us;
	}
	return 0;
}

/*
 * The frame's window for the app's CPU stages: VSYNC-app to the latch
 * (app_duration, or the period without one) less the GPU's worst case.
 */
static uint64_t cpu_window_ns(const struct strategy_ctx *ctx)
{
	uint64_t app = ctx->app_duration_ns ? ctx->app_duration_ns : ctx->period_ns;
	uint64_t gpu = stage_worst_us(&ctx->wl->stage[WL_GPU]) * 1000;

	return app > gpu ? app - gpu : app;
}

static int plan(struct strategy_ctx *ctx, struct dl_thread t[2],
		const char *who, char *err, size_t errlen)
{
	uint64_t period = ctx->period_ns, window, worst;
	uint32_t big;
	double want, limit;
	int i;

	if (!ctx->plat || !ctx->wl || !ctx->plat->nclusters || !period) {
		snprintf(err, errlen, "%s: the pipeline gave no platform, workload or period",
			 who);
		return -1;
	}
	t[0] = (struct dl_thread){
		.role = "UI thread", .tid = ctx->ui_tid,
		.worst_us = stage_worst_us(&ctx->wl->stage[WL_UI]),
	};
	/* the GPU submit's CPU part runs on RenderThread too */
	t[1] = (struct dl_thread){
		.role = "RenderThread", .tid = ctx->render_tid,
		.worst_us = stage_worst_us(&ctx->wl->stage[WL_RENDER]) +
			    stage_worst_us(&ctx->wl->stage[WL_GPU_SUBMIT]),
	};
	window = cpu_window_ns(ctx);
	worst = t[0].worst_us + t[1].worst_us;
	big = biggest_capacity(ctx->plat);
	for (i = 0; i < 2; i++) {
		t[i].deadline_ns = worst ? window * t[i].worst_us / worst : window;
		if (t[i].deadline_ns > period)
			t[i].deadline_ns = period;
		if (t[i].deadline_ns < DL_MIN_RUNTIME_NS)
			t[i].deadline_ns = DL_MIN_RUNTIME_NS;
		t[i].runtime_ns = dl_runtime_for_ns(t[i].worst_us);
		if (t[i].runtime_ns < DL_MIN_RUNTIME_NS)
			t[i].runtime_ns = DL_MIN_RUNTIME_NS;
		if (t[i].runtime_ns > t[i].deadline_ns)
			t[i].runtime_ns = t[i].deadline_ns;
		/* invariant runtime: a CPU of capacity big does big/1024 a ns */
		t[i].fits = t[i].runtime_ns * PLAT_CAPACITY_SCALE <=
			    t[i].deadline_ns * big;
	}

	if (free_bw(ctx, &limit, who, err, errlen))
		return -1;
	limit = limit * DL_ADMIT_PCT / 100;
	want = (double)t[0].runtime_ns / t[0].deadline_ns +
	       (double)t[1].runtime_ns / t[1].deadline_ns;
	if (limit <= 0) {
		snprintf(err, errlen, "%s: no DEADLINE bandwidth left for the app (%s, fair servers, background)",
			 who, SYS_RT_RUNTIME);
		return -1;
	}
	if (want <= limit)
		return 0;
	/* both shrink alike: neither stage matters more than the other */
	for (i = 0; i < 2; i++) {
		t[i].runtime_ns = (uint64_t)(t[i].runtime_ns * (limit / want));
		if (t[i].runtime_ns < DL_MIN_RUNTIME_NS)
			t[i].runtime_ns = DL_MIN_RUNTIME_NS;
		t[i].fits = false;
	}
	return 0;
}

static void report_plan(const struct strategy_ctx *ctx, const struct dl_thread t[2],
			const char *who)
{
	int i;

	for (i = 0; i < 2; i++)
		fprintf(stderr, "%s: %s runtime %" PRIu64 " us / deadline %" PRIu64
			" us = period (worst case %" PRIu64
			" invariant us%s)\n", who, t[i].role, t[i].runtime_ns / 1000,
			t[i].deadline_ns / 1000, t[i].worst_us,
			t[i].fits ? "" : ", capped: may overrun its deadline");
}

static int set_deadline(struct sys_undo *u, const struct dl_thread *t,
			const char *who, char *err, size_t errlen)
{
	struct sched_attr_v1 a = {
		.sched_policy = SCHED_DEADLINE,
		/* a DEADLINE task may only fork with reset-on-fork */
		.sched_flags = SA_FLAG_RESET_ON_FORK,
		.sched_runtime = t->runtime_ns,
		.sched_deadline = t->deadline_ns,
		.sched_period = t->deadline_ns,
	};
	size_t n;
	int en;

	if (!sys_undo_setattr(u, t->tid, t->role, &a, who, err, errlen))
		return 0;
	en = errno;
	n = strlen(err);
	if (en == EBUSY)
		snprintf(err + n, errlen - n, " (DEADLINE admission control refused the bandwidth)");
	else if (en == EPERM)
		snprintf(err + n, errlen - n,
			 " (not root, or the thread is pinned to fewer CPUs than its root domain)");
	return -1;
}

int deadline_setup_as(struct strategy_ctx *ctx, const char *who,
		      bool proxy_exec, char *err, size_t errlen)
{
	struct deadline *s = sys_priv(ctx, sizeof(*s), who, err, errlen);
	struct dl_thread t[2];
	int i;

	if (!s)
		return -1;
	if (sys_undo_feature(&s->undo, "PROXY_EXEC", proxy_exec, who, err, errlen) ||
	    plan(ctx, t, who, err, errlen))
		return -1;
	report_plan(ctx, t, who);
	/* a thread already DEADLINE from a repeated setup is re-admitted as is */
	ctx->dl_bw_reserved_ppm = 0;
	for (i = 0; i < 2; i++) {
		if (set_deadline(&s->undo, &t[i], who, err, errlen))
			return -1;
		ctx->dl_bw_reserved_ppm += t[i].runtime_ns * 1000000 / t[i].deadline_ns;
	}
	return 0;
}

static int deadline_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return deadline_setup_as(ctx, "deadline", false, err, errlen);
}

const struct strategy strategy_deadline = {
	.name = "deadline",
	.summary = "UI thread and RenderThread SCHED_DEADLINE: invariant worst-case runtimes, a deadline per stage",
	.setup = deadline_setup,
	.teardown = sys_teardown,
};
