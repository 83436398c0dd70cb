// SPDX-License-Identifier: GPL-2.0
/*
 * framesched_display: the emulated phone's display controller and GPU.
 *
 * The interface is documented in display_uapi.h. Three parts:
 *
 * - the display: hardware VSYNC is an hrtimer on a fixed grid
 *   (first_vsync + k * period); each VSYNC latches the newest presented
 *   buffer, signals its present fence and the release fence of the buffer
 *   it replaces, and wakes the readers of the device;
 * - the GPU: one ring of jobs, executed back to back; an hrtimer at the
 *   end of the oldest job signals its fence;
 * - the driver mutex, held over a fixed amount of CPU work by GPU_SUBMIT
 *   (validation and queueing, as real GPU drivers do) and by GPU_HOLD (the
 *   background app's memory management): the priority-inversion source.
 *
 * Locking, outermost first:
 *   fsd_gpu_mutex (the driver mutex; sleeping, held over CPU work)
 *     -> fsd_ring.lock or fsd_dsp.lock (irq-safe spinlocks: the hrtimer
 *        callbacks take them in hardirq context; never both at once)
 *       -> fsd_fence_lock (irq-safe; the lock of every fence we create,
 *          taken inside dma_fence_signal*(), so never held by us directly)
 * Nothing sleeps under a spinlock: allocations, sync_file creation and
 * fd reservation happen before a spinlock is taken, and fd_install()
 * after. dma_fence_put() may run under the spinlocks: our release only
 * frees memory (kfree_rcu) and drops a module reference.
 *
 * Lifetime: each fence holds a reference on this module, because its ops
 * (names, release) are our code and a sync_file in some process may keep
 * it long after the display or the GPU is done with it. So the module
 * unloads only when no fence of ours is left; the flush on unload (-ENODEV)
 * is a safety net for fences that the module alone still holds. The
 * display turns itself off when the last file is closed and nothing is
 * queued (see fsd_vsync_fire()), so that the buffer it scans out, and its
 * release fence, do not pin the module forever.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "display_uapi.h"

/* the busy loop looks for a fatal signal and reschedules this often */
#define FSD_LOOPS_PER_CHECK	8192
/*
 * Calibration samples: spread over some 250 ms, so that at least one of
 * them runs while the host (TCG: a vCPU is a host thread) gives the vCPU
 * all of a real CPU; and each long against the emulated phone's cycle
 * stealing (phone-cpufreq), which alternates runs of 0.5 ms or more with
 * halts: a sample that fits in one run would time the virtual CPU, not
 * the phone's CPU.
 */
#define FSD_CALIB_SAMPLE_NS	(40 * NSEC_PER_MSEC)
#define FSD_CALIB_RUNS		6
#define FSD_CALIB_GAP_US	2000
#define FSD_CALIB_MAX_LOOPS	BIT_ULL(34)

/* the fence contexts: one timeline each */
enum { FSD_CTX_GPU, FSD_CTX_PRESENT, FSD_CTX_RELEASE, FSD_NR_CTX };
static const char *const fsd_timeline_names[FSD_NR_CTX] = {
	[FSD_CTX_GPU] = "gpu-ring",
	[FSD_CTX_PRESENT] = "display-present",
	[FSD_CTX_RELEASE] = "display-release",
};

static u64 fsd_ctx_base;

/* the lock of every fence; see the lock order above */
static DEFINE_SPINLOCK(fsd_fence_lock);

/* live objects, in debugfs (display_uapi.h lists them) */
static atomic_t fsd_live_fences = ATOMIC_INIT(0);
static atomic_t fsd_pending_fences = ATOMIC_INIT(0);
static atomic_t fsd_gpu_jobs = ATOMIC_INIT(0);
static atomic_t fsd_buffers = ATOMIC_INIT(0);
static atomic_t fsd_open_files = ATOMIC_INIT(0);
static u64 fsd_loops_per_ms;	/* READ_ONCE/WRITE_ONCE */
static struct dentry *fsd_debugfs;

/* --- fences ------------------------------------------------------------ */

static const char *fsd_fence_driver_name(struct dma_fence *f)
{
	return DISPLAY_MODULE;
}

