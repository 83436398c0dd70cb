/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results.h - what a comparison run leaves: the table on stdout, run.json,
 * and the chart of janky frames against energy.
 */
#ifndef PL_RESULTS_H
#define PL_RESULTS_H

#include <stdio.h>
#include "gplat.h"
#include "pipeline.h"

/*
 * run.json's layout; raised whenever a field changes meaning or goes.
 * 2: janky counts Buffer Stuffing; on_time_pct, skipped, warmup_frames,
 * buffer_stuffing, ui_ahead, nominal_latency_ms; no frame is dropped by
 * the latch rule; energy_limit_mj counts the background work done
 * (energy_limit_background_mj).
 * 3: token_passes counts every change of a token's holder (given, taken,
 * given up; a swap two); token_missing_ui, token_missing_render,
 * token_not_followed.
 */
#define RESULTS_SCHEMA_VERSION	3

struct results_meta {
	const struct workload *wl;
	const char *workload_path;
	const struct gplat *ph;
	const char *kernel;		/* uname -r and -v */
	double loops_per_us;		/* the calibration */
	const char *work_mode;		/* work_mode() */
	uint64_t period_ns;
	bool proxy_exec;		/* the kernel has the PROXY_EXEC feature */
	const char *left_out;		/* strategies not run, comma-separated */
	const char *left_out_why;
};

void results_table_header(FILE *f, const struct results_meta *m);
void results_table_row(FILE *f, const struct pl_result *r);
/* run.json: 0, or -1 with errno. */
int results_write_json(const char *path, const struct results_meta *m,
		       const struct pl_result *r, size_t n);

#endif
