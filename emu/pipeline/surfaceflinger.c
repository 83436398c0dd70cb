// SPDX-License-Identifier: GPL-2.0
/*
 * surfaceflinger.c - SurfaceFlinger's main thread.
 *
 * At each VSYNC-sf it latches at most one buffer of the app's layer: the
 * oldest queued one, if its acquire fence has signaled and its frame is
 * not early (bufferqueue.h), composes (sf work, counted from its wake-up
 * with the latching: work.h), and presents it
 * (DISPLAY_IOC_PRESENT); the present fence's timestamp is the frame's
 * present time. SCHED_FIFO 2 with a uclamp.min, on the LITTLE CPUs, as a
 * device runs it (android_tuning.h, task_profiles.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "android_tuning.h"
#include "clock.h"
#include "fence.h"
#include "hw.h"
#include "pl.h"
#include "task_profiles.h"
#include "work.h"

/* Read the present fences that have signaled (non-blocking). */
static void reap_presents(struct pl *p)
{
	int k = 0;

	while (k < p->npending) {
		struct pl_frame *f = &p->fr[p->pending[k]];
		int st = fence_status(f->present_fd);

		if (st == 0) {
			k++;
			continue;
		}
		if (st == 1) {
			f->ft.actual.present = fence_timestamp(f->present_fd);
			f->ft.sf_actual.present = f->ft.actual.present;
			tb_instant(&p->tb, p->display_tid, "present fence",
				   f->ft.actual.present);
		} else {
			f->ft.dropped = true;	/* replaced before a VSYNC */
		}
		fence_put(&f->present_fd);
		pl_resolve(p);
		p->pending[k] = p->pending[--p->npending];
	}
}

/* one VSYNC-sf: latch, compose, present */
static void sf_frame(struct pl *p, int64_t present)
{
	int64_t start = mono_ns(), end, mark = work_mark();
	struct display_present dp;
	struct pl_frame *f;
	struct bq_latch l;

	/* how late SF woke: the emulator's (and the kernel's) wake-up latency */
	if (p->nsf_late < p->sf_late_cap)
		p->sf_late[p->nsf_late++] = (start - (present - p->sf_ns)) / 1e6;
	reap_presents(p);
	bq_latch(&p->bq, present, p->period / 2, &l);
	if (l.slot < 0)
		return;		/* nothing new: SF does not compose */
	f = &p->fr[l.frame];
	f->ft.last_latch = p->last_latch;
	p->last_latch = start;
	pl_frame_gpu_done(f);
	tb_flow(&p->tb, "acquire fence", p->gpu_tid, f->gpu_end, p->sf_tid, start);
	work_spin_us_since(mark, f->work.us[WL_SF]);
	if (hw_present(p->cfg->hw->fd, f->acquire_fd, (uint32_t)l.slot, &dp)) {
		pl_fail(p, "SurfaceFlinger: %s: %s", "DISPLAY_IOC_PRESENT", errno);
		bq_unlatch(&p->bq, l.slot);
		return;
	}
	bq_shown(&p->bq, l.slot, dp.release_fd);
	fence_put(&f->acquire_fd);
	end = mono_ns();
	f->ft.sf_expected.start = present - p->sf_ns;
	f->ft.sf_expected.end = present;
	f->ft.sf_expected.present = present;
	f->ft.sf_actual.start = start;
	f->ft.sf_actual.end = end;
	f->present_fd = dp.present_fd;
	tb_slice(&p->tb, p->sf_tid, "sf", "composite", l.frame, start, end);
	if (p->npending < PL_MAX_PENDING) {
		p->pending[p->npending++] = (int)l.frame;
	} else {		/* cannot happen: one present a VSYNC */
		fence_put(&f->present_fd);
		pl_resolve(p);
	}
}

void *sf_main(void *arg)
{
	struct pl *p = arg;
	uint64_t seen = 0;
	int64_t present;

	pl_set_fifo(TP_SF_FIFO_PRIO);
	if (tp_system_background(p->cfg->ph))
		fprintf(stderr, "pipeline: SurfaceFlinger to system-background: sched_setaffinity: %s\n",
			strerror(errno));
	/* a kernel without uclamp runs it without: the RT default is absent too */
	if (android_sf_uclamp() && errno != EOPNOTSUPP)
		fprintf(stderr, "pipeline: SurfaceFlinger uclamp.min: sched_setattr: %s\n",
			strerror(errno));
	if (!pl_thread_ready(p, &p->sf_tid, "surfaceflinger"))
		return NULL;
	while (pl_wait_vsync(p, &p->sf_seq, &p->sf_present, &p->sf_cond, &seen,
			     &present))
		sf_frame(p, present);
	return NULL;
}
