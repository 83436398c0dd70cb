// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE tokens, two at a time (patch "sched/deadline: Let a
 * token's holder give it up or swap it for another"):
 *
 * - A holder that gives its token up returns to its policy; the token
 *   keeps its bandwidth in the root domain and its instance, which the
 *   next thread to take it continues.
 * - Two holders swap their tokens: each runs on the other's parameters and
 *   continues the other's instance; both bandwidths stay counted once in
 *   total_bw and in the runqueues, through a thousand swaps.
 * - Bad give-ups and swaps get the errno the ABI promises, and change
 *   nothing.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "dl_token_fixture.h"

TEST(a_holder_gives_its_token_up)
{
	struct dl_token_info before, after, taken;
	struct dl_sums idle, held, free_;
	long long bw = bw_of(60 * MS, 1000 * MS);
	struct sched_attr_v1 a;
	struct helper h;
	pid_t me = gettid_();
	double t0;
	int fd;

	ASSERT_EQ(0, setpriority(PRIO_PROCESS, me, 4));
	helper_start(&h, 0);
	dl_sums_idle(&idle);
	/* a long period, so that the instance outlives the test's steps */
	fd = dl_token_create(60 * MS, 1000 * MS, 1000 * MS, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dl_token_give(fd, 0));
	t0 = thread_cpu_ms();
	while (thread_cpu_ms() - t0 < 20)
		;
	ASSERT_EQ(0, dl_token_info(fd, &before));
	dl_sums_read(&held);

	ASSERT_EQ(0, dl_token_give_up(fd));
	EXPECT_EQ(SCHED_OTHER_, policy_of(me, &a));
	EXPECT_EQ(4, a.sched_nice) TH_LOG("the holder's nice value is not back");
	ASSERT_EQ(0, dl_token_info(fd, &after));
	EXPECT_EQ(0U, after.holder);
	EXPECT_EQ(0U, after.flags & DL_TOKEN_HELD);
	EXPECT_EQ(before.abs_deadline, after.abs_deadline)
		TH_LOG("giving the token up ended its instance");
	EXPECT_GE(before.runtime_left, after.runtime_left);

	/* the bandwidth stays reserved, and leaves the runqueue */
	dl_sums_read(&free_);
	EXPECT_EQ(idle.total_bw + bw, free_.total_bw);
	EXPECT_EQ(held.this_bw - bw, free_.this_bw);
	EXPECT_EQ(-1, dl_token_give_up(fd));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a token nobody holds given up");

	/* the next thread continues the instance */
	h.fd = fd;
	ASSERT_EQ(0, helper_do(&h, STEP_TAKE));
	ASSERT_EQ(0, dl_token_info(fd, &taken));
	EXPECT_EQ((uint32_t)h.tid, taken.holder);
	EXPECT_EQ(before.abs_deadline, taken.abs_deadline)
		TH_LOG("the taker got a new instance");
	EXPECT_GE(after.runtime_left, taken.runtime_left);

	EXPECT_EQ(-1, dl_token_give_up(fd));
	EXPECT_EQ(EINVAL, errno) TH_LOG("only the holder gives it up");
	{
		struct dl_token_give g = { .tid = me, .flags = DL_TOKEN_GIVE_UP };

		EXPECT_EQ(-1, ioctl(fd, DL_TOKEN_IOC_GIVE, &g));
		EXPECT_EQ(EINVAL, errno) TH_LOG("a give-up names no receiver");
	}
	EXPECT_EQ(SCHED_DEADLINE_, policy_of(h.tid, &a));

	close(fd);
	helper_stop(&h);
	setpriority(PRIO_PROCESS, me, 0);
	dl_sums_idle(&free_);
	EXPECT_EQ(idle.total_bw, free_.total_bw);
	EXPECT_EQ(idle.this_bw, free_.this_bw);
}

/* Two tokens told apart by their parameters; me holds @a, @h holds @b. */
struct two_tokens {
	int a, b;
	struct helper h;
	struct dl_sums idle;
	long long bw;
};

