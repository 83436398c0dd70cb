// SPDX-License-Identifier: GPL-2.0
/*
 * invariant_runtime.c - read /proc/PID/task/TID/invariant_runtime.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "invariant_runtime.h"

int invariant_runtime_read(pid_t tid, uint64_t *ns)
{
	char path[64], buf[32], *end;
	ssize_t n;
	int fd;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/invariant_runtime",
			 (int)getpid(), (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/invariant_runtime");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ENODATA;
	buf[n] = '\0';
	errno = 0;
	*ns = strtoull(buf, &end, 10);
	if (errno || end == buf || *end != '\n')
		return -EINVAL;
	return 0;
}

uint64_t thread_runtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
