// SPDX-License-Identifier: GPL-2.0
/*
 * fence.c - sync_file helpers over guest/lib/display.h: poll() for the
 * signal, SYNC_IOC_FILE_INFO for the status and timestamp.
 */
#include <unistd.h>
#include "display.h"
#include "fence.h"

int fence_status(int fd)
{
	struct display_fence_state st;

	if (fd < 0)
		return 1;
	if (display_fence_state(fd, &st) || st.status < 0)
		return -1;
	return st.status > 0;
}

int fence_wait(int fd, int64_t timeout_ns, const volatile bool *stop)
{
	/* slices of 50 ms, so that a stop request is seen soon */
	const int64_t slice = 50000000;

	if (fd < 0)
		return 1;
	for (;;) {
		int64_t t = timeout_ns < 0 || timeout_ns > slice ? slice : timeout_ns;
		int r = display_fence_wait(fd, (int)((t + 999999) / 1000000));

		if (r > 0)
			return fence_status(fd) == 1 ? 1 : -1;
		if (r < 0)
			return -1;
		if (stop && *stop)
			return 0;
		if (timeout_ns >= 0) {
			timeout_ns -= t;
			if (timeout_ns <= 0)
				return 0;
		}
	}
}

int64_t fence_timestamp(int fd)
{
	struct display_fence_state st;

	if (fd < 0 || display_fence_state(fd, &st) || st.status <= 0)
		return -1;
	return (int64_t)st.timestamp_ns;
}

void fence_put(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = FENCE_NONE;
}
