// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE tokens (CONFIG_SCHED_DL_TOKEN, guest/lib/dl_token.h):
 * one reservation that threads of a process pass to each other.
 *
 * - Admission runs once, at setup, and the bandwidth moves with the token:
 *   the number of 30% tokens the root domain admits is the same before,
 *   while and after a thousand passes between two threads, and after the
 *   tokens are closed.
 * - The receiver runs SCHED_DEADLINE with the token's parameters; the
 *   giver gets back the policy and nice value it had.
 * - Nothing is replenished: the receiver continues the instance, with the
 *   same absolute deadline and no more runtime than the giver left, and is
 *   throttled when that runtime is spent.
 * - Bad requests get the errno the ABI promises, and change nothing.
 * - /proc/PID/sched says whether a SCHED_DEADLINE thread runs on a token.
 * - After the round trips, with a third thread switching both threads to
 *   and from a constrained-deadline reservation meanwhile, the runqueues'
 *   this_bw, running_bw and running_dens (patch 0026) are back where they
 *   started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dl_token_fixture.h"

TEST(setup_checks_its_parameters)
{
	struct dl_token_info info;
	struct sched_attr_v1 a;
	int fd;

	fd = open(DL_TOKEN_DEV, O_RDWR);
	ASSERT_LE(0, fd) TH_LOG("%s: %s: a kernel without SCHED_DEADLINE tokens",
				DL_TOKEN_DEV, strerror(errno));
	EXPECT_EQ(-1, dl_token_give(fd, 0));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a token not set up cannot be given");
	close(fd);

	EXPECT_EQ(-1, dl_token_create(20 * MS, 10 * MS, 100 * MS, 0));
	EXPECT_EQ(EINVAL, errno) TH_LOG("runtime above deadline");
	EXPECT_EQ(-1, dl_token_create(10 * MS, 100 * MS, 50 * MS, 0));
	EXPECT_EQ(EINVAL, errno) TH_LOG("deadline above period");
	EXPECT_EQ(-1, dl_token_create(10 * MS, 100 * MS, 100 * MS, SA_FLAG_RECLAIM));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a flag other than DL_OVERRUN");

	fd = dl_token_create(10 * MS, 50 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_DEADLINE_;
	a.sched_runtime = a.sched_deadline = 10 * MS;
	EXPECT_EQ(-1, ioctl(fd, DL_TOKEN_IOC_SETUP, &a));
	EXPECT_EQ(EBUSY, errno) TH_LOG("a second setup");
	ASSERT_EQ(0, dl_token_info(fd, &info));
	EXPECT_EQ(10 * MS, info.runtime);
	EXPECT_EQ(50 * MS, info.deadline);
	EXPECT_EQ(100 * MS, info.period);
	EXPECT_EQ(0U, info.holder);
	EXPECT_EQ(0U, info.flags);
	close(fd);
}

TEST(admission_counts_a_token_once)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int expected = ncpu * 95 / 30;
	int fds[64], n, i;

	n = tokens_that_fit_idle(30);
	EXPECT_EQ(expected, n) TH_LOG("%d CPUs at 95%%: %d tokens of 30%% expected, %d admitted",
				      ncpu, expected, n);
	ASSERT_LT(0, n);

	/* held tokens count once: as many fit when each has a holder */
	for (i = 0; i < n; i++)
		fds[i] = dl_token_create(30 * MS, 100 * MS, 100 * MS, 0);
	ASSERT_LE(0, fds[n - 1]);
	EXPECT_EQ(-1, dl_token_create(30 * MS, 100 * MS, 100 * MS, 0));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, dl_token_give(fds[0], 0));
	EXPECT_EQ(-1, dl_token_create(30 * MS, 100 * MS, 100 * MS, 0))
		TH_LOG("a held token was counted twice, or not at all");
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(n, tokens_that_fit_settled(30, n));
}

