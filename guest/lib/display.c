// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cpu_share.h"
#include "display.h"
#include "kmod.h"
#include "clock.h"

static const struct kmod display_kmod = {
	.tag = "display",
	.dir = "phone_display",
	.name = DISPLAY_MODULE,
	.env = "FRAMESCHED_DISPLAY_KO",
};

/* how long display_close() waits for the module to be free */
#define DISPLAY_CLOSE_UNLOAD_S	5.0

int display_load(bool *loaded)
{
	int ret;

	*loaded = false;
	if (!access("/sys/module/" DISPLAY_MODULE, F_OK))
		return 0;
	ret = kmod_load(&display_kmod);
	if (ret < 0)
		return -1;
	*loaded = !ret;
	return 0;
}

int display_unload(double timeout_s)
{
	double end = mono_now() + timeout_s;
	int ret;

	for (;;) {
		ret = kmod_unload(&display_kmod);
		if ((ret != -EWOULDBLOCK && ret != -EBUSY) || mono_now() >= end)
			return ret;
		usleep(10000);
	}
}

int display_open(struct display_ctx *ctx)
{
	ctx->loaded = false;
	ctx->fd = open(DISPLAY_DEV, O_RDWR | O_CLOEXEC);
	if (ctx->fd < 0 && errno == ENOENT) {
		if (display_load(&ctx->loaded))
			return -1;
		ctx->fd = open(DISPLAY_DEV, O_RDWR | O_CLOEXEC);
	}
	if (ctx->fd < 0) {
		fprintf(stderr, "display: %s: %s\n", DISPLAY_DEV, strerror(errno));
		if (ctx->loaded)
			display_unload(0);
		ctx->loaded = false;
		return -1;
	}
	return 0;
}

void display_close(struct display_ctx *ctx)
{
	int err;

	if (ctx->fd >= 0)
		close(ctx->fd);
	ctx->fd = -1;
	if (ctx->loaded && (err = display_unload(DISPLAY_CLOSE_UNLOAD_S)))
		fprintf(stderr, "display: unloading " DISPLAY_MODULE ": %s\n",
			strerror(-err));
	ctx->loaded = false;
}

static int request(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

int display_set_mode(int fd, unsigned int refresh_hz, struct display_mode *mode)
{
	struct display_mode m = { .refresh_hz = refresh_hz };
	int ret = request(fd, DISPLAY_IOC_SET_MODE, &m);

	if (!ret && mode)
		*mode = m;
	return ret;
}

int display_read_vsync(int fd, struct display_vsync *vsync)
{
	ssize_t n = read(fd, vsync, sizeof(*vsync));

	if (n < 0)
		return -errno;
	return n == sizeof(*vsync) ? 0 : -EIO;
}

int display_present(int fd, int acquire_fd, unsigned int buffer,
		    struct display_present *out)
{
	*out = (struct display_present){
		.acquire_fd = acquire_fd, .buffer = buffer,
		.present_fd = -1, .release_fd = -1,
	};
	return request(fd, DISPLAY_IOC_PRESENT, out);
}

int display_gpu_submit(int fd, unsigned int cpu_us, unsigned int gpu_us,
		       struct display_gpu_submit *out)
{
	*out = (struct display_gpu_submit){
		.cpu_us = cpu_us, .gpu_us = gpu_us, .fence_fd = -1,
	};
	return request(fd, DISPLAY_IOC_GPU_SUBMIT, out);
}

int display_gpu_hold(int fd, unsigned int hold_us, uint64_t *lock_wait_ns)
{
	struct display_gpu_hold h = { .hold_us = hold_us };
	int ret = request(fd, DISPLAY_IOC_GPU_HOLD, &h);

	if (!ret && lock_wait_ns)
		*lock_wait_ns = h.lock_wait_ns;
	return ret;
}

int display_calibrate(int fd, uint64_t *loops_per_ms)
{
	struct display_calibrate c = { 0 };
	int ret = request(fd, DISPLAY_IOC_CALIBRATE, &c);

	if (!ret && loops_per_ms)
		*loops_per_ms = c.loops_per_ms;
	return ret;
}

int display_fence_state(int fence_fd, struct display_fence_state *state)
{
	struct sync_file_info info = { 0 };
	struct sync_fence_info *fences;
	unsigned int i;
	int ret;

	/* first the number of fences (a merged file has several) */
	ret = request(fence_fd, SYNC_IOC_FILE_INFO, &info);
	if (ret)
		return ret;
	fences = calloc(info.num_fences ? info.num_fences : 1, sizeof(*fences));
	if (!fences)
		return -ENOMEM;
	info.sync_fence_info = (uintptr_t)fences;
	ret = request(fence_fd, SYNC_IOC_FILE_INFO, &info);
	if (!ret) {
		state->status = info.status;
		state->num_fences = info.num_fences;
		state->timestamp_ns = 0;
		for (i = 0; i < info.num_fences && info.status; i++)
			if (fences[i].timestamp_ns > state->timestamp_ns)
				state->timestamp_ns = fences[i].timestamp_ns;
	}
	free(fences);
	return ret;
}

int display_fence_wait(int fence_fd, int timeout_ms)
{
	struct pollfd p = { .fd = fence_fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n && (p.revents & (POLLERR | POLLNVAL)))
		return -EINVAL;
	return n > 0;
}

int display_counter(const char *name, long long *value)
{
	char path[256], buf[64], *end;
	int ret;

	snprintf(path, sizeof(path), DISPLAY_DEBUGFS "/%s", name);
	ret = read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*value = strtoll(buf, &end, 0);
	return errno || end == buf ? -EINVAL : 0;
}
