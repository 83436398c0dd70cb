// SPDX-License-Identifier: GPL-2.0
/*
 * hw.c - the display and GPU through guest/lib/display.h (which loads the
 * module built for the running kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "display.h"
#include "hw.h"

int hw_open(struct hw *hw, char *err, size_t errlen)
{
	struct display_ctx ctx;

	memset(hw, 0, sizeof(*hw));
	hw->fd = -1;
	if (display_open(&ctx)) {
		snprintf(err, errlen, "display: cannot open " DISPLAY_DEV
			 " (framesched_display.ko; see above)");
		return -1;
	}
	hw->fd = ctx.fd;
	hw->loaded = ctx.loaded;
	return 0;
}

void hw_close(struct hw *hw)
{
	struct display_ctx ctx = { .fd = hw->fd, .loaded = hw->loaded };

	if (hw->fd >= 0)
		display_close(&ctx);
	hw->fd = -1;
	hw->loaded = false;
}

int hw_set_mode(struct hw *hw, uint32_t refresh_hz, char *err, size_t errlen)
{
	struct display_mode m;
	int r = display_set_mode(hw->fd, refresh_hz, &m);

	if (r) {
		snprintf(err, errlen, "display: DISPLAY_IOC_SET_MODE %u Hz: %s",
			 refresh_hz, strerror(-r));
		return -1;
	}
	hw->period_ns = m.period_ns;
	hw->first_vsync_ns = m.first_vsync_ns;
	return 0;
}

int hw_reopen(void)
{
	return open(DISPLAY_DEV, O_RDWR | O_CLOEXEC | O_NONBLOCK);
}

int hw_read_vsync(int fd, struct display_vsync *v)
{
	int r = display_read_vsync(fd, v);

	if (!r)
		return 1;
	return r == -EAGAIN || r == -EINTR ? 0 : -1;
}

/* errno set, -1: as the other callers of these expect */
static int as_errno(int r)
{
	if (!r)
		return 0;
	errno = -r;
	return -1;
}

int hw_present(int fd, int acquire_fd, uint32_t buffer,
	       struct display_present *out)
{
	memset(out, 0, sizeof(*out));
	out->present_fd = out->release_fd = -1;
	return as_errno(display_present(fd, acquire_fd, buffer, out));
}

int hw_gpu_submit(int fd, uint32_t cpu_us, uint32_t gpu_us,
		  struct display_gpu_submit *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	out->fence_fd = -1;
	do
		r = display_gpu_submit(fd, cpu_us, gpu_us, out);
	while (r == -EINTR);
	return as_errno(r);
}

int hw_gpu_hold(int fd, uint32_t hold_us, uint64_t *lock_wait_ns)
{
	int r;

	do
		r = display_gpu_hold(fd, hold_us, lock_wait_ns);
	while (r == -EINTR);
	return as_errno(r);
}
