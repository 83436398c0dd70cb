// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - open the phone and the display, calibrate.
 */
#include <stdio.h>
#include <string.h>
#include "session.h"
#include "work.h"

int session_open(struct pl_session *s, uint32_t refresh_hz, char *err,
		 size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->hw.fd = -1;
	gplat_probe(&s->ph);
	if (hw_open(&s->hw, err, errlen))
		return -1;
	if (hw_set_mode(&s->hw, refresh_hz, err, errlen) ||
	    work_calibrate(&s->ph, s->hw.fd, err, errlen)) {
		hw_close(&s->hw);
		return -1;
	}
	return 0;
}

void session_close(struct pl_session *s)
{
	hw_close(&s->hw);
}

int session_run(struct pl_session *s, const struct workload *wl,
		const struct strategy *st, struct pl_result *r)
{
	struct pl_config cfg = {
		.wl = wl, .ph = &s->ph, .hw = &s->hw, .index = 1, .count = 1,
	};

	return pl_run(&cfg, st, r);
}
