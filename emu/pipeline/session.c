// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - tune the kernel as Android does, open the phone and the
 * display, calibrate.
 */
#include <stdio.h>
#include <string.h>
#include "android_tuning.h"
#include "session.h"
#include "work.h"

int session_open(struct pl_session *s, uint32_t refresh_hz, char *err,
		 size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->hw.fd = -1;
	gplat_probe(&s->ph);
	if (android_tuning_apply(&s->tuning, err, errlen))
		return -1;
	if (hw_open(&s->hw, err, errlen))
		goto undo_tuning;
	if (hw_set_mode(&s->hw, refresh_hz, err, errlen) ||
	    work_calibrate(&s->ph, s->hw.fd, err, errlen))
		goto close_hw;
	return 0;

close_hw:
	hw_close(&s->hw);
undo_tuning:
	android_tuning_restore(&s->tuning);
	return -1;
}

void session_close(struct pl_session *s)
{
	hw_close(&s->hw);
	android_tuning_restore(&s->tuning);
}

int session_run(struct pl_session *s, const struct workload *wl,
		const struct strategy *st, struct pl_result *r)
{
	struct pl_config cfg = {
		.wl = wl, .ph = &s->ph, .hw = &s->hw, .index = 1, .count = 1,
	};

	return pl_run(&cfg, st, r);
}
