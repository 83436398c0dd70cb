/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bufferqueue.h - the BufferQueue between RenderThread (producer) and
 * SurfaceFlinger (consumer): BQ_BUFFERS buffers, each free, dequeued,
 * queued (with its acquire fence), latched, or on screen.
 *
 *   dequeue  the producer takes the free buffer that was released first
 *            and gets its release fence (it must wait on it before
 *            drawing), blocking while none is free;
 *   queue    the producer hands it back with a frame and an acquire fence
 *            (the GPU's: the buffer is queued before the GPU is done);
 *   latch    the consumer takes the oldest queued buffer, one a VSYNC,
 *            if its acquire fence has signaled and it is not early;
 *            nothing is dropped. An app's buffers carry automatic
 *            timestamps, and BufferQueueConsumer::acquireBuffer() drops
 *            a queued buffer only for an explicit present time; with
 *            BLAST, SurfaceFlinger applies at most one buffer of a layer
 *            per frame. A buffer is early when the present its frame was
 *            predicted for is half a VSYNC period or more after the
 *            present being composed: SurfaceFlinger's frameIsEarly()
 *            holds such a frame back for a later VSYNC;
 *   shown    the latched buffer goes on screen with the release fence the
 *            display returned; the one it replaces becomes free with its
 *            own release fence (signaled at the VSYNC that replaces it).
 *
 * Acquire fences stay owned by the caller (the frame records); release
 * fences are owned by the queue until dequeue hands one over.
 */
#ifndef PL_BUFFERQUEUE_H
#define PL_BUFFERQUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define BQ_BUFFERS	3

enum bq_state { BQ_FREE, BQ_DEQUEUED, BQ_QUEUED, BQ_LATCHED, BQ_SHOWN };

struct bq_slot {
	enum bq_state state;
	int release_fd;		/* BQ_FREE, BQ_SHOWN */
	int acquire_fd;		/* BQ_QUEUED: borrowed */
	int64_t frame;		/* BQ_QUEUED, BQ_LATCHED, BQ_SHOWN */
	int64_t present_ns;	/* BQ_QUEUED: the frame's predicted present */
	uint64_t order;		/* when it was queued (or freed) */
};

struct bufferqueue {
	pthread_mutex_t lock;
	pthread_cond_t freed;
	struct bq_slot slot[BQ_BUFFERS];
	uint64_t seq;
	int64_t last_latch_present;	/* the present of the latest bq_latch() */
	bool stop;
};

struct bq_latch {
	int slot;			/* -1: nothing new to show */
	int64_t frame;
};

void bq_init(struct bufferqueue *bq);
/* Close the release fences left. */
void bq_destroy(struct bufferqueue *bq);
/* Wake every waiter; dequeue fails from now on. */
void bq_stop(struct bufferqueue *bq);
/* A free slot, its release fence in *release_fd; -1 once stopped. */
int bq_dequeue(struct bufferqueue *bq, int *release_fd);
void bq_queue(struct bufferqueue *bq, int slot, int64_t frame,
	      int64_t present_ns, int acquire_fd);
/*
 * The consumer runs behind: a queued buffer missed its latch (the
 * consumer has latched for the present its frame was predicted for, or a
 * later one, and it is still queued). render_thread.c says why by time,
 * not by count as BufferQueueProducer::query() does.
 */
bool bq_running_behind(struct bufferqueue *bq);
/*
 * Latch for the present at @present_ns: buffers predicted for
 * @present_ns + @early_ns or later are early and stay queued.
 */
void bq_latch(struct bufferqueue *bq, int64_t present_ns, int64_t early_ns,
	      struct bq_latch *l);
/* The latched slot is on screen; release_fd now belongs to the queue. */
void bq_shown(struct bufferqueue *bq, int slot, int release_fd);
/* The latch could not be shown: free it at once. */
void bq_unlatch(struct bufferqueue *bq, int slot);

#endif
