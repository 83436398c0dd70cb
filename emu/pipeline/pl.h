/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pl.h - the state the pipeline's threads share during one run, and the
 * entry points of each thread role (one file each):
 *
 *   vsync.c          VSYNC dispatch (VSYNC-app, VSYNC-sf)
 *   ui_thread.c      the UI thread (Choreographer#doFrame, postAndWait)
 *   render_thread.c  RenderThread (sync, dequeue, draw, GPU, queue)
 *   surfaceflinger.c SurfaceFlinger (latch, compose, present)
 *   frames.c         per-frame bookkeeping and the run's statistics
 *   pipeline.c       the run: threads, strategy hooks, the control loop
 *
 * Locking: @lock protects every field marked [L]. Each thread that waits
 * for an event waits on a condition variable of its own, so that an event
 * wakes only the thread it is for (a VSYNC-app post wakes the UI thread
 * and nothing else): for a SCHED_DEADLINE thread every wake-up is a new
 * CBS activation, and a spurious one costs it budget.
 */
#ifndef PL_PL_H
#define PL_PL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "bufferqueue.h"
#include "frame_work.h"
#include "frametimeline.h"
#include "pipeline.h"
#include "tracebuf.h"

#define PL_MAX_PENDING	16	/* present fences not yet signaled */
#define PL_NTHREADS	4	/* VSYNC dispatch, UI, RenderThread, SF */

struct pl_frame {
	struct ft_frame ft;
	struct frame_work work;
	int64_t ui_end;		/* UI thread done with doFrame */
	int64_t synced;		/* RenderThread took it (syncFrameState) */
	int64_t queued, gpu_end;
	int64_t dequeue_ns;	/* RenderThread's dequeueBuffer, fence wait included */
	uint64_t ui_inv_ns;	/* invariant run time of doFrame */
	uint64_t render_inv_ns;	/* of RenderThread, dequeue to queue */
	uint64_t lock_wait_ns;
	int acquire_fd;
	int present_fd;
	bool skipped;		/* HWUI did not draw it: consumer behind */
	int8_t ui_token;	/* the DEADLINE token the UI thread woke
				 * for doFrame with, -1 */
	int8_t render_token;	/* RenderThread drew it on, -1 */
};

struct pl {
	const struct pl_config *cfg;
	const struct workload *wl;
	struct pl_result *res;
	struct tracebuf tb;
	struct bufferqueue bq;
	struct background bg;
	struct pl_frame *fr;
	uint32_t n;			/* frames to produce */
	int64_t period, app_ns, sf_ns;
	int64_t last_dequeue_ns;	/* report_frames(): the previous drawn frame's */

	pthread_mutex_t lock;
	pthread_cond_t start_cond;	/* ready, go: the start gate */
	pthread_cond_t ui_cond;		/* VSYNC-app posted, frame synced */
	pthread_cond_t render_cond;	/* a frame handed over */
	pthread_cond_t sf_cond;		/* VSYNC-sf posted */
	volatile bool stop;		/* [L] to set; read without */
	bool go;			/* [L] */
	int ready;			/* [L] threads with their tid */
	char error[PL_ERR_LEN];		/* [L] the first failure */
	uint64_t app_seq, sf_seq;	/* [L] VSYNC posts so far */
	int64_t app_present, sf_present;	/* [L] their presents */
	int64_t handoff;		/* [L] UI -> RenderThread, -1: empty */
	uint32_t render_synced;		/* [L] frames RenderThread took */
	uint32_t ui_done, render_done;	/* [L] frames through each */
	uint32_t resolved;		/* [L] */
	int64_t last_latch;		/* SurfaceFlinger's own */

	pthread_t th[PL_NTHREADS];
	bool th_started[PL_NTHREADS];
	pid_t disp_tid, ui_tid, render_tid, sf_tid, gpu_tid, display_tid;
	int vsync_fd;			/* the dispatcher's own file */
	int token_fd[STRATEGY_MAX_TOKENS];	/* the strategy's DEADLINE
						 * tokens, -1: none */
	pid_t token_holder[STRATEGY_MAX_TOKENS];	/* [L] 0: nobody */
	int pending[PL_MAX_PENDING];	/* SF: frames whose present fence is out */
	int npending;
	double *sf_late;		/* SF's wake-up after VSYNC-sf, ms */
	uint32_t nsf_late, sf_late_cap;
};

/* Record the first error, stop every thread. */
void pl_fail(struct pl *p, const char *fmt, const char *what, int err);
/* A pipeline thread names itself, then waits at the start gate. */
bool pl_thread_ready(struct pl *p, pid_t *tid, const char *name);
int pl_set_fifo(int prio);
/* One more frame done with: presented (time known), dropped or skipped. */
void pl_resolve(struct pl *p);
/* token_passing.c: who holds the strategy's tokens when; @lock held */
void tokens_init(struct pl *p, const int *fd);
void tokens_frame_start(struct pl *p, struct pl_frame *f);
void tokens_post(struct pl *p);
void tokens_synced(struct pl *p, struct pl_frame *f);
void tokens_frame_done(struct pl *p);
/*
 * Wait on @cond for a VSYNC post newer than *@seen (@seq counts them,
 * @posted holds the newest one's present); false when stopping.
 */
bool pl_wait_vsync(struct pl *p, const uint64_t *seq, const int64_t *posted,
		   pthread_cond_t *cond, uint64_t *seen, int64_t *present);

void *vsync_main(void *arg);
void *ui_main(void *arg);
void *render_main(void *arg);
void *sf_main(void *arg);

/* frames.c: the acquire fence signaled: the frame's GPU work is done */
void pl_frame_gpu_done(struct pl_frame *f);
/* frames.c: after the run */
void pl_summarize(struct pl *p);

#endif