TEST(giver_and_receiver_change_places)
{
	struct sched_attr_v1 a;
	struct dl_token_info info;
	struct helper h;
	pid_t me = gettid_();
	int fd;

	ASSERT_EQ(0, setpriority(PRIO_PROCESS, me, 5));
	helper_start(&h, 3);
	fd = dl_token_create(10 * MS, 50 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, dl_token_give(fd, 0));
	ASSERT_EQ(SCHED_DEADLINE_, policy_of(me, &a));
	EXPECT_EQ(10 * MS, a.sched_runtime);
	EXPECT_EQ(50 * MS, a.sched_deadline);
	EXPECT_EQ(100 * MS, a.sched_period);
	EXPECT_EQ(-1, dl_token_give(fd, 0));
	EXPECT_EQ(EINVAL, errno) TH_LOG("the holder gives to itself");

	ASSERT_EQ(0, dl_token_give(fd, h.tid));
	EXPECT_EQ(SCHED_DEADLINE_, policy_of(h.tid, &a));
	EXPECT_EQ(SCHED_OTHER_, policy_of(me, &a));
	EXPECT_EQ(5, a.sched_nice);
	ASSERT_EQ(0, dl_token_info(fd, &info));
	EXPECT_EQ((uint32_t)h.tid, info.holder);
	EXPECT_NE(0U, info.flags & DL_TOKEN_HELD);

	h.fd = fd;
	h.to = me;
	EXPECT_EQ(0, helper_do(&h, STEP_GIVE_BACK));
	EXPECT_EQ(SCHED_DEADLINE_, policy_of(me, &a));
	EXPECT_EQ(SCHED_OTHER_, policy_of(h.tid, &a));
	EXPECT_EQ(3, a.sched_nice);

	/* closing the token gives the holder its policy back */
	close(fd);
	EXPECT_EQ(SCHED_OTHER_, policy_of(me, &a));
	EXPECT_EQ(5, a.sched_nice);
	helper_stop(&h);
	setpriority(PRIO_PROCESS, me, 0);
}

TEST(receiver_continues_the_instance)
{
	struct dl_token_info before, after;
	struct helper h;
	double t0;
	int fd;

	helper_start(&h, 0);
	/* a long period, so that the instance outlives the test's steps */
	fd = dl_token_create(60 * MS, 1000 * MS, 1000 * MS, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dl_token_give(fd, 0));	/* a fresh instance */
	t0 = thread_cpu_ms();
	while (thread_cpu_ms() - t0 < 30)
		;
	ASSERT_EQ(0, dl_token_info(fd, &before));
	ASSERT_EQ(0, dl_token_give(fd, h.tid));
	ASSERT_EQ(0, dl_token_info(fd, &after));
	TH_LOG("before the pass: %.1f ms left, deadline in %.1f ms; after: %.1f ms left, deadline in %.1f ms",
	       before.runtime_left / 1e6, before.deadline_in / 1e6,
	       after.runtime_left / 1e6, after.deadline_in / 1e6);
	EXPECT_EQ(before.abs_deadline, after.abs_deadline)
		TH_LOG("the receiver got a new instance");
	EXPECT_GE(before.runtime_left, after.runtime_left);
	EXPECT_GE(35 * MS, (uint64_t)after.runtime_left)
		TH_LOG("30 ms of 60 were spent before the pass");

	/* the receiver runs what is left, then waits for the next period */
	helper_do(&h, STEP_SPIN_UNTIL_THROTTLED);
	TH_LOG("the receiver ran %.1f ms before its throttle (%.1f ms left at the pass)",
	       h.cpu_ms, after.runtime_left / 1e6);
	EXPECT_GE(after.runtime_left / 1e6 + 10, h.cpu_ms)
		TH_LOG("the receiver ran beyond what the giver left");
	EXPECT_LE(after.runtime_left / 1e6 * 0.5, h.cpu_ms);
	close(fd);
	helper_stop(&h);
}

