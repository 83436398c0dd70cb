// SPDX-License-Identifier: GPL-2.0
/*
 * input_pattern.c - touch streams with gaps: start, touch, gap, touch, ...
 */
#include "input_pattern.h"

/* index of the stream cycle at t_us, and the offset into it */
static bool stream_at(const struct wl_input *in, uint64_t t_us,
		      uint64_t *cycle, uint64_t *off_us)
{
	uint64_t start = (uint64_t)in->start_ms * 1000;
	uint64_t len = ((uint64_t)in->touch_ms + in->gap_ms) * 1000;

	if (!in->touch_ms || t_us < start)
		return false;
	*cycle = (t_us - start) / len;
	*off_us = (t_us - start) % len;
	return !in->streams || *cycle < in->streams;
}

bool input_touching(const struct wl_input *in, uint64_t t_us)
{
	uint64_t cycle, off;

	return stream_at(in, t_us, &cycle, &off) &&
	       off < (uint64_t)in->touch_ms * 1000;
}

uint64_t input_next_event_us(const struct wl_input *in, uint64_t t_us)
{
	uint64_t start = (uint64_t)in->start_ms * 1000;
	uint64_t len = ((uint64_t)in->touch_ms + in->gap_ms) * 1000;
	uint64_t touch = (uint64_t)in->touch_ms * 1000;
	uint64_t cycle, off, k, step;

	if (!in->touch_ms)
		return UINT64_MAX;
	if (t_us < start)
		t_us = start;
	if (!stream_at(in, t_us, &cycle, &off))
		return UINT64_MAX;
	step = 1000000 / in->event_hz;
	if (!step)
		step = 1;
	k = (off + step - 1) / step;		/* next event in this stream */
	if (off < touch && k * step < touch)
		return start + cycle * len + k * step;
	cycle++;				/* else the next stream's first */
	if (in->streams && cycle >= in->streams)
		return UINT64_MAX;
	return start + cycle * len;
}
