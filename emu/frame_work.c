// SPDX-License-Identifier: GPL-2.0
/*
 * frame_work.c - draw each frame's per-stage work from its distribution.
 */
#include "frame_work.h"

/* splitmix64's finaliser: a good 64-bit mix, so hashes need no state */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

double frame_work_uniform(uint64_t seed, uint64_t a, uint64_t b)
{
	uint64_t h = mix64(mix64(mix64(seed) ^ a) ^ b);

	return (double)(h >> 11) / (double)(1ull << 53);
}

#define DRAW_HEAVY	WL_NSTAGES	/* the per-frame heaviness draw */

void frame_work_get(const struct workload *wl, uint32_t frame,
		    struct frame_work *w)
{
	double heavy = frame_work_uniform(wl->seed, frame, DRAW_HEAVY);
	int s;

	for (s = 0; s < WL_NSTAGES; s++) {
		const struct wl_dist *d = &wl->stage[s];
		double u = frame_work_uniform(wl->seed, frame, s);
		/* 2*jitter+1 equally likely values: base-jitter .. base+jitter */
		int64_t j = (int64_t)(u * (2.0 * d->jitter_us + 1)) - d->jitter_us;

		w->heavy[s] = heavy < d->heavy_rate;
		w->us[s] = (uint32_t)((int64_t)d->base_us + j) +
			   (w->heavy[s] ? d->heavy_us : 0);
	}
}