TEST(bad_gives_change_nothing)
{
	struct sched_attr_v1 a;
	struct helper h, other;
	cpu_set_t one;
	pid_t me = gettid_(), child;
	int fd, fd2;

	helper_start(&h, 0);
	helper_start(&other, 0);
	/* before the token: a SCHED_DEADLINE task cannot fork */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pause();
		_exit(0);
	}
	fd = dl_token_create(10 * MS, 100 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dl_token_give(fd, 0));

	EXPECT_EQ(-1, dl_token_give(fd, child));
	EXPECT_EQ(EPERM, errno) TH_LOG("a thread of another process");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	EXPECT_EQ(-1, dl_token_give(fd, 1 << 22));
	EXPECT_EQ(ESRCH, errno) TH_LOG("no such thread");

	h.fd = fd;
	h.to = other.tid;
	EXPECT_EQ(-1, helper_do(&h, STEP_GIVE_BACK));
	EXPECT_EQ(EINVAL, errno) TH_LOG("only the holder gives");

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_OTHER_;
	EXPECT_EQ(-1, sched_attr_set(me, &a));
	EXPECT_EQ(EBUSY, errno) TH_LOG("sched_setattr() on a holder");

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ASSERT_EQ(0, sched_setaffinity(other.tid, sizeof(one), &one));
	EXPECT_EQ(-1, dl_token_give(fd, other.tid));
	EXPECT_EQ(EBUSY, errno) TH_LOG("a receiver that cannot run on every CPU");

	fd2 = dl_token_create(10 * MS, 100 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd2);
	EXPECT_EQ(-1, dl_token_give(fd2, 0));
	EXPECT_EQ(EBUSY, errno) TH_LOG("a holder cannot take a second token");
	close(fd2);
	{
		struct dl_token_give g = { .tid = h.tid, .flags = 0x80 };

		EXPECT_EQ(-1, ioctl(fd, DL_TOKEN_IOC_GIVE, &g));
		EXPECT_EQ(EINVAL, errno) TH_LOG("an unknown flag");
	}

	/* still the holder, still SCHED_DEADLINE */
	EXPECT_EQ(SCHED_DEADLINE_, policy_of(me, &a));
	EXPECT_EQ(SCHED_OTHER_, policy_of(h.tid, &a));
	close(fd);
	helper_stop(&h);
	helper_stop(&other);
}

static volatile int hammer_stop, hammer_go;
static pid_t hammer_tids[2];

/*
 * Change the two threads' policies as fast as possible: a holder must
 * refuse (EBUSY), a thread that holds nothing may become anything, even
 * SCHED_DEADLINE with a reservation of its own, for a moment.
 */
static void *hammer(void *arg)
{
	struct sched_attr_v1 a;
	unsigned int i = 0;

	(void)arg;
	while (!hammer_go)
		usleep(1000);
	while (!hammer_stop) {
		pid_t tid = hammer_tids[i & 1];

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		if ((i & 15) == 7) {
			/* a constrained deadline: its density is not its bandwidth */
			a.sched_policy = SCHED_DEADLINE_;
			a.sched_runtime = 1 * MS;
			a.sched_deadline = 50 * MS;
			a.sched_period = 100 * MS;
		} else {
			a.sched_policy = SCHED_OTHER_;
			a.sched_nice = i % 10;
		}
		sched_attr_set(tid, &a);
		i++;
	}
	return NULL;
}

/*
 * Round trips of the ping-pong: about 5 ms each on the debug kernel under
 * TCG with the policy changes racing, so make check's 2000 take some 10 s
 * (FRAMESCHED_TOKEN_PASSES sets another count, as make soak does).
 */
static int passes(void)
{
	const char *s = getenv("FRAMESCHED_TOKEN_PASSES");

	return s && atoi(s) > 0 ? atoi(s) : 2000;
}

