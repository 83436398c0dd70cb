/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - what every run of a program shares: the kernel tuned as
 * Android's init tunes it (android_tuning.h), the phone as the guest
 * reports it, the display module open at the workload's refresh rate,
 * and the work loop calibrated. Used by main.c and tests/guest/pipeline_*.
 */
#ifndef PL_SESSION_H
#define PL_SESSION_H

#include "android_tuning.h"
#include "hw.h"
#include "gplat.h"
#include "pipeline.h"

struct pl_session {
	struct gplat ph;
	struct hw hw;
	struct android_tuning tuning;
};

/* 0, or -1 with the reason in err (nothing left open). */
int session_open(struct pl_session *s, uint32_t refresh_hz, char *err,
		 size_t errlen);
void session_close(struct pl_session *s);
/* One run of wl under strategy st, no trace, no progress. */
int session_run(struct pl_session *s, const struct workload *wl,
		const struct strategy *st, struct pl_result *r);

#endif
