// SPDX-License-Identifier: GPL-2.0
/*
 * energy_limit.c - least-energy on-time assignment of each frame's stages.
 *
 * A multiple-choice knapsack with release times and deadlines, solved
 * exactly: walk the stages in order keeping the Pareto front of partial
 * assignments (no kept entry is both later and costlier than another).
 * Fronts stay small: a few dozen entries for 13 OPPs and 4 CPU stages.
 */
#include <stdlib.h>
#include <string.h>
#include "energy_limit.h"

struct entry {
	double t, cost, busy;
	struct el_pick pick[EL_MAX_STAGES];
};

struct option {
	double t, cost, busy;
	struct el_pick pick;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->cost > y->cost) - (x->cost < y->cost);
}

/* sort by time, keep only entries cheaper than every earlier one */
static size_t pareto(struct entry *e, size_t n)
{
	size_t i, k = 0;

	qsort(e, n, sizeof(*e), cmp_entry);
	for (i = 0; i < n; i++)
		if (!k || e[i].cost < e[k - 1].cost)
			e[k++] = e[i];
	return k;
}

static size_t stage_options(const struct platform *p, const struct el_stage *s,
			    bool count_idle, struct option *o)
{
	uint32_t c, i;
	size_t n = 0;

	if (s->fixed) {
		o[0] = (struct option){ .t = s->work_us };
		return 1;
	}
	for (c = 0; c < p->nclusters; c++) {
		const struct plat_cluster *cl = &p->cl[c];

		for (i = 0; i < cl->nopp; i++, n++) {
			double t = plat_wall_us(cl, i, s->work_us);
			double uw = (double)plat_opp_power_uw(cl, i);

			o[n].t = t;
			o[n].busy = uw * t / 1e6;
			o[n].cost = (uw - (count_idle ? cl->idle_uw : 0)) * t / 1e6;
			o[n].pick = (struct el_pick){ (uint8_t)c, (uint8_t)i };
		}
	}
	return n;
}

double el_background(const struct platform *p, double work_us, bool count_idle)
{
	struct el_stage s = { .work_us = work_us };
	struct option o[PLAT_MAX_CLUSTERS * PLAT_MAX_OPPS];
	double best = 0;
	size_t i, n;

	if (work_us <= 0)
		return 0;
	n = stage_options(p, &s, count_idle, o);
	for (i = 0; i < n; i++)
		if (!i || o[i].cost < best)
			best = o[i].cost;
	return best;
}

/* the fastest option of a stage, the cheapest among equally fast ones */
static const struct option *fastest(const struct option *o, size_t n)
{
	size_t i, best = 0;

	for (i = 1; i < n; i++)
		if (o[i].t < o[best].t ||
		    (o[i].t == o[best].t && o[i].cost < o[best].cost))
			best = i;
	return &o[best];
}

/*
 * Extend every entry of front by every option of stage s, dropping the
 * ones past the stage's deadline. Returns the new front's size.
 */
static size_t extend(struct entry *front, size_t n, struct entry *next,
		     const struct el_stage *s, double deadline,
		     const struct option *o, size_t no, uint32_t idx)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		double start = front[i].t > s->release_us ? front[i].t : s->release_us;

		for (j = 0; j < no; j++) {
			if (start + o[j].t > deadline)
				continue;
			next[k] = front[i];
			next[k].t = start + o[j].t;
			next[k].cost += o[j].cost;
			next[k].busy += o[j].busy;
			next[k].pick[idx] = o[j].pick;
			k++;
		}
	}
	return pareto(next, k);
}

static double stage_deadline(const struct el_frame *f, uint32_t s)
{
	double d = f->stage[s].deadline_us;

	return d > 0 && d < f->window_us ? d : f->window_us;
}

/* no on-time assignment exists: charge the fastest one */
static void fastest_chain(const struct platform *p, const struct el_frame *f,
			  bool count_idle, struct option *o,
			  struct el_frame_result *r, double *busy)
{
	uint32_t s;
	double t = 0;

