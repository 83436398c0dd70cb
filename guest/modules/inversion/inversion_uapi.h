/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The interface of framesched_inversion.ko, shared by the module and the
 * guest programs that drive it (bench/inversion, tests/guest/inversion).
 *
 * The module owns INVERSION_NR_MUTEXES kernel mutexes. Every request runs
 * to its end inside one ioctl: a mutex is never held across system calls,
 * so a process that dies or closes the file cannot leave one held.
 *
 * Every lock the module takes counts one event on a module-wide counter,
 * and each mutex remembers the count at which it was last locked. That is
 * how a caller orders itself behind another one without a race in user
 * space: "wait until the owner has locked mutex k since event @after, then
 * block on it". @after comes from @seq of an earlier request. If the owner
 * has already come and gone by the time the waiter looks, the waiter does
 * not wait for the next owner: it locks at once and reports @contended 0.
 *
 * INVERSION_IOC_SECTION: the owner's side. In this order:
 *   1. lock @outer if it is not INVERSION_NO_OUTER (it must be a lower
 *      index than @mutex: one lock order, as lockdep wants);
 *   2. wait until every mutex in @wait_locked was locked after @after;
 *   3. lock @mutex, timed (@wait_ns, @contended);
 *   4. busy-loop @loops/2 iterations, sleep @sleep_us (no timer slack),
 *      busy-loop the rest; with @nsleeps N > 1, N sleeps of @sleep_us
 *      between N + 1 equal parts of the loop (an owner that wakes and
 *      sleeps again while donors walk to it):
 *      a fixed amount of work, so that preemption stretches the section
 *      (@hold_ns) instead of eating it; @queued_ns says by how much;
 *      with INVERSION_RELOCK in @flags, unlock @mutex and lock it again
 *      at once between two parts (after any sleep there): the first
 *      waiter is woken and finds it taken again, as when a lock is
 *      stolen;
 *   5. unlock @mutex, then @outer.
 *
 * INVERSION_IOC_LOCK: the waiter's side. Wait as in 2., then lock @mutex,
 * timed with ktime_get_ns() right around mutex_lock (@wait_ns), and unlock
 * it. @outer must be INVERSION_NO_OUTER, @loops and @sleep_us 0.
 *
 * Both return in @seq the event counter as it is on return, in
 * @lock_seq the event of their own (last) lock of @mutex, which orders
 * the callers that got it, and in
 * @late_ns how long after the last lock they waited for (@wait_locked)
 * they came to lock @mutex: how late the waiter woke up. A waiter that is
 * too late finds the owner gone (@contended 0): its delay was the CPU, not
 * the mutex.
 *
 * Errors: EINVAL (index out of range, @outer not below @mutex, @loops or
 * @sleep_us or @nsleeps above the maximum, an unknown bit in @flags, LOCK
 * with section fields), EDEADLK (@outer == @mutex), EINTR (fatal signal while waiting or
 * in the section; everything taken is released), EFAULT, ENOTTY (unknown
 * command). Waits are killable, not interruptible: other signals do not
 * cut a measurement short.
 */
#ifndef FRAMESCHED_INVERSION_UAPI_H
#define FRAMESCHED_INVERSION_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define INVERSION_MODULE	"framesched_inversion"
#define INVERSION_PATH		"/sys/kernel/debug/framesched_inversion"

#define INVERSION_NR_MUTEXES	4
#define INVERSION_NO_OUTER	0xffffffffu
/* bounds that keep one request well below the hung-task timeout */
#define INVERSION_MAX_LOOPS	(1ULL << 36)
#define INVERSION_MAX_SLEEP_US	1000000u
#define INVERSION_MAX_NSLEEPS	1000u

/* @flags of a SECTION */
#define INVERSION_RELOCK	(1u << 0)	/* unlock and relock between parts */

struct inversion_req {
	__u32 mutex;		/* in: the mutex to lock */
	__u32 outer;		/* in: SECTION: locked first, or INVERSION_NO_OUTER */
	__u32 wait_locked;	/* in: bit i: wait until mutex i was locked after @after */
	__u32 sleep_us;		/* in: SECTION: sleep in the middle */
	__u64 after;		/* in: an event count, from @seq */
	__u64 loops;		/* in: SECTION: busy-loop iterations */
	__u64 wait_ns;		/* out: time to lock @mutex */
	__u64 hold_ns;		/* out: SECTION: @mutex locked to unlocked */
	__u64 seq;		/* out: the event count on return */
	__u64 late_ns;		/* out: @wait_locked done to our lock */
	__u64 queued_ns;	/* out: SECTION: of @hold_ns, the time spent
				 * runnable, waiting for a CPU (0 without
				 * CONFIG_SCHED_INFO) */
	__u32 contended;	/* out: @mutex was locked when we asked */
	__u32 nsleeps;		/* in: SECTION: sleeps of @sleep_us (0: 1) */
	__u32 flags;		/* in: SECTION: INVERSION_RELOCK */
	__u32 reserved;		/* in: 0 */
	__u64 lock_seq;		/* out: the event of our last lock of @mutex */
};

#define INVERSION_IOC_SECTION	_IOWR(0xf5, 0x01, struct inversion_req)
#define INVERSION_IOC_LOCK	_IOWR(0xf5, 0x02, struct inversion_req)

#endif
