// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu_share.h"
#include "clock.h"

int write_str(const char *path, const char *val)
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

int read_str(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

int set_sched_feature(const char *name, bool on)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s%s", on ? "" : "NO_", name);
	return write_str(SCHED_FEATURES, buf);
}

int sched_feature_state(const char *name)
{
	char buf[4096], *save, *tok;
	int ret = read_str(SCHED_FEATURES, buf, sizeof(buf));

	if (ret)
		return ret;
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, name))
			return 1;
		if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			return 0;
	}
	return -ENOENT;
}

static void *hog_main(void *arg)
{
	struct hog *h = arg;
	struct sched_param sp = {
		.sched_priority = h->policy == SCHED_FIFO ? 50 : 0,
	};
	cpu_set_t set;
	char buf[32];

	CPU_ZERO(&set);
	CPU_SET(h->cpu, &set);
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

int hog_start(struct hog *h, int cpu, int policy, const char *cgroup_tasks)
{
	memset(h, 0, sizeof(*h));
	h->cpu = cpu;
	h->policy = policy;
	h->cgroup_tasks = cgroup_tasks;
	if (pthread_create(&h->thread, NULL, hog_main, h))
		return -1;
	while (!h->tid && !h->err)
		usleep(1000);
	if (h->err) {
		hog_stop(h);
		return -1;
	}
	return 0;
}

void hog_stop(struct hog *h)
{
	h->stop = true;
	pthread_join(h->thread, NULL);
}

/* Nanoseconds thread @tid of this process has run (schedstat field 1). */
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

void measure_shares(struct hog *const *hogs, double *share, int n, double window)
{
	unsigned long long start[8];
	double t0, t1;
	int i;

	if (n > 8)
		n = 8;
	usleep(300000);
	t0 = mono_now();
	for (i = 0; i < n; i++)
		start[i] = cpu_ns(hogs[i]->tid);
	usleep(window * 1e6);
	t1 = mono_now();
	for (i = 0; i < n; i++)
		share[i] = (cpu_ns(hogs[i]->tid) - start[i]) / 1e9 / (t1 - t0);
}

int set_cpu_online(int cpu, bool online)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_str(path, online ? "1" : "0");
}
