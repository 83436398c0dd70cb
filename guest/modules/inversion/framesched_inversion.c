// SPDX-License-Identifier: GPL-2.0
/*
 * framesched_inversion: the classic priority inversion on a kernel struct
 * mutex, on demand, for bench/inversion and tests/guest/inversion.
 *
 * A low-importance owner holds a mutex over a CPU-bound section, a
 * high-importance waiter blocks on it, and the waiter's blocking time is
 * taken here, around mutex_lock(), where user space cannot see it. The
 * interface (a debugfs file with two ioctls) is documented in
 * inversion_uapi.h.
 *
 * Every request runs to its end inside one ioctl, so no mutex is ever held
 * when we return to user space: a caller that dies or closes the file
 * leaves nothing behind, and lockdep's "held when returning to user space"
 * check stays quiet. Each mutex has its own lock class, and the only
 * nesting (@outer, then @mutex) goes from the lower index to the higher.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "inversion_uapi.h"

/* how often the busy loop looks for a fatal signal */
#define LOOPS_PER_SIGNAL_CHECK	4096
/* lock events remembered per mutex, for @late_ns */
#define INV_HISTORY		8

struct inv_event {
	u64 seq;		/* inv_events when the mutex was locked */
	u64 ns;			/* ktime_get_ns() then */
};

struct inv_mutex {
	struct mutex lock;	/* what the owner holds and the waiter wants */
	/* the last INV_HISTORY locks, the last one at [last] */
	struct inv_event history[INV_HISTORY];
	unsigned int last;
};

static struct inv_mutex inv_mutexes[INVERSION_NR_MUTEXES];
static struct lock_class_key inv_keys[INVERSION_NR_MUTEXES];
/* one lock class per mutex, so that a lockdep report names the mutex */
static const char *const inv_names[INVERSION_NR_MUTEXES] = {
	"inversion_mutex0", "inversion_mutex1",
	"inversion_mutex2", "inversion_mutex3",
};

/* one event per lock taken; protected by inv_events_lock */
static u64 inv_events;
static DEFINE_SPINLOCK(inv_events_lock);
static DECLARE_WAIT_QUEUE_HEAD(inv_locked_wq);
static struct dentry *inv_file;

/*
 * A fixed amount of work, not a clock spin: while we are preempted the
 * loop does not advance, so preemption makes the section longer, which is
 * the inversion we measure. Not inlined, so its cost per iteration is the
 * same wherever it is called from (the driver calibrates it).
 */
static noinline int inv_spin(u64 loops)
{
	u64 i;

	for (i = 0; i < loops; i++) {
		if (!(i % LOOPS_PER_SIGNAL_CHECK) && fatal_signal_pending(current))
			return -EINTR;
		barrier();
	}
	return 0;
}

/*
 * When @m was first locked after event @after, as far as its history
 * goes back; 0 if it was not. Called with inv_events_lock held.
 */
static u64 inv_first_lock_after(const struct inv_mutex *m, u64 after)
{
	u64 ns = 0;
	int i, k;

	for (i = 0; i < INV_HISTORY; i++) {
		k = (m->last + INV_HISTORY - i) % INV_HISTORY;
		if (m->history[k].seq <= after)
			break;
		ns = m->history[k].ns;
	}
	return ns;
}

/*
 * Were all of @mask locked after event @after? *@last_ns: when the last
 * of them was, that is when the condition came true (the later locks of
 * the same mutexes do not count).
 */
static bool inv_all_locked_after(u32 mask, u64 after, u64 *last_ns)
{
	bool ret = true;
	u64 ns;
	int i;

	spin_lock(&inv_events_lock);
	for (i = 0; i < INVERSION_NR_MUTEXES; i++) {
		if (!(mask & BIT(i)))
			continue;
		ns = inv_first_lock_after(&inv_mutexes[i], after);
		if (!ns)
			ret = false;
		*last_ns = max(*last_ns, ns);
	}
	spin_unlock(&inv_events_lock);
	return ret;
}

