// SPDX-License-Identifier: GPL-2.0
/*
 * touchboost.c - Android's TouchBoost (the power HAL's INTERACTION boost,
 * CAF's input boost): on input, every cpufreq policy's scaling_min_freq
 * goes up to a boost frequency, and back once no input came for a while.
 * schedutil still picks the frequency, but not below the boost.
 *
 * Boost frequency: the lowest OPP at or above TB_BOOST_PCT of the policy's
 * fmax. 80% because that is what the article's example needs: its chain is
 * 14 ms of work at fmax plus 3 ms of GPU in a 20.5 ms window, so a big CPU
 * must run at >= 14 / 17.5 = 80% of fmax; on the default phone that is
 * 2.5 of 2.8 GHz (big) and 1.5 of 1.8 GHz (LITTLE).
 *
 * Hold: TB_HOLD_MS after the last input event. Frames go on after the
 * finger lifts (a fling animates on its own) and power HALs hold their
 * interaction boost for a fling's length; 1 s covers the gaps of the
 * shipped touch patterns up to 1 s and lets longer gaps show the boost off.
 *
 * There is no thread of our own: on_input applies the boost and notes the
 * time; on_frame, called every frame, drops it once the hold has passed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../platform.h"
#include "variants.h"
#include "clock.h"

#define TB_BOOST_PCT	80
#define TB_HOLD_MS	1000

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
 * The OPPs: the driver's scaling_available_frequencies, else the platform
 * cluster with the same fmax, else none (the bare threshold, which cpufreq
 * resolves up to an OPP itself).
 */
static uint32_t boost_khz(const struct sys_policy *p, const struct platform *plat)
{
	uint32_t want = (uint32_t)((uint64_t)p->max_khz * TB_BOOST_PCT / 100);
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
	uint64_t v;
	uint32_t i;

	if (!s)
		return -1;
	if (s->ready)		/* set up already: the saved minimums stay */
		return 0;
	if (sys_policies_find(&s->pol, "touchboost", err, errlen) ||
	    cfs_baseline(&s->undo, ctx, "touchboost", err, errlen))
		return -1;
	for (i = 0; i < s->pol.n; i++) {
		snprintf(path, sizeof(path), "%s/scaling_min_freq", s->pol.p[i].dir);
		if (sys_read_u64(path, &v, "touchboost", err, errlen))
			return -1;
		s->orig_khz[i] = (uint32_t)v;
		s->boost_khz[i] = boost_khz(&s->pol.p[i], ctx->plat);
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
	.summary = "scaling_min_freq to ~80% of fmax on input, held 1 s after the last event",
	.setup = tb_setup,
	.on_input = tb_on_input,
	.on_frame = tb_on_frame,
	.teardown = sys_teardown,
};
