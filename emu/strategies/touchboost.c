// SPDX-License-Identifier: GPL-2.0
/*
 * touchboost.c - Android's touch boost, as a power HAL's INTERACTION hint
 * does it: on input, every cpufreq policy's scaling_min_freq goes up to a
 * boost frequency, held for a while after the last input. schedutil still
 * picks the frequency, but not below the boost.
 *
 * Levels: Pixel 4's (coral) powerhint.json INTERACTION actions (LineageOS
 * android_device_google_coral at 34b4f98c): CPULittleClusterMinFreq
 * 1113600 kHz of the LITTLE cluster's 1785600, CPUBigClusterMinFreq
 * 1286400 of the big cluster's 2419200: 62.4% and 53.2% of each
 * cluster's fmax, applied to the phone's clusters (the lowest-fmax policy
 * is LITTLE, the others big), resolved up to an OPP.
 *
 * Hold: the HAL's InteractionHandler (power-libperfmgr, disp-power)
 * holds the boost for clamp(duration + 650 ms, 1400 ms, 5650 ms) after a
 * touch, and the framework sends the hint with duration 0: 1400 ms,
 * re-armed by every touch. The HAL also ends it when the display goes
 * idle (no frame for 100 ms); the shipped workloads draw a frame every
 * VSYNC while they run, so that end is not modelled.
 *
 * Pixel 6, 6 Pro and 8 (raven, oriole, shiba powerhint.json) have no
 * INTERACTION action any more ("Remove universal touch boost", 2022) and
 * rely on ADPF (the uclamp strategies); CAF's input boost raises only the
 * LITTLE cluster, for tens of milliseconds.
 *
 * There is no thread of our own: on_input applies the boost and notes the
 * time; on_frame, called every frame, drops it once the hold has passed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../platform.h"
#include "variants.h"
#include "clock.h"

#define TB_LITTLE_PERMILLE	624	/* 1113600 / 1785600 */
#define TB_BIG_PERMILLE		532	/* 1286400 / 2419200 */
#define TB_HOLD_MS		1400

struct touchboost {
	struct sys_undo undo;
	struct sys_policies pol;
	uint32_t orig_khz[SYS_MAX_POLICIES];	/* scaling_min_freq before */
	uint32_t boost_khz[SYS_MAX_POLICIES];
	bool ready;				/* setup completed */
	bool boosted;
	uint64_t last_input_ns;			/* CLOCK_MONOTONIC */
	bool warned;
};

/*
 * @permille of the policy's fmax, up to an OPP: the driver's
 * scaling_available_frequencies, else the platform cluster with the same
 * fmax, else none (the bare threshold, which cpufreq resolves up to an OPP
 * itself).
 */
static uint32_t boost_khz(const struct sys_policy *p, uint32_t permille,
			  const struct platform *plat)
{
	uint32_t want = (uint32_t)((uint64_t)p->max_khz * permille / 1000);
	uint32_t i, c;

	for (i = 0; i < p->nfreq; i++)
		if (p->freq[i] >= want)
			return p->freq[i];
	for (c = 0; plat && c < plat->nclusters; c++) {
		const struct plat_cluster *cl = &plat->cl[c];

		if (cl->opp[cl->nopp - 1].khz != p->max_khz)
			continue;
		for (i = 0; i < cl->nopp; i++)
			if (cl->opp[i].khz >= want)
				return cl->opp[i].khz;
	}
	return want;
}

static int tb_setup(struct strategy_ctx *ctx, char *err, size_t errlen)
{
	struct touchboost *s = sys_priv(ctx, sizeof(*s), "touchboost", err, errlen);
	char path[SYS_PATH_LEN];
	uint32_t i, little_khz = UINT32_MAX;
	uint64_t v;

	if (!s)
		return -1;
	if (s->ready)		/* set up already: the saved minimums stay */
		return 0;
	if (sys_policies_find(&s->pol, "touchboost", err, errlen) ||
	    cfs_baseline(&s->undo, ctx, "touchboost", err, errlen))
		return -1;
	for (i = 0; i < s->pol.n; i++)
		if (s->pol.p[i].max_khz < little_khz)
			little_khz = s->pol.p[i].max_khz;
	for (i = 0; i < s->pol.n; i++) {
		const struct sys_policy *p = &s->pol.p[i];

		snprintf(path, sizeof(path), "%s/scaling_min_freq", p->dir);
		if (sys_read_u64(path, &v, "touchboost", err, errlen))
			return -1;
		s->orig_khz[i] = (uint32_t)v;
		s->boost_khz[i] = boost_khz(p, p->max_khz == little_khz ?
					    TB_LITTLE_PERMILLE : TB_BIG_PERMILLE,
					    ctx->plat);
	}
	s->ready = true;
	return 0;
}

/* Every policy's minimum to the boost (on) or back to where it was. */
static void tb_apply(struct touchboost *s, bool on)
{
	char err[256];
	uint32_t i;

	for (i = 0; i < s->pol.n; i++) {
		uint32_t khz = on ? s->boost_khz[i] : s->orig_khz[i];

		if (sys_undo_min_freq(&s->undo, &s->pol.p[i], khz, "touchboost",
				      err, sizeof(err)) && !s->warned) {
			/* hooks cannot fail the run; say it once */
			fprintf(stderr, "%s\n", err);
			s->warned = true;
		}
	}
	s->boosted = on;
}

static void tb_on_input(struct strategy_ctx *ctx, uint64_t now)
{
	struct touchboost *s = ctx->priv;

	(void)now;	/* the pipeline's clock; we time the hold on ours */
	if (!s || !s->ready)
		return;
	s->last_input_ns = mono_ns();
	if (!s->boosted)
		tb_apply(s, true);
}

static void tb_on_frame(struct strategy_ctx *ctx, const struct strategy_frame *f)
{
	struct touchboost *s = ctx->priv;

	(void)f;
	if (s && s->boosted &&
	    mono_ns() - s->last_input_ns >= TB_HOLD_MS * 1000000ULL)
		tb_apply(s, false);
}

const struct strategy strategy_touchboost = {
	.name = "touchboost",
	.summary = "a power HAL's INTERACTION boost: min freq 62% (LITTLE) / 53% (big) of fmax, 1.4 s after each touch",
	.setup = tb_setup,
	.on_input = tb_on_input,
	.on_frame = tb_on_frame,
	.teardown = sys_teardown,
};