/* Wait for @req->wait_locked; *@last_ns: when the last of them was locked */
static int inv_wait_locked(const struct inversion_req *req, u64 *last_ns)
{
	*last_ns = 0;
	if (!req->wait_locked)
		return 0;
	/* killable: an owner that never comes would leave us here forever */
	if (wait_event_killable(inv_locked_wq,
				inv_all_locked_after(req->wait_locked, req->after,
						     last_ns)))
		return -EINTR;
	return 0;
}

static u64 inv_seq(void)
{
	u64 seq;

	spin_lock(&inv_events_lock);
	seq = inv_events;
	spin_unlock(&inv_events_lock);
	return seq;
}

/*
 * Lock @m; with @req, time it around mutex_lock() itself, and tell how
 * long after @last_ns (the lock we waited for) we came to it.
 */
static int inv_lock(struct inv_mutex *m, struct inversion_req *req,
		    u64 last_ns)
{
	u64 t0 = 0, t1;
	int ret;

	if (req) {
		req->contended = mutex_is_locked(&m->lock);
		t0 = ktime_get_ns();
		req->late_ns = last_ns && t0 > last_ns ? t0 - last_ns : 0;
	}
	ret = mutex_lock_killable(&m->lock);
	t1 = ktime_get_ns();
	if (req)
		req->wait_ns = t1 - t0;
	if (ret)
		return -EINTR;
	spin_lock(&inv_events_lock);
	m->last = (m->last + 1) % INV_HISTORY;
	m->history[m->last].seq = ++inv_events;
	m->history[m->last].ns = t1;
	if (req)
		req->lock_seq = inv_events;
	spin_unlock(&inv_events_lock);
	wake_up_all(&inv_locked_wq);
	return 0;
}

static int inv_check(const struct inversion_req *req, bool section)
{
	if (req->mutex >= INVERSION_NR_MUTEXES ||
	    req->wait_locked >> INVERSION_NR_MUTEXES ||
	    req->flags & ~INVERSION_RELOCK || req->reserved)
		return -EINVAL;
	if (!section)
		return req->outer != INVERSION_NO_OUTER || req->loops ||
		       req->sleep_us || req->nsleeps || req->flags ?
		       -EINVAL : 0;
	if (req->loops > INVERSION_MAX_LOOPS ||
	    req->sleep_us > INVERSION_MAX_SLEEP_US ||
	    req->nsleeps > INVERSION_MAX_NSLEEPS)
		return -EINVAL;
	if (req->outer == INVERSION_NO_OUTER)
		return 0;
	if (req->outer == req->mutex)
		return -EDEADLK;
	/* one lock order, lower index first: no ABBA between two callers */
	return req->outer < req->mutex ? 0 : -EINVAL;
}

/*
 * current's time runnable but waiting for a CPU, so far. Up to date while
 * it runs: the scheduler adds each wait when the task gets the CPU.
 */
static u64 inv_queued_ns(void)
{
#ifdef CONFIG_SCHED_INFO
	return current->sched_info.run_delay;
#else
	return 0;
#endif
}

/*
 * Between two parts of a section: unlock @m and lock it again, so that its
 * first waiter wakes to find it taken (INVERSION_RELOCK). *@held: false
 * if a fatal signal came in between and @m is no longer ours.
 */
static int inv_relock(struct inv_mutex *m, struct inversion_req *req,
		      bool *held)
{
	int ret;

	mutex_unlock(&m->lock);
	ret = inv_lock(m, NULL, 0);
	*held = !ret;
	if (!ret) {
		/* ours while we hold @m */
		spin_lock(&inv_events_lock);
		req->lock_seq = m->history[m->last].seq;
		spin_unlock(&inv_events_lock);
	}
	return ret;
}

/*
 * Run the section with @m (@req->mutex) held: work, then sleep and work.
 * *@held: whether @m is still held on return.
 */
