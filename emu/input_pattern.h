/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input_pattern.h - when the workload's touch streams are active.
 */
#ifndef EMU_INPUT_PATTERN_H
#define EMU_INPUT_PATTERN_H

#include "workload.h"

/* Whether a touch stream is active at t_us after the start of the run. */
bool input_touching(const struct wl_input *in, uint64_t t_us);
/*
 * The first input event at or after t_us (events come every 1/event_hz
 * inside a stream, the first at the stream's start); UINT64_MAX if none.
 */
uint64_t input_next_event_us(const struct wl_input *in, uint64_t t_us);

#endif