static const char *fsd_fence_timeline_name(struct dma_fence *f)
{
	u64 i = f->context - fsd_ctx_base;

	return i < FSD_NR_CTX ? fsd_timeline_names[i] : "unknown";
}

static void fsd_fence_release(struct dma_fence *f)
{
	atomic_dec(&fsd_live_fences);
	dma_fence_free(f);
	/* the fence's pin on our code, taken in fsd_fence_create(): last */
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops fsd_fence_ops = {
	.get_driver_name = fsd_fence_driver_name,
	.get_timeline_name = fsd_fence_timeline_name,
	.release = fsd_fence_release,
};

/*
 * A new unsignaled fence on timeline @ctx. Its seqno is set when it is
 * queued (under the queue's lock, so that seqnos follow the signal order);
 * until then nobody else can see it.
 */
static struct dma_fence *fsd_fence_create(int ctx)
{
	struct dma_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	/* we are in one of our file's ioctls: the module is alive */
	__module_get(THIS_MODULE);
	dma_fence_init(f, &fsd_fence_ops, &fsd_fence_lock, fsd_ctx_base + ctx, 0);
	atomic_inc(&fsd_live_fences);
	atomic_inc(&fsd_pending_fences);
	return f;
}

/* Signal @f at @ts, with @error if not 0. Any context. */
static void fsd_fence_signal(struct dma_fence *f, ktime_t ts, int error)
{
	if (error)
		dma_fence_set_error(f, error);
	if (!dma_fence_signal_timestamp(f, ts))
		atomic_dec(&fsd_pending_fences);
}

/* Signal @f with @error now and drop our reference to it. */
static void fsd_fence_abort(struct dma_fence *f, int error)
{
	fsd_fence_signal(f, ktime_get(), error);
	dma_fence_put(f);
}

/*
 * A fence exported to user space: the sync_file (which holds its own
 * reference to the fence) and the fd reserved for it, installed only once
 * nothing can fail any more.
 */
struct fsd_export {
	struct sync_file *sync_file;
	int fd;
};

static int fsd_export_prepare(struct fsd_export *e, struct dma_fence *f)
{
	e->fd = get_unused_fd_flags(O_CLOEXEC);
	if (e->fd < 0)
		return e->fd;
	e->sync_file = sync_file_create(f);
	if (!e->sync_file) {
		put_unused_fd(e->fd);
		return -ENOMEM;
	}
	return 0;
}

static void fsd_export_cancel(struct fsd_export *e)
{
	put_unused_fd(e->fd);
	fput(e->sync_file->file);
}

static void fsd_export_install(struct fsd_export *e)
{
	fd_install(e->fd, e->sync_file->file);
}

/* The fence of a sync_file fd, or an ERR_PTR: EBADF, or EINVAL. */
static struct dma_fence *fsd_fence_from_fd(int fd)
{
	struct dma_fence *f;
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);
	fput(file);
	f = sync_file_get_fence(fd);
	return f ? f : ERR_PTR(-EINVAL);
}

/* --- CPU work ---------------------------------------------------------- */

/*
 * A fixed amount of work, not a clock spin: cycles stolen from the CPU
 * (the emulated phone's slow CPUs and low frequencies) or lost to
 * preemption make it last longer, as real work would. Not inlined, so that
 * an iteration costs the same wherever it is called from.
 */
static noinline void fsd_loop(u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		barrier();
}

