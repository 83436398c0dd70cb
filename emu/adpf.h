/* SPDX-License-Identifier: GPL-2.0 */
/*
 * adpf.h - Android's performance hint sessions (ADPF) as a Pixel power HAL
 * runs them, for the uclamp strategies: the app reports each frame's work
 * against a target, and the HAL sets the session threads' uclamp.min.
 * Pure arithmetic, no I/O.
 *
 * The controller (hardware/google/pixel, power-libperfmgr/aidl/
 * PowerHintSession.cpp, convertWorkDurationToBoostByPid(), read in the
 * LineageOS mirror at 040b51f8), per report, in units of 100 µs:
 *	e = actual - target,		dt = target
 *	P = (e > 0 ? Po : Pu) * e			(sampling window 1)
 *	I = PID_I * integral,	integral += e * dt, kept within
 *				[I_Low / PID_I, I_High / PID_I]
 *	D = (de > 0 ? Do : Du) * de / dt,	de = e - e_prev	(window 1)
 *	uclamp.min = clamp(previous + P + I + D, UclampMin_Low, UclampMin_High)
 * It is incremental: each report moves the previous uclamp.min. A session
 * starts at UclampMin_Init.
 *
 * With invariant run time (patch 0018) the need is not searched for: the
 * frame's invariant work is the time it takes at the biggest CPU's fmax,
 * so finishing it within the target takes a capacity of
 *	1024 * invariant / target
 * and that is the clamp, within the same [Low, High] (adpf_need()).
 */
#ifndef EMU_ADPF_H
#define EMU_ADPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An AdpfConfig profile of a device's powerhint.json. */
struct adpf_config {
	double po, pu;			/* PID_Po, PID_Pu */
	double pi, i_init, i_high, i_low;	/* PID_I, PID_I_Init/High/Low */
	double pdo, pdu;		/* PID_Do, PID_Du */
	uint32_t init, high, low;	/* UclampMin_Init/High/Low */
	double target_factor;		/* TargetTimeFactor */
};

struct adpf_session {
	struct adpf_config c;
	double integral;		/* in 100 µs * 100 µs */
	double prev_err;		/* 100 µs */
	bool have_prev;
	uint32_t out;			/* the session's uclamp.min */
};

/* The "REFRESH_60FPS" profile of Pixel 6 and 6 Pro (values in adpf.c). */
void adpf_config_pixel6_60fps(struct adpf_config *c);
/*
 * 0, or -1 and "adpf: FIELD: expected ..." for a gain that is not finite,
 * a negative one (I_Low aside), or Low > Init or Init > High or High > 1024.
 */
int adpf_session_init(struct adpf_session *s, const struct adpf_config *c,
		      char *err, size_t errlen);
/* One report: the frame's actual duration and the target, in ns. */
uint32_t adpf_report(struct adpf_session *s, uint64_t actual_ns,
		     uint64_t target_ns);
/* The clamp that invariant work @invariant_ns needs to fit @target_ns. */
uint32_t adpf_need(const struct adpf_config *c, uint64_t invariant_ns,
		   uint64_t target_ns);

#endif
