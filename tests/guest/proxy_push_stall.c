// SPDX-License-Identifier: GPL-2.0
/*
 * Proxy execution keeps a blocked mutex waiter queued on its runqueue, and
 * on the RT pushable list. A push must pass over it to the next pushable
 * task: stopping at the blocked waiter leaves the CPU overloaded with a
 * task that another CPU could run at once.
 *
 * On CPU A: owner O (SCHED_OTHER) runs a long section of mutex 0, waiter W
 * (SCHED_FIFO 60) blocks on it and stays queued, O running for it; R
 * (SCHED_FIFO 50) wakes behind them. Then W and R may also run on CPU B,
 * which runs nothing, and H (SCHED_FIFO 70, pinned to A) arrives and runs
 * for H_MS: the push that follows H's pick has W (blocked) at the head of
 * the pushable list and R behind it. R must reach a CPU within
 * PUSH_BOUND_MS of H's arrival. A push that stops at W leaves R queued on
 * A until H ends (H_MS, against 0.1 to 63 ms with the fix), when
 * W becomes A's donor again and leaves the list.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "proxy_fixture.h"

#define CPU_A		1
#define CPU_B		2
#define CPU_MAIN	3
#define SECTION_MS	1500.0
#define H_MS		1000.0
#define PUSH_BOUND_MS	250.0

struct stall {
	int fd;
	unsigned long long loops;	/* SECTION_MS of work */
	unsigned long long seq;		/* the module's last lock before the test */
	sem_t r_go, h_go;
	volatile pid_t w_tid, r_tid;
	volatile double h_start, r_start;
	volatile int r_cpu;
	volatile int err;
	volatile int w_contended;	/* W found mutex 0 held by O */
};

static int set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, SCHED_FIFO, &sp) ? -errno : 0;
}

static void spin_ms(double ms)
{
	double t0 = mono_now();

	while ((mono_now() - t0) * 1e3 < ms)
		;
}

static void *owner_main(void *arg)
{
	struct stall *s = arg;
	struct inversion_req r = {
		.mutex = 0, .outer = INVERSION_NO_OUTER, .loops = s->loops,
	};

	if (pin_cpus(0, CPU_A, -1) || ioctl(s->fd, INVERSION_IOC_SECTION, &r))
		s->err = errno ? errno : EIO;
	return NULL;
}

/*
 * W waits until O has locked mutex 0, then blocks on it. "After s->seq":
 * calibration locked mutex 0 too, and a wait satisfied by those locks let
 * W take the mutex before O and leave at once.
 */
static void *waiter_main(void *arg)
{
	struct stall *s = arg;
	struct inversion_req r = {
		.mutex = 0, .outer = INVERSION_NO_OUTER,
		.wait_locked = 1u << 0, .after = s->seq,
	};

	s->w_tid = syscall(SYS_gettid);
	if (pin_cpus(0, CPU_A, -1) || set_fifo(60) ||
	    ioctl(s->fd, INVERSION_IOC_LOCK, &r))
		s->err = errno ? errno : EIO;
	s->w_contended = r.contended;
	return NULL;
}

static void *r_main(void *arg)
{
	struct stall *s = arg;

	s->r_tid = syscall(SYS_gettid);
	if (pin_cpus(0, CPU_A, -1) || set_fifo(50)) {
		s->err = errno;
		return NULL;
	}
	sem_wait(&s->r_go);
	s->r_start = mono_now();
	s->r_cpu = sched_getcpu();
	return NULL;
}

static void *h_main(void *arg)
{
	struct stall *s = arg;

	if (pin_cpus(0, CPU_A, -1) || set_fifo(70)) {
		s->err = errno;
		return NULL;
	}
	sem_wait(&s->h_go);
	s->h_start = mono_now();
	spin_ms(H_MS);
	return NULL;
}

FIXTURE(stall) {
	struct proxy_fixture f;
};

FIXTURE_SETUP(stall)
{
	char err[128];

	ASSERT_LE(4, sysconf(_SC_NPROCESSORS_ONLN));
	ASSERT_EQ(0, proxy_fixture_open(&self->f, SECTION_MS * 1000, CPU_MAIN, false,
					err, sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(stall)
{
	proxy_fixture_close(&self->f);
}

TEST_F_TIMEOUT(stall, push_passes_over_a_blocked_waiter, 60)
{
	static struct stall s;
	pthread_t o, w, r, h;
	double late_ms;

	memset(&s, 0, sizeof(s));
	s.fd = self->f.ctx.fd;
	s.loops = self->f.ctx.loops;
	s.seq = self->f.ctx.seq;
	sem_init(&s.r_go, 0, 0);
	sem_init(&s.h_go, 0, 0);
	ASSERT_EQ(0, set_sched_feature("PROXY_EXEC", true));

	/* R and H wait, pinned to A, in their places */
	ASSERT_EQ(0, pthread_create(&r, NULL, r_main, &s));
	ASSERT_EQ(0, pthread_create(&h, NULL, h_main, &s));
	ASSERT_EQ(0, pthread_create(&o, NULL, owner_main, &s));
	ASSERT_EQ(0, pthread_create(&w, NULL, waiter_main, &s));
	/* W blocks on O's mutex and stays queued on A */
	usleep(200000);
	ASSERT_EQ(0, s.err);
	ASSERT_NE(0, s.w_tid);
	ASSERT_NE(0, s.r_tid);

	/* R wakes behind W; then both may run on B too; then H comes */
	sem_post(&s.r_go);
	usleep(20000);
	ASSERT_EQ(0, pin_cpus(s.w_tid, CPU_A, CPU_B));
	ASSERT_EQ(0, pin_cpus(s.r_tid, CPU_A, CPU_B));
	ASSERT_EQ(0.0, s.r_start) TH_LOG("R ran before H came: no push to test");
	sem_post(&s.h_go);

	pthread_join(r, NULL);
	pthread_join(h, NULL);
	pthread_join(w, NULL);
	pthread_join(o, NULL);
	ASSERT_EQ(0, s.err) TH_LOG("%s", strerror(s.err));
	ASSERT_TRUE(s.w_contended) TH_LOG("W took mutex 0 before O held it");
	ASSERT_LT(0.0, s.h_start);
	late_ms = (s.r_start - s.h_start) * 1e3;
	TH_LOG("R first ran %.1f ms after H came, on CPU %d (H runs %.0f ms, O's section %.0f ms)",
	       late_ms, s.r_cpu, H_MS, SECTION_MS);
	EXPECT_GT(PUSH_BOUND_MS, late_ms);
	EXPECT_EQ(CPU_B, s.r_cpu);
}

TEST_HARNESS_MAIN
