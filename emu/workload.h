/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - a display-pipeline workload, read from a JSON file.
 *
 * The format (every field, unit and default) is documented in
 * workloads/README.md; the defaults live in wl_defaults() in workload.c.
 * All CPU work is in invariant µs (µs at capacity 1024 and fmax); the gpu
 * stage is GPU time (the emulated GPU has no DVFS).
 */
#ifndef EMU_WORKLOAD_H
#define EMU_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WL_NAME_LEN	48
#define WL_MAX_BG	16

enum wl_stage {
	WL_UI,		/* UI thread: input, animation, traversal */
	WL_RENDER,	/* RenderThread: record, before the GPU submit */
	WL_GPU_SUBMIT,	/* RenderThread: CPU part of the submit, under the driver mutex */
	WL_GPU,		/* GPU execution */
	WL_SF,		/* SurfaceFlinger compose */
	WL_NSTAGES
};

/* work = base ± jitter (uniform), + heavy_us on a heavy_rate share of frames */
struct wl_dist {
	uint32_t base_us;
	uint32_t jitter_us;
	double heavy_rate;	/* 0..1 */
	uint32_t heavy_us;
};

/* Touch streams: from start_ms, touch_ms of events then gap_ms of none. */
struct wl_input {
	uint32_t start_ms;
	uint32_t touch_ms;	/* 0: no input at all */
	uint32_t gap_ms;
	uint32_t event_hz;
	uint32_t streams;	/* 0: repeat until the end */
};

enum wl_bg_type {
	WL_BG_CFS_HOG,		/* always runnable */
	WL_BG_CFS_PERIODIC,	/* run_us every period_us, SCHED_OTHER */
	WL_BG_RT_PERIODIC,	/* run_us every period_us, SCHED_FIFO */
	WL_BG_DL_PERIODIC,	/* run_us every period_us, SCHED_DEADLINE */
	WL_BG_GPU_MUTEX_HOG,	/* holds the GPU driver mutex hold_us every period_us */
	WL_BG_NTYPES
};

struct wl_bg {
	enum wl_bg_type type;
	char name[WL_NAME_LEN];
	uint32_t threads;
	int32_t nice;
	uint32_t priority;	/* rt_periodic: SCHED_FIFO 1..99 */
	uint32_t period_us;
	uint32_t run_us;	/* invariant µs; gpu_mutex_hog: hold_us */
	uint32_t dl_runtime_us;	/* dl_periodic: reservation, wall µs */
	uint32_t dl_deadline_us;
	int32_t cpu;		/* pinned to this CPU; -1: anywhere */
};

struct workload {
	char name[WL_NAME_LEN];
	uint32_t refresh_hz;		/* 60, 90 or 120 */
	uint32_t frames;
	uint64_t seed;
	uint32_t app_duration_us;	/* VSYNC-app: this long + sf before present */
	uint32_t sf_duration_us;	/* VSYNC-sf: this long before present */
	struct wl_dist stage[WL_NSTAGES];
	struct wl_input input;
	uint32_t nbg;
	struct wl_bg bg[WL_MAX_BG];
};

extern const char *const wl_stage_name[WL_NSTAGES];
extern const char *const wl_bg_type_name[WL_BG_NTYPES];

/*
 * Read and check a workload file. On error returns -1 and writes
 * "FILE: JSON.PATH: what was expected" into err.
 */
int wl_load(const char *path, struct workload *wl, char *err, size_t errlen);
/* The same on a string; name stands for the file in messages. */
int wl_parse(const char *text, const char *name, struct workload *wl,
	     char *err, size_t errlen);
/* Android's default VSYNC durations for a refresh rate, scaled from 60 Hz. */
void wl_default_durations(uint32_t refresh_hz, uint32_t *app_us, uint32_t *sf_us);
uint64_t wl_period_ns(const struct workload *wl);

#endif
