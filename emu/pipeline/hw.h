/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hw.h - the emulated display controller and GPU (framesched_display.ko)
 * as the pipeline uses them: open (loading the module built for the
 * running kernel if needed), set the mode, VSYNC, present, GPU submit and
 * the driver-mutex hold of the inversion source.
 */
#ifndef PL_HW_H
#define PL_HW_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "display.h"

struct hw {
	int fd;
	bool loaded;		/* we loaded the module: unload on close */
	uint64_t period_ns;
	uint64_t first_vsync_ns;
};

/* 0, or -1 with a message in err. */
int hw_open(struct hw *hw, char *err, size_t errlen);
void hw_close(struct hw *hw);
/* (Re)start hardware VSYNC at refresh_hz. */
int hw_set_mode(struct hw *hw, uint32_t refresh_hz, char *err, size_t errlen);
/*
 * The newest VSYNC not yet read on fd (a file of its own per reader):
 * 1 with *v filled, 0 if none (non-blocking), -1 on error.
 */
int hw_read_vsync(int fd, struct display_vsync *v);
/* Another file on the device, for a thread that reads VSYNC itself. */
int hw_reopen(void);
int hw_present(int fd, int acquire_fd, uint32_t buffer,
	       struct display_present *out);
int hw_gpu_submit(int fd, uint32_t cpu_us, uint32_t gpu_us,
		  struct display_gpu_submit *out);
int hw_gpu_hold(int fd, uint32_t hold_us, uint64_t *lock_wait_ns);

#endif
