// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - framesched-pipeline: run a workload under each strategy, one
 * after the other, in the guest; print the comparison table, write
 * run.json and a trace per strategy.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "hw.h"
#include "gplat.h"
#include "pipeline.h"
#include "results.h"
#include "session.h"
#include "work.h"

#define DEFAULT_WORKLOAD	"emu/workloads/article-example.json"
#define DEFAULT_OUT		"build/results"
#define MAX_RUNS		32

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: framesched-pipeline [--workload FILE] [--strategies a,b,c]\n"
		"                           [--out DIR] [--frames N] [--no-trace] [--quiet] [--list]\n"
		"  --workload FILE   workload JSON (default " DEFAULT_WORKLOAD ")\n"
		"  --strategies LIST comma-separated strategy names (default: all; the\n"
		"                    proxy-execution ones only on a workload with a mutex)\n"
		"  --out DIR         run.json, trace-STRATEGY.json (default " DEFAULT_OUT ")\n"
		"  --frames N        override the workload's frame count\n"
		"  --no-trace        no Perfetto trace files\n"
		"  --quiet           no progress on stderr\n"
		"  --list            list the strategies and exit\n");
}

static void list_strategies(void)
{
	const struct strategy *const *s;

	for (s = strategy_list; *s; s++)
		printf("%-12s %s\n", (*s)->name, (*s)->summary ? (*s)->summary : "");
}

#define LEFT_OUT_WHY	"no mutex between an app thread and another: proxy execution has nothing to act on"

/* Does an app thread wait on a mutex another thread holds? */
static bool workload_has_mutex(const struct workload *wl)
{
	uint32_t i;

	for (i = 0; i < wl->nbg; i++)
		if (wl->bg[i].type == WL_BG_GPU_MUTEX_HOG)
			return true;
	return false;
}

/*
 * The default list on @wl: every strategy but the mutex switches where
 * there is no mutex; their names into @left (comma-separated).
 */
static void drop_inapplicable(const struct workload *wl,
			      const struct strategy **pick, int *n,
			      char *left, size_t len)
{
	int i, k = 0;
	size_t used = 0;

	left[0] = 0;
	for (i = 0; i < *n; i++) {
		if (pick[i]->needs_mutex && !workload_has_mutex(wl)) {
			if (used < len)
				used += snprintf(left + used, len - used, "%s%s",
						 used ? "," : "", pick[i]->name);
			continue;
		}
		pick[k++] = pick[i];
	}
	*n = k;
}