static int two_tokens_hold(struct two_tokens *t)
{
	helper_start(&t->h, 0);
	dl_sums_idle(&t->idle);
	/*
	 * Budgets large enough that a thousand swaps, whose CPU time each
	 * holder's token pays, are throttled seldom and briefly.
	 */
	t->bw = bw_of(30 * MS, 100 * MS) + bw_of(20 * MS, 200 * MS);
	t->a = dl_token_create(30 * MS, 100 * MS, 100 * MS, 0);
	t->b = dl_token_create(20 * MS, 200 * MS, 200 * MS, 0);
	if (t->a < 0 || t->b < 0 || dl_token_give(t->a, 0))
		return -1;
	t->h.fd = t->b;
	return helper_do(&t->h, STEP_TAKE);
}

static void two_tokens_close(struct two_tokens *t)
{
	close(t->a);
	close(t->b);
	helper_stop(&t->h);
}

/* the thousand swaps take a few seconds under TCG; the default is 30 s */
FIXTURE(swaps) {
	int unused;
};

FIXTURE_SETUP(swaps)
{
}

FIXTURE_TEARDOWN(swaps)
{
}

/*
 * gcc 12 says the harness wrapper's own "child" might be clobbered by its
 * setjmp(); the wrapper does not read it after a longjmp() that could.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wclobbered"
TEST_F_TIMEOUT(swaps, two_holders_swap_their_tokens, 120)
{
	struct dl_token_info a0, b0, a1, b1;
	struct dl_sums held, swapped, back;
	struct sched_attr_v1 pa;
	struct two_tokens t;
	pid_t me = gettid_();
	int i;

	ASSERT_EQ(0, two_tokens_hold(&t));
	ASSERT_EQ(0, dl_token_info(t.a, &a0));
	ASSERT_EQ(0, dl_token_info(t.b, &b0));
	dl_sums_read(&held);
	EXPECT_EQ(t.idle.total_bw + t.bw, held.total_bw);
	EXPECT_EQ(t.idle.this_bw + t.bw, held.this_bw);

	ASSERT_EQ(0, dl_token_swap(t.a, t.b));
	ASSERT_EQ(SCHED_DEADLINE_, policy_of(me, &pa));
	EXPECT_EQ(20 * MS, pa.sched_runtime) TH_LOG("the caller did not get the other token");
	EXPECT_EQ(200 * MS, pa.sched_period);
	ASSERT_EQ(SCHED_DEADLINE_, policy_of(t.h.tid, &pa));
	EXPECT_EQ(30 * MS, pa.sched_runtime) TH_LOG("the other holder did not get the caller's");
	EXPECT_EQ(100 * MS, pa.sched_period);
	ASSERT_EQ(0, dl_token_info(t.a, &a1));
	ASSERT_EQ(0, dl_token_info(t.b, &b1));
	EXPECT_EQ((uint32_t)t.h.tid, a1.holder);
	EXPECT_EQ((uint32_t)me, b1.holder);
	EXPECT_EQ(a0.abs_deadline, a1.abs_deadline) TH_LOG("a swap started a new instance");
	EXPECT_EQ(b0.abs_deadline, b1.abs_deadline) TH_LOG("a swap started a new instance");
	dl_sums_read(&swapped);
	EXPECT_EQ(held.total_bw, swapped.total_bw);
	EXPECT_EQ(held.this_bw, swapped.this_bw);

	/* a thousand swaps, from either side */
	for (i = 0; i < 1000; i++) {
		/* the caller holds b after the first swap, a after the next */
		int mine = i & 1 ? t.a : t.b, theirs = mine == t.a ? t.b : t.a;

		if (i & 1) {
			t.h.fd = theirs;
			t.h.other_fd = mine;
			ASSERT_EQ(0, helper_do(&t.h, STEP_SWAP))
				TH_LOG("swap %d: %s", i, strerror(errno));
		} else {
			ASSERT_EQ(0, dl_token_swap(mine, theirs))
				TH_LOG("swap %d: %s", i, strerror(errno));
		}
	}
	ASSERT_EQ(0, dl_token_info(t.b, &b1));
	EXPECT_EQ((uint32_t)me, b1.holder) TH_LOG("1001 swaps: the caller holds the other token");
	dl_sums_read(&back);
	EXPECT_EQ(held.total_bw, back.total_bw);
	EXPECT_EQ(held.this_bw, back.this_bw);

	two_tokens_close(&t);
	dl_sums_idle(&back);
	EXPECT_EQ(t.idle.total_bw, back.total_bw);
	EXPECT_EQ(t.idle.this_bw, back.this_bw);
	EXPECT_EQ(t.idle.running_bw, back.running_bw);
}

