// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated display controller and GPU (framesched_display.ko), through
 * guest/lib/display.c:
 * - hardware VSYNC comes at the mode's period, on a fixed grid; read()
 *   and poll() deliver it per file, with the VSYNCs a late reader missed;
 * - GPU jobs run one after the other: their fences signal in submit order,
 *   at their end, and a late job waits for the one before it;
 * - a present shows at a VSYNC: its present fence carries that VSYNC's
 *   timestamp, and the buffer it replaces is released at that moment; a
 *   present replaced before its VSYNC is cancelled;
 * - an unsignaled acquire fence is refused (EBUSY), bad arguments too;
 * - the driver mutex: a GPU_HOLD makes a concurrent submit wait about as
 *   long as the rest of the hold, and a submit's CPU work grows with
 *   cpu_us.
 * Bounds are ratios, generous (TCG is noisy).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "display.h"
#include "clock.h"

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* 0, or the errno of the ioctl: not inlined (the harness's setjmp) */
static __attribute__((noinline)) int request(int fd, unsigned long cmd,
					     void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

FIXTURE(display) {
	struct display_ctx ctx;
	int fd;
};

FIXTURE_SETUP(display)
{
	ASSERT_EQ(0, display_open(&self->ctx));
	self->fd = self->ctx.fd;
}

FIXTURE_TEARDOWN(display)
{
	display_close(&self->ctx);
}

/* --- VSYNC ------------------------------------------------------------- */

FIXTURE(vsync) {
	struct display_ctx ctx;
};

FIXTURE_VARIANT(vsync) {
	unsigned int hz;
};

FIXTURE_VARIANT_ADD(vsync, hz60) { .hz = 60 };
FIXTURE_VARIANT_ADD(vsync, hz90) { .hz = 90 };
FIXTURE_VARIANT_ADD(vsync, hz120) { .hz = 120 };

FIXTURE_SETUP(vsync)
{
	ASSERT_EQ(0, display_open(&self->ctx));
}

FIXTURE_TEARDOWN(vsync)
{
	display_close(&self->ctx);
}

#define VSYNC_READS	30

/*
 * 30 VSYNCs read back to back: on the grid that SET_MODE announced, one
 * period apart in wall time too, and every one either read or counted as
 * missed.
 */
TEST_F(vsync, period)
{
	int fd = self->ctx.fd;
	uint64_t period = 1000000000ull / variant->hz, t0, wall, n, missed = 0;
	struct display_vsync first, v, prev;
	struct display_mode m;
	double ratio;
	int i;

	t0 = mono_ns();
	ASSERT_EQ(0, display_set_mode(fd, variant->hz, &m));
	EXPECT_LE(m.period_ns, period + 1);
	EXPECT_GE(m.period_ns, period - 1);
	EXPECT_GT(m.first_vsync_ns, t0) TH_LOG("the first VSYNC is in the past");
	ASSERT_EQ(0, display_read_vsync(fd, &first));
	t0 = mono_ns();
	prev = first;
	for (i = 0; i < VSYNC_READS; i++) {
		ASSERT_EQ(0, display_read_vsync(fd, &v));
		ASSERT_GT(v.seq, prev.seq);
		EXPECT_EQ(v.seq - prev.seq - 1, v.missed);
		EXPECT_EQ(m.first_vsync_ns + (v.seq - 1) * m.period_ns,
			  v.timestamp_ns) TH_LOG("VSYNC %llu is off the grid",
						 (unsigned long long)v.seq);
		EXPECT_EQ(v.timestamp_ns + m.period_ns, v.next_ns);
		EXPECT_LE(v.timestamp_ns, (uint64_t)mono_ns());
		missed += v.missed;
		prev = v;
	}
	wall = mono_ns() - t0;
	n = v.seq - first.seq;
	ratio = (double)wall / (n * m.period_ns);
	TH_LOG("%u Hz: %llu VSYNCs in %.1f ms (%.3f periods each), %llu missed",
	       variant->hz, (unsigned long long)n, wall / 1e6, ratio,
	       (unsigned long long)missed);
	EXPECT_GT(ratio, 0.75);
	EXPECT_LT(ratio, 1.33);
	EXPECT_LE(missed, n / 2) TH_LOG("a reader that keeps up misses few");
}

/*
 * poll() and O_NONBLOCK read(): nothing unread right after a read, POLLIN
 * at the next VSYNC; each file has its own place; a late reader gets the
 * newest VSYNC and how many it missed.
 */
TEST_F(display, vsync_poll)
{
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	struct display_vsync v, w;
	struct display_mode m;
	uint64_t t0, dt;
	int fd2;

	ASSERT_EQ(0, display_set_mode(self->fd, 2, &m));
	ASSERT_EQ(0, display_read_vsync(self->fd, &v));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-EAGAIN, display_read_vsync(self->fd, &w));
	EXPECT_EQ(0, poll(&p, 1, 0));
	t0 = mono_ns();
	ASSERT_EQ(1, poll(&p, 1, 5000));
	dt = mono_ns() - t0;
	EXPECT_TRUE(p.revents & POLLIN);
	EXPECT_GT(dt, m.period_ns / 4) TH_LOG("poll() returned at once");
	EXPECT_LT(dt, 3 * m.period_ns);

	/* another file: starts at the current VSYNC, reads on its own */
	fd2 = open(DISPLAY_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	p.fd = fd2;
	ASSERT_EQ(1, poll(&p, 1, 5000));
	ASSERT_EQ(0, display_read_vsync(fd2, &w));
	p.fd = self->fd;
	EXPECT_EQ(1, poll(&p, 1, 0)) TH_LOG("fd2's read took fd1's VSYNC");
	ASSERT_EQ(0, display_read_vsync(self->fd, &w));
	EXPECT_GT(w.seq, v.seq);
	EXPECT_EQ(w.seq - v.seq - 1, w.missed);
	close(fd2);

	/* late by more than 3 periods */
	v = w;
	usleep(3.5 * m.period_ns / 1000);
	ASSERT_EQ(0, display_read_vsync(self->fd, &w));
	EXPECT_GE(w.missed, 2ULL);
	EXPECT_EQ(w.seq - v.seq - 1, w.missed);
	EXPECT_EQ(-EAGAIN, display_read_vsync(self->fd, &w));
}

/* --- the GPU ----------------------------------------------------------- */

#define JOBS	8

static unsigned int job_gpu_us(int i)
{
	return i % 2 ? 2000 : 20000;	/* a long job, then a short one */
}

/*
 * Long and short jobs alternate: each starts when the one before it ends,
 * each fence signals at its job's end, so a short job never overtakes.
 */
TEST_F(display, gpu_jobs_in_order)
{
	static struct display_gpu_submit s[JOBS];
	static struct display_fence_state st[JOBS];
	int fd = self->fd;
	uint64_t t0, total = 0, wall;
	int i;

	t0 = mono_ns();
	for (i = 0; i < JOBS; i++) {
		ASSERT_EQ(0, display_gpu_submit(fd, 100, job_gpu_us(i), &s[i]));
		ASSERT_GE(s[i].fence_fd, 0);
		EXPECT_EQ(job_gpu_us(i) * 1000ull, s[i].gpu_end_ns - s[i].gpu_start_ns);
		if (i)
			EXPECT_GE(s[i].gpu_start_ns, s[i - 1].gpu_end_ns);
		total += job_gpu_us(i) * 1000ull;
	}
	/* the short job 1 signals after the long job 0 */
	ASSERT_EQ(1, display_fence_wait(s[1].fence_fd, 5000));
	ASSERT_EQ(0, display_fence_state(s[0].fence_fd, &st[0]));
	EXPECT_EQ(1, st[0].status) TH_LOG("job 1 ended before job 0");
	ASSERT_EQ(1, display_fence_wait(s[JOBS - 1].fence_fd, 10000));
	wall = mono_ns() - t0;
	EXPECT_GT(wall, total * 0.9) TH_LOG("jobs ran in parallel: %.1f ms for %.1f ms of GPU time",
					    wall / 1e6, total / 1e6);
	for (i = 0; i < JOBS; i++) {
		ASSERT_EQ(0, display_fence_state(s[i].fence_fd, &st[i]));
		EXPECT_EQ(1, st[i].status);
		EXPECT_EQ(1U, st[i].num_fences);
		EXPECT_EQ(s[i].gpu_end_ns, st[i].timestamp_ns);
		if (i)
			EXPECT_GE(st[i].timestamp_ns - st[i - 1].timestamp_ns,
				  job_gpu_us(i) * 1000ull);
		close(s[i].fence_fd);
	}
}

/* sync_files merge (as Android's acquire fences do): the later one counts */
TEST_F(display, gpu_fences_merge)
{
	struct display_gpu_submit a, b;
	struct sync_merge_data merge = { .name = "merged" };
	struct display_fence_state st;

	ASSERT_EQ(0, display_gpu_submit(self->fd, 0, 200000, &a));
	ASSERT_EQ(0, display_gpu_submit(self->fd, 0, 1000, &b));
	merge.fd2 = a.fence_fd;
	ASSERT_EQ(0, request(b.fence_fd, SYNC_IOC_MERGE, &merge));
	ASSERT_EQ(0, display_fence_state(merge.fence, &st));
	/* one GPU timeline: the merge keeps only its later fence */
	EXPECT_EQ(1U, st.num_fences);
	EXPECT_EQ(0, st.status);
	ASSERT_EQ(1, display_fence_wait(merge.fence, 5000));
	ASSERT_EQ(0, display_fence_state(merge.fence, &st));
	EXPECT_EQ(1, st.status);
	EXPECT_EQ(b.gpu_end_ns, st.timestamp_ns);
	close(merge.fence);
	close(a.fence_fd);
	close(b.fence_fd);
}

/* --- present ----------------------------------------------------------- */

/* Is @ts a VSYNC of mode @m, not before VSYNC @seq? */
static bool on_grid_from(const struct display_mode *m, uint64_t ts,
			 uint64_t seq)
{
	return ts >= m->first_vsync_ns + (seq - 1) * m->period_ns &&
	       (ts - m->first_vsync_ns) % m->period_ns == 0;
}

/*
 * Buffer 1 is shown at a VSYNC: its present fence has that VSYNC's
 * timestamp. Buffer 2 replaces it at a later VSYNC: buffer 1's release
 * fence signals then, with the same timestamp; buffer 2 stays on screen.
 */
TEST_F(display, present_at_vsync)
{
	struct display_fence_state p1, p2, r1, r2;
	struct display_present b1, b2;
	struct display_vsync v;
	struct display_mode m;

	ASSERT_EQ(0, display_set_mode(self->fd, 20, &m));
	ASSERT_EQ(0, display_present(self->fd, -1, 1, &b1));
	ASSERT_GE(b1.present_fd, 0);
	ASSERT_GE(b1.release_fd, 0);
	EXPECT_GE(b1.vsync_seq, 1ULL);
	ASSERT_EQ(1, display_fence_wait(b1.present_fd, 5000));
	ASSERT_EQ(0, display_fence_state(b1.present_fd, &p1));
	EXPECT_EQ(1, p1.status);
	EXPECT_TRUE(on_grid_from(&m, p1.timestamp_ns, b1.vsync_seq))
		TH_LOG("present at %llu, not a VSYNC from %llu on",
		       (unsigned long long)p1.timestamp_ns,
		       (unsigned long long)b1.vsync_seq);
	/* the VSYNC readers see is the same event */
	ASSERT_EQ(0, display_read_vsync(self->fd, &v));
	EXPECT_GE(v.timestamp_ns, p1.timestamp_ns);
	ASSERT_EQ(0, display_fence_state(b1.release_fd, &r1));
	EXPECT_EQ(0, r1.status) TH_LOG("released while on screen");

	ASSERT_EQ(0, display_present(self->fd, -1, 2, &b2));
	EXPECT_GT(b2.vsync_seq, b1.vsync_seq);
	ASSERT_EQ(1, display_fence_wait(b2.present_fd, 5000));
	ASSERT_EQ(0, display_fence_state(b2.present_fd, &p2));
	ASSERT_EQ(0, display_fence_state(b1.release_fd, &r1));
	ASSERT_EQ(0, display_fence_state(b2.release_fd, &r2));
	EXPECT_EQ(1, p2.status);
	EXPECT_TRUE(on_grid_from(&m, p2.timestamp_ns, b2.vsync_seq));
	EXPECT_GT(p2.timestamp_ns, p1.timestamp_ns);
	EXPECT_EQ(1, r1.status);
	EXPECT_EQ(p2.timestamp_ns, r1.timestamp_ns)
		TH_LOG("buffer 1 must be released at buffer 2's VSYNC");
	EXPECT_EQ(0, r2.status);
	close(b1.present_fd);
	close(b1.release_fd);
	close(b2.present_fd);
	close(b2.release_fd);
}

/*
 * Two presents before one VSYNC: the second is shown, the first is
 * cancelled (-ECANCELED) and released at that VSYNC.
 */
TEST_F(display, present_replaced)
{
	struct display_fence_state pa, pb, ra;
	struct display_present a, b;
	struct display_mode m;
	int tries;

	ASSERT_EQ(0, display_set_mode(self->fd, 10, &m));
	/* both must land before the same VSYNC: retry if one came between */
	for (tries = 0; tries < 10; tries++) {
		ASSERT_EQ(0, display_present(self->fd, -1, 1, &a));
		ASSERT_EQ(0, display_present(self->fd, -1, 2, &b));
		if (a.vsync_seq == b.vsync_seq)
			break;
		close(a.present_fd);
		close(a.release_fd);
		close(b.present_fd);
		close(b.release_fd);
	}
	ASSERT_EQ(a.vsync_seq, b.vsync_seq);
	ASSERT_EQ(1, display_fence_wait(b.present_fd, 5000));
	ASSERT_EQ(0, display_fence_state(a.present_fd, &pa));
	ASSERT_EQ(0, display_fence_state(b.present_fd, &pb));
	ASSERT_EQ(0, display_fence_state(a.release_fd, &ra));
	EXPECT_EQ(-ECANCELED, pa.status);
	EXPECT_EQ(1, pb.status);
	EXPECT_EQ(1, ra.status);
	EXPECT_EQ(pb.timestamp_ns, ra.timestamp_ns);
	EXPECT_EQ(pb.timestamp_ns, pa.timestamp_ns);
	close(a.present_fd);
	close(a.release_fd);
	close(b.present_fd);
	close(b.release_fd);
}

/* The compositor latches only ready buffers: EBUSY until the GPU is done. */
TEST_F(display, present_unsignaled_acquire)
{
	struct display_gpu_submit s;
	struct display_present p;
	long long live0, live1;

	ASSERT_EQ(0, display_set_mode(self->fd, 60, NULL));
	ASSERT_EQ(0, display_gpu_submit(self->fd, 0, 300000, &s));
	ASSERT_EQ(0, display_counter("live_fences", &live0));
	EXPECT_EQ(-EBUSY, display_present(self->fd, s.fence_fd, 1, &p));
	EXPECT_EQ(-1, p.present_fd) TH_LOG("no fd for a refused present");
	ASSERT_EQ(0, display_counter("live_fences", &live1));
	EXPECT_EQ(live0, live1) TH_LOG("the refused present left fences behind");
	ASSERT_EQ(1, display_fence_wait(s.fence_fd, 5000));
	ASSERT_EQ(0, display_present(self->fd, s.fence_fd, 1, &p));
	EXPECT_EQ(1, display_fence_wait(p.present_fd, 5000));
	close(p.present_fd);
	close(p.release_fd);
	close(s.fence_fd);
}

TEST_F(display, bad_arguments)
{
	struct display_mode m = { .refresh_hz = 60 };
	struct display_gpu_submit s = { .cpu_us = 1, .gpu_us = 1 };
	struct display_gpu_hold h = { .hold_us = 1 };
	struct display_present p = { .acquire_fd = -1 };
	int fd = self->fd, closed, devnull;
	long long live0, live1;
	char small[8];

	ASSERT_EQ(0, display_counter("live_fences", &live0));
	m.refresh_hz = 0;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_SET_MODE, &m));
	m.refresh_hz = 241;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_SET_MODE, &m));
	m.refresh_hz = 60;
	m.pad = 1;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_SET_MODE, &m));

	s.cpu_us = DISPLAY_MAX_CPU_US + 1;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_GPU_SUBMIT, &s));
	s.cpu_us = 0xffffffff;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_GPU_SUBMIT, &s));
	s.cpu_us = 1;
	s.gpu_us = DISPLAY_MAX_GPU_US + 1;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_GPU_SUBMIT, &s));
	s.gpu_us = 1;
	s.pad = 1;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_GPU_SUBMIT, &s));

	h.hold_us = DISPLAY_MAX_CPU_US + 1;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_GPU_HOLD, &h));
	h.hold_us = 1;
	h.pad = 1;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_GPU_HOLD, &h));

	/* acquire fences that are not sync_files */
	p.acquire_fd = -2;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_PRESENT, &p));
	closed = dup(fd);
	ASSERT_GE(closed, 0);
	close(closed);
	p.acquire_fd = closed;
	EXPECT_EQ(EBADF, request(fd, DISPLAY_IOC_PRESENT, &p));
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(devnull, 0);
	p.acquire_fd = devnull;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_PRESENT, &p));
	close(devnull);
	p.acquire_fd = fd;
	EXPECT_EQ(EINVAL, request(fd, DISPLAY_IOC_PRESENT, &p));

	/* a short read, other commands, bad pointers */
	EXPECT_EQ(-1, read(fd, small, sizeof(small)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(ENOTTY, request(fd, _IOWR(DISPLAY_IOC_MAGIC, 0x7f, struct display_mode), &m));
	EXPECT_EQ(ENOTTY, request(fd, _IO(DISPLAY_IOC_MAGIC, 0x10), &m));
	EXPECT_EQ(EFAULT, request(fd, DISPLAY_IOC_GPU_SUBMIT, NULL));
	EXPECT_EQ(EFAULT, request(fd, DISPLAY_IOC_PRESENT, (void *)8));
	EXPECT_EQ(EFAULT, request(fd, DISPLAY_IOC_CALIBRATE, NULL));

	ASSERT_EQ(0, display_counter("live_fences", &live1));
	EXPECT_EQ(live0, live1) TH_LOG("refused requests left fences behind");
}

/*
 * A submit whose result cannot be copied out: the job still runs and
 * signals, but no fd is left behind in the caller.
 */
TEST_F(display, submit_efault_leaves_no_fd)
{
	/* read-only memory: copy_from_user works, copy_to_user does not */
	static const struct display_gpu_submit ro = { .cpu_us = 0, .gpu_us = 10 };
	struct display_gpu_submit s;
	int probe_before, probe_after;

	probe_before = dup(self->fd);
	ASSERT_GE(probe_before, 0);
	close(probe_before);
	EXPECT_EQ(EFAULT, request(self->fd, DISPLAY_IOC_GPU_SUBMIT, (void *)&ro));
	probe_after = dup(self->fd);
	ASSERT_GE(probe_after, 0);
	close(probe_after);
	EXPECT_EQ(probe_before, probe_after) TH_LOG("an fd was installed");
	ASSERT_EQ(0, display_gpu_submit(self->fd, 0, 10, &s));
	EXPECT_EQ(1, display_fence_wait(s.fence_fd, 5000));
	close(s.fence_fd);
}

/*
 * When its last file closes, the display shows what was queued, then
 * turns off and releases the buffer on screen: nothing stays pinned.
 */
TEST_F(display, last_close_releases_screen)
{
	struct display_fence_state r;
	struct display_present b;
	struct display_mode m;

	ASSERT_EQ(0, display_set_mode(self->fd, 20, &m));
	ASSERT_EQ(0, display_present(self->fd, -1, 1, &b));
	ASSERT_EQ(1, display_fence_wait(b.present_fd, 5000));
	EXPECT_EQ(0, display_fence_wait(b.release_fd, 3 * m.period_ns / 1000000))
		TH_LOG("released while on screen, with the display open");
	close(self->fd);
	self->ctx.fd = -1;
	ASSERT_EQ(1, display_fence_wait(b.release_fd, 5000));
	ASSERT_EQ(0, display_fence_state(b.release_fd, &r));
	EXPECT_EQ(1, r.status);
	close(b.present_fd);
	close(b.release_fd);
}

/*
 * With the display off (no SET_MODE), presents wait for a VSYNC that does
 * not come: DISPLAY_MAX_QUEUED of them, then EBUSY; the last close
 * cancels them all and releases them.
 */
TEST_F(display, present_queue_limit)
{
	static struct display_present p[DISPLAY_MAX_QUEUED + 1];
	struct display_fence_state st;
	unsigned int i;

	for (i = 0; i < DISPLAY_MAX_QUEUED; i++) {
		ASSERT_EQ(0, display_present(self->fd, -1, i, &p[i]));
		if (p[i].vsync_seq)
			SKIP(return, "the display is on (a previous test's module is still loaded)");
	}
	EXPECT_EQ(-EBUSY, display_present(self->fd, -1, i, &p[i]));
	ASSERT_EQ(0, display_fence_state(p[0].present_fd, &st));
	EXPECT_EQ(0, st.status);
	close(self->fd);
	self->ctx.fd = -1;
	for (i = 0; i < DISPLAY_MAX_QUEUED; i++) {
		ASSERT_EQ(0, display_fence_state(p[i].present_fd, &st));
		EXPECT_EQ(-ECANCELED, st.status);
		ASSERT_EQ(0, display_fence_state(p[i].release_fd, &st));
		EXPECT_EQ(1, st.status);
		close(p[i].present_fd);
		close(p[i].release_fd);
	}
}

/* --- the driver mutex -------------------------------------------------- */

struct holder {
	int fd;
	unsigned int hold_us;
	volatile int started;
	uint64_t t_end;
	int err;
};

static void *hold_main(void *arg)
{
	struct holder *h = arg;

	h->started = 1;
	h->err = display_gpu_hold(h->fd, h->hold_us, NULL);
	h->t_end = mono_ns();
	return NULL;
}

#define HOLD_US		300000

/*
 * A thread holds the driver mutex over HOLD_US of CPU work; a submit that
 * comes meanwhile waits until the hold ends, and says so in lock_wait_ns.
 * Without contention the same submit waits next to nothing.
 */
TEST_F(display, hold_blocks_submit)
{
	struct holder h = { .fd = self->fd, .hold_us = HOLD_US };
	struct display_gpu_submit free_run, blocked;
	uint64_t t0, expected;
	pthread_t thread;
	double ratio;

	ASSERT_EQ(0, display_gpu_submit(self->fd, 1000, 10, &free_run));
	close(free_run.fence_fd);
	ASSERT_EQ(0, pthread_create(&thread, NULL, hold_main, &h));
	while (!h.started)
		usleep(1000);
	usleep(30000);	/* well inside the hold, whatever TCG does */
	t0 = mono_ns();
	ASSERT_EQ(0, display_gpu_submit(self->fd, 1000, 10, &blocked));
	pthread_join(thread, NULL);
	ASSERT_EQ(0, h.err);
	close(blocked.fence_fd);
	expected = h.t_end - t0;	/* the rest of the hold, from the submit */
	ratio = (double)blocked.lock_wait_ns / expected;
	TH_LOG("lock wait %.1f ms, rest of the hold %.1f ms (uncontended %.3f ms)",
	       blocked.lock_wait_ns / 1e6, expected / 1e6,
	       free_run.lock_wait_ns / 1e6);
	EXPECT_GT(ratio, 0.7);
	EXPECT_LT(ratio, 1.1);
	EXPECT_LT(free_run.lock_wait_ns * 10, blocked.lock_wait_ns);
}

/* Thread CPU time of a submit of @cpu_us (its work runs in the caller). */
static uint64_t submit_cpu_ns(int fd, unsigned int cpu_us)
{
	struct display_gpu_submit s;
	uint64_t t0 = thread_cpu_ns(), t;

	if (display_gpu_submit(fd, cpu_us, 0, &s))
		return 0;
	t = thread_cpu_ns() - t0;
	close(s.fence_fd);
	return t;
}

static uint64_t min_submit_cpu_ns(int fd, unsigned int cpu_us)
{
	uint64_t best = UINT64_MAX, t;
	int i;

	for (i = 0; i < 3; i++) {
		t = submit_cpu_ns(fd, cpu_us);
		if (t && t < best)
			best = t;
	}
	return best;
}

/*
 * After CALIBRATE on this CPU, cpu_us invariant µs of work take about
 * cpu_us µs of this thread's CPU time, and four times the work about four
 * times as long.
 */
TEST_F(display, submit_work_scales)
{
	uint64_t lpm, small, big;
	long long shown;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, display_calibrate(self->fd, &lpm));
	EXPECT_GT(lpm, 0ULL);
	ASSERT_EQ(0, display_counter("loops_per_ms", &shown));
	EXPECT_EQ((long long)lpm, shown);
	small = min_submit_cpu_ns(self->fd, 20000);
	big = min_submit_cpu_ns(self->fd, 80000);
	TH_LOG("20 ms of work: %.1f ms, 80 ms: %.1f ms (%llu loops/ms)",
	       small / 1e6, big / 1e6, (unsigned long long)lpm);
	EXPECT_GT((double)big / small, 2.5);
	EXPECT_LT((double)big / small, 6.0);
	/* the host's other load stretches it too (TCG): generous */
	EXPECT_GT(big / 1e6, 80 * 0.5);
	EXPECT_LT(big / 1e6, 80 * 3.0);
}

TEST_HARNESS_MAIN
