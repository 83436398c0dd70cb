// SPDX-License-Identifier: GPL-2.0
/*
 * A mutex's first waiter that wakes and finds the mutex taken again asks
 * for it next (MUTEX_FLAG_HANDOFF): the unlock hands it over instead of
 * letting anyone take it, which bounds how long the first waiter can be
 * passed over. Proxy execution hands the mutex to the waiter the owner
 * runs for, the donor; when the first waiter has asked for the handoff,
 * that request must still win: the donor then lends its context to the
 * first waiter's section instead. A donor that takes the handoff leaves
 * the first waiter asleep, and its request lost.
 *
 * Owner O (SCHED_OTHER, pinned to CPU A) runs a section of mutex 0 and
 * unlocks and locks it again in the middle. Hog H (SCHED_FIFO 50, pinned
 * to A) runs for a while once O holds the mutex, so that first waiter F
 * (SCHED_IDLE, pinned to B), arriving then, finds O off the CPU and goes
 * to sleep on the wait list instead of spinning on O. O's midpoint unlock
 * wakes F, and F finds the mutex taken again: it asks for the handoff.
 * Then donor D (SCHED_FIFO 80, pinned to A) blocks on the mutex and O runs
 * the rest of the section on D's context. F must get mutex 0 before D.
 * (F is SCHED_IDLE so that O, not F's context, runs O at the midpoint: an
 * unlock on F's context would hand the mutex to F as its donor, with no
 * request to honour.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "proxy_fixture.h"

#define CPU_A		1	/* the owner's and the donor's */
#define CPU_B		2	/* the first waiter's */
#define CPU_MAIN	3
#define SECTION_MS	200.0
#define HOG_MS		20.0
#define ROUNDS		6

struct handoff {
	int fd;
	unsigned long long loops;	/* SECTION_MS of work */
	unsigned long long seq;		/* the module's last lock before a round */
	struct inversion_req o, f, d;	/* each one's request, as returned */
	int o_err, f_err, d_err;
	struct proxy_hog hog;		/* H */
};

/* O: its section, relocked in the middle (one relock: two parts) */
static void *owner_main(void *arg)
{
	struct handoff *h = arg;

	h->o = (struct inversion_req){
		.mutex = 0, .outer = INVERSION_NO_OUTER, .loops = h->loops,
		.flags = INVERSION_RELOCK,
	};
	if (pin_cpus(0, CPU_A, -1) || ioctl(h->fd, INVERSION_IOC_SECTION, &h->o))
		h->o_err = errno ? errno : EIO;
	return NULL;
}

/* F: blocks on mutex 0 once O holds it (O's first lock) */
static void *first_main(void *arg)
{
	struct handoff *h = arg;
	struct sched_param sp = { .sched_priority = 0 };

	h->f = (struct inversion_req){
		.mutex = 0, .outer = INVERSION_NO_OUTER,
		.wait_locked = 1u << 0, .after = h->seq,
	};
	if (pin_cpus(0, CPU_B, -1) || sched_setscheduler(0, SCHED_IDLE, &sp) ||
	    ioctl(h->fd, INVERSION_IOC_LOCK, &h->f))
		h->f_err = errno ? errno : EIO;
	return NULL;
}

/* D: blocks on mutex 0 once O has relocked it (the lock after O's first) */
static void *donor_main(void *arg)
{
	struct handoff *h = arg;
	struct sched_param sp = { .sched_priority = 80 };

	h->d = (struct inversion_req){
		.mutex = 0, .outer = INVERSION_NO_OUTER,
		.wait_locked = 1u << 0, .after = h->seq + 1,
	};
	if (pin_cpus(0, CPU_A, -1) || sched_setscheduler(0, SCHED_FIFO, &sp) ||
	    ioctl(h->fd, INVERSION_IOC_LOCK, &h->d))
		h->d_err = errno ? errno : EIO;
	return NULL;
}

FIXTURE(handoff) {
	struct proxy_fixture f;
};

FIXTURE_SETUP(handoff)
{
	char err[128];

	ASSERT_LE(4, sysconf(_SC_NPROCESSORS_ONLN));
	ASSERT_EQ(INV_CPU, CPU_A);	/* the calibration's CPU is the owner's */
	ASSERT_EQ(0, proxy_fixture_open(&self->f, SECTION_MS * 1000, CPU_MAIN, true,
					err, sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(handoff)
{
	proxy_fixture_close(&self->f);
}

TEST_F_TIMEOUT(handoff, first_waiter_that_asked_comes_before_the_donor, 60)
{
	static struct handoff h;
	int round, first_before_donor = 0, requested = 0, at_midpoint = 0;

	for (round = 0; round < ROUNDS; round++) {
		pthread_t o, f, d, hog;

		memset(&h, 0, sizeof(h));
		h.fd = self->f.ctx.fd;
		h.loops = self->f.ctx.loops;
		h.seq = self->f.ctx.seq;
		h.hog = (struct proxy_hog){
			.fd = h.fd, .after = h.seq, .cpu = CPU_A, .prio = 50,
			.ms = HOG_MS,
		};
		ASSERT_EQ(0, pthread_create(&hog, NULL, proxy_hog_main, &h.hog));
		ASSERT_EQ(0, pthread_create(&f, NULL, first_main, &h));
		ASSERT_EQ(0, pthread_create(&d, NULL, donor_main, &h));
		usleep(20000);	/* all three wait for O's lock */
		ASSERT_EQ(0, pthread_create(&o, NULL, owner_main, &h));
		pthread_join(hog, NULL);
		pthread_join(d, NULL);
		pthread_join(f, NULL);
		pthread_join(o, NULL);
		ASSERT_EQ(0, h.o_err) TH_LOG("O: %s", strerror(h.o_err));
		ASSERT_EQ(0, h.f_err) TH_LOG("F: %s", strerror(h.f_err));
		ASSERT_EQ(0, h.d_err) TH_LOG("D: %s", strerror(h.d_err));
		ASSERT_EQ(0, h.hog.err) TH_LOG("H: %s", strerror(h.hog.err));
		self->f.ctx.seq = h.o.seq;
		if (h.f.seq > self->f.ctx.seq)
			self->f.ctx.seq = h.f.seq;
		if (h.d.seq > self->f.ctx.seq)
			self->f.ctx.seq = h.d.seq;
		if (h.hog.seq > self->f.ctx.seq)
			self->f.ctx.seq = h.hog.seq;
		TH_LOG("round %d: O locked at events %llu (first) and %llu, F at %llu, D at %llu",
		       round, h.seq + 1, h.o.lock_seq, h.f.lock_seq, h.d.lock_seq);
		ASSERT_NE(0U, h.f.contended) TH_LOG("F found mutex 0 free");
		if (h.f.lock_seq < h.o.lock_seq) {
			/*
			 * F took it at the midpoint, before O's relock (the
			 * unlock ran on F's context, or F won the race): first
			 * anyway, but with no request to honour.
			 */
			at_midpoint++;
			continue;
		}
		ASSERT_NE(0U, h.d.contended) TH_LOG("D found mutex 0 free");
		requested++;
		first_before_donor += h.f.lock_seq < h.d.lock_seq;
	}
	TH_LOG("%d rounds with F's request, %d where F took the mutex at the midpoint",
	       requested, at_midpoint);
	ASSERT_LE(1, requested) TH_LOG("no round tested the request");
	EXPECT_EQ(requested, first_before_donor);
}

TEST_HARNESS_MAIN
