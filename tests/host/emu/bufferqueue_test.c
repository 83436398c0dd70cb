// SPDX-License-Identifier: GPL-2.0
/*
 * bufferqueue_test.c - what SurfaceFlinger latches (emu/pipeline/
 * bufferqueue.c): the oldest queued buffer, one a VSYNC, nothing dropped;
 * never one whose acquire fence has not signaled; never a frame that is
 * early (predicted for half a period or more after the present being
 * composed). And when the producer is told the consumer runs behind.
 *
 * The acquire fences are fakes: small integers whose state the test sets,
 * in place of the sync_files of the guest's display module.
 */
#include "emu_test.h"
#include "bufferqueue.h"
#include "fence.h"

#define PERIOD	16666667LL
#define P0	(1000 * PERIOD)		/* the present being composed */
#define EARLY	(PERIOD / 2)
#define NFAKE	8

static bool fake_signaled[NFAKE];

/* the fakes of fence.c: fd i < NFAKE is fake fence i */
int fence_status(int fd)
{
	if (fd < 0)
		return 1;
	return fd < NFAKE ? fake_signaled[fd] : -1;
}

void fence_put(int *fd)
{
	*fd = FENCE_NONE;
}

FIXTURE(bq) {
	struct bufferqueue q;
};

FIXTURE_SETUP(bq)
{
	memset(fake_signaled, 0, sizeof(fake_signaled));
	bq_init(&self->q);
}

FIXTURE_TEARDOWN(bq)
{
	bq_destroy(&self->q);
}

/* dequeue a buffer and queue it for @frame, predicted for @present */
static int queue_frame(struct bufferqueue *q, int64_t frame, int64_t present,
		       int fence, bool signaled)
{
	int release, slot = bq_dequeue(q, &release);

	if (slot >= 0) {
		fake_signaled[fence] = signaled;
		bq_queue(q, slot, frame, present, fence);
	}
	return slot;
}

/* a backlog drains one buffer a VSYNC, in queue order */
TEST_F(bq, latches_in_order_one_a_vsync)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0 - PERIOD, 1, true));
	ASSERT_LE(0, queue_frame(&self->q, 2, P0, 2, true));
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(1, l.frame);
	bq_shown(&self->q, l.slot, FENCE_NONE);
	bq_latch(&self->q, P0 + PERIOD, EARLY, &l);
	EXPECT_EQ(2, l.frame);
	bq_shown(&self->q, l.slot, FENCE_NONE);
	bq_latch(&self->q, P0 + 2 * PERIOD, EARLY, &l);
	EXPECT_EQ(-1, l.slot);
}

TEST_F(bq, unsignaled_fence_holds_the_queue)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0, 1, false));
	ASSERT_LE(0, queue_frame(&self->q, 2, P0, 2, true));
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(-1, l.slot);
	fake_signaled[1] = true;
	bq_latch(&self->q, P0 + PERIOD, EARLY, &l);
	EXPECT_EQ(1, l.frame);
}

/*
 * Behind: a buffer is still queued after the latch for its own present.
 * A buffer waiting for a later VSYNC is on time, however long it waits.
 */
TEST_F(bq, running_behind_when_a_buffer_missed_its_latch)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0, 1, false));
	EXPECT_FALSE(bq_running_behind(&self->q));
	bq_latch(&self->q, P0 - PERIOD, EARLY, &l);	/* an earlier VSYNC */
	EXPECT_EQ(-1, l.slot);
	EXPECT_FALSE(bq_running_behind(&self->q));
	bq_latch(&self->q, P0, EARLY, &l);	/* its own: GPU not done */
	EXPECT_EQ(-1, l.slot);
	EXPECT_TRUE(bq_running_behind(&self->q));
	fake_signaled[1] = true;
	bq_latch(&self->q, P0 + PERIOD, EARLY, &l);	/* shown a period late */
	EXPECT_EQ(1, l.frame);
	EXPECT_FALSE(bq_running_behind(&self->q));
}

/* a stuffed queue: the older buffer is latched, the newer one is behind */
TEST_F(bq, stuffed_queue_is_behind)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0 - PERIOD, 1, true));
	ASSERT_LE(0, queue_frame(&self->q, 2, P0, 2, true));
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(1, l.frame);
	EXPECT_TRUE(bq_running_behind(&self->q));
}

/*
 * The case that dropped a frame of an idle pipeline: frame 2 was done
 * before SurfaceFlinger latched frame 1. It is early: it waits, frame 1
 * is shown, and frame 2 is shown at its own VSYNC.
 */
TEST_F(bq, early_frame_waits_for_its_vsync)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0, 1, true));
	ASSERT_LE(0, queue_frame(&self->q, 2, P0 + PERIOD, 2, true));
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(1, l.frame);
	bq_shown(&self->q, l.slot, FENCE_NONE);
	bq_latch(&self->q, P0 + PERIOD, EARLY, &l);
	EXPECT_EQ(2, l.frame);
}

TEST_F(bq, early_frame_alone_is_not_shown)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0 + 2 * PERIOD, 1, true));
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(-1, l.slot);
	bq_latch(&self->q, P0 + PERIOD, EARLY, &l);
	EXPECT_EQ(-1, l.slot);
	bq_latch(&self->q, P0 + 2 * PERIOD, EARLY, &l);
	EXPECT_EQ(1, l.frame);
}

/* half a period is the line, as SurfaceFlinger's earlyLatchVsyncThreshold */
TEST_F(bq, half_a_period_is_early)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0, 1, true));
	ASSERT_LE(0, queue_frame(&self->q, 2, P0 + EARLY - 1, 2, true));
	ASSERT_LE(0, queue_frame(&self->q, 3, P0 + 2 * EARLY, 3, true));
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(1, l.frame);
	bq_shown(&self->q, l.slot, FENCE_NONE);
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(2, l.frame);		/* just under half a period: not early */
	bq_shown(&self->q, l.slot, FENCE_NONE);
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(-1, l.slot);		/* half a period: early */
	bq_latch(&self->q, P0 + 2 * EARLY, EARLY, &l);
	EXPECT_EQ(3, l.frame);
}

/* a late frame (its present has passed) is shown at once */
TEST_F(bq, late_frame_is_latched)
{
	struct bq_latch l;

	ASSERT_LE(0, queue_frame(&self->q, 1, P0 - 3 * PERIOD, 1, true));
	bq_latch(&self->q, P0, EARLY, &l);
	EXPECT_EQ(1, l.frame);
}

TEST_HARNESS_MAIN