/* @loops iterations in chunks; -EINTR on a fatal signal */
static int fsd_work(u64 loops)
{
	u64 n;

	while (loops) {
		n = min_t(u64, loops, FSD_LOOPS_PER_CHECK);
		fsd_loop(n);
		loops -= n;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

static u64 fsd_us_to_loops(u32 us)
{
	return div_u64(READ_ONCE(fsd_loops_per_ms) * us, USEC_PER_MSEC);
}

/*
 * ns that @loops iterations take here, run as fsd_work() runs them:
 * preemptible. With preemption off, softirqs that ksoftirqd has taken
 * over wait for the end of the sample, and the emulated phone's cycle
 * stealing is one (a softirq hrtimer): such a sample ran at the host's
 * speed, up to 4.4 times too fast under dilation 8, and being the fastest
 * it set the calibration. A sample that another task preempts is slower,
 * and the fastest of several leaves it out.
 */
static u64 fsd_time_loops(u64 loops)
{
	u64 t0, t1, n;

	t0 = ktime_get_ns();
	for (; loops; loops -= n) {
		n = min_t(u64, loops, FSD_LOOPS_PER_CHECK);
		fsd_loop(n);
	}
	t1 = ktime_get_ns();
	return t1 - t0;
}

/*
 * Loops per ms on this CPU: the fastest of FSD_CALIB_RUNS samples of about
 * FSD_CALIB_SAMPLE_NS each (interrupts and stolen time only ever make a
 * sample slower). Preemption is off within a sample only.
 */
static int fsd_calibrate(u64 *loops_per_ms)
{
	u64 loops = FSD_LOOPS_PER_CHECK, ns, best;
	int i;

	for (;;) {
		ns = fsd_time_loops(loops);
		if (ns >= FSD_CALIB_SAMPLE_NS || loops >= FSD_CALIB_MAX_LOOPS)
			break;
		loops *= 2;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	best = ns;
	for (i = 0; i < FSD_CALIB_RUNS; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		fsleep(FSD_CALIB_GAP_US);
		best = min(best, fsd_time_loops(loops));
	}
	best = max_t(u64, best, 1);
	*loops_per_ms = max_t(u64, 1, div64_u64(loops * NSEC_PER_MSEC, best));
	return 0;
}

/* --- the GPU ----------------------------------------------------------- */

static DEFINE_MUTEX(fsd_gpu_mutex);	/* the driver mutex */

struct fsd_job {
	struct list_head node;
	struct dma_fence *fence;	/* the ring's reference */
	ktime_t end;
};

/*
 * One ring: jobs in submit order, each starting when the one before it
 * ends. The timer is armed, at the oldest job's end, iff @jobs is not
 * empty; both change only under @lock.
 */
static struct {
	spinlock_t lock;	/* everything here; irq-safe (the timer) */
	struct list_head jobs;
	ktime_t end;		/* when the last queued job ends */
	u64 seqno;
	struct hrtimer timer;
} fsd_ring = {
	.lock = __SPIN_LOCK_UNLOCKED(fsd_ring.lock),
	.jobs = LIST_HEAD_INIT(fsd_ring.jobs),
};

static void fsd_job_finish(struct fsd_job *job, int error)
{
	list_del(&job->node);
	fsd_fence_signal(job->fence, job->end, error);
	dma_fence_put(job->fence);
	kfree(job);
	atomic_dec(&fsd_gpu_jobs);
}

static enum hrtimer_restart fsd_ring_fire(struct hrtimer *t)
{
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	ktime_t now = ktime_get();
	struct fsd_job *job, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&fsd_ring.lock, flags);
	list_for_each_entry_safe(job, tmp, &fsd_ring.jobs, node) {
		if (ktime_after(job->end, now)) {
			hrtimer_set_expires(t, job->end);
			ret = HRTIMER_RESTART;
			break;
		}
		/* timestamp: the job's end, the GPU's clock */
		fsd_job_finish(job, 0);
	}
	spin_unlock_irqrestore(&fsd_ring.lock, flags);
	return ret;
}

/* Queue @job of @gpu_us on the ring; fills @req's times. */
static void fsd_ring_queue(struct fsd_job *job, u32 gpu_us,
			   struct display_gpu_submit *req)
{
	ktime_t start;
	unsigned long flags;

	spin_lock_irqsave(&fsd_ring.lock, flags);
	start = ktime_get();
	if (ktime_after(fsd_ring.end, start))
		start = fsd_ring.end;
	job->end = ktime_add_us(start, gpu_us);
	fsd_ring.end = job->end;
	job->fence->seqno = ++fsd_ring.seqno;
	if (list_empty(&fsd_ring.jobs))
		hrtimer_start(&fsd_ring.timer, job->end, HRTIMER_MODE_ABS);
	list_add_tail(&job->node, &fsd_ring.jobs);
	atomic_inc(&fsd_gpu_jobs);
	spin_unlock_irqrestore(&fsd_ring.lock, flags);
	req->gpu_start_ns = ktime_to_ns(start);
	req->gpu_end_ns = ktime_to_ns(job->end);
}

/* Lock the driver mutex; *@wait_ns: how long that took. */
static int fsd_gpu_lock(u64 *wait_ns)
{
	u64 t0 = ktime_get_ns();
	int ret = mutex_lock_killable(&fsd_gpu_mutex);

	*wait_ns = ktime_get_ns() - t0;
	return ret ? -EINTR : 0;
}

/*
 * GPU_SUBMIT up to the fd: on success the job is queued and @e holds its
 * sync_file and a reserved fd, for the caller to install or cancel.
 */
static int fsd_gpu_submit(struct display_gpu_submit *req, struct fsd_export *e)
{
	struct fsd_job *job;
	int ret;

	if (req->pad || req->cpu_us > DISPLAY_MAX_CPU_US ||
	    req->gpu_us > DISPLAY_MAX_GPU_US)
		return -EINVAL;
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	job->fence = fsd_fence_create(FSD_CTX_GPU);
	if (!job->fence) {
		ret = -ENOMEM;
		goto free_job;
	}
	ret = fsd_export_prepare(e, job->fence);
	if (ret)
		goto abort_fence;
	ret = fsd_gpu_lock(&req->lock_wait_ns);
	if (ret)
		goto cancel_export;
	ret = fsd_work(fsd_us_to_loops(req->cpu_us));
	if (!ret)
		fsd_ring_queue(job, req->gpu_us, req);
	mutex_unlock(&fsd_gpu_mutex);
	if (ret)
		goto cancel_export;
	/* the job is the ring's now: it completes whatever happens next */
	req->fence_fd = e->fd;
	return 0;

cancel_export:
	fsd_export_cancel(e);
abort_fence:
	fsd_fence_abort(job->fence, ret);
free_job:
	kfree(job);
	return ret;
}

static int fsd_gpu_hold(struct display_gpu_hold *req)
{
	int ret;

	if (req->pad || req->hold_us > DISPLAY_MAX_CPU_US)
		return -EINVAL;
	ret = fsd_gpu_lock(&req->lock_wait_ns);
	if (ret)
		return ret;
	ret = fsd_work(fsd_us_to_loops(req->hold_us));
	mutex_unlock(&fsd_gpu_mutex);
	return ret;
}

/* --- the display ------------------------------------------------------- */

/* A presented buffer, from PRESENT until it is released. */
struct fsd_buffer {
	struct list_head node;		/* in fsd_dsp.queued */
	struct dma_fence *present;	/* NULL once signaled */
	struct dma_fence *release;
};

static struct {
	spinlock_t lock;	/* everything here; irq-safe (the timer) */
	struct hrtimer timer;	/* hardware VSYNC, armed iff @on */
	bool on;
	u64 period_ns;
	u64 gen;		/* SET_MODE count: VSYNC seqs restart */
	u64 seq;		/* the last VSYNC */
	ktime_t next;		/* when the next one is due */
	int open_files;
	struct list_head queued;	/* presented, not latched yet */
	unsigned int nr_queued;
	struct fsd_buffer *shown;	/* scanned out, or NULL */
	u64 present_seqno;
	wait_queue_head_t readers;
} fsd_dsp = {
	.lock = __SPIN_LOCK_UNLOCKED(fsd_dsp.lock),
	.queued = LIST_HEAD_INIT(fsd_dsp.queued),
	.readers = __WAIT_QUEUE_HEAD_INITIALIZER(fsd_dsp.readers),
};

/* serializes SET_MODE's restart of the VSYNC timer */
static DEFINE_MUTEX(fsd_mode_mutex);

/* a reader's place in the VSYNC sequence */
struct fsd_file {
	u64 gen;
	u64 read_seq;		/* the last VSYNC read, in generation @gen */
};

static void fsd_buffer_release(struct fsd_buffer *b, ktime_t ts,
			       int present_error, int release_error)
{
	if (b->present) {
		fsd_fence_signal(b->present, ts, present_error);
		dma_fence_put(b->present);
	}
	fsd_fence_signal(b->release, ts, release_error);
	dma_fence_put(b->release);
	kfree(b);
	atomic_dec(&fsd_buffers);
}

/*
 * VSYNC at @ts: the newest queued buffer goes on screen (its present
 * fence signals), the others queued since the last VSYNC were never shown
 * (-ECANCELED), and they and the buffer that was on screen are released.
 * Called with fsd_dsp.lock held.
 */
static void fsd_latch(ktime_t ts)
{
	struct fsd_buffer *b, *tmp, *show;

	if (list_empty(&fsd_dsp.queued))
		return;
	show = list_last_entry(&fsd_dsp.queued, struct fsd_buffer, node);
	list_for_each_entry_safe(b, tmp, &fsd_dsp.queued, node) {
		list_del(&b->node);
		if (b != show)
			fsd_buffer_release(b, ts, -ECANCELED, 0);
	}
	fsd_dsp.nr_queued = 0;
	if (fsd_dsp.shown)
		fsd_buffer_release(fsd_dsp.shown, ts, 0, 0);
	fsd_fence_signal(show->present, ts, 0);
	dma_fence_put(show->present);
	show->present = NULL;
	fsd_dsp.shown = show;
}

/*
 * Release every buffer at @ts: the queued ones with @error on their present
 * fence (they will not be shown), the one on screen normally. The display
 * is off, or going away. Called with fsd_dsp.lock held.
 */
static void fsd_flush(ktime_t ts, int error)
{
	struct fsd_buffer *b, *tmp;

	list_for_each_entry_safe(b, tmp, &fsd_dsp.queued, node) {
		list_del(&b->node);
		fsd_buffer_release(b, ts, error, error == -ENODEV ? error : 0);
	}
	fsd_dsp.nr_queued = 0;
	if (fsd_dsp.shown)
		fsd_buffer_release(fsd_dsp.shown, ts, 0,
				   error == -ENODEV ? error : 0);
	fsd_dsp.shown = NULL;
}

/*
 * Hardware VSYNC. Its timestamp is the grid point, not when the timer ran:
 * the display's clock does not care about interrupt latency. A late timer
 * (TCG) skips the VSYNCs it missed, which readers see in @missed.
 */
static enum hrtimer_restart fsd_vsync_fire(struct hrtimer *t)
{
	enum hrtimer_restart ret = HRTIMER_RESTART;
	unsigned long flags;
	ktime_t ts;
	u64 n;

	spin_lock_irqsave(&fsd_dsp.lock, flags);
	n = hrtimer_forward(t, hrtimer_cb_get_time(t), ns_to_ktime(fsd_dsp.period_ns));
	fsd_dsp.next = hrtimer_get_expires(t);
	ts = ktime_sub_ns(fsd_dsp.next, fsd_dsp.period_ns);
	fsd_dsp.seq += n;
	fsd_latch(ts);
	/*
	 * Nobody left to present or read, and what they queued is shown: the
	 * display turns off, and lets go of the buffer it showed.
	 */
	if (!fsd_dsp.open_files) {
		fsd_flush(ts, 0);
		fsd_dsp.on = false;
		ret = HRTIMER_NORESTART;
	}
	spin_unlock_irqrestore(&fsd_dsp.lock, flags);
	wake_up_all(&fsd_dsp.readers);
	return ret;
}

static int fsd_set_mode(struct display_mode *mode)
{
	unsigned long flags;
	ktime_t first;
	u64 period;

	if (mode->pad || mode->refresh_hz < 1 || mode->refresh_hz > 240)
		return -EINVAL;
	period = DIV_ROUND_CLOSEST(NSEC_PER_SEC, mode->refresh_hz);
	mutex_lock(&fsd_mode_mutex);
	/* not under the spinlock: this waits for a running callback */
	hrtimer_cancel(&fsd_dsp.timer);
	spin_lock_irqsave(&fsd_dsp.lock, flags);
	fsd_dsp.period_ns = period;
	fsd_dsp.gen++;
	fsd_dsp.seq = 0;
	first = ktime_add_ns(ktime_get(), period);
	fsd_dsp.next = first;
	fsd_dsp.on = true;
	hrtimer_start(&fsd_dsp.timer, first, HRTIMER_MODE_ABS);
	spin_unlock_irqrestore(&fsd_dsp.lock, flags);
	mutex_unlock(&fsd_mode_mutex);
	wake_up_all(&fsd_dsp.readers);
	mode->period_ns = period;
	mode->first_vsync_ns = ktime_to_ns(first);
	return 0;
}

/* Is the acquire fence @fd (or -1) signaled? 0, or -EBUSY/-EBADF/-EINVAL */
static int fsd_check_acquire(int fd)
{
	struct dma_fence *f;
	int ret = 0;

	if (fd == -1)
		return 0;
	if (fd < 0)
		return -EINVAL;
	f = fsd_fence_from_fd(fd);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (!dma_fence_is_signaled(f))
		ret = -EBUSY;
	dma_fence_put(f);
	return ret;
}

/* Queue @b for the next VSYNC: 0, or -EBUSY if too many are queued. */
static int fsd_queue_buffer(struct fsd_buffer *b, struct display_present *req)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&fsd_dsp.lock, flags);
	if (fsd_dsp.nr_queued >= DISPLAY_MAX_QUEUED) {
		ret = -EBUSY;
	} else {
		/* one seqno a buffer, on each of the two timelines */
		b->present->seqno = ++fsd_dsp.present_seqno;
		b->release->seqno = fsd_dsp.present_seqno;
		list_add_tail(&b->node, &fsd_dsp.queued);
		fsd_dsp.nr_queued++;
		atomic_inc(&fsd_buffers);
		req->vsync_seq = fsd_dsp.on ? fsd_dsp.seq + 1 : 0;
	}
	spin_unlock_irqrestore(&fsd_dsp.lock, flags);
	return ret;
}

