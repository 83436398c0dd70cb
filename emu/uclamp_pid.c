// SPDX-License-Identifier: GPL-2.0
/*
 * uclamp_pid.c - the uclamp strategy's PID controller (see the header).
 */
#include <math.h>
#include <stdio.h>
#include "uclamp_pid.h"

/*
 * Gains, for e in units of the target (e = 0.5: half a target late), tuned
 * on the host test's model of a CPU (frame time ~ 1 / capacity, the
 * article's chain needing ~70% where schedutil alone gives ~40%): on time
 * from the 4th frame, settled in ~20, no overshoot to 1024.
 * - kp_up 384: a frame 50% late raises uclamp.min by 192 at once;
 * - kp_down 64: six times gentler on the way down (ADPF is asymmetric too:
 *   a late frame is jank, an early one only some energy);
 * - ki 128: the integral, which holds the level, moves 64 a frame at 50%
 *   error;
 * - kd 32: a little damping of the swing from a heavy frame to a light one;
 *   more turns frame-to-frame jitter into uclamp noise.
 */
void uclamp_pid_default_gains(struct uclamp_pid_gains *g)
{
	g->kp_up = 384;
	g->kp_down = 64;
	g->ki = 128;
	g->kd = 32;
}

static int gain_ok(double v, const char *name, char *err, size_t errlen)
{
	if (isfinite(v) && v >= 0)
		return 0;
	snprintf(err, errlen, "uclamp_pid: %s: expected a finite gain >= 0, got %g",
		 name, v);
	return -1;
}

int uclamp_pid_init(struct uclamp_pid *c, const struct uclamp_pid_gains *g,
		    char *err, size_t errlen)
{
	if (gain_ok(g->kp_up, "kp_up", err, errlen) ||
	    gain_ok(g->kp_down, "kp_down", err, errlen) ||
	    gain_ok(g->ki, "ki", err, errlen) ||
	    gain_ok(g->kd, "kd", err, errlen))
		return -1;
	c->g = *g;
	c->integral = 0;
	c->prev_err = 0;
	c->have_prev = false;
	c->out = 0;
	return 0;
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

uint32_t uclamp_pid_update(struct uclamp_pid *c, uint64_t work, uint64_t target)
{
	double e, p, d, u;

	if (!target)
		return c->out;
	/* a frame twice as long or more counts as twice: see the header */
	e = clamp(((double)work - (double)target) / (double)target,
		  -UCLAMP_PID_ERR_MAX, UCLAMP_PID_ERR_MAX);
	p = (e > 0 ? c->g.kp_up : c->g.kp_down) * e;
	d = c->have_prev ? c->g.kd * (e - c->prev_err) : 0;
	c->integral = clamp(c->integral + c->g.ki * e, 0, UCLAMP_PID_MAX);

	u = clamp(p + c->integral + d, 0, UCLAMP_PID_MAX);
	c->prev_err = e;
	c->have_prev = true;
	c->out = (uint32_t)lround(u);
	return c->out;
}
