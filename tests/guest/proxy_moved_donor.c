// SPDX-License-Identifier: GPL-2.0
/*
 * Proxy execution moves a blocked waiter (the donor) to the CPU of its
 * mutex's owner and keeps it queued there, to run the owner on its
 * scheduling context. Two things a task that merely waits must still get:
 *
 *  - Placement: the owner's CPU was the owner's, not a placement for the
 *    donor. Once woken, the donor must be placed as any woken task is
 *    (select_task_rq(), by energy on the phone), from the CPU it blocked
 *    on, even when its mask allows the owner's CPU. Left where it was
 *    moved, it stays there until it next sleeps: on the phone, a UI thread
 *    that waited for a background owner on a LITTLE CPU goes on running on
 *    that LITTLE CPU.
 *  - Its wait channel: /proc/PID/wchan names where it sleeps (the mutex
 *    lock path), as it does without proxy execution, although
 *    get_wchan() skips queued tasks in general.
 *
 * Owner O (SCHED_OTHER, pinned to CPU A) runs a section of mutex 0;
 * donor D (SCHED_FIFO 80, allowed on A and B, running on B) blocks on it,
 * is moved to A and runs O there. After O's unlock, D must run on B, the
 * CPU it came from, which is idle: where select_task_rq() puts a woken
 * FIFO task whose previous CPU is free, and where D wakes without proxy
 * execution. Hog H (SCHED_FIFO 50, pinned to A) runs for a while once O
 * holds the mutex, so that D, arriving then, finds O off the CPU and
 * blocks instead of spinning on O from B.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "proxy_fixture.h"

#define CPU_A		1	/* the owner's */
#define CPU_B		2	/* the donor's own */
#define CPU_MAIN	3
#define SECTION_MS	300.0
#define HOG_MS		30.0
#define ROUNDS		5

struct placement {
	int fd;
	unsigned long long loops;	/* SECTION_MS of work */
	unsigned long long seq;		/* the module's last lock before a round */
	volatile pid_t d_tid;
	volatile int d_cpu_after;	/* where D runs once it has the mutex */
	volatile int d_contended;
	char d_wchan[64];		/* D's /proc wchan while it waits on A */
	unsigned long long o_seq, d_seq;	/* the event counts they saw last */
	struct proxy_hog hog;		/* H */
	volatile int err;
};

static void *owner_main(void *arg)
{
	struct placement *pl = arg;
	struct inversion_req r = {
		.mutex = 0, .outer = INVERSION_NO_OUTER, .loops = pl->loops,
	};

	if (pin_cpus(0, CPU_A, -1) || ioctl(pl->fd, INVERSION_IOC_SECTION, &r))
		pl->err = errno ? errno : EIO;
	pl->o_seq = r.seq;
	return NULL;
}

/*
 * D starts on B, then may use A too (it stays on B: it runs there), waits
 * until O holds mutex 0 and blocks on it.
 */
static void *donor_main(void *arg)
{
	struct placement *pl = arg;
	struct sched_param sp = { .sched_priority = 80 };
	struct inversion_req r = {
		.mutex = 0, .outer = INVERSION_NO_OUTER,
		.wait_locked = 1u << 0, .after = pl->seq,
	};

	pl->d_tid = syscall(SYS_gettid);
	if (pin_cpus(0, CPU_B, -1) || sched_setscheduler(0, SCHED_FIFO, &sp) ||
	    pin_cpus(0, CPU_A, CPU_B) || ioctl(pl->fd, INVERSION_IOC_LOCK, &r)) {
		pl->err = errno ? errno : EIO;
		return NULL;
	}
	pl->d_cpu_after = sched_getcpu();
	pl->d_contended = r.contended;
	pl->d_seq = r.seq;
	return NULL;
}

/* The CPU /proc says @tid is on (field 39 of stat), or -1. */
static int proc_cpu(pid_t tid)
{
	char path[64], buf[1024], *p;
	int field, cpu = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		/* fields after the command's closing parenthesis: 3, 4, ... */
		p = strrchr(buf, ')');
		for (field = 2; p && field < 39; field++)
			p = strchr(p + 1, ' ');
		if (p)
			cpu = atoi(p + 1);
	}
	fclose(f);
	return cpu;
}

