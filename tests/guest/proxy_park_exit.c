// SPDX-License-Identifier: GPL-2.0
/*
 * Proxy execution parks a donor on a mutex owner that sleeps, to be woken
 * with it. An owner that sleeps and wakes many times in its section (here
 * 200 hrtimer sleeps of 1 us with almost no work between them, many of
 * which expire before it reaches schedule() and wake it from its own CPU) and then exits must leave no
 * donor parked on it: a donor left behind points at a freed task, which
 * its next wake-up writes to. The kernel wakes, and warns about, donors
 * still parked on a task that dies; tools/vm fails the run on the warning.
 *
 * Owners, one thread each, run their section on CPU 0 and exit; three
 * waiters, pinned to the other CPUs, queue behind each owner in turn, so
 * that their CPUs walk to it while it sleeps and wakes. PROXY_EXEC on.
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

#define WAITERS		3
#define RUN_S		10.0
#define OWNER_SLEEPS	200
#define OWNER_SLEEP_US	1

struct park_exit {
	int fd;
	volatile int stop;
	unsigned long long seq;		/* the last owner's lock event */
	pthread_mutex_t seq_lock;
	long contended[WAITERS], locks[WAITERS];
	int err;
};

struct owner_arg {
	struct park_exit *pe;
	unsigned long long loops;
};

/* One section of OWNER_SLEEPS sleeps on mutex 0, then the thread exits. */
static void *owner_main(void *p)
{
	struct owner_arg *a = p;
	struct inversion_req r = {
		.mutex = 0, .outer = INVERSION_NO_OUTER,
		.loops = a->loops, .sleep_us = OWNER_SLEEP_US,
		.nsleeps = OWNER_SLEEPS,
	};

	if (pin_cpus(0, 0, -1) || ioctl(a->pe->fd, INVERSION_IOC_SECTION, &r))
		a->pe->err = errno ? errno : EIO;
	return NULL;
}

struct waiter_arg {
	struct park_exit *pe;
	int i;
};

/* Wait for mutex 0 to be locked anew, then block on it; over and over. */
static void *waiter_main(void *p)
{
	struct waiter_arg *a = p;
	struct park_exit *pe = a->pe;
	unsigned long long after = 0;

	if (pin_cpus(0, 1 + a->i % (sysconf(_SC_NPROCESSORS_ONLN) - 1), -1)) {
		pe->err = errno;
		return NULL;
	}
	while (!pe->stop) {
		struct inversion_req r = {
			.mutex = 0, .outer = INVERSION_NO_OUTER,
			.wait_locked = 1u << 0, .after = after,
		};

		if (ioctl(pe->fd, INVERSION_IOC_LOCK, &r)) {
			pe->err = errno;
			return NULL;
		}
		after = r.seq;
		pe->locks[a->i]++;
		pe->contended[a->i] += r.contended;
	}
	return NULL;
}

FIXTURE(park) {
	struct proxy_fixture f;
};

FIXTURE_SETUP(park)
{
	char err[128];

	ASSERT_LE(2, sysconf(_SC_NPROCESSORS_ONLN));
	/* the work between two sleeps: about 0.5 us (100 us a section) */
	ASSERT_EQ(0, proxy_fixture_open(&self->f, 2000, -1, false,
					err, sizeof(err)))
		TH_LOG("%s", err);
	self->f.ctx.loops /= 20;
}

FIXTURE_TEARDOWN(park)
{
	proxy_fixture_close(&self->f);
}

TEST_F_TIMEOUT(park, owners_that_sleep_wake_and_exit_leave_no_donor, 120)
{
	static struct park_exit pe;
	struct waiter_arg wa[WAITERS];
	pthread_t w[WAITERS];
	long owners = 0, contended = 0, locks = 0;
	double t0;
	int i;

	pe.fd = self->f.ctx.fd;
	ASSERT_EQ(0, set_sched_feature("PROXY_EXEC", true));
	for (i = 0; i < WAITERS; i++) {
		wa[i] = (struct waiter_arg){ .pe = &pe, .i = i };
		ASSERT_EQ(0, pthread_create(&w[i], NULL, waiter_main, &wa[i]));
	}
	t0 = mono_now();
	while (!pe.err && mono_now() - t0 < RUN_S) {
		struct owner_arg oa = { .pe = &pe, .loops = self->f.ctx.loops };
		pthread_t o;

		ASSERT_EQ(0, pthread_create(&o, NULL, owner_main, &oa));
		ASSERT_EQ(0, pthread_join(o, NULL));
		owners++;
	}
	pe.stop = 1;
	/*
	 * A waiter that missed the stop waits for a new owner: give it
	 * short sections until every waiter has left.
	 */
	for (i = 0; i < WAITERS && mono_now() - t0 < RUN_S + 30; ) {
		struct owner_arg oa = { .pe = &pe, .loops = 1 };
		pthread_t o;

		ASSERT_EQ(0, pthread_create(&o, NULL, owner_main, &oa));
		ASSERT_EQ(0, pthread_join(o, NULL));
		while (i < WAITERS && !pthread_tryjoin_np(w[i], NULL)) {
			contended += pe.contended[i];
			locks += pe.locks[i];
			i++;
		}
	}
	ASSERT_EQ(WAITERS, i) TH_LOG("a waiter did not come back");
	ASSERT_EQ(0, pe.err) TH_LOG("ioctl: %s", strerror(pe.err));
	TH_LOG("%ld owners of %d sleeps each exited; waiters locked %ld times, %ld of them behind an owner",
	       owners, OWNER_SLEEPS, locks, contended);
	/* the waiters did wait on the owners (else nothing was tested) */
	EXPECT_LE(owners, locks);
	EXPECT_LE(locks / 4, contended);
}

TEST_HARNESS_MAIN
