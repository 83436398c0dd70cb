// SPDX-License-Identifier: GPL-2.0
/* dl_token.c - SCHED_DEADLINE tokens, see dl_token.h */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "dl_token.h"

#define SCHED_DEADLINE	6

int dl_token_create(uint64_t runtime, uint64_t deadline, uint64_t period,
		    uint64_t flags)
{
	struct sched_attr_v1 a;
	int fd = open(DL_TOKEN_DEV, O_RDWR | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_DEADLINE;
	a.sched_flags = flags;
	a.sched_runtime = runtime;
	a.sched_deadline = deadline;
	a.sched_period = period;
	if (ioctl(fd, DL_TOKEN_IOC_SETUP, &a)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int dl_token_give(int fd, pid_t tid)
{
	struct dl_token_give g = { .tid = tid };

	return ioctl(fd, DL_TOKEN_IOC_GIVE, &g) ? -1 : 0;
}

int dl_token_give_up(int fd)
{
	struct dl_token_give g = { .flags = DL_TOKEN_GIVE_UP };

	return ioctl(fd, DL_TOKEN_IOC_GIVE, &g) ? -1 : 0;
}

int dl_token_swap(int fd, int other_fd)
{
	struct dl_token_swap sw = { .fd = other_fd };

	return ioctl(fd, DL_TOKEN_IOC_SWAP, &sw) ? -1 : 0;
}

int dl_token_info(int fd, struct dl_token_info *info)
{
	return ioctl(fd, DL_TOKEN_IOC_INFO, info) ? -1 : 0;
}
