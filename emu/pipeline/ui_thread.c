// SPDX-License-Identifier: GPL-2.0
/*
 * ui_thread.c - the app's UI thread.
 *
 * One frame per VSYNC-app it sees: a VSYNC that comes while it is still
 * busy is missed, and the next doFrame takes the newest one, as
 * Choreographer does. After doFrame the frame goes to RenderThread as
 * HWUI's DrawFrameTask::postAndWait() sends it: the UI thread blocks until
 * RenderThread has synced the frame (syncFrameState), and RenderThread
 * syncs a frame only once it has finished drawing the one before. So the
 * UI thread never runs a frame ahead of RenderThread.
 */
#include <errno.h>
#include "clock.h"
#include "pl.h"
#include "task_profiles.h"
#include "work.h"

/*
 * DrawFrameTask::postAndWait(): hand frame @i over, block until synced.
 * Under a token strategy the frame's DEADLINE reservation goes with it.
 */
static void post_and_wait(struct pl *p, uint32_t i)
{
	pthread_mutex_lock(&p->lock);
	tokens_post(p);
	p->handoff = i;
	pthread_cond_signal(&p->render_cond);
	while (p->render_synced <= i && !p->stop)
		pthread_cond_wait(&p->ui_cond, &p->lock);
	p->ui_done = i + 1;
	pthread_mutex_unlock(&p->lock);
}

void *ui_main(void *arg)
{
	struct pl *p = arg;
	uint64_t seen = 0;
	uint32_t i;

	if (tp_top_app())
		pl_fail(p, "UI thread: %s: %s", "nice", errno);
	if (!pl_thread_ready(p, &p->ui_tid, "UI thread"))
		return NULL;
	for (i = 0; i < p->n; i++) {
		struct pl_frame *f = &p->fr[i];
		int64_t present, mark;

		if (!pl_wait_vsync(p, &p->app_seq, &p->app_present, &p->ui_cond,
				   &seen, &present))
			break;
		ft_frame_init(&f->ft, i, p->period);
		ft_frame_predict(&f->ft, present, p->app_ns, p->sf_ns);
		tokens_frame_start(p, f);
		mark = work_mark();
		f->ft.actual.start = mono_ns();
		work_spin_us_since(mark, f->work.us[WL_UI]);
		f->ui_end = mono_ns();
		f->ui_inv_ns = work_since(mark);
		tb_slice(&p->tb, p->ui_tid, "app", "Choreographer#doFrame", i,
			 f->ft.actual.start, f->ui_end);
		post_and_wait(p, i);
		if (p->stop)
			break;
		tb_slice(&p->tb, p->ui_tid, "app", "postAndWait", i, f->ui_end,
			 f->synced);
	}
	return NULL;
}
