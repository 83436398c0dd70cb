// SPDX-License-Identifier: GPL-2.0
/*
 * bufferqueue.c - three buffers between RenderThread and SurfaceFlinger.
 */
#include <unistd.h>
#include "bufferqueue.h"
#include "fence.h"

void bq_init(struct bufferqueue *bq)
{
	int i;

	pthread_mutex_init(&bq->lock, NULL);
	pthread_cond_init(&bq->freed, NULL);
	bq->seq = 0;
	bq->last_latch_present = INT64_MIN;
	bq->stop = false;
	for (i = 0; i < BQ_BUFFERS; i++) {
		bq->slot[i] = (struct bq_slot){
			.state = BQ_FREE, .release_fd = FENCE_NONE,
			.acquire_fd = FENCE_NONE, .frame = -1, .order = bq->seq++,
		};
	}
}

void bq_destroy(struct bufferqueue *bq)
{
	int i;

	for (i = 0; i < BQ_BUFFERS; i++)
		fence_put(&bq->slot[i].release_fd);
	pthread_cond_destroy(&bq->freed);
	pthread_mutex_destroy(&bq->lock);
}

void bq_stop(struct bufferqueue *bq)
{
	pthread_mutex_lock(&bq->lock);
	bq->stop = true;
	pthread_cond_broadcast(&bq->freed);
	pthread_mutex_unlock(&bq->lock);
}

static void set_free(struct bufferqueue *bq, struct bq_slot *s, int release_fd)
{
	s->state = BQ_FREE;
	s->release_fd = release_fd;
	s->acquire_fd = FENCE_NONE;
	s->frame = -1;
	s->order = bq->seq++;
	pthread_cond_broadcast(&bq->freed);
}

/* the free slot released first, as BufferQueue hands out buffers */
static int oldest(struct bufferqueue *bq, enum bq_state st)
{
	int i, best = -1;

	for (i = 0; i < BQ_BUFFERS; i++)
		if (bq->slot[i].state == st &&
		    (best < 0 || bq->slot[i].order < bq->slot[best].order))
			best = i;
	return best;
}

int bq_dequeue(struct bufferqueue *bq, int *release_fd)
{
	int i;

	pthread_mutex_lock(&bq->lock);
	while ((i = oldest(bq, BQ_FREE)) < 0 && !bq->stop)
		pthread_cond_wait(&bq->freed, &bq->lock);
	if (bq->stop) {
		pthread_mutex_unlock(&bq->lock);
		return -1;
	}
	bq->slot[i].state = BQ_DEQUEUED;
	*release_fd = bq->slot[i].release_fd;
	bq->slot[i].release_fd = FENCE_NONE;
	pthread_mutex_unlock(&bq->lock);
	return i;
}

void bq_queue(struct bufferqueue *bq, int slot, int64_t frame,
	      int64_t present_ns, int acquire_fd)
{
	struct bq_slot *s = &bq->slot[slot];

	pthread_mutex_lock(&bq->lock);
	s->state = BQ_QUEUED;
	s->frame = frame;
	s->present_ns = present_ns;
	s->acquire_fd = acquire_fd;
	s->order = bq->seq++;
	pthread_mutex_unlock(&bq->lock);
}

bool bq_running_behind(struct bufferqueue *bq)
{
	int i, n = 0;

	pthread_mutex_lock(&bq->lock);
	for (i = 0; i < BQ_BUFFERS; i++)
		n += bq->slot[i].state == BQ_QUEUED &&
		     bq->slot[i].present_ns <= bq->last_latch_present;
	pthread_mutex_unlock(&bq->lock);
	return n > 0;
}

void bq_latch(struct bufferqueue *bq, int64_t present_ns, int64_t early_ns,
	      struct bq_latch *l)
{
	int i;

	l->slot = -1;
	l->frame = -1;
	pthread_mutex_lock(&bq->lock);
	bq->last_latch_present = present_ns;
	/* the oldest, once its GPU work is done and its VSYNC has come */
	i = oldest(bq, BQ_QUEUED);
	if (i >= 0 && bq->slot[i].present_ns - present_ns < early_ns &&
	    fence_status(bq->slot[i].acquire_fd) == 1) {
		l->slot = i;
		l->frame = bq->slot[i].frame;
		bq->slot[i].state = BQ_LATCHED;
	}
	pthread_mutex_unlock(&bq->lock);
}

void bq_shown(struct bufferqueue *bq, int slot, int release_fd)
{
	int i;

	pthread_mutex_lock(&bq->lock);
	for (i = 0; i < BQ_BUFFERS; i++)
		if (bq->slot[i].state == BQ_SHOWN)
			set_free(bq, &bq->slot[i], bq->slot[i].release_fd);
	bq->slot[slot].state = BQ_SHOWN;
	bq->slot[slot].release_fd = release_fd;
	bq->slot[slot].acquire_fd = FENCE_NONE;
	pthread_mutex_unlock(&bq->lock);
}

void bq_unlatch(struct bufferqueue *bq, int slot)
{
	pthread_mutex_lock(&bq->lock);
	set_free(bq, &bq->slot[slot], FENCE_NONE);
	pthread_mutex_unlock(&bq->lock);
}
