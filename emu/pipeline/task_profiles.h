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
 *                (android_tuning.h), cpuset system-background, the LITTLE
 *                CPUs: AOSP's main_surfaceflinger.cpp puts its main thread
 *                there (set_cpuset_policy(0, SP_SYSTEM), "Keeps us from
 *                unnecessarily using big cores", Android 7 to at least
 *                13), and devices' init scripts give system-background
 *                the LITTLE cluster (0-3 of a 4+4 SoC), as background.
 *                Without it, where SurfaceFlinger composes is wherever
 *                the realtime class first put it, which differs from
 *                boot to boot (composition 1.7 ms on a big CPU, 9 ms on
 *                a LITTLE one). Realtime and DEADLINE background entries
 *                (audio): every CPU.
 */
#ifndef PL_TASK_PROFILES_H
#define PL_TASK_PROFILES_H

#include <stdint.h>
#include "gplat.h"

#define TP_TOP_APP_NICE	(-10)
#define TP_SF_FIFO_PRIO	2	/* SurfaceFlinger::setSchedFifo() */
/*
 * InputReader and InputDispatcher: frameworks/native inputflinger's
 * InputThread runs them at ANDROID_PRIORITY_URGENT_DISPLAY, nice -8
 * (system/core libutils ThreadDefs.h), in the fair class.
 */
#define TP_INPUT_NICE	(-8)

/* The calling thread joins the top app: 0, or -1 with errno. */
int tp_top_app(void);
/* The calling thread runs as Android's input threads: 0, or -1 with errno. */
int tp_input_thread(void);
/*
 * The background cpuset, a CPU a bit: the CPUs of the smallest capacity,
 * or 0 (anywhere) when they are all alike (no capacities: a plain VM).
 */
uint64_t tp_background_cpus(const struct gplat *ph);
/* The calling thread to the CPUs of mask @cpus (0: anywhere): 0, or -1 with errno. */
int tp_join_cpus(uint64_t cpus);
/*
 * The calling thread (SurfaceFlinger's) joins system-background, the same
 * CPUs as background (nothing to do when they are all alike): 0, or -1
 * with errno.
 */
int tp_system_background(const struct gplat *ph);

#endif
