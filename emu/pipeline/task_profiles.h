/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_profiles.h - where Android puts the pipeline's threads, as its
 * task profiles and cpusets do (AOSP system/core/libprocessgroup/profiles/
 * task_profiles.json and cgroups.json, system/core/rootdir/init.rc, and a
 * device's cpuset layout, e.g. Pixel 6's init.gs101.rc):
 *
 *   top app      the UI thread and RenderThread: nice -10
 *                (Process.THREAD_PRIORITY_TOP_APP_BOOST, which ActivityManager's
 *                OomAdjuster sets on the top app's main thread and its
 *                RenderThread), cpuset top-app: every CPU;
 *   background   fair-class work of apps in the background: cpuset
 *                background, the LITTLE CPUs (Pixel 6: CPUs 0-3, its
 *                Cortex-A55s); a workload entry that names a CPU keeps it;
 *   system       SurfaceFlinger: SCHED_FIFO 2 with a uclamp.min
 *                (android_tuning.h); realtime and DEADLINE background
 *                entries (audio): every CPU.
 */
#ifndef PL_TASK_PROFILES_H
#define PL_TASK_PROFILES_H

#include <stdint.h>
#include "gplat.h"

#define TP_TOP_APP_NICE	(-10)

/* The calling thread joins the top app: 0, or -1 with errno. */
int tp_top_app(void);
/*
 * The background cpuset, a CPU a bit: the CPUs of the smallest capacity,
 * or 0 (anywhere) when they are all alike (no capacities: a plain VM).
 */
uint64_t tp_background_cpus(const struct gplat *ph);

#endif