	r->energy_uj = *busy = 0;
	for (s = 0; s < f->nstages; s++) {
		size_t no = stage_options(p, &f->stage[s], count_idle, o);
		const struct option *b = fastest(o, no);

		t = (t > f->stage[s].release_us ? t : f->stage[s].release_us) + b->t;
		r->energy_uj += b->cost;
		*busy += b->busy;
		r->pick[s] = b->pick;
	}
	r->end_us = t;
	r->feasible = false;
}

/* make room for n entries in both fronts */
static int grow(struct entry **front, struct entry **next, size_t *cap, size_t n)
{
	struct entry *a, *b;

	if (n <= *cap)
		return 0;
	a = realloc(*front, n * sizeof(**front));
	if (a)
		*front = a;
	b = realloc(*next, n * sizeof(**next));
	if (b)
		*next = b;
	if (!a || !b)
		return -1;
	*cap = n;
	return 0;
}

static int frame_min(const struct platform *p, const struct el_frame *f,
		     bool count_idle, struct el_frame_result *r, double *busy)
{
	struct option o[PLAT_MAX_CLUSTERS * PLAT_MAX_OPPS];
	struct entry *front = NULL, *next = NULL;
	size_t cap = 0, n = 1, no;
	uint32_t s;
	int ret = -1;

	if (f->nstages < 1 || f->nstages > EL_MAX_STAGES ||
	    grow(&front, &next, &cap, 64))
		goto out;
	memset(r, 0, sizeof(*r));
	memset(front, 0, sizeof(*front));	/* empty chain at t = 0 */
	for (s = 0; s < f->nstages && n; s++) {
		struct entry *tmp;

		no = stage_options(p, &f->stage[s], count_idle, o);
		if (grow(&front, &next, &cap, n * no))
			goto out;
		n = extend(front, n, next, &f->stage[s], stage_deadline(f, s),
			   o, no, s);
		tmp = front, front = next, next = tmp;
	}
	if (n) {
		/* fronts are sorted by time: the last is the cheapest */
		r->feasible = true;
		r->energy_uj = front[n - 1].cost;
		r->end_us = front[n - 1].t;
		*busy = front[n - 1].busy;
		memcpy(r->pick, front[n - 1].pick, sizeof(r->pick));
	} else {
		fastest_chain(p, f, count_idle, o, r, busy);
	}
	ret = 0;
out:
	free(front);
	free(next);
	return ret;
}

int el_frame_min(const struct platform *p, const struct el_frame *f,
		 bool count_idle, struct el_frame_result *r)
{
	double busy;

	return frame_min(p, f, count_idle, r, &busy);
}

int el_limit(const struct platform *p, const struct el_frame *f, size_t n,
	     double run_us, struct el_result *r)
{
	struct el_frame_result fr;
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		double busy;

		if (frame_min(p, &f[i], run_us > 0, &fr, &busy))
			return -1;
		r->frames++;
		r->infeasible += !fr.feasible;
		r->busy_uj += busy;
		r->energy_uj += fr.energy_uj;
	}
	if (run_us > 0) {
		r->idle_uj = plat_idle_uj(p, run_us);
		r->energy_uj += r->idle_uj;
	}
	return 0;
}

void el_frame_from_work(struct el_frame *ef, const struct frame_work *w,
			const struct workload *wl)
{
	double latch = wl->app_duration_us;
	int s;

	memset(ef, 0, sizeof(*ef));
	ef->nstages = WL_NSTAGES;
	ef->window_us = (double)wl->app_duration_us + wl->sf_duration_us;
	for (s = 0; s < WL_NSTAGES; s++)
		ef->stage[s].work_us = w->us[s];
	ef->stage[WL_GPU].fixed = true;
	ef->stage[WL_GPU].deadline_us = latch;	/* acquire fence by the latch */
	ef->stage[WL_SF].release_us = latch;	/* SF wakes at VSYNC-sf */
}