FIXTURE(placement) {
	struct proxy_fixture f;
};

FIXTURE_SETUP(placement)
{
	char err[128];

	ASSERT_LE(4, sysconf(_SC_NPROCESSORS_ONLN));
	ASSERT_EQ(INV_CPU, CPU_A);	/* the calibration's CPU is the owner's */
	ASSERT_EQ(0, proxy_fixture_open(&self->f, SECTION_MS * 1000, CPU_MAIN, true,
					err, sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(placement)
{
	proxy_fixture_close(&self->f);
}

/* /proc's wchan of @tid into @buf ("" if unreadable) */
static void proc_wchan(pid_t tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan", tid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = 0;
	fclose(f);
}

/*
 * One round: O holds mutex 0, D blocks on it from B and is moved to A,
 * then gets it. Returns whether D was seen on A (its wchan read there).
 */
static int run_round(struct __test_metadata *_metadata, struct inv_ctx *ctx,
		     struct placement *pl)
{
	pthread_t o, d, hog;
	int moved = 0;
	double t0;

	memset(pl, 0, sizeof(*pl));
	pl->fd = ctx->fd;
	pl->loops = ctx->loops;
	pl->seq = ctx->seq;
	pl->d_cpu_after = -1;
	pl->hog = (struct proxy_hog){
		.fd = ctx->fd, .after = ctx->seq, .cpu = CPU_A, .prio = 50,
		.ms = HOG_MS,
	};
	ASSERT_EQ(0, pthread_create(&hog, NULL, proxy_hog_main, &pl->hog));
	ASSERT_EQ(0, pthread_create(&d, NULL, donor_main, pl));
	usleep(20000);	/* both wait for O's lock */
	ASSERT_EQ(0, pthread_create(&o, NULL, owner_main, pl));

	/* D must be seen on A while O holds the mutex: moved there */
	t0 = mono_now();
	while (!moved && (mono_now() - t0) * 1e3 < SECTION_MS / 2) {
		moved = pl->d_tid && pl->d_cpu_after < 0 &&
			proc_cpu(pl->d_tid) == CPU_A;
		if (moved)
			proc_wchan(pl->d_tid, pl->d_wchan, sizeof(pl->d_wchan));
		usleep(1000);
	}
	pthread_join(hog, NULL);
	pthread_join(d, NULL);
	pthread_join(o, NULL);
	EXPECT_EQ(0, pl->err) TH_LOG("%s", strerror(pl->err));
	EXPECT_EQ(0, pl->hog.err) TH_LOG("H: %s", strerror(pl->hog.err));
	ctx->seq = pl->o_seq > pl->d_seq ? pl->o_seq : pl->d_seq;
	if (pl->hog.seq > ctx->seq)
		ctx->seq = pl->hog.seq;
	EXPECT_TRUE(pl->d_contended) TH_LOG("D took mutex 0 before O held it");
	EXPECT_TRUE(moved) TH_LOG("D was never on CPU %d: nothing moved it", CPU_A);
	return moved && !pl->err && !pl->hog.err && pl->d_contended;
}

TEST_F_TIMEOUT(placement, woken_donor_runs_where_it_came_from, 60)
{
	static struct placement pl;
	int round, on_b = 0;

	for (round = 0; round < ROUNDS; round++) {
		ASSERT_TRUE(run_round(_metadata, &self->f.ctx, &pl));
		TH_LOG("round %d: D ran on CPU %d after the unlock", round, pl.d_cpu_after);
		on_b += pl.d_cpu_after == CPU_B;
	}
	EXPECT_EQ(ROUNDS, on_b);
}

TEST_F_TIMEOUT(placement, queued_donor_has_a_wait_channel, 30)
{
	static struct placement pl;

	ASSERT_TRUE(run_round(_metadata, &self->f.ctx, &pl));
	TH_LOG("D's wchan while queued on CPU %d: \"%s\"", CPU_A, pl.d_wchan);
	EXPECT_NE(0, pl.d_wchan[0]);
	EXPECT_STRNE("0", pl.d_wchan);
}

TEST_HARNESS_MAIN
