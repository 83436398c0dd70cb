// SPDX-License-Identifier: GPL-2.0
/*
 * adpf.c - the ADPF controller of a Pixel power HAL (see the header).
 */
#include <math.h>
#include <stdio.h>
#include "adpf.h"

#define UCLAMP_MAX	1024
#define UNIT_NS		100000.0	/* the controller counts in 100 µs */

/*
 * Pixel 6 Pro (raven) and Pixel 6 (oriole), powerhint-raven.json and
 * powerhint-oriole.json, AdpfConfig "REFRESH_60FPS" (LineageOS
 * android_device_google_raviole at 72dadeb7): PID_Po 2.0, PID_Pu 1.0,
 * PID_I 0.0 (so no integral term), PID_I_Init 200, PID_I_High 512,
 * PID_I_Low -30, PID_Do 500.0, PID_Du 0.0, sampling windows P 1, I 0,
 * D 1, UclampMin_Init 162, UclampMin_High 480, UclampMin_Low 2,
 * TargetTimeFactor 1.0.
 */
void adpf_config_pixel6_60fps(struct adpf_config *c)
{
	*c = (struct adpf_config){
		.po = 2.0, .pu = 1.0,
		.pi = 0.0, .i_init = 200, .i_high = 512, .i_low = -30,
		.pdo = 500.0, .pdu = 0.0,
		.init = 162, .high = 480, .low = 2,
		.target_factor = 1.0,
	};
}

static int bad(const char *field, const char *want, double v, char *err,
	       size_t errlen)
{
	snprintf(err, errlen, "adpf: %s: expected %s, got %g", field, want, v);
	return -1;
}

int adpf_session_init(struct adpf_session *s, const struct adpf_config *c,
		      char *err, size_t errlen)
{
	const struct { const char *name; double v; } gains[] = {
		{ "PID_Po", c->po }, { "PID_Pu", c->pu }, { "PID_I", c->pi },
		{ "PID_I_High", c->i_high }, { "PID_Do", c->pdo },
		{ "PID_Du", c->pdu }, { "TargetTimeFactor", c->target_factor },
	};
	size_t i;

	for (i = 0; i < sizeof(gains) / sizeof(*gains); i++)
		if (!isfinite(gains[i].v) || gains[i].v < 0)
			return bad(gains[i].name, "a finite value >= 0",
				   gains[i].v, err, errlen);
	if (!isfinite(c->i_low) || c->i_low > c->i_high)
		return bad("PID_I_Low", "finite, <= PID_I_High", c->i_low, err, errlen);
	if (!isfinite(c->i_init))
		return bad("PID_I_Init", "a finite value", c->i_init, err, errlen);
	if (c->high > UCLAMP_MAX)
		return bad("UclampMin_High", "<= 1024", c->high, err, errlen);
	if (c->init < c->low || c->init > c->high)
		return bad("UclampMin_Init", "within UclampMin_Low..UclampMin_High",
			   c->init, err, errlen);
	s->c = *c;
	/* PowerHintSession: integral_error = PID_I_Init / PID_I (0 if PID_I is 0) */
	s->integral = c->pi > 0 ? c->i_init / c->pi : 0;
	s->prev_err = 0;
	s->have_prev = false;
	s->out = c->init;
	return 0;
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

uint32_t adpf_report(struct adpf_session *s, uint64_t actual_ns,
		     uint64_t target_ns)
{
	const struct adpf_config *c = &s->c;
	double target = target_ns * c->target_factor / UNIT_NS;
	double e, p, i = 0, d = 0, de;

	if (!(target > 0))
		return s->out;
	e = actual_ns / UNIT_NS - target;
	p = (e > 0 ? c->po : c->pu) * e;
	if (c->pi > 0) {
		s->integral = clamp(s->integral + e * target,
				    c->i_low / c->pi, c->i_high / c->pi);
		i = c->pi * s->integral;
	}
	if (s->have_prev) {
		de = e - s->prev_err;
		d = (de > 0 ? c->pdo : c->pdu) * de / target;
	}
	s->prev_err = e;
	s->have_prev = true;
	s->out = (uint32_t)lround(clamp(s->out + p + i + d, c->low, c->high));
	return s->out;
}

uint32_t adpf_need(const struct adpf_config *c, uint64_t invariant_ns,
		   uint64_t target_ns)
{
	double target = target_ns * c->target_factor;

	if (!(target > 0))
		return c->high;
	return (uint32_t)lround(clamp(UCLAMP_MAX * (double)invariant_ns / target,
				      c->low, c->high));
}