/* "a,b,c" into strategies; -1 with a message on an unknown name */
static int pick_strategies(char *list, const struct strategy **out, int *n)
{
	char *tok, *save = NULL;

	*n = 0;
	if (!list) {
		for (; strategy_list[*n] && *n < MAX_RUNS; (*n)++)
			out[*n] = strategy_list[*n];
		return 0;
	}
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct strategy *s = strategy_find(tok);

		if (!s) {
			fprintf(stderr, "framesched-pipeline: --strategies: unknown strategy '%s' (--list shows them)\n",
				tok);
			return -1;
		}
		if (*n == MAX_RUNS) {
			fprintf(stderr, "framesched-pipeline: --strategies: at most %d\n",
				MAX_RUNS);
			return -1;
		}
		out[(*n)++] = s;
	}
	if (!*n) {
		fprintf(stderr, "framesched-pipeline: --strategies: expected at least one name\n");
		return -1;
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "strategies", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "frames", required_argument, NULL, 'n' },
		{ "no-trace", no_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *wl_path = DEFAULT_WORKLOAD, *out = DEFAULT_OUT;
	const struct strategy *pick[MAX_RUNS];
	static struct pl_result res[MAX_RUNS];
	char *strategies = NULL, err[512], path[1024], kernel[256], *end;
	char left_out[256] = "";
	bool trace = true, quiet = false;
	struct results_meta meta = { 0 };
	struct workload wl;
	struct pl_session ss;
	struct utsname u;
	long frames = 0;
	int c, i, n, ran = 0;

	while ((c = getopt_long(argc, argv, "w:s:o:n:Tqlh", opts, NULL)) != -1) {
		switch (c) {
		case 'w': wl_path = optarg; break;
		case 's': strategies = optarg; break;
		case 'o': out = optarg; break;
		case 'n':
			errno = 0;
			frames = strtol(optarg, &end, 10);
			if (errno || *end || frames < 1 || frames > 1000000) {
				fprintf(stderr, "framesched-pipeline: --frames: expected 1..1000000, got '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'T': trace = false; break;
		case 'q': quiet = true; break;
		case 'l': list_strategies(); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "framesched-pipeline: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (pick_strategies(strategies, pick, &n))
		return 2;
	if (wl_load(wl_path, &wl, err, sizeof(err))) {
		fprintf(stderr, "framesched-pipeline: %s\n", err);
		return 2;
	}
	if (frames)
		wl.frames = (uint32_t)frames;
	if (!strategies) {
		drop_inapplicable(&wl, pick, &n, left_out, sizeof(left_out));
		if (left_out[0] && !quiet)
			fprintf(stderr, "framesched-pipeline: left out: %s (%s; --strategies runs them)\n",
				left_out, LEFT_OUT_WHY);
	}
	if (mkdir(out, 0755) && errno != EEXIST) {
		fprintf(stderr, "framesched-pipeline: --out %s: %s\n", out, strerror(errno));
		return 2;
	}
	if (session_open(&ss, wl.refresh_hz, err, sizeof(err))) {
		fprintf(stderr, "framesched-pipeline: %s\n", err);
		return 1;
	}
	uname(&u);
	snprintf(kernel, sizeof(kernel), "%s %s", u.release, u.version);
	meta = (struct results_meta){
		.wl = &wl, .workload_path = wl_path, .ph = &ss.ph, .kernel = kernel,
		.loops_per_us = work_loops_per_us(), .work_mode = work_mode(),
		.period_ns = ss.hw.period_ns,
		.proxy_exec = gplat_sched_feature("PROXY_EXEC", NULL),
		.left_out = left_out, .left_out_why = LEFT_OUT_WHY,
	};
	install_signals();
	if (!quiet)
		fprintf(stderr, "pipeline: %d strategies, %u frames each; calibrated %.1f loops/us on cpu%d, work counted in %s; platform: %s\n",
			n, wl.frames, work_loops_per_us(), gplat_fastest_cpu(&ss.ph),
			work_mode(),
			ss.ph.plat_source);
	if (!quiet && ss.tuning.rt_min_saved)
		fprintf(stderr, "pipeline: %s %s -> %s for the run, as Android's init sets it\n",
			ANDROID_RT_UCLAMP_MIN_PATH, ss.tuning.rt_min,
			ANDROID_RT_UCLAMP_MIN);
	if (!quiet && !ss.tuning.rt_min_absent)
		fprintf(stderr, "pipeline: SurfaceFlinger uclamp.min %d, as a device's ro.surface_flinger.uclamp.min\n",
			ANDROID_SF_UCLAMP_MIN);
	results_table_header(stdout, &meta);
	fflush(stdout);
	for (i = 0; i < n && !interrupted; i++) {
		struct pl_config cfg = {
			.wl = &wl, .ph = &ss.ph, .hw = &ss.hw, .index = i + 1, .count = n,
			.progress = !quiet, .interrupt = &interrupted,
		};

		snprintf(path, sizeof(path), "%s/trace-%s.json", out, pick[i]->name);
		cfg.trace_path = trace ? path : NULL;
		if (!quiet)
			fprintf(stderr, "pipeline: [%d/%d] %s: starting\n", i + 1, n,
				pick[i]->name);
		if (pl_run(&cfg, pick[i], &res[i])) {
			fprintf(stderr, "framesched-pipeline: out of memory\n");
			break;
		}
		ran++;
		results_table_row(stdout, &res[i]);
		fflush(stdout);
		if (!quiet)
			fprintf(stderr, "pipeline: [%d/%d] %s: %s in %.1f s%s%s\n", i + 1,
				n, pick[i]->name, res[i].status == PL_OK ? "done" :
				res[i].status == PL_FAILED ? "FAILED" : "interrupted",
				res[i].run_s, res[i].error[0] ? ": " : "", res[i].error);
	}
	session_close(&ss);
	snprintf(path, sizeof(path), "%s/run.json", out);
	if (results_write_json(path, &meta, res, ran))
		fprintf(stderr, "framesched-pipeline: writing %s: %s\n", path, strerror(errno));
	else
		printf("results: %s\n", path);
	if (trace && ran)
		printf("traces: %s/trace-STRATEGY.json (open in ui.perfetto.dev)\n", out);
	return interrupted ? 130 : 0;
}
