/* SPDX-License-Identifier: GPL-2.0 */
/*
 * energy_limit.h - the physical limit: the least CPU energy that could
 * have shown every frame on time.
 *
 * Each frame is a chain of stages run one after another. A CPU stage has
 * invariant work; it may run on any cluster at any OPP, taking
 * work * 1024 / cap(OPP) µs at the OPP's busy power. A fixed stage (the
 * GPU) takes its µs whatever the CPUs do and costs no CPU energy. A stage
 * may not start before its release time and must end by its deadline
 * (µs from the frame's start); the chain must end within the window.
 * The limit picks, per frame, the (cluster, OPP) of every CPU stage that
 * meets all of that at the least energy: exact, by merging per-stage
 * (time, energy) Pareto fronts.
 *
 * Assumptions, all of which make the bound lower, never higher, except
 * the first:
 *  - one OPP for a whole stage: no switching mid-stage. (Time-sharing two
 *    OPPs could be a little cheaper, so this is the best one-OPP-per-stage
 *    schedule, as asked of the limit, not a bound over every schedule.)
 *  - no contention: every stage finds a free CPU of the cluster it wants
 *    at the frequency it wants, even when frames overlap in the pipeline
 *    or when another stage wants another OPP of the same cluster;
 *  - frequency changes and wake-ups are free and instant;
 *  - GPU energy is not counted. Background work (what the phone is
 *    asked to do besides the frames) is counted by el_background(): the
 *    invariant work the background did, at the cheapest OPP of the
 *    cheapest cluster, with no deadline.
 * Idle power: with run_us == 0, energy is the busy energy of the stages
 * (P_busy * t). With run_us > 0 it is the energy of the whole CPU
 * platform over run_us: every CPU idling the whole time, plus
 * (P_busy - P_idle) * t for each stage, the choice minimising that.
 * A frame that cannot meet its window even at the fastest OPP counts as
 * infeasible and is charged for its fastest assignment.
 */
#ifndef EMU_ENERGY_LIMIT_H
#define EMU_ENERGY_LIMIT_H

#include "platform.h"
#include "frame_work.h"

#define EL_MAX_STAGES	8

struct el_stage {
	double work_us;		/* invariant µs; fixed: wall µs */
	bool fixed;
	double release_us;	/* may not start before; 0: no constraint */
	double deadline_us;	/* must end by; 0: only the window */
};

struct el_frame {
	uint32_t nstages;
	struct el_stage stage[EL_MAX_STAGES];
	double window_us;	/* the whole chain ends by this */
};

struct el_pick {
	uint8_t cluster, opp;	/* meaningless for fixed stages */
};

struct el_frame_result {
	bool feasible;
	double energy_uj;	/* the minimised cost (see idle above) */
	double end_us;		/* when the chain ends */
	struct el_pick pick[EL_MAX_STAGES];
};

struct el_result {
	uint32_t frames, infeasible;
	double busy_uj;		/* sum of P_busy * t of the picks */
	double idle_uj;		/* all CPUs idle for run_us; 0 if run_us == 0 */
	double energy_uj;	/* the limit */
};

/* Cheapest on-time assignment of one frame; -1 on ENOMEM or bad frame. */
int el_frame_min(const struct platform *p, const struct el_frame *f,
		 bool count_idle, struct el_frame_result *r);
/* The limit over n frames; run_us > 0 counts idle power (see above). */
int el_limit(const struct platform *p, const struct el_frame *f, size_t n,
	     double run_us, struct el_result *r);
/*
 * The least energy (µJ) for @work_us invariant µs of work with no
 * deadline: the cheapest (cluster, OPP) per unit of work; with
 * @count_idle, its power above idle (the idle part is in el_limit()'s).
 */
double el_background(const struct platform *p, double work_us, bool count_idle);
/*
 * The pipeline's frame as a chain: ui, render, gpu_submit on CPUs, gpu
 * fixed, all done by the SF latch (app_duration after VSYNC-app); sf
 * released at VSYNC-sf, done by the present (window = app + sf duration).
 */
void el_frame_from_work(struct el_frame *ef, const struct frame_work *w,
			const struct workload *wl);

#endif
