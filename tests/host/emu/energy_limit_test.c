// SPDX-License-Identifier: GPL-2.0
/*
 * energy_limit_test.c - the physical limit on small cases computed by
 * hand, and against brute force on the default phone.
 */
#include <stdlib.h>
#include <string.h>
#include "emu_test.h"
#include "energy_limit.h"

/*
 * One CPU, capacity 1024, cdyn 1000, no static or idle power:
 *   500 MHz, 0.8 V: 320 mW, capacity 512 -> 1000 inv µs take 2000 µs, 640 µJ
 *  1000 MHz, 1.0 V: 1000 mW, capacity 1024 -> 1000 µs, 1000 µJ
 */
static void one_cluster(struct platform *p)
{
	memset(p, 0, sizeof(*p));
	p->nclusters = 1;
	p->cl[0] = (struct plat_cluster){
		.name = "one", .ncpus = 1, .capacity = 1024, .cdyn = 1000,
		.nopp = 2, .opp = { { 500000, 800 }, { 1000000, 1000 } },
	};
}

/* plus a slow, frugal cluster: capacity 512, one OPP, 200 mW -> 400 µJ */
static void two_clusters(struct platform *p)
{
	one_cluster(p);
	p->nclusters = 2;
	p->cl[1] = (struct plat_cluster){
		.name = "slow", .ncpus = 1, .capacity = 512, .cdyn = 200,
		.nopp = 1, .opp = { { 1000000, 1000 } },
	};
}

static struct el_frame chain(double window, int n, const double *work)
{
	struct el_frame f = { .nstages = n, .window_us = window };
	int i;

	for (i = 0; i < n; i++)
		f.stage[i].work_us = work[i];
	return f;
}

static const double w1[] = { 1000 }, w2[] = { 1000, 1000 };

TEST(ample_window_takes_the_low_opp)
{
	struct platform p;
	struct el_frame f = chain(2500, 1, w1);
	struct el_frame_result r;

	one_cluster(&p);
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_TRUE(r.feasible);
	ASSERT_NEAR(640, r.energy_uj, 1e-9);
	ASSERT_NEAR(2000, r.end_us, 1e-9);
	ASSERT_EQ(0, r.pick[0].opp);
}

TEST(tight_window_needs_the_high_opp)
{
	struct platform p;
	struct el_frame f = chain(1500, 1, w1);
	struct el_frame_result r;

	one_cluster(&p);
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_TRUE(r.feasible);
	ASSERT_NEAR(1000, r.energy_uj, 1e-9);
	ASSERT_EQ(1, r.pick[0].opp);
}

TEST(window_exactly_met_is_on_time)
{
	struct platform p;
	struct el_frame f = chain(2000, 1, w1);
	struct el_frame_result r;

	one_cluster(&p);
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_TRUE(r.feasible);
	ASSERT_NEAR(640, r.energy_uj, 1e-9);
	/* a hair less and the low OPP no longer fits */
	f.window_us = 1999.9;
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_EQ(1, r.pick[0].opp);
	ASSERT_NEAR(1000, r.energy_uj, 1e-9);
}

TEST(sequential_stages_share_the_window)
{
	struct platform p;
	struct el_frame f = chain(3000, 2, w2);
	struct el_frame_result r;

	one_cluster(&p);
	/* low+low = 4000 µs: too long; low+high = 3000: 640 + 1000 */
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_TRUE(r.feasible);
	ASSERT_NEAR(1640, r.energy_uj, 1e-9);
	ASSERT_NEAR(3000, r.end_us, 1e-9);
	ASSERT_NE(r.pick[0].opp, r.pick[1].opp);
}

TEST(infeasible_frame_is_charged_its_fastest_chain)
{
	struct platform p;
	struct el_frame f = chain(1000, 2, w2);
	struct el_frame_result r;

	one_cluster(&p);
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_FALSE(r.feasible);
	ASSERT_NEAR(2000, r.energy_uj, 1e-9);
	ASSERT_NEAR(2000, r.end_us, 1e-9);
}