/*
 * PRESENT up to the fds: on success the buffer is queued, and @present and
 * @release hold its sync_files and reserved fds.
 */
static int fsd_present(struct display_present *req, struct fsd_export *present,
		       struct fsd_export *release)
{
	struct fsd_buffer *b;
	int ret;

	ret = fsd_check_acquire(req->acquire_fd);
	if (ret)
		return ret;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	ret = -ENOMEM;
	b->present = fsd_fence_create(FSD_CTX_PRESENT);
	if (!b->present)
		goto free;
	b->release = fsd_fence_create(FSD_CTX_RELEASE);
	if (!b->release)
		goto abort_present;
	ret = fsd_export_prepare(present, b->present);
	if (ret)
		goto abort_release;
	ret = fsd_export_prepare(release, b->release);
	if (ret)
		goto cancel_present;
	ret = fsd_queue_buffer(b, req);
	if (ret)
		goto cancel_release;
	req->present_fd = present->fd;
	req->release_fd = release->fd;
	return 0;

cancel_release:
	fsd_export_cancel(release);
cancel_present:
	fsd_export_cancel(present);
abort_release:
	fsd_fence_abort(b->release, ret);
abort_present:
	fsd_fence_abort(b->present, ret);
free:
	kfree(b);
	return ret;
}