/* The body of long_run.bandwidth_moves_with_the_token: @n round trips. */
static void bandwidth_moves(struct __test_metadata *_metadata, int n)
{
	struct dl_sums idle, reserved, held, after, closed;
	long long bw = bw_of(30 * MS, 100 * MS);
	struct sched_attr_v1 a;
	struct helper h;
	pthread_t t;
	pid_t me = gettid_();
	int fd, done = 0, busy = 0;
	double t0;

	helper_start(&h, 0);
	dl_sums_idle(&idle);
	ASSERT_LT(0, idle.total_bw) TH_LOG("no /sys/kernel/debug/sched/debug");

	/* before the token: a SCHED_DEADLINE thread cannot create one */
	hammer_tids[0] = me;
	hammer_tids[1] = h.tid;
	hammer_stop = 0;
	hammer_go = 0;
	ASSERT_EQ(0, pthread_create(&t, NULL, hammer, NULL));

	fd = dl_token_create(30 * MS, 100 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd);
	dl_sums_read(&reserved);
	EXPECT_EQ(idle.total_bw + bw, reserved.total_bw);
	EXPECT_EQ(idle.this_bw, reserved.this_bw) TH_LOG("no holder, no runqueue");

	ASSERT_EQ(0, dl_token_give(fd, 0));
	dl_sums_read(&held);
	EXPECT_EQ(idle.total_bw + bw, held.total_bw);
	EXPECT_EQ(idle.this_bw + bw, held.this_bw);
	EXPECT_LE(bw, held.running_bw) TH_LOG("the running holder is active");
	/* deadline = period: the token's density is its bandwidth */
	EXPECT_LE(bw, held.running_dens);

	/* ping-pong, with policy changes racing on both threads */
	hammer_go = 1;
	h.fd = fd;
	h.to = me;
	t0 = mono_now();
	while (done < n) {
		if (dl_token_give(fd, h.tid)) {
			ASSERT_EQ(EBUSY, errno);	/* the helper had its own */
			busy++;
			continue;
		}
		while (helper_do(&h, STEP_GIVE_BACK)) {
			struct dl_token_info in;
			int e = errno;

			dl_token_info(fd, &in);
			ASSERT_EQ(EBUSY, e) TH_LOG("pass %d: holder %u flags %#x me %d helper %d",
						  done, in.holder, in.flags, me, h.tid);
		}
		done++;
	}
	hammer_stop = 1;
	pthread_join(t, NULL);
	TH_LOG("%d round trips in %.1f s; %d refused a receiver with its own reservation",
	       n, mono_now() - t0, busy);

	/* the helper may still have a reservation of its own: drop it */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	sched_attr_set(h.tid, &a);
	usleep(200000);	/* its 0-lag time */
	ASSERT_EQ(SCHED_DEADLINE_, policy_of(me, &a));
	dl_sums_read(&after);
	EXPECT_EQ(idle.total_bw + bw, after.total_bw);
	EXPECT_EQ(idle.this_bw + bw, after.this_bw);

	close(fd);
	helper_stop(&h);
	dl_sums_idle(&closed);
	EXPECT_EQ(idle.total_bw, closed.total_bw);
	EXPECT_EQ(idle.this_bw, closed.this_bw);
	EXPECT_EQ(idle.running_bw, closed.running_bw);
	EXPECT_EQ(idle.running_dens, closed.running_dens);
}

/* make soak runs 100000 round trips: about 9 minutes */
FIXTURE(long_run) {
	int passes;
};

FIXTURE_SETUP(long_run)
{
	self->passes = passes();
}

FIXTURE_TEARDOWN(long_run)
{
}