TEST(fixed_stage_takes_its_time_and_no_energy)
{
	struct platform p;
	struct el_frame f = chain(2500, 2, (const double[]){ 500, 1000 });
	struct el_frame_result r;

	one_cluster(&p);
	f.stage[0].fixed = true;		/* 500 µs of GPU */
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_NEAR(640, r.energy_uj, 1e-9);	/* 500 + 2000 fits */
	f.window_us = 2400;
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_NEAR(1000, r.energy_uj, 1e-9);
}

TEST(release_time_delays_a_stage)
{
	struct platform p;
	struct el_frame f = chain(4000, 2, w2);
	struct el_frame_result r;

	one_cluster(&p);
	f.stage[1].release_us = 2000;
	/* A low ends at 2000, B low 2000..4000 */
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_NEAR(1280, r.energy_uj, 1e-9);
	/* B must now be high: 2000..3000; A can stay low */
	f.window_us = 3500;
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_NEAR(1640, r.energy_uj, 1e-9);
	ASSERT_EQ(0, r.pick[0].opp);
	ASSERT_EQ(1, r.pick[1].opp);
}

TEST(stage_deadline_constrains_that_stage)
{
	struct platform p;
	struct el_frame f = chain(4000, 2, w2);
	struct el_frame_result r;

	one_cluster(&p);
	f.stage[0].deadline_us = 1500;
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_NEAR(1640, r.energy_uj, 1e-9);
	ASSERT_EQ(1, r.pick[0].opp);
	ASSERT_EQ(0, r.pick[1].opp);
}

TEST(cheaper_cluster_wins_when_it_fits)
{
	struct platform p;
	struct el_frame f = chain(2500, 1, w1);
	struct el_frame_result r;

	two_clusters(&p);
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_NEAR(400, r.energy_uj, 1e-9);
	ASSERT_EQ(1, r.pick[0].cluster);
	f.window_us = 1500;
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_NEAR(1000, r.energy_uj, 1e-9);
	ASSERT_EQ(0, r.pick[0].cluster);
}

TEST(idle_power_counted)
{
	struct platform p;
	struct el_frame f = chain(2500, 1, w1);
	struct el_result r;

	one_cluster(&p);
	p.cl[0].idle_uw = 100000;
	/* low: (320 - 100) mW * 2 ms = 440 µJ, idle floor 100 mW * 10 ms */
	ASSERT_EQ(0, el_limit(&p, &f, 1, 10000, &r));
	ASSERT_NEAR(640, r.busy_uj, 1e-9);
	ASSERT_NEAR(1000, r.idle_uj, 1e-9);
	ASSERT_NEAR(1440, r.energy_uj, 1e-9);
	/* without run_us: busy energy only */
	ASSERT_EQ(0, el_limit(&p, &f, 1, 0, &r));
	ASSERT_NEAR(640, r.energy_uj, 1e-9);
	ASSERT_NEAR(0, r.idle_uj, 0);
}

/* background work: the cheapest OPP of the cheapest cluster, no deadline */
TEST(background_work_at_its_cheapest)
{
	struct platform p;

	two_clusters(&p);
	/* 1000 inv µs: 640 µJ at 500 MHz, 1000 at 1 GHz, 400 on the slow one */
	ASSERT_NEAR(400, el_background(&p, 1000, false), 1e-9);
	ASSERT_NEAR(0, el_background(&p, 0, false), 0);
	/* above idle: 100 mW less over the 2000 µs the slow cluster takes */
	p.cl[1].idle_uw = 100000;
	ASSERT_NEAR(200, el_background(&p, 1000, true), 1e-9);
}

TEST(idle_power_can_change_the_choice)
{
	struct platform p;
	struct el_frame f = chain(2500, 1, w1);
	struct el_frame_result r;

	one_cluster(&p);
	/* busy: low 820 mW * 2 ms = 1640, high 1500 mW * 1 ms = 1500 */
	p.cl[0].static_uw = 500000;
	p.cl[0].idle_uw = 400000;
	ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
	ASSERT_EQ(1, r.pick[0].opp);
	ASSERT_NEAR(1500, r.energy_uj, 1e-9);
	/* over idle: low 420 * 2 = 840, high 1100 * 1 = 1100 */
	ASSERT_EQ(0, el_frame_min(&p, &f, true, &r));
	ASSERT_EQ(0, r.pick[0].opp);
	ASSERT_NEAR(840, r.energy_uj, 1e-9);
}