/*
 * The VSYNC @f has not read yet, into @v; false if there is none. Called
 * with fsd_dsp.lock held.
 */
static bool fsd_vsync_unread(struct fsd_file *f, struct display_vsync *v,
			     bool consume)
{
	u64 last = f->gen == fsd_dsp.gen ? f->read_seq : 0;

	if (fsd_dsp.seq <= last)
		return false;
	if (!consume)
		return true;
	v->seq = fsd_dsp.seq;
	v->next_ns = ktime_to_ns(fsd_dsp.next);
	v->timestamp_ns = v->next_ns - fsd_dsp.period_ns;
	v->missed = fsd_dsp.seq - last - 1;
	f->gen = fsd_dsp.gen;
	f->read_seq = fsd_dsp.seq;
	return true;
}

static bool fsd_vsync_take(struct fsd_file *f, struct display_vsync *v,
			   bool consume)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&fsd_dsp.lock, flags);
	ret = fsd_vsync_unread(f, v, consume);
	spin_unlock_irqrestore(&fsd_dsp.lock, flags);
	return ret;
}

static ssize_t fsd_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	struct fsd_file *f = file->private_data;
	struct display_vsync v;

	if (count < sizeof(v))
		return -EINVAL;
	while (!fsd_vsync_take(f, &v, true)) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(fsd_dsp.readers,
					     fsd_vsync_take(f, &v, false)))
			return -ERESTARTSYS;
	}
	if (copy_to_user(buf, &v, sizeof(v)))
		return -EFAULT;
	return sizeof(v);
}

