/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uclamp_pid.h - the controller of the uclamp strategy, as Android's ADPF
 * (PowerHAL hint sessions) does it: each frame, the measured work of the
 * thread group against a target duration sets the group's uclamp.min.
 *
 * Pure arithmetic, no I/O. Per frame, with the relative error
 *	e = (work - target) / target	(> 0: the frame was late)
 * the output is
 *	u = kp * e + I + kd * (e - e_prev),	I += ki * e,
 * clamped to 0..1024 (uclamp's range), where kp is kp_up when e > 0 and
 * kp_down otherwise: like ADPF, it boosts fast and decays slowly, since a
 * late frame is jank and an early one only some energy.
 *
 * The error is bounded to -1..1 (a frame twice the target or longer
 * counts as twice): otherwise one pathological frame (a page fault, a long
 * preemption) slams the output to 1024 through kp alone and the loop turns
 * into bang-bang on a CPU whose frame time grows fast as the clamp falls.
 *
 * Anti-windup: the integral, which carries the level that meets the target,
 * is kept within 0..1024, the output range; beyond it, it would only delay
 * the way back after a stretch that no boost could fix.
 */
#ifndef EMU_UCLAMP_PID_H
#define EMU_UCLAMP_PID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UCLAMP_PID_MAX		1024
#define UCLAMP_PID_ERR_MAX	1.0

struct uclamp_pid_gains {
	double kp_up;		/* uclamp units per unit of error, late frames */
	double kp_down;		/* the same, early frames */
	double ki;		/* integral, per frame */
	double kd;		/* derivative, per frame */
};

struct uclamp_pid {
	struct uclamp_pid_gains g;
	double integral;	/* in uclamp units, 0..1024 */
	double prev_err;
	bool have_prev;
	uint32_t out;		/* last output, 0..1024 */
};

/* The gains the uclamp strategy uses (values and reasons in uclamp_pid.c). */
void uclamp_pid_default_gains(struct uclamp_pid_gains *g);
/* 0, or -1 and "uclamp_pid: GAIN: expected ..." when a gain is not finite >= 0. */
int uclamp_pid_init(struct uclamp_pid *c, const struct uclamp_pid_gains *g,
		    char *err, size_t errlen);
/*
 * One frame: its work and the target, both in ns (any unit, the same for
 * both). Returns the new uclamp.min. A zero target leaves the output as is.
 */
uint32_t uclamp_pid_update(struct uclamp_pid *c, uint64_t work, uint64_t target);

#endif
