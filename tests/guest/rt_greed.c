// SPDX-License-Identifier: GPL-2.0
/*
 * RT_RUNTIME_GREED: CPU shares of a SCHED_FIFO hog and a CFS hog pinned on
 * one CPU, with the feature off and on, in the root group and in an RT
 * cgroup, and the fair server with RT throttling disabled.
 *
 * Shares come from the kernel's own accounting (/proc/.../schedstat, the
 * time each thread spent on the CPU) over windows of whole RT periods, so
 * that TCG timing noise does not decide a verdict. Bounds are generous:
 * the feature moves the RT share from 0.95 to 1.0 (or from 0.5 to 1.0 in a
 * cgroup), far more than the noise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define HOG_CPU		1
#define FEATURES	"/sys/kernel/debug/sched/features"
#define RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"
#define CPU_V1		"/run/framesched-cpu-v1"
#define GROUP		CPU_V1 "/greed"

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int set_greed(bool on)
{
	return write_str(FEATURES, on ? "RT_RUNTIME_GREED" : "NO_RT_RUNTIME_GREED");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A thread that spins on HOG_CPU under the given policy until stopped. */
struct hog {
	pthread_t thread;
	int policy;
	const char *cgroup_tasks;	/* join this cgroup (v1 tasks file) first */
	volatile int tid;
	volatile int err;
	volatile bool stop;
};

