// SPDX-License-Identifier: GPL-2.0
/*
 * A task that becomes SCHED_DEADLINE and leaves the policy while it
 * sleeps must give its bandwidth back to the root domain (patch "sched/
 * deadline: Release the bandwidth of a sleeping task that leaves
 * SCHED_DEADLINE"). Without the patch each switch of a sleeping thread
 * leaves its bandwidth in total_bw for good: after a hundred switches at
 * 1 ms/100 ms, a whole CPU is gone from admission control.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sched_attr.h"

#define MS		1000000ULL
#define SWITCHES	100

static volatile pid_t sleeper_tid;

static void *sleeper(void *arg)
{
	(void)arg;
	sleeper_tid = syscall(SYS_gettid);
	for (;;)
		pause();
	return NULL;
}

/* The root domain's total_bw (CONFIG_SCHED_DEBUG's debugfs file), or -1. */
static long long total_bw(void)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	char line[256], name[64];
	long long v, total = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " .%63s : %lld", name, &v) == 2 &&
		    !strcmp(name, "dl_bw->total_bw"))
			total = v;
	fclose(f);
	return total;
}

static int set_policy(pid_t tid, int deadline)
{
	struct sched_attr_v1 a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	if (deadline) {
		a.sched_policy = 6;	/* SCHED_DEADLINE */
		a.sched_runtime = 1 * MS;
		a.sched_deadline = a.sched_period = 100 * MS;
	}
	return sched_attr_set(tid, &a);
}

TEST(sleeping_task_leaves_deadline_with_its_bandwidth)
{
	long long before, after;
	pthread_t t;
	int i;

	ASSERT_EQ(0, pthread_create(&t, NULL, sleeper, NULL));
	while (!sleeper_tid)
		usleep(1000);
	usleep(10000);	/* asleep in pause() */
	before = total_bw();
	ASSERT_LE(0, before) TH_LOG("no /sys/kernel/debug/sched/debug");
	for (i = 0; i < SWITCHES; i++) {
		ASSERT_EQ(0, set_policy(sleeper_tid, 1));
		ASSERT_EQ(0, set_policy(sleeper_tid, 0));
	}
	after = total_bw();
	TH_LOG("total_bw %lld before, %lld after %d switches of a sleeping thread (1%% is %lld)",
	       before, after, SWITCHES, (10 * MS << 20) / (1000 * MS));
	EXPECT_EQ(before, after);
}

TEST_HARNESS_MAIN
