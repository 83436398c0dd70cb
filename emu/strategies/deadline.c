// SPDX-License-Identifier: GPL-2.0
/*
 * deadline.c - UI thread and RenderThread each SCHED_DEADLINE, with run
 * times chosen pessimistically from the workload, as the article says one
 * must: the bandwidth throttling of SCHED_DEADLINE makes a frame whose
 * stage overruns its runtime wait for the next period.
 *
 * For each thread:
 *   period   = the VSYNC period;
 *   deadline = the app's window (app_duration), at most the period;
 *   runtime  = the stage's worst case (base + jitter + heavy, invariant µs)
 *              as wall time on the slowest CPU at the slowest OPP it may
 *              run at, at most the deadline; then both runtimes scaled down
 *              together if the pair would not pass admission control.
 *
 * "The slowest OPP it may run at": schedutil never runs a CPU below the
 * running DEADLINE bandwidth (it is the floor of its frequency request), so
 * a task reserving R every P runs at least at capacity 1024 * R / P, rounded
 * up to an OPP, or at the CPU's top OPP if that is less. The runtime is the
 * smallest R that covers the worst case at that floor on the slowest
 * cluster: W * 1024 / cap(floor(R)) <= R.
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
	bool fits;		/* worst case fits the deadline on the slowest CPU */
};

uint64_t stage_worst_us(const struct wl_dist *d)
{
	return (uint64_t)d->base_us + d->jitter_us +
	       (d->heavy_rate > 0 ? d->heavy_us : 0);
}

static const struct plat_cluster *slowest_cluster(const struct platform *p)
{
	const struct plat_cluster *slow = &p->cl[0];
	uint32_t c;

	for (c = 1; c < p->nclusters; c++)
		if (p->cl[c].capacity < slow->capacity)
			slow = &p->cl[c];
	return slow;
}

/* Capacity of cl at the lowest OPP schedutil may pick for bandwidth need. */
static uint32_t floor_capacity(const struct plat_cluster *cl, uint64_t need)
{
	uint32_t i;

	for (i = 0; i < cl->nopp; i++)
		if (plat_opp_capacity(cl, i) >= need)
			return plat_opp_capacity(cl, i);
	return plat_opp_capacity(cl, cl->nopp - 1);
}

/* Wall ns that worst_us take on cl when the task reserves runtime per period. */
static uint64_t worst_wall_ns(const struct plat_cluster *cl, uint64_t worst_us,
			      uint64_t runtime, uint64_t period)
{
	uint64_t need = (runtime * PLAT_CAPACITY_SCALE + period - 1) / period;
	uint32_t cap = floor_capacity(cl, need);

	return worst_us * 1000 * PLAT_CAPACITY_SCALE / (cap ? cap : 1);
}

/*
 * The smallest runtime that covers the worst case at its own frequency
 * floor; the wall time only falls as the runtime grows, so bisect.
 */
static void pick_runtime(struct dl_thread *t, const struct plat_cluster *cl,
			 uint64_t deadline, uint64_t period)
{
	uint64_t lo = DL_MIN_RUNTIME_NS, hi = deadline;

	t->fits = worst_wall_ns(cl, t->worst_us, hi, period) <= hi;
	if (!t->fits) {
		t->runtime_ns = deadline;
		return;
	}
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (worst_wall_ns(cl, t->worst_us, mid, period) <= mid)
			hi = mid;
		else
			lo = mid + 1;
	}
	t->runtime_ns = lo;
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

static int plan(struct strategy_ctx *ctx, struct dl_thread t[2], uint64_t *deadline,
		const char *who, char *err, size_t errlen)
{
	const struct plat_cluster *slow;
	uint64_t period = ctx->period_ns;
	double want, limit;
	int i;

	if (!ctx->plat || !ctx->wl || !ctx->plat->nclusters || !period) {
		snprintf(err, errlen, "%s: the pipeline gave no platform, workload or period",
			 who);
		return -1;
	}
	slow = slowest_cluster(ctx->plat);
	*deadline = ctx->app_duration_ns && ctx->app_duration_ns < period ?
		    ctx->app_duration_ns : period;
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
	for (i = 0; i < 2; i++)
		pick_runtime(&t[i], slow, *deadline, period);

	if (free_bw(ctx, &limit, who, err, errlen))
		return -1;
	limit = limit * DL_ADMIT_PCT / 100;
	want = (double)(t[0].runtime_ns + t[1].runtime_ns) / period;
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
			uint64_t deadline, const char *who)
{
	int i;

	for (i = 0; i < 2; i++)
		fprintf(stderr, "%s: %s runtime %" PRIu64 " us / deadline %" PRIu64
			" us / period %" PRIu64 " us (worst case %" PRIu64
			" invariant us%s)\n", who, t[i].role, t[i].runtime_ns / 1000,
			deadline / 1000, ctx->period_ns / 1000, t[i].worst_us,
			t[i].fits ? "" : ", capped: may overrun on the slowest CPU");
}

static int set_deadline(struct sys_undo *u, const struct dl_thread *t,
			uint64_t deadline, uint64_t period,
			const char *who, char *err, size_t errlen)
{
	struct sched_attr_v1 a = {
		.sched_policy = SCHED_DEADLINE,
		/* a DEADLINE task may only fork with reset-on-fork */
		.sched_flags = SA_FLAG_RESET_ON_FORK,
		.sched_runtime = t->runtime_ns,
		.sched_deadline = deadline,
		.sched_period = period,
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
	uint64_t deadline;
	int i;

	if (!s)
		return -1;
	if (sys_undo_feature(&s->undo, "PROXY_EXEC", proxy_exec, who, err, errlen) ||
	    plan(ctx, t, &deadline, who, err, errlen))
		return -1;
	report_plan(ctx, t, deadline, who);
	/* a thread already DEADLINE from a repeated setup is re-admitted as is */
	ctx->dl_bw_reserved_ppm = 0;
	for (i = 0; i < 2; i++) {
		if (set_deadline(&s->undo, &t[i], deadline, ctx->period_ns,
				 who, err, errlen))
			return -1;
		ctx->dl_bw_reserved_ppm += t[i].runtime_ns * 1000000 / ctx->period_ns;
	}
	return 0;
}

static int deadline_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	return deadline_setup_as(ctx, "deadline", false, err, errlen);
}

const struct strategy strategy_deadline = {
	.name = "deadline",
	.summary = "UI thread and RenderThread SCHED_DEADLINE, pessimistic runtimes from the workload",
	.setup = deadline_setup,
	.teardown = sys_teardown,
};