#pragma GCC diagnostic pop

/* Both tokens where two_tokens_hold() put them, with their policies. */
static int two_tokens_unchanged(struct two_tokens *t)
{
	struct dl_token_info ia, ib;
	struct sched_attr_v1 pa;

	if (dl_token_info(t->a, &ia) || dl_token_info(t->b, &ib))
		return 0;
	return ia.holder == (uint32_t)gettid_() && ib.holder == (uint32_t)t->h.tid &&
	       policy_of(0, &pa) == SCHED_DEADLINE_ && pa.sched_runtime == 30 * MS &&
	       policy_of(t->h.tid, &pa) == SCHED_DEADLINE_ &&
	       pa.sched_runtime == 20 * MS;
}

TEST(bad_swaps_change_nothing)
{
	struct two_tokens t;
	int devnull, free_, sync[2], child;
	char c;

	ASSERT_EQ(0, pipe(sync));
	free_ = dl_token_create(10 * MS, 1000 * MS, 1000 * MS, 0);
	ASSERT_LE(0, free_);
	/* before any token is held: a SCHED_DEADLINE task cannot fork */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		/* another process takes a token it shares by the fd */
		if (dl_token_give(free_, 0))
			_exit(1);
		if (write(sync[1], "h", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(sync[0], &c, 1));
	ASSERT_EQ(0, two_tokens_hold(&t));

	EXPECT_EQ(-1, dl_token_swap(t.a, free_));
	EXPECT_EQ(EPERM, errno) TH_LOG("the other holder is in another process");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	EXPECT_EQ(-1, dl_token_swap(t.a, free_));
	EXPECT_EQ(EINVAL, errno) TH_LOG("the other token's holder exited");
	close(free_);
	free_ = dl_token_create(10 * MS, 1000 * MS, 1000 * MS, 0);
	ASSERT_LE(0, free_);
	EXPECT_EQ(-1, dl_token_swap(t.a, free_));
	EXPECT_EQ(EINVAL, errno) TH_LOG("nobody holds the other token");
	close(free_);

	EXPECT_EQ(-1, dl_token_swap(t.a, t.a));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a token swapped with itself");
	EXPECT_EQ(-1, dl_token_swap(t.b, t.a));
	EXPECT_EQ(EINVAL, errno) TH_LOG("the caller does not hold the token");
	EXPECT_EQ(-1, dl_token_swap(t.a, 1 << 20));
	EXPECT_EQ(EBADF, errno) TH_LOG("no such file");
	devnull = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, devnull);
	EXPECT_EQ(-1, dl_token_swap(t.a, devnull));
	EXPECT_EQ(EINVAL, errno) TH_LOG("a file that is not a token");
	close(devnull);
	{
		struct dl_token_swap sw = { .fd = t.b, .flags = 0x80 };

		EXPECT_EQ(-1, ioctl(t.a, DL_TOKEN_IOC_SWAP, &sw));
		EXPECT_EQ(EINVAL, errno) TH_LOG("an unknown flag");
	}
	EXPECT_TRUE(two_tokens_unchanged(&t)) TH_LOG("a refused swap changed a holder");
	two_tokens_close(&t);
}

TEST_HARNESS_MAIN
