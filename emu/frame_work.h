/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame_work.h - the work of frame i, drawn from a workload's distributions.
 *
 * A pure function of (seed, frame index): every strategy replays exactly
 * the same frames, and the energy limit can be computed for them too.
 */
#ifndef EMU_FRAME_WORK_H
#define EMU_FRAME_WORK_H

#include "workload.h"

struct frame_work {
	uint32_t us[WL_NSTAGES];	/* invariant µs (gpu: GPU µs) */
	bool heavy[WL_NSTAGES];
};

/*
 * Per stage: base + uniform integer in [-jitter, +jitter], plus heavy_us
 * when the frame is heavy for that stage. One uniform draw per frame
 * decides heaviness for all stages (heavy if u < heavy_rate), so heavy
 * frames coincide across stages, as a complex frame is heavy for the UI
 * thread and RenderThread alike; a stage with a lower rate is heavy on a
 * subset of the frames of a stage with a higher one.
 */
void frame_work_get(const struct workload *wl, uint32_t frame,
		    struct frame_work *w);
/* A uniform double in [0, 1) from (seed, a, b); exposed for tests. */
double frame_work_uniform(uint64_t seed, uint64_t a, uint64_t b);

#endif
