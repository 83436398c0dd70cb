// SPDX-License-Identifier: GPL-2.0
/*
 * render_thread.c - the app's RenderThread (HWUI).
 *
 * For each frame the UI thread hands over: sync it (the UI thread is
 * released then), and, unless SurfaceFlinger is running behind, draw it:
 * dequeue one of the BufferQueue's buffers (blocking while none is free,
 * then on its release fence), the render work, DISPLAY_IOC_GPU_SUBMIT
 * (gpu_submit CPU work under the driver mutex, then gpu time), and queue
 * the buffer with the GPU's fence as acquire fence.
 *
 * Running behind: HWUI's CanvasContext::prepareTree() asked the surface
 * for NATIVE_WINDOW_CONSUMER_RUNNING_BEHIND (BufferQueueProducer::query():
 * more than one buffer queued) and did not draw the frame when it was, so
 * that a backlog drained instead of standing. Later HWUI no longer asks;
 * there a backlog drains when the app goes idle or misses a VSYNC. The
 * emulated app draws on every VSYNC and never idles, so the emulator
 * keeps the query: without it one late frame would leave every later
 * frame of the run a period late (Buffer Stuffing). It asks by time, not
 * by count: with the durations' schedule (app_duration longer than a
 * period) a frame on time is still queued when the next one syncs, and in
 * a stuffed queue SurfaceFlinger's latch takes the older buffer between
 * RenderThread queueing one frame and syncing the next, so two buffers
 * are never queued at a sync. A buffer still queued after SurfaceFlinger
 * latched for its frame's present is the backlog.
 */
#include <errno.h>
#include "clock.h"
#include "fence.h"
#include "hw.h"
#include "pl.h"
#include "task_profiles.h"
#include "work.h"

/* syncFrameState: take the frame the UI thread posted, release it. */
static int64_t sync_frame(struct pl *p)
{
	int64_t i;

	pthread_mutex_lock(&p->lock);
	while (p->handoff < 0 && !p->stop)
		pthread_cond_wait(&p->render_cond, &p->lock);
	i = p->stop ? -1 : p->handoff;
	p->handoff = -1;
	if (i >= 0) {
		p->fr[i].synced = mono_ns();
		tokens_synced(p, &p->fr[i]);
		p->render_synced = (uint32_t)i + 1;
		pthread_cond_signal(&p->ui_cond);
	}
	pthread_mutex_unlock(&p->lock);
	return i;
}

static void frame_done(struct pl *p, int64_t i)
{
	pthread_mutex_lock(&p->lock);
	tokens_frame_done(p);
	p->render_done = (uint32_t)i + 1;
	pthread_mutex_unlock(&p->lock);
}

/* Draw frame @i into a buffer and queue it; false on a fatal error. */
static bool draw_frame(struct pl *p, int64_t i)
{
	struct pl_frame *f = &p->fr[i];
	struct display_gpu_submit g;
	int64_t t0 = mono_ns(), t1, t2, t3, mark = work_mark();
	int release_fd, slot;

	slot = bq_dequeue(&p->bq, &release_fd);
	if (slot < 0)
		return false;
	if (fence_wait(release_fd, -1, &p->stop) < 0)
		pl_fail(p, "RenderThread: %s: %s", "release fence", errno);
	if (release_fd >= 0)
		tb_instant(&p->tb, p->display_tid, "release fence",
			   fence_timestamp(release_fd));
	fence_put(&release_fd);
	t1 = mono_ns();
	f->dequeue_ns = t1 - t0;
	tb_slice(&p->tb, p->render_tid, "app", "dequeueBuffer", i, t0, t1);
	/* dequeueBuffer's CPU time is part of the drawing's work */
	work_spin_us_since(mark, f->work.us[WL_RENDER]);
	t2 = mono_ns();
	tb_slice(&p->tb, p->render_tid, "app", "DrawFrame", i, t1, t2);
	if (hw_gpu_submit(p->cfg->hw->fd, f->work.us[WL_GPU_SUBMIT],
			  f->work.us[WL_GPU], &g)) {
		pl_fail(p, "RenderThread: %s: %s", "DISPLAY_IOC_GPU_SUBMIT", errno);
		bq_queue(&p->bq, slot, i, f->ft.expected.present, FENCE_NONE);
		return false;
	}
	t3 = mono_ns();
	tb_slice(&p->tb, p->render_tid, "app", "GPU submit", i, t2, t3);
	if (g.lock_wait_ns > 100000)
		tb_slice(&p->tb, p->render_tid, "app", "GPU driver mutex wait", i,
			 t2, t2 + (int64_t)g.lock_wait_ns);
	tb_slice(&p->tb, p->gpu_tid, "gpu", "GPU job", i,
		 (int64_t)g.gpu_start_ns, (int64_t)g.gpu_end_ns);
	f->lock_wait_ns = g.lock_wait_ns;
	f->acquire_fd = g.fence_fd;
	f->queued = mono_ns();
	f->render_inv_ns = work_since(mark);
	bq_queue(&p->bq, slot, i, f->ft.expected.present, g.fence_fd);
	tb_slice(&p->tb, p->render_tid, "app", "queueBuffer", i, t3, f->queued);
	return true;
}

void *render_main(void *arg)
{
	struct pl *p = arg;
	int64_t i;

	if (tp_top_app())
		pl_fail(p, "RenderThread: %s: %s", "nice", errno);
	if (!pl_thread_ready(p, &p->render_tid, "RenderThread"))
		return NULL;
	while ((i = sync_frame(p)) >= 0) {
		struct pl_frame *f = &p->fr[i];

		tb_slice(&p->tb, p->render_tid, "app", "syncFrameState", i,
			 f->synced, mono_ns());
		if (bq_running_behind(&p->bq)) {
			f->skipped = true;
			tb_instant(&p->tb, p->render_tid,
				   "skip frame: consumer running behind", f->synced);
			pl_resolve(p);
		} else if (!draw_frame(p, i)) {
			break;
		}
		frame_done(p, i);
	}
	return NULL;
}
