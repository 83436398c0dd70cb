/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The interface of framesched_display.ko: the emulated phone's display
 * controller and GPU, shared by the module and the guest programs that
 * drive it (the pipeline emulator, tests/guest/display_*).
 *
 * One misc device, DISPLAY_DEV. Every open file sees the same hardware.
 *
 * Display controller
 *   DISPLAY_IOC_SET_MODE sets the refresh rate and (re)starts hardware
 *   VSYNC, a CLOCK_MONOTONIC hrtimer. read() on the device returns one
 *   struct display_vsync: the most recent VSYNC this file has not yet read
 *   (blocking unless O_NONBLOCK: -EAGAIN); poll() reports POLLIN when
 *   there is one. A reader that is late gets the newest VSYNC and @missed
 *   tells how many it skipped.
 *   DISPLAY_IOC_PRESENT queues a buffer whose acquire fence (a sync_file
 *   fd, or -1 for none) must already be signaled (-EBUSY otherwise: the
 *   compositor latches only ready buffers). The buffer is shown at the next
 *   VSYNC: that VSYNC signals its present fence, with the VSYNC's time as
 *   the fence timestamp (SYNC_IOC_FILE_INFO reports it), and the release
 *   fence of the buffer it replaces. Presenting twice before one VSYNC
 *   replaces the first one (it is released at that VSYNC, never shown, and
 *   its present fence signals with -ECANCELED). At most DISPLAY_MAX_QUEUED
 *   presents wait for one VSYNC (-EBUSY beyond). @vsync_seq is 0 while the
 *   display is off (no SET_MODE yet): the buffer waits for the first VSYNC.
 *   When the last file is closed, the display turns off at its next VSYNC
 *   (after showing what was queued) and releases the buffer on screen; a
 *   display that is off releases its queued buffers at the last close
 *   (present fence -ECANCELED). The next SET_MODE turns it on again.
 *
 * GPU
 *   DISPLAY_IOC_GPU_SUBMIT does @cpu_us invariant µs of CPU work in the
 *   calling thread *holding the driver's struct mutex* (as real GPU drivers
 *   validate and queue command buffers), then queues @gpu_us µs of GPU time
 *   and returns a sync_file fd whose dma_fence signals when that job is
 *   done. Jobs execute one after another in submit order (one ring), so
 *   their fences signal in order.
 *   DISPLAY_IOC_GPU_HOLD holds the same mutex for @hold_us invariant µs of
 *   CPU work (at most DISPLAY_MAX_CPU_US): the background app doing GPU
 *   memory management that blocks RenderThread's submit (priority
 *   inversion).
 *   Invariant µs are µs of work at capacity 1024 and fmax: a fixed loop
 *   count, calibrated at load or by DISPLAY_IOC_CALIBRATE on the calling
 *   CPU (which the caller makes its fastest: pinned to a big CPU at fmax).
 *   CALIBRATE takes the fastest of 20 short samples over some 50 ms, so
 *   that a host that steals time from the VM now and then does not skew
 *   it; work done later while the host steals time still takes longer.
 *
 * Fences outlive the file and the process: a job or a present still
 * pending when its submitter exits completes and signals normally, and
 * its last reference goes with the sync_file. Each fence holds a reference
 * on the module (its ops are module code), so the module unloads only
 * once every fence is gone (delete_module: EBUSY/EWOULDBLOCK before);
 * unloading signals anything still pending with -ENODEV first.
 *
 * Live objects, in debugfs (/sys/kernel/debug/framesched_display/), all 0
 * when nothing is in flight and no file is open:
 *   live_fences     fences not yet freed (held by the module or a sync_file)
 *   pending_fences  fences not yet signaled
 *   gpu_jobs        jobs on the GPU ring
 *   buffers         presented buffers not yet released
 *   open_files      open files of DISPLAY_DEV
 * and loops_per_ms, the current calibration.
 *
 * Errors: EINVAL (a field out of range, reserved bits or padding not zero,
 * @refresh_hz not 1..240), EBADF (acquire_fd not an open fd) or EINVAL
 * (an open fd that is not a sync_file, or below -1), EBUSY (acquire fence
 * not signaled, or DISPLAY_MAX_QUEUED presents queued), EINTR (fatal
 * signal while waiting for the mutex or in the CPU work: nothing was
 * queued), EFAULT, ENOTTY.
 */
#ifndef FRAMESCHED_DISPLAY_UAPI_H
#define FRAMESCHED_DISPLAY_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define DISPLAY_MODULE		"framesched_display"
#define DISPLAY_DEV		"/dev/framesched_display"

#define DISPLAY_MAX_CPU_US	1000000u	/* one request, invariant µs */
#define DISPLAY_MAX_GPU_US	1000000u
#define DISPLAY_MAX_QUEUED	64u	/* presents waiting for one VSYNC */
#define DISPLAY_DEBUGFS		"/sys/kernel/debug/" DISPLAY_MODULE

struct display_mode {
	__u32 refresh_hz;	/* in: 1..240 */
	__u32 pad;		/* in: 0 */
	__u64 period_ns;	/* out: the VSYNC period */
	__u64 first_vsync_ns;	/* out: CLOCK_MONOTONIC of the first VSYNC */
};

struct display_vsync {		/* what read() returns */
	__u64 seq;		/* 1 for the first VSYNC after SET_MODE */
	__u64 timestamp_ns;	/* CLOCK_MONOTONIC */
	__u64 missed;		/* VSYNCs this file skipped before this one */
	__u64 next_ns;		/* when the next one is due */
};

struct display_present {
	__s32 acquire_fd;	/* in: sync_file fd, or -1 */
	__u32 buffer;		/* in: caller's buffer id, for the trace */
	__s32 present_fd;	/* out: signals when shown (timestamp: VSYNC) */
	__s32 release_fd;	/* out: signals when this buffer is replaced */
	__u64 vsync_seq;	/* out: the VSYNC that will show it */
};

struct display_gpu_submit {
	__u32 cpu_us;		/* in: CPU work under the driver mutex */
	__u32 gpu_us;		/* in: GPU time of the job */
	__s32 fence_fd;		/* out: sync_file fd, signals at job end */
	__u32 pad;		/* in: 0 */
	__u64 lock_wait_ns;	/* out: time spent waiting for the mutex */
	__u64 gpu_start_ns;	/* out: when the job starts on the GPU */
	__u64 gpu_end_ns;	/* out: when its fence will signal */
};

struct display_gpu_hold {
	__u32 hold_us;		/* in: CPU work under the driver mutex */
	__u32 pad;		/* in: 0 */
	__u64 lock_wait_ns;	/* out */
};

struct display_calibrate {
	__u64 loops_per_ms;	/* out: the new calibration */
};

#define DISPLAY_IOC_MAGIC	'F'
#define DISPLAY_IOC_SET_MODE	_IOWR(DISPLAY_IOC_MAGIC, 0x10, struct display_mode)
#define DISPLAY_IOC_PRESENT	_IOWR(DISPLAY_IOC_MAGIC, 0x11, struct display_present)
#define DISPLAY_IOC_GPU_SUBMIT	_IOWR(DISPLAY_IOC_MAGIC, 0x12, struct display_gpu_submit)
#define DISPLAY_IOC_GPU_HOLD	_IOWR(DISPLAY_IOC_MAGIC, 0x13, struct display_gpu_hold)
#define DISPLAY_IOC_CALIBRATE	_IOR(DISPLAY_IOC_MAGIC, 0x14, struct display_calibrate)

#endif