TEST(limit_sums_frames_and_counts_infeasible)
{
	struct platform p;
	struct el_frame f[3] = {
		chain(2500, 1, w1), chain(1500, 1, w1), chain(1000, 2, w2),
	};
	struct el_result r;

	one_cluster(&p);
	ASSERT_EQ(0, el_limit(&p, f, 3, 0, &r));
	ASSERT_EQ(3, r.frames);
	ASSERT_EQ(1, r.infeasible);
	ASSERT_NEAR(640 + 1000 + 2000, r.energy_uj, 1e-9);
}

TEST(bad_frame_is_refused)
{
	struct platform p;
	struct el_frame f = chain(1000, 1, w1);
	struct el_frame_result r;

	one_cluster(&p);
	f.nstages = 0;
	ASSERT_EQ(-1, el_frame_min(&p, &f, false, &r));
	f.nstages = EL_MAX_STAGES + 1;
	ASSERT_EQ(-1, el_frame_min(&p, &f, false, &r));
}

/* every assignment of the CPU stages, the plain way */
static double brute(const struct platform *p, const struct el_frame *f,
		    bool *feasible)
{
	uint32_t nopt = 0, c, i, s, k, idx[EL_MAX_STAGES] = { 0 };
	struct el_pick opt[PLAT_MAX_CLUSTERS * PLAT_MAX_OPPS];
	double best = -1;

	for (c = 0; c < p->nclusters; c++)
		for (i = 0; i < p->cl[c].nopp; i++)
			opt[nopt++] = (struct el_pick){ c, i };
	for (;;) {
		double t = 0, e = 0;
		bool ok = true;

		for (s = 0; s < f->nstages; s++) {
			const struct el_stage *st = &f->stage[s];
			const struct plat_cluster *cl = &p->cl[opt[idx[s]].cluster];
			double d = st->fixed ? st->work_us :
				plat_wall_us(cl, opt[idx[s]].opp, st->work_us);
			double dl = st->deadline_us > 0 ? st->deadline_us : f->window_us;

			t = (t > st->release_us ? t : st->release_us) + d;
			if (!st->fixed)
				e += plat_opp_power_uw(cl, opt[idx[s]].opp) * d / 1e6;
			ok &= t <= dl && t <= f->window_us;
		}
		if (ok && (best < 0 || e < best))
			best = e;
		/* next combination; fixed stages have one option */
		for (k = 0; k < f->nstages; k++) {
			if (!f->stage[k].fixed && ++idx[k] < nopt)
				break;
			idx[k] = 0;
		}
		if (k == f->nstages)
			break;
	}
	*feasible = best >= 0;
	return best;
}

TEST(matches_brute_force_on_the_default_phone)
{
	struct workload wl = { .app_duration_us = 20500, .sf_duration_us = 10500 };
	struct platform p;
	int i, feasible = 0, infeasible = 0;

	platform_default(&p);
	for (i = 0; i < 40; i++) {
		struct frame_work w;
		struct el_frame f;
		struct el_frame_result r;
		bool ok;
		double e;

		memset(&w, 0, sizeof(w));
		/* wide random work, so that some frames cannot make it */
		w.us[WL_UI] = 1000 + 12000 * frame_work_uniform(9, i, 0);
		w.us[WL_RENDER] = 1000 + 10000 * frame_work_uniform(9, i, 1);
		w.us[WL_GPU_SUBMIT] = 200 + 800 * frame_work_uniform(9, i, 2);
		w.us[WL_GPU] = 1000 + 6000 * frame_work_uniform(9, i, 3);
		w.us[WL_SF] = 500 + 4000 * frame_work_uniform(9, i, 4);
		el_frame_from_work(&f, &w, &wl);
		ASSERT_EQ(0, el_frame_min(&p, &f, false, &r));
		e = brute(&p, &f, &ok);
		ASSERT_EQ(ok, r.feasible) TH_LOG("frame %d", i);
		if (ok)
			ASSERT_NEAR(e, r.energy_uj, 1e-6 * e);
		feasible += ok;
		infeasible += !ok;
	}
	/* the draw must exercise both outcomes to mean anything */
	ASSERT_GT(feasible, 5);
	ASSERT_GT(infeasible, 0);
}