static void *hog_main(void *arg)
{
	struct hog *h = arg;
	struct sched_param sp = { .sched_priority = h->policy == SCHED_FIFO ? 50 : 0 };
	cpu_set_t set;
	char buf[32];

	CPU_ZERO(&set);
	CPU_SET(HOG_CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		h->err = errno;
	if (!h->err && h->cgroup_tasks) {
		snprintf(buf, sizeof(buf), "%d", gettid());
		h->err = -write_str(h->cgroup_tasks, buf);
	}
	if (!h->err && sched_setscheduler(0, h->policy, &sp))
		h->err = errno;
	h->tid = gettid();
	while (!h->stop)
		;
	return NULL;
}

static int hog_start(struct hog *h, int policy, const char *cgroup_tasks)
{
	memset(h, 0, sizeof(*h));
	h->policy = policy;
	h->cgroup_tasks = cgroup_tasks;
	if (pthread_create(&h->thread, NULL, hog_main, h))
		return -1;
	while (!h->tid && !h->err)
		usleep(1000);
	return h->err ? -1 : 0;
}

static void hog_stop(struct hog *h)
{
	h->stop = true;
	pthread_join(h->thread, NULL);
}

static unsigned long long cpu_ns(int tid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

static double window_s(void)
{
	const char *s = getenv("FRAMESCHED_GREED_WINDOW_S");

	return s && atof(s) > 0 ? atof(s) : 3.0;
}

/* Share of HOG_CPU each hog got over the window (whole RT periods). */
static void measure(struct hog *a, double *share_a, struct hog *b, double *share_b)
{
	unsigned long long a0, b0 = 0, a1, b1 = 0;
	double t0, t1;

	usleep(300000);		/* let both settle on the CPU */
	t0 = now_s();
	a0 = cpu_ns(a->tid);
	if (b)
		b0 = cpu_ns(b->tid);
	usleep(window_s() * 1e6);
	t1 = now_s();
	a1 = cpu_ns(a->tid);
	if (b)
		b1 = cpu_ns(b->tid);
	*share_a = (a1 - a0) / 1e9 / (t1 - t0);
	if (b)
		*share_b = (b1 - b0) / 1e9 / (t1 - t0);
}

/* One run: an RT hog, optionally with a CFS hog, with GREED on or off. */
static void run_hogs(struct __test_metadata *_metadata, bool greed,
		     bool with_cfs, const char *cgroup_tasks,
		     double *rt, double *cfs)
{
	struct hog r, c;

	ASSERT_EQ(0, set_greed(greed)) TH_LOG("cannot %s RT_RUNTIME_GREED in %s",
					      greed ? "set" : "clear", FEATURES);
	if (with_cfs)
		ASSERT_EQ(0, hog_start(&c, SCHED_OTHER, NULL));
	ASSERT_EQ(0, hog_start(&r, SCHED_FIFO, cgroup_tasks))
		TH_LOG("RT hog setup: %s", strerror(r.err));
	measure(&r, rt, with_cfs ? &c : NULL, cfs);
	hog_stop(&r);
	if (with_cfs)
		hog_stop(&c);
	TH_LOG("GREED %-3s %-9s rt=%.4f%s", greed ? "on" : "off",
	       with_cfs ? "contended" : "alone", *rt,
	       with_cfs ? "" : "");
	if (with_cfs)
		TH_LOG("          cfs=%.4f", *cfs);
}

FIXTURE(greed) {
	char rt_runtime[32];
};

FIXTURE_SETUP(greed)
{
	int fd = open(RT_RUNTIME, O_RDONLY);
	ssize_t n;

	ASSERT_LE(0, fd);
	n = read(fd, self->rt_runtime, sizeof(self->rt_runtime) - 1);
	ASSERT_LT(0, n);
	self->rt_runtime[n] = 0;
	close(fd);
	ASSERT_EQ(0, write_str(FEATURES, "NO_RT_RUNTIME_SHARE"));
}

FIXTURE_TEARDOWN(greed)
{
	set_greed(false);
	write_str(RT_RUNTIME, self->rt_runtime);
	rmdir(GROUP);
	umount(CPU_V1);
}

/* Root group: 95% with throttling, (nearly) all of it with GREED. */
TEST_F_TIMEOUT(greed, rt_alone, 120)
{
	double off, on;

	run_hogs(_metadata, false, false, NULL, &off, NULL);
	run_hogs(_metadata, true, false, NULL, &on, NULL);
	EXPECT_GE(off, 0.90);
	EXPECT_LE(off, 0.97) TH_LOG("throttling should leave ~5%% idle");
	EXPECT_GE(on, 0.99) TH_LOG("GREED should not idle the CPU");
}

/* A CFS task keeps its 5%, the RT task loses nothing to GREED. */
TEST_F_TIMEOUT(greed, rt_contended, 120)
{
	double rt_off, cfs_off, rt_on, cfs_on;

	run_hogs(_metadata, false, true, NULL, &rt_off, &cfs_off);
	run_hogs(_metadata, true, true, NULL, &rt_on, &cfs_on);
	EXPECT_GE(cfs_off, 0.04);
	EXPECT_GE(cfs_on, 0.04) TH_LOG("GREED must not starve CFS");
	EXPECT_GE(rt_on, rt_off - 0.01);
	EXPECT_GE(rt_on, 0.90);
}

static void make_rt_group(struct __test_metadata *_metadata, const char *runtime)
{
	mkdir(CPU_V1, 0755);
	ASSERT_EQ(0, mount("cgroup", CPU_V1, "cgroup", 0, "cpu"))
		TH_LOG("mount cgroup v1 cpu: %s", strerror(errno));
	ASSERT_EQ(0, mkdir(GROUP, 0755));
	ASSERT_EQ(0, write_str(GROUP "/cpu.rt_runtime_us", runtime));
}

/* An RT cgroup with half the period: the same, at 50%. */
TEST_F_TIMEOUT(greed, cgroup_alone, 120)
{
	double off, on;

	make_rt_group(_metadata, "500000");
	run_hogs(_metadata, false, false, GROUP "/tasks", &off, NULL);
	run_hogs(_metadata, true, false, GROUP "/tasks", &on, NULL);
	EXPECT_GE(off, 0.45);
	EXPECT_LE(off, 0.55) TH_LOG("the group's runtime is half the period");
	EXPECT_GE(on, 0.99) TH_LOG("GREED should not idle the CPU");
}

TEST_F_TIMEOUT(greed, cgroup_contended, 120)
{
	double rt_off, cfs_off, rt_on, cfs_on;

	make_rt_group(_metadata, "500000");
	run_hogs(_metadata, false, true, GROUP "/tasks", &rt_off, &cfs_off);
	run_hogs(_metadata, true, true, GROUP "/tasks", &rt_on, &cfs_on);
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

	ASSERT_EQ(0, write_str(RT_RUNTIME, "-1"));
	run_hogs(_metadata, true, true, NULL, &rt, &cfs);
	EXPECT_GE(cfs, 0.025) TH_LOG("the fair server should give ~50 ms/s");
	EXPECT_LE(cfs, 0.10);
	EXPECT_GE(rt, 0.88);
}

TEST_HARNESS_MAIN
