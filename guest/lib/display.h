/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated display controller and GPU (framesched_display.ko, its
 * interface in guest/modules/phone_display/display_uapi.h) from user
 * space: loading the module, thin ioctl wrappers, and sync_file fences
 * (status, timestamp, wait). Shared by the pipeline and tests/guest.
 *
 * The wrappers return 0 (or what is documented) or -errno, and print
 * nothing: the caller knows what the failure means. display_open() and
 * display_close() print their failures on stderr.
 */
#ifndef FRAMESCHED_DISPLAY_H
#define FRAMESCHED_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../modules/phone_display/display_uapi.h"

struct display_ctx {
	int fd;			/* DISPLAY_DEV, or -1 */
	bool loaded;		/* we loaded the module: display_close() unloads */
};

/*
 * Load the module if it is not loaded: the .ko built for the running
 * kernel (build/guest/modules{,-release,-pristine}/phone_display/, the
 * one stamped with this kernel's "uname -v"; FRAMESCHED_DISPLAY_KO
 * overrides the search). *@loaded: whether we did.
 * 0, or -1 with a message on stderr.
 */
int display_load(bool *loaded);

/*
 * Unload the module, retrying for up to @timeout_s while it is in use
 * (an open file or a fence still alive: fences pin the module, and the
 * display lets go of its last buffer at the VSYNC after the last close).
 * 0, or -errno (-EWOULDBLOCK: still in use; -ENOENT: not loaded).
 */
int display_unload(double timeout_s);

/*
 * Open DISPLAY_DEV (O_RDWR | O_CLOEXEC), loading the module first if
 * needed. 0, or -1 with a message on stderr.
 */
int display_open(struct display_ctx *ctx);

/*
 * Close the device; if display_open() loaded the module, unload it
 * (waiting up to 5 s for fences to go: close yours first).
 */
void display_close(struct display_ctx *ctx);

/* DISPLAY_IOC_SET_MODE; @mode (may be NULL) gets the period, first VSYNC */
int display_set_mode(int fd, unsigned int refresh_hz, struct display_mode *mode);

/*
 * One VSYNC from read(): blocks unless @fd is O_NONBLOCK (-EAGAIN when
 * none is unread); -EINTR on a signal.
 */
int display_read_vsync(int fd, struct display_vsync *vsync);

/*
 * DISPLAY_IOC_PRESENT of @buffer whose acquire fence is @acquire_fd (-1:
 * none); @out gets the present and release fence fds and the VSYNC.
 */
int display_present(int fd, int acquire_fd, unsigned int buffer,
		    struct display_present *out);

/* DISPLAY_IOC_GPU_SUBMIT; @out gets the fence fd, lock wait and GPU times */
int display_gpu_submit(int fd, unsigned int cpu_us, unsigned int gpu_us,
		       struct display_gpu_submit *out);

/* DISPLAY_IOC_GPU_HOLD; *@lock_wait_ns (may be NULL): the mutex wait */
int display_gpu_hold(int fd, unsigned int hold_us, uint64_t *lock_wait_ns);

/* DISPLAY_IOC_CALIBRATE on the calling CPU; *@loops_per_ms may be NULL */
int display_calibrate(int fd, uint64_t *loops_per_ms);

/* A sync_file's state (SYNC_IOC_FILE_INFO). */
struct display_fence_state {
	int status;		/* 1 signaled, 0 pending, -errno: signaled in error */
	uint64_t timestamp_ns;	/* CLOCK_MONOTONIC when signaled (the latest
				 * of a merged file's fences), else 0 */
	unsigned int num_fences;
};

/* The state of sync_file @fence_fd: 0, or -errno (-EINVAL: not a sync_file) */
int display_fence_state(int fence_fd, struct display_fence_state *state);

/*
 * Wait with poll() for sync_file @fence_fd to signal, up to @timeout_ms
 * (-1: forever). 1 signaled, 0 timed out, -errno.
 */
int display_fence_wait(int fence_fd, int timeout_ms);

/*
 * A debugfs counter of the module (DISPLAY_DEBUGFS/@name: live_fences,
 * pending_fences, gpu_jobs, buffers, open_files, loops_per_ms) into
 * *@value: 0, or -errno.
 */
int display_counter(const char *name, long long *value);

#endif