TEST(frame_from_work_keeps_the_pipeline_shape)
{
	struct workload wl = { .app_duration_us = 20500, .sf_duration_us = 10500 };
	struct frame_work w = { .us = { 7000, 6500, 500, 3000, 1500 } };
	struct el_frame f;

	el_frame_from_work(&f, &w, &wl);
	ASSERT_EQ(5, f.nstages);
	ASSERT_NEAR(31000, f.window_us, 0);
	ASSERT_TRUE(f.stage[WL_GPU].fixed);
	ASSERT_FALSE(f.stage[WL_UI].fixed);
	ASSERT_NEAR(20500, f.stage[WL_GPU].deadline_us, 0);
	ASSERT_NEAR(20500, f.stage[WL_SF].release_us, 0);
	ASSERT_NEAR(6500, f.stage[WL_RENDER].work_us, 0);
}

TEST(article_example_limit_is_below_running_at_fmax)
{
	struct workload wl;
	struct platform p;
	struct el_frame f[60];
	struct el_result r;
	char err[256] = "";
	double fmax_uj = 0;
	int i, s;

	ASSERT_EQ(0, wl_load("emu/workloads/article-example.json", &wl, err,
			     sizeof(err))) TH_LOG("%s", err);
	platform_default(&p);
	for (i = 0; i < 60; i++) {
		struct frame_work w;

		frame_work_get(&wl, i, &w);
		el_frame_from_work(&f[i], &w, &wl);
		for (s = 0; s < WL_NSTAGES; s++)
			if (s != WL_GPU)	/* big at fmax: wall = work */
				fmax_uj += plat_opp_power_uw(&p.cl[1], 6) * w.us[s] / 1e6;
	}
	ASSERT_EQ(0, el_limit(&p, f, 60, 0, &r));
	ASSERT_EQ(0, r.infeasible);
	ASSERT_GT(r.energy_uj, 0);
	ASSERT_LT(r.energy_uj, 0.8 * fmax_uj);
}

/* a workload's janks must be the scheduler's, not physics' */
FIXTURE(shipped) { };
FIXTURE_SETUP(shipped) { }
FIXTURE_TEARDOWN(shipped) { }
FIXTURE_VARIANT(shipped) { const char *file; };
FIXTURE_VARIANT_ADD(shipped, light_scroll) { "emu/workloads/light-scroll-60.json" };
FIXTURE_VARIANT_ADD(shipped, game) { "emu/workloads/game-120.json" };
FIXTURE_VARIANT_ADD(shipped, ui_heavy) { "emu/workloads/ui-heavy-background.json" };
FIXTURE_VARIANT_ADD(shipped, article) { "emu/workloads/article-example.json" };

TEST_F(shipped, every_frame_can_be_on_time)
{
	struct workload wl;
	struct platform p;
	struct el_frame *f;
	struct el_result r;
	char err[256] = "";
	uint32_t i;

	ASSERT_EQ(0, wl_load(variant->file, &wl, err, sizeof(err))) TH_LOG("%s", err);
	platform_default(&p);
	f = calloc(wl.frames, sizeof(*f));
	ASSERT_NE(NULL, f);
	for (i = 0; i < wl.frames; i++) {
		struct frame_work w;

		frame_work_get(&wl, i, &w);
		el_frame_from_work(&f[i], &w, &wl);
	}
	ASSERT_EQ(0, el_limit(&p, f, wl.frames, 0, &r));
	free(f);
	ASSERT_EQ(wl.frames, r.frames);
	ASSERT_EQ(0, r.infeasible);
	TH_LOG("%s: limit %.3f mJ per frame", wl.name, r.energy_uj / 1000 / wl.frames);
}

TEST_HARNESS_MAIN