static int inv_section_body(struct inv_mutex *m, struct inversion_req *req,
			    bool *held)
{
	u64 q0 = inv_queued_ns(), t0 = ktime_get_ns();
	u32 i, parts = req->sleep_us && req->nsleeps > 1 ? req->nsleeps + 1 : 2;
	u64 part = req->loops / parts;
	int ret;

	ret = inv_spin(part);
	for (i = 1; !ret && i < parts; i++) {
		/*
		 * Exactly @sleep_us: fsleep() would allow up to twice that
		 * (usleep_range(S, 2S)), and an idle tickless CPU takes all
		 * of it, a section longer with nothing else running than
		 * with hogs.
		 */
		if (req->sleep_us)
			usleep_range(req->sleep_us, req->sleep_us);
		if (req->flags & INVERSION_RELOCK)
			ret = inv_relock(m, req, held);
		if (!ret)
			ret = inv_spin(i == parts - 1 ?
				       req->loops - part * i : part);
	}
	req->hold_ns = ktime_get_ns() - t0;
	req->queued_ns = inv_queued_ns() - q0;
	return ret;
}

static int inv_section(struct inversion_req *req)
{
	struct inv_mutex *outer = NULL, *m = &inv_mutexes[req->mutex];
	u64 last_ns;
	int ret;

	if (req->outer != INVERSION_NO_OUTER) {
		outer = &inv_mutexes[req->outer];
		ret = inv_lock(outer, NULL, 0);
		if (ret)
			return ret;
	}
	ret = inv_wait_locked(req, &last_ns);
	if (!ret)
		ret = inv_lock(m, req, last_ns);
	if (!ret) {
		bool held = true;

		ret = inv_section_body(m, req, &held);
		if (held)
			mutex_unlock(&m->lock);
	}
	if (outer)
		mutex_unlock(&outer->lock);
	return ret;
}

static int inv_lock_request(struct inversion_req *req)
{
	struct inv_mutex *m = &inv_mutexes[req->mutex];
	u64 last_ns;
	int ret;

	ret = inv_wait_locked(req, &last_ns);
	if (!ret)
		ret = inv_lock(m, req, last_ns);
	if (!ret)
		mutex_unlock(&m->lock);
	return ret;
}

static long inv_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	bool section = cmd == INVERSION_IOC_SECTION;
	struct inversion_req req;
	int ret;

	if (cmd != INVERSION_IOC_SECTION && cmd != INVERSION_IOC_LOCK)
		return -ENOTTY;
	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	ret = inv_check(&req, section);
	if (ret)
		return ret;
	req.wait_ns = 0;
	req.hold_ns = 0;
	req.late_ns = 0;
	req.queued_ns = 0;
	req.contended = 0;
	req.lock_seq = 0;
	ret = section ? inv_section(&req) : inv_lock_request(&req);
	if (ret)
		return ret;
	req.seq = inv_seq();
	if (copy_to_user(uarg, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

static const struct file_operations inv_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.unlocked_ioctl = inv_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static int __init inv_init(void)
{
	int i;

	for (i = 0; i < INVERSION_NR_MUTEXES; i++)
		__mutex_init(&inv_mutexes[i].lock, inv_names[i], &inv_keys[i]);
	inv_file = debugfs_create_file(INVERSION_MODULE, 0600, NULL, NULL,
				       &inv_fops);
	return PTR_ERR_OR_ZERO(inv_file);
}

static void __exit inv_exit(void)
{
	int i;

	/* waits for ioctls in flight; an open file pins the module anyway */
	debugfs_remove(inv_file);
	for (i = 0; i < INVERSION_NR_MUTEXES; i++)
		mutex_destroy(&inv_mutexes[i].lock);
}

module_init(inv_init);
module_exit(inv_exit);
MODULE_DESCRIPTION("framesched: priority inversion on a kernel mutex, on demand");
MODULE_LICENSE("GPL");