static __poll_t fsd_poll(struct file *file, struct poll_table_struct *pt)
{
	struct fsd_file *f = file->private_data;

	poll_wait(file, &fsd_dsp.readers, pt);
	return fsd_vsync_take(f, NULL, false) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* --- the device -------------------------------------------------------- */

static int fsd_open(struct inode *inode, struct file *file)
{
	struct fsd_file *f = kzalloc(sizeof(*f), GFP_KERNEL);
	unsigned long flags;

	if (!f)
		return -ENOMEM;
	spin_lock_irqsave(&fsd_dsp.lock, flags);
	/* a new reader starts at the current VSYNC: the next one is news */
	f->gen = fsd_dsp.gen;
	f->read_seq = fsd_dsp.seq;
	fsd_dsp.open_files++;
	spin_unlock_irqrestore(&fsd_dsp.lock, flags);
	atomic_inc(&fsd_open_files);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

static int fsd_release(struct inode *inode, struct file *file)
{
	unsigned long flags;

	spin_lock_irqsave(&fsd_dsp.lock, flags);
	/*
	 * The last file closed: a running display turns off at its next
	 * VSYNC with nothing queued (fsd_vsync_fire()); one that is off lets
	 * go of its buffers now, since no VSYNC will come to show them.
	 */
	if (!--fsd_dsp.open_files && !fsd_dsp.on)
		fsd_flush(ktime_get(), -ECANCELED);
	spin_unlock_irqrestore(&fsd_dsp.lock, flags);
	atomic_dec(&fsd_open_files);
	kfree(file->private_data);
	return 0;
}

/*
 * The fds of GPU_SUBMIT and PRESENT are reserved, not installed, until the
 * result is copied out, so that a bad user pointer leaves no fd behind;
 * the job or buffer is queued by then, and completes normally.
 */
static long fsd_ioctl_submit(void __user *uarg)
{
	struct display_gpu_submit req;
	struct fsd_export e;
	int ret;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	ret = fsd_gpu_submit(&req, &e);
	if (ret)
		return ret;
	if (copy_to_user(uarg, &req, sizeof(req))) {
		fsd_export_cancel(&e);
		return -EFAULT;
	}
	fsd_export_install(&e);
	return 0;
}

static long fsd_ioctl_present(void __user *uarg)
{
	struct fsd_export present, release;
	struct display_present req;
	int ret;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	ret = fsd_present(&req, &present, &release);
	if (ret)
		return ret;
	if (copy_to_user(uarg, &req, sizeof(req))) {
		fsd_export_cancel(&release);
		fsd_export_cancel(&present);
		return -EFAULT;
	}
	fsd_export_install(&present);
	fsd_export_install(&release);
	return 0;
}

static long fsd_ioctl_set_mode(void __user *uarg)
{
	struct display_mode req;
	int ret;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	ret = fsd_set_mode(&req);
	if (!ret && copy_to_user(uarg, &req, sizeof(req)))
		ret = -EFAULT;
	return ret;
}

static long fsd_ioctl_hold(void __user *uarg)
{
	struct display_gpu_hold req;
	int ret;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	ret = fsd_gpu_hold(&req);
	if (!ret && copy_to_user(uarg, &req, sizeof(req)))
		ret = -EFAULT;
	return ret;
}

static long fsd_ioctl_calibrate(void __user *uarg)
{
	struct display_calibrate req = {};
	int ret;

	ret = fsd_calibrate(&req.loops_per_ms);
	if (ret)
		return ret;
	WRITE_ONCE(fsd_loops_per_ms, req.loops_per_ms);
	if (copy_to_user(uarg, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

static long fsd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case DISPLAY_IOC_SET_MODE:
		return fsd_ioctl_set_mode(uarg);
	case DISPLAY_IOC_PRESENT:
		return fsd_ioctl_present(uarg);
	case DISPLAY_IOC_GPU_SUBMIT:
		return fsd_ioctl_submit(uarg);
	case DISPLAY_IOC_GPU_HOLD:
		return fsd_ioctl_hold(uarg);
	case DISPLAY_IOC_CALIBRATE:
		return fsd_ioctl_calibrate(uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fsd_fops = {
	.owner = THIS_MODULE,
	.open = fsd_open,
	.release = fsd_release,
	.read = fsd_read,
	.poll = fsd_poll,
	.unlocked_ioctl = fsd_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice fsd_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = DISPLAY_MODULE,
	.fops = &fsd_fops,
	.mode = 0666,
};

static void fsd_debugfs_init(void)
{
	fsd_debugfs = debugfs_create_dir(DISPLAY_MODULE, NULL);
	debugfs_create_atomic_t("live_fences", 0444, fsd_debugfs,
				&fsd_live_fences);
	debugfs_create_atomic_t("pending_fences", 0444, fsd_debugfs,
				&fsd_pending_fences);
	debugfs_create_atomic_t("gpu_jobs", 0444, fsd_debugfs, &fsd_gpu_jobs);
	debugfs_create_atomic_t("buffers", 0444, fsd_debugfs, &fsd_buffers);
	debugfs_create_atomic_t("open_files", 0444, fsd_debugfs,
				&fsd_open_files);
	debugfs_create_u64("loops_per_ms", 0444, fsd_debugfs,
			   &fsd_loops_per_ms);
}

static int __init fsd_init(void)
{
	u64 lpm;
	int ret;

	ret = fsd_calibrate(&lpm);
	if (ret)
		return ret;
	WRITE_ONCE(fsd_loops_per_ms, lpm);
	fsd_ctx_base = dma_fence_context_alloc(FSD_NR_CTX);
	hrtimer_init(&fsd_ring.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	fsd_ring.timer.function = fsd_ring_fire;
	hrtimer_init(&fsd_dsp.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	fsd_dsp.timer.function = fsd_vsync_fire;
	fsd_debugfs_init();
	ret = misc_register(&fsd_misc);
	if (ret)
		debugfs_remove_recursive(fsd_debugfs);
	return ret;
}

/*
 * No file is open (each pins the module) and no fence of ours exists
 * (each pins it too), so the queues are empty by now; flush them anyway,
 * so that nothing could ever wait on a fence whose module is gone.
 */
static void __exit fsd_exit(void)
{
	struct fsd_job *job, *tmp;
	unsigned long flags;

	misc_deregister(&fsd_misc);
	debugfs_remove_recursive(fsd_debugfs);
	hrtimer_cancel(&fsd_dsp.timer);
	hrtimer_cancel(&fsd_ring.timer);
	spin_lock_irqsave(&fsd_ring.lock, flags);
	list_for_each_entry_safe(job, tmp, &fsd_ring.jobs, node)
		fsd_job_finish(job, -ENODEV);
	spin_unlock_irqrestore(&fsd_ring.lock, flags);
	spin_lock_irqsave(&fsd_dsp.lock, flags);
	fsd_flush(ktime_get(), -ENODEV);
	fsd_dsp.on = false;
	spin_unlock_irqrestore(&fsd_dsp.lock, flags);
	if (atomic_read(&fsd_live_fences))
		pr_err(DISPLAY_MODULE ": %d fences still alive at unload\n",
		       atomic_read(&fsd_live_fences));
	mutex_destroy(&fsd_gpu_mutex);
	mutex_destroy(&fsd_mode_mutex);
}

module_init(fsd_init);
module_exit(fsd_exit);
MODULE_DESCRIPTION("framesched: the emulated phone's display controller and GPU");
MODULE_LICENSE("GPL");
