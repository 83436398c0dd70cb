// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu_share.h"
#include "greed.h"

int greed_run(bool greed, bool with_cfs, const char *cgroup_tasks,
	      double window, double *rt, double *cfs)
{
	struct hog r, c;
	struct hog *hogs[2] = { &r, &c };
	double share[2];
	int err;

	err = set_sched_feature("RT_RUNTIME_GREED", greed);
	if (err) {
		fprintf(stderr, "greed: cannot %s RT_RUNTIME_GREED in %s: %s\n",
			greed ? "set" : "clear", SCHED_FEATURES, strerror(-err));
		return -1;
	}
	if (with_cfs && hog_start(&c, GREED_CPU, SCHED_OTHER, NULL)) {
		fprintf(stderr, "greed: CFS hog: %s\n", strerror(c.err));
		return -1;
	}
	if (hog_start(&r, GREED_CPU, SCHED_FIFO, cgroup_tasks)) {
		fprintf(stderr, "greed: RT hog: %s\n", strerror(r.err));
		if (with_cfs)
			hog_stop(&c);
		return -1;
	}
	measure_shares(hogs, share, with_cfs ? 2 : 1, window);
	hog_stop(&r);
	if (with_cfs)
		hog_stop(&c);
	*rt = share[0];
	if (with_cfs)
		*cfs = share[1];
	return 0;
}

int greed_group_create(const char *runtime_us)
{
	int err, tries;

	mkdir(GREED_CPU_V1, 0755);
	/*
	 * Reuse a mount left behind; the hierarchy of a previous
	 * greed_group_destroy() may also still be dying (EBUSY).
	 */
	err = access(GREED_CPU_V1 "/cpu.rt_runtime_us", F_OK) ? -1 : 0;
	for (tries = 0; err && tries < 50; tries++) {
		err = mount("cgroup", GREED_CPU_V1, "cgroup", 0, "cpu");
		if (!err || errno != EBUSY)
			break;
		usleep(100000);
	}
	if (err) {
		fprintf(stderr, "greed: mount cgroup v1 cpu on %s: %s\n",
			GREED_CPU_V1, strerror(errno));
		return -1;
	}
	if (mkdir(GREED_GROUP, 0755) && errno != EEXIST) {
		fprintf(stderr, "greed: mkdir %s: %s\n", GREED_GROUP, strerror(errno));
		return -1;
	}
	/*
	 * A group removed just before still holds its RT bandwidth until its
	 * task_group is freed after an RCU grace period; until then the
	 * root's budget looks used and the write fails with EINVAL.
	 */
	for (tries = 0; tries < 50; tries++) {
		err = write_str(GREED_GROUP "/cpu.rt_runtime_us", runtime_us);
		if (err != -EINVAL)
			break;
		usleep(100000);
	}
	if (err) {
		fprintf(stderr, "greed: %s/cpu.rt_runtime_us = %s: %s\n",
			GREED_GROUP, runtime_us, strerror(-err));
		return -1;
	}
	return 0;
}

void greed_group_destroy(void)
{
	rmdir(GREED_GROUP);
	umount(GREED_CPU_V1);
	rmdir(GREED_CPU_V1);
}
