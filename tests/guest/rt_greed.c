// SPDX-License-Identifier: GPL-2.0
/*
 * RT_RUNTIME_GREED: CPU shares of a SCHED_FIFO hog and a CFS hog pinned on
 * one CPU, with the feature off and on, in the root group and in an RT
 * cgroup, and the fair server with RT throttling disabled.
 *
 * Shares come from the kernel's own accounting (schedstat) over windows of
 * whole RT periods (FRAMESCHED_GREED_WINDOW_S, default 3 s), so that TCG
 * timing noise does not decide a verdict. The bounds are generous: the
 * feature moves the RT share from 0.95 to 1.0 (0.5 to 1.0 in the cgroup),
 * far more than the noise. On a kernel without the feature, setting it
 * fails and so does every test.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "kselftest_harness.h"
#include "cpu_share.h"
#include "greed.h"

static double window_s(void)
{
	const char *s = getenv("FRAMESCHED_GREED_WINDOW_S");

	return s && atof(s) > 0 ? atof(s) : 3.0;
}

static void run(struct __test_metadata *_metadata, bool greed, bool with_cfs,
		const char *cgroup_tasks, double *rt, double *cfs)
{
	ASSERT_EQ(0, greed_run(greed, with_cfs, cgroup_tasks, window_s(), rt, cfs));
	if (with_cfs)
		TH_LOG("GREED %-3s contended: rt %.4f cfs %.4f",
		       greed ? "on" : "off", *rt, *cfs);
	else
		TH_LOG("GREED %-3s alone:     rt %.4f", greed ? "on" : "off", *rt);
}

FIXTURE(greed) {
	char rt_runtime[32];
};

FIXTURE_SETUP(greed)
{
	ASSERT_EQ(0, read_str(RT_RUNTIME_US, self->rt_runtime,
			      sizeof(self->rt_runtime)));
	ASSERT_EQ(0, set_sched_feature("RT_RUNTIME_SHARE", false));
}

FIXTURE_TEARDOWN(greed)
{
	set_sched_feature("RT_RUNTIME_GREED", false);
	write_str(RT_RUNTIME_US, self->rt_runtime);
	greed_group_destroy();
}

/* Root group: 95% with throttling, (nearly) all of it with GREED. */
TEST_F_TIMEOUT(greed, rt_alone, 120)
{
	double off, on;

	run(_metadata, false, false, NULL, &off, NULL);
	run(_metadata, true, false, NULL, &on, NULL);
	EXPECT_GE(off, 0.90);
	EXPECT_LE(off, 0.97) TH_LOG("throttling should leave ~5%% idle");
	EXPECT_GE(on, 0.99) TH_LOG("GREED should not idle the CPU");
}

/* A CFS hog keeps its 5%, and the RT hog loses nothing to GREED. */
TEST_F_TIMEOUT(greed, rt_contended, 120)
{
	double rt_off, cfs_off, rt_on, cfs_on;

	run(_metadata, false, true, NULL, &rt_off, &cfs_off);
	run(_metadata, true, true, NULL, &rt_on, &cfs_on);
	EXPECT_GE(cfs_off, 0.04);
	EXPECT_GE(cfs_on, 0.04) TH_LOG("GREED must not starve CFS");
	EXPECT_GE(rt_on, rt_off - 0.01);
	EXPECT_GE(rt_on, 0.90);
}

/* An RT cgroup with half the period: 50% throttled, all of it with GREED. */
TEST_F_TIMEOUT(greed, cgroup_alone, 120)
{
	double off, on;

	ASSERT_EQ(0, greed_group_create("500000"));
	run(_metadata, false, false, GREED_GROUP_TASKS, &off, NULL);
	run(_metadata, true, false, GREED_GROUP_TASKS, &on, NULL);
	EXPECT_GE(off, 0.45);
	EXPECT_LE(off, 0.55) TH_LOG("the group's runtime is half the period");
	EXPECT_GE(on, 0.99) TH_LOG("GREED should not idle the CPU");
}

/* In the cgroup, a CFS hog keeps its half. */
TEST_F_TIMEOUT(greed, cgroup_contended, 120)
{
	double rt_off, cfs_off, rt_on, cfs_on;

	ASSERT_EQ(0, greed_group_create("500000"));
	run(_metadata, false, true, GREED_GROUP_TASKS, &rt_off, &cfs_off);
	run(_metadata, true, true, GREED_GROUP_TASKS, &rt_on, &cfs_on);
	EXPECT_GE(cfs_off, 0.40);
	EXPECT_GE(cfs_on, 0.40) TH_LOG("GREED must not take the CFS share");
	EXPECT_GE(rt_on, rt_off - 0.02);
	EXPECT_LE(rt_on, 0.55);
}

/*
 * No RT throttling at all (runtime -1): only the fair server, 50 ms per
 * second by default, keeps the CFS hog alive; GREED must not change that.
 */
TEST_F_TIMEOUT(greed, fair_server_without_throttling, 120)
{
	double rt, cfs;

	ASSERT_EQ(0, write_str(RT_RUNTIME_US, "-1"));
	run(_metadata, true, true, NULL, &rt, &cfs);
	EXPECT_GE(cfs, 0.025) TH_LOG("the fair server should give ~50 ms/s");
	EXPECT_LE(cfs, 0.10);
	EXPECT_GE(rt, 0.88);
}

TEST_HARNESS_MAIN
