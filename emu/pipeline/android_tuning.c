// SPDX-License-Identifier: GPL-2.0
/*
 * android_tuning.c - apply and undo Android's kernel settings: see
 * android_tuning.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "android_tuning.h"
#include "sys.h"

static int read_value(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_value(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(val))
		ret = -EIO;
	close(fd);
	return ret;
}

int android_tuning_apply(struct android_tuning *t, char *err, size_t errlen)
{
	int r;

	memset(t, 0, sizeof(*t));
	r = read_value(ANDROID_RT_UCLAMP_MIN_PATH, t->rt_min, sizeof(t->rt_min));
	if (r == -ENOENT) {
		t->rt_min_absent = true;
		return 0;
	}
	if (r) {
		snprintf(err, errlen, "reading %s: %s", ANDROID_RT_UCLAMP_MIN_PATH,
			 strerror(-r));
		return -1;
	}
	if (!strcmp(t->rt_min, ANDROID_RT_UCLAMP_MIN))
		return 0;
	r = write_value(ANDROID_RT_UCLAMP_MIN_PATH, ANDROID_RT_UCLAMP_MIN);
	if (r) {
		snprintf(err, errlen, "writing %s to %s (as Android's init does): %s",
			 ANDROID_RT_UCLAMP_MIN, ANDROID_RT_UCLAMP_MIN_PATH,
			 strerror(-r));
		return -1;
	}
	t->rt_min_saved = true;
	return 0;
}

void android_tuning_restore(struct android_tuning *t)
{
	int r;

	if (!t->rt_min_saved)
		return;
	r = write_value(ANDROID_RT_UCLAMP_MIN_PATH, t->rt_min);
	if (r)
		fprintf(stderr, "pipeline: restoring %s to %s: %s\n",
			ANDROID_RT_UCLAMP_MIN_PATH, t->rt_min, strerror(-r));
	t->rt_min_saved = false;
}

int android_sf_uclamp(void)
{
	struct sched_attr_v1 a = {
		.sched_flags = SA_FLAG_KEEP_ALL | SA_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = ANDROID_SF_UCLAMP_MIN,
	};

	return sys_sched_setattr(0, &a);
}
