/* SPDX-License-Identifier: GPL-2.0 */
/*
 * android_tuning.h - the kernel settings Android's init writes where
 * mainline's default differs and the difference decides how the pipeline
 * runs. The session applies them on open and puts them back on close.
 *
 * kernel.sched_util_clamp_min_rt_default: mainline boots with 1024, so
 * schedutil runs every CPU with a runnable RT task (SurfaceFlinger, a
 * SCHED_FIFO app thread) at fmax; devices' init scripts write 0 (Pixel 6's
 * init.gs101.rc and Pixel 8's init.zuma.rc, "RT uclamp setting"; AOSP's
 * own init.rc leaves it), so RT tasks get the frequency their
 * utilization asks for, as the article says
 * ("in Android, it also takes care of the SCHED_RT tasks"). Left at 1024,
 * SurfaceFlinger's every wake-up pins the big cluster at fmax and the
 * cfs row cannot show schedutil under-provisioning a chain.
 *
 * SurfaceFlinger's uclamp.min: with the RT default at 0, nothing keeps
 * SurfaceFlinger (SCHED_FIFO) off a LITTLE CPU at its lowest OPP, where
 * its composition takes seven times as long and every frame misses its
 * present. Android lets a device give SurfaceFlinger's main thread a
 * uclamp.min (ro.surface_flinger.uclamp.min; AOSP's default 0 leaves it
 * unset), and devices do: 165 to 328 in device trees. The pipeline uses
 * 205, about 20%, a value found in several of them.
 */
#ifndef PL_ANDROID_TUNING_H
#define PL_ANDROID_TUNING_H

#include <stdbool.h>
#include <stddef.h>

#define ANDROID_RT_UCLAMP_MIN_PATH "/proc/sys/kernel/sched_util_clamp_min_rt_default"
#define ANDROID_RT_UCLAMP_MIN "0"
#define ANDROID_SF_UCLAMP_MIN 205	/* ro.surface_flinger.uclamp.min */

struct android_tuning {
	bool rt_min_saved;	/* rt_min holds the value to put back */
	char rt_min[16];
	bool rt_min_absent;	/* kernel without CONFIG_UCLAMP_TASK */
};

/* 0, or -1 with the path and reason in err (nothing changed). */
int android_tuning_apply(struct android_tuning *t, char *err, size_t errlen);
/* Puts back what apply changed; a second call does nothing. */
void android_tuning_restore(struct android_tuning *t);
/*
 * Give the calling thread (SurfaceFlinger) ANDROID_SF_UCLAMP_MIN, keeping
 * its policy: 0, or -1 with errno (a kernel without uclamp: EOPNOTSUPP).
 */
int android_sf_uclamp(void);

#endif