/*
 * gcc 12 says the harness wrapper's own "child" might be clobbered by its
 * setjmp(); the wrapper does not read it after a longjmp() that could.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wclobbered"
TEST_F_TIMEOUT(long_run, bandwidth_moves_with_the_token, 3600)
{
	bandwidth_moves(_metadata, self->passes);
}
#pragma GCC diagnostic pop

TEST(passes_race_with_the_receivers_exit)
{
	struct dl_sums idle, closed;
	int fd, i, given = 0, gone = 0;
	struct helper spawner;

	helper_start(&spawner, 0);
	dl_sums_idle(&idle);
	fd = dl_token_create(30 * MS, 100 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dl_token_give(fd, 0));
	for (i = 0; i < 300; i++) {
		ASSERT_EQ(0, helper_do(&spawner, STEP_SPAWN_EXITING));
		if (!dl_token_give(fd, spawner.spawned_tid))
			given++;
		else if (errno == ESRCH)
			gone++;
		else
			ASSERT_EQ(ESRCH, errno);
		helper_do(&spawner, STEP_JOIN);
		/*
		 * Back to this thread: still the holder (EINVAL), or it takes
		 * the token its holder's exit left; the dead holder's
		 * bandwidth leaves at its 0-lag time, so admission may have to
		 * wait for a few of them (EBUSY).
		 */
		while (dl_token_give(fd, 0) && errno != EINVAL) {
			ASSERT_EQ(EBUSY, errno);
			usleep(10000);
		}
	}
	TH_LOG("%d passes to an exiting thread, %d refused as gone", given, gone);
	close(fd);
	helper_stop(&spawner);
	dl_sums_idle(&closed);
	EXPECT_EQ(idle.total_bw, closed.total_bw);
	EXPECT_EQ(idle.this_bw, closed.this_bw);
}

/* /proc's dl.token_held for thread @tid: 1, 0, or -1 when not shown */
static int proc_token_held(pid_t tid)
{
	char path[64], line[256];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", tid);
	f = fopen(path, "r");
	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " dl.token_held : %d", &v) == 1)
			break;
	fclose(f);
	return v;
}

TEST(proc_says_who_holds_a_token)
{
	struct sched_attr_v1 a;
	struct helper h;
	pid_t me = gettid_();
	int fd;

	helper_start(&h, 0);
	fd = dl_token_create(10 * MS, 100 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, proc_token_held(me)) TH_LOG("shown for a SCHED_OTHER thread");
	ASSERT_EQ(0, dl_token_give(fd, 0));
	EXPECT_EQ(1, proc_token_held(me));
	ASSERT_EQ(0, dl_token_give(fd, h.tid));
	EXPECT_EQ(1, proc_token_held(h.tid));
	EXPECT_EQ(-1, proc_token_held(me)) TH_LOG("the giver still shows a token");

	/* a reservation of its own is not a token's */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_DEADLINE_;
	a.sched_runtime = 1 * MS;
	a.sched_deadline = a.sched_period = 100 * MS;
	ASSERT_EQ(0, sched_attr_set(me, &a));
	EXPECT_EQ(0, proc_token_held(me));
	a.sched_policy = SCHED_OTHER_;
	a.sched_runtime = a.sched_deadline = a.sched_period = 0;
	ASSERT_EQ(0, sched_attr_set(me, &a));
	close(fd);
	helper_stop(&h);
}

static void *hold_and_exit(void *arg)
{
	return (void *)(long)dl_token_give(*(int *)arg, 0);
}

TEST(a_token_outlives_its_holder)
{
	struct sched_attr_v1 a;
	struct dl_token_info info;
	pthread_t t;
	void *ret;
	int fd;

	fd = dl_token_create(10 * MS, 100 * MS, 100 * MS, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pthread_create(&t, NULL, hold_and_exit, &fd));
	pthread_join(t, &ret);
	ASSERT_EQ(0, (long)ret);
	ASSERT_EQ(0, dl_token_info(fd, &info));
	EXPECT_NE(0U, info.flags & DL_TOKEN_LOST) TH_LOG("flags %#x", info.flags);
	/* its bandwidth left with the holder: taking it is admitted again */
	EXPECT_EQ(0, dl_token_give(fd, 0));
	EXPECT_EQ(SCHED_DEADLINE_, policy_of(0, &a));
	close(fd);
}

TEST_HARNESS_MAIN
