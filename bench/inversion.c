// SPDX-License-Identifier: GPL-2.0
/*
 * inversion: the classic priority inversion on a kernel struct mutex,
 * measured. A low-importance owner (CFS nice 19, or SCHED_IDLE) holds a
 * mutex of framesched_inversion.ko over a CPU-bound section of C us; a
 * high-importance waiter (SCHED_FIFO 80, or SCHED_DEADLINE) blocks on it;
 * M hogs (CFS nice 0, or SCHED_FIFO 50) share the owner's CPU. The module
 * times the waiter around mutex_lock(); we print p50, p99 and max of that
 * blocking time, in us and over the section (C; C + S when the owner
 * sleeps S in it), per scenario and M.
 *
 * The section is a fixed number of loop iterations, calibrated here so
 * that it takes about C when nothing competes, and C is that measured
 * time: a clock spin would end on time however long the owner was
 * preempted, and hide the inversion. With --feature NAME, every point runs
 * with the sched feature off and on, back to back, and the feature's
 * state is restored at the end, and a summary puts the p99s off and on
 * side by side against the target of TARGET_RATIO times the section.
 *
 * Under TCG the section's length moves with the vCPU's speed, which moves
 * with the host's load and with a waiter spinning on the other vCPU (the
 * mutex's optimistic spinning): a section can take 2C with nothing else
 * on its CPU. So each sample is also put over its own section, the
 * owner's hold time less its waits for a CPU (schedstat's run_delay, as
 * the module reads it): inversion, the owner waiting behind hogs, shows
 * there; the emulator's slowness does not. The summary is printed both
 * ways.
 *
 *   inversion [-s SCENARIOS] [-H HOG-CLASSES] [-m M-LIST] [-n ITERATIONS]
 *             [-c C_US] [-S SLEEP_US] [-o nice19|idle] [-f FEATURE]
 *             [-t TIMEOUT_S] [-j FILE.json]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cpu_share.h"
#include "inversion.h"
#include "clock.h"
#include "args.h"

/* proxy execution's goal: the waiter's p99 within this many sections */
#define TARGET_RATIO	1.2

struct result {
	struct inv_point p;
	bool feature_on;
	double p50, p99, max;	/* us */
	double late_p50;	/* us */
	double own_p50;		/* us: the owner's own section, see inv_point */
	double rel_p50, rel_p99; /* of each sample's time over its own section */
	double *rel;		/* p.n values */
};

static struct opts {
	bool scenario[INV_NR_SCENARIOS];
	bool hogs[INV_NR_HOGS];
	int m[INV_MAX_HOGS + 1];
	int nm;
	int iterations;
	double c_us;
	long sleep_us;		/* -1: C */
	enum inv_owner owner;
	const char *feature;
	double timeout_s;
	const char *json;
} o = {
	.m = { 0, 1, 2, 4 },
	.nm = 4,
	.iterations = 15,
	.c_us = 1000,
	.sleep_us = -1,
	.timeout_s = 30,
};

#define FEATURE_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

/* the feature's state before we touched it: 0 or 1, -1 not touched */
static int feature_saved = -1;

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: inversion [options]\n"
		"  -s, --scenarios LIST   fifo,dl,remote,sleep,chain,free,token or all\n"
		"                         (default all but token, which needs CONFIG_SCHED_DL_TOKEN)\n"
		"  -H, --hog-class LIST   cfs,fifo or all (default all)\n"
		"  -m, --hogs LIST        hog counts M, 0 to %d (default 0,1,2,4)\n"
		"  -n, --iterations N     samples per point (default %d)\n"
		"  -c, --section US       target section length C in us (default %.0f)\n"
		"  -S, --sleep US         sleep in the middle of the section, \"sleep\" scenario (default C)\n"
		"  -o, --owner POLICY     nice19 or idle (default nice19)\n"
		"  -f, --feature NAME     run every point with sched feature NAME off and on\n"
		"  -t, --timeout SEC      give up on an iteration after SEC seconds (default %.0f)\n"
		"  -j, --json FILE        also write the results as JSON\n",
		INV_MAX_HOGS, o.iterations, o.c_us, o.timeout_s);
	exit(status);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
bad(const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "inversion: %s: ", opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

/* "a,b,c" (or spaces) into @pick[]: names from @names, or "all" */
static void parse_names(const char *opt, char *arg, const char *const *names,
			int n, bool *pick)
{
	char *save, *tok;
	int i, any = 0;

	memset(pick, 0, n * sizeof(*pick));
	for (tok = strtok_r(arg, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save), any++) {
		if (!strcmp(tok, "all")) {
			for (i = 0; i < n; i++)
				pick[i] = true;
			continue;
		}
		i = inv_lookup(names, n, tok);
		if (i < 0) {
			fprintf(stderr, "inversion: %s: unknown '%s', expected one of:", opt, tok);
			for (i = 0; i < n; i++)
				fprintf(stderr, " %s", names[i]);
			fprintf(stderr, " all\n");
			exit(2);
		}
		pick[i] = true;
	}
	if (!any)
		bad(opt, "expected a list, got nothing");
}

static void parse_m(const char *opt, char *arg)
{
	char *save, *tok;

	o.nm = 0;
	for (tok = strtok_r(arg, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (o.nm > INV_MAX_HOGS)
			bad(opt, "expected at most %d hog counts", INV_MAX_HOGS + 1);
		o.m[o.nm++] = arg_int("inversion", opt, tok, 0, INV_MAX_HOGS);
	}
	if (!o.nm)
		bad(opt, "expected hog counts such as 0,1,2,4, got nothing");
}

static void parse_args(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "scenarios", required_argument, NULL, 's' },
		{ "hog-class", required_argument, NULL, 'H' },
		{ "hogs", required_argument, NULL, 'm' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "section", required_argument, NULL, 'c' },
		{ "sleep", required_argument, NULL, 'S' },
		{ "owner", required_argument, NULL, 'o' },
		{ "feature", required_argument, NULL, 'f' },
		{ "timeout", required_argument, NULL, 't' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int opt, i;

	/* "token" only when asked: kernels without tokens run the rest */
	for (i = 0; i < INV_NR_SCENARIOS; i++)
		o.scenario[i] = i != INV_TOKEN;
	for (i = 0; i < INV_NR_HOGS; i++)
		o.hogs[i] = true;
	while ((opt = getopt_long(argc, argv, "s:H:m:n:c:S:o:f:t:j:h", longs, NULL)) != -1) {
		switch (opt) {
		case 's':
			parse_names("--scenarios", optarg, inv_scenario_names,
				    INV_NR_SCENARIOS, o.scenario);
			break;
		case 'H':
			parse_names("--hog-class", optarg, inv_hogs_names,
				    INV_NR_HOGS, o.hogs);
			break;
		case 'm':
			parse_m("--hogs", optarg);
			break;
		case 'n':
			o.iterations = arg_int("inversion", "--iterations", optarg, 1, 100000);
			break;
		case 'c':
			o.c_us = arg_int("inversion", "--section", optarg, 10, 1000000);
			break;
		case 'S':
			o.sleep_us = arg_int("inversion", "--sleep", optarg, 0,
					     INVERSION_MAX_SLEEP_US);
			break;
		case 'o':
			i = inv_lookup(inv_owner_names, INV_NR_OWNERS, optarg);
			if (i < 0)
				bad("--owner", "expected nice19 or idle, got '%s'", optarg);
			o.owner = i;
			break;
		case 'f':
			if (!*optarg || strspn(optarg, FEATURE_CHARS) != strlen(optarg) ||
			    !strncmp(optarg, "NO_", 3))
				bad("--feature", "expected a sched feature name such as RT_RUNTIME_GREED (no NO_ prefix), got '%s'",
				    optarg);
			o.feature = optarg;
			break;
		case 't':
			o.timeout_s = arg_int("inversion", "--timeout", optarg, 1, 3600);
			break;
		case 'j':
			o.json = optarg;
			break;
		case 'h':
			usage(0);
		default:
			usage(2);
		}
	}
	if (optind < argc)
		bad(argv[optind], "unexpected argument (options only)");
}

/* --- the sched feature --------------------------------------------------- */

/* 1 if NAME is on, 0 if NO_NAME is listed, -1 if neither (or no file) */
static int feature_state(const char *name)
{
	char buf[8192], *save, *tok;

	if (read_str(SCHED_FEATURES, buf, sizeof(buf)))
		return -1;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, name))
			return 1;
		if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			return 0;
	}
	return -1;
}

static void feature_restore(void)
{
	if (feature_saved >= 0)
		set_sched_feature(o.feature, feature_saved);
}

/* open, write, close: fit for a signal handler */
static void on_signal(int sig)
{
	feature_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void feature_prepare(void)
{
	if (!o.feature)
		return;
	if (access(SCHED_FEATURES, R_OK | W_OK)) {
		fprintf(stderr, "inversion: --feature: cannot read %s (debugfs mounted? root?)\n",
			SCHED_FEATURES);
		exit(1);
	}
	feature_saved = feature_state(o.feature);
	if (feature_saved < 0) {
		fprintf(stderr, "inversion: --feature: this kernel has no sched feature '%s' (see %s)\n",
			o.feature, SCHED_FEATURES);
		exit(1);
	}
	atexit(feature_restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

static int feature_set(bool on)
{
	if (set_sched_feature(o.feature, on)) {
		fprintf(stderr, "inversion: cannot write %s%s to %s\n",
			on ? "" : "NO_", o.feature, SCHED_FEATURES);
		return -1;
	}
	return 0;
}

/* --- running and reporting ----------------------------------------------- */

/* the points in run order; with a feature, each one off then on */
static int plan(struct result *r)
{
	int s, h, k, f, n = 0;

	for (s = 0; s < INV_NR_SCENARIOS; s++)
		for (h = 0; h < INV_NR_HOGS; h++)
			for (k = 0; k < o.nm; k++)
				for (f = 0; f < (o.feature ? 2 : 1); f++) {
					if (!o.scenario[s] || !o.hogs[h])
						continue;
					if (r) {
						r[n].p.scenario = s;
						r[n].p.hogs = h;
						r[n].p.m = o.m[k];
						r[n].feature_on = f;
					}
					n++;
				}
	return n;
}

static int run_all(struct inv_ctx *ctx, struct result *res, int n)
{
	double t0 = mono_now();
	int i, k;

	for (i = 0; i < n; i++) {
		struct result *r = &res[i];

		fprintf(stderr, "[%d/%d] %5.0f s  %s waiter, %d %s hog%s",
			i + 1, n, mono_now() - t0, inv_scenario_names[r->p.scenario],
			r->p.m, inv_hogs_names[r->p.hogs], r->p.m == 1 ? "" : "s");
		if (o.feature)
			fprintf(stderr, ", %s%s", r->feature_on ? "" : "NO_", o.feature);
		fprintf(stderr, "\n");
		if (o.feature && feature_set(r->feature_on))
			return -1;
		r->p.n = o.iterations;
		r->p.block_us = calloc(o.iterations, sizeof(double));
		r->p.late_us = calloc(o.iterations, sizeof(double));
		r->p.own_us = calloc(o.iterations, sizeof(double));
		r->rel = calloc(o.iterations, sizeof(double));
		if (!r->p.block_us || !r->p.late_us || !r->p.own_us || !r->rel ||
		    inv_run(ctx, &r->p))
			return -1;
		for (k = 0; k < r->p.n; k++)
			r->rel[k] = r->p.block_us[k] /
				    (r->p.own_us[k] > 1 ? r->p.own_us[k] : 1);
		r->own_p50 = inv_percentile(r->p.own_us, r->p.n, 50);
		r->rel_p50 = inv_percentile(r->rel, r->p.n, 50);
		r->rel_p99 = inv_percentile(r->rel, r->p.n, 99);
		r->p50 = inv_percentile(r->p.block_us, r->p.n, 50);
		r->p99 = inv_percentile(r->p.block_us, r->p.n, 99);
		r->max = inv_percentile(r->p.block_us, r->p.n, 100);
		r->late_p50 = inv_percentile(r->p.late_us, r->p.n, 50);
	}
	fprintf(stderr, "done in %.0f s\n", mono_now() - t0);
	return 0;
}

/* how long the owner holds the mutex when nothing competes, us */
static double section_us(const struct inv_ctx *ctx, const struct result *r)
{
	return ctx->c_us + (r->p.scenario == INV_SLEEP ? ctx->sleep_us : 0);
}

static void print_table(const struct inv_ctx *ctx, const struct result *res,
			int n)
{
	struct utsname u;
	int i;

	uname(&u);
	printf("\nPriority inversion on a kernel mutex, kernel %s %s\n", u.release, u.version);
	printf("C = %.0f us uncontended (target %.0f us, %llu loops); owner %s; S = %u us; %d samples a point\n",
	       ctx->c_us, o.c_us, ctx->loops, inv_owner_names[o.owner],
	       ctx->sleep_us, o.iterations);
	printf("Waiter's time in mutex_lock(), us and (over the section: C, or C + S for\n"
	       "sleep). own: p50 of the owner's own section in each sample (its hold\n"
	       "time less its waits for a CPU), us; /own: p50 and p99 of each sample's\n"
	       "time over that. unc: samples where the owner was gone when the waiter\n"
	       "came; late: p50 of how long after the owner's lock the waiter came (its\n"
	       "wake-up), us\n\n");
	printf("%-7s %-5s %3s %-4s %10s %7s %10s %7s %10s %7s %8s %5s %5s %5s %8s\n",
	       "waiter", "hogs", "M", o.feature ? "feat" : "",
	       "p50", "", "p99", "", "max", "", "own", "/own", "p99", "unc",
	       "late");
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		printf("%-7s %-5s %3d %-4s %10.0f (%5.1f) %10.0f (%5.1f) %10.0f (%5.1f) %8.0f %5.1f %5.1f %5d %8.0f\n",
		       inv_scenario_names[r->p.scenario], inv_hogs_names[r->p.hogs],
		       r->p.m, o.feature ? (r->feature_on ? "on" : "off") : "",
		       r->p50, r->p50 / section_us(ctx, r), r->p99,
		       r->p99 / section_us(ctx, r), r->max,
		       r->max / section_us(ctx, r), r->own_p50, r->rel_p50,
		       r->rel_p99, r->p.uncontended, r->late_p50);
	}
}

/* the result of (scenario, hogs, m, feature_on), or NULL */
static const struct result *find(const struct result *res, int n,
				 enum inv_scenario s, enum inv_hogs h, int m,
				 bool on)
{
	int i;

	for (i = 0; i < n; i++)
		if (res[i].p.scenario == s && res[i].p.hogs == h &&
		    res[i].p.m == m && res[i].feature_on == on)
			return &res[i];
	return NULL;
}

/* @r's p99 over the section: C (or C + S), or each sample's own section */
static double p99_ratio(const struct inv_ctx *ctx, const struct result *r,
			bool own)
{
	return own ? r->rel_p99 : r->p99 / section_us(ctx, r);
}

/*
 * With a feature: one row a scenario and hog class, the p99 over the
 * section with the feature off and on for each M; then how many points
 * with hogs meet the target with the feature on. @own: over each sample's
 * own section rather than the calibrated one.
 */
static void print_summary(const struct inv_ctx *ctx, const struct result *res,
			  int n, bool own)
{
	const struct result *off, *on;
	enum inv_scenario s;
	enum inv_hogs h;
	int k, met = 0, points = 0;

	printf("\np99 over %s, %s off and on (target: on <= %.1f)\n",
	       own ? "each sample's own section" : "the section (C, or C + S)",
	       o.feature, TARGET_RATIO);
	printf("%-12s", "waiter/hogs");
	for (k = 0; k < o.nm; k++)
		printf("   M=%-2d off    on", o.m[k]);
	printf("\n");
	for (s = 0; s < INV_NR_SCENARIOS; s++)
		for (h = 0; h < INV_NR_HOGS; h++) {
			if (!o.scenario[s] || !o.hogs[h])
				continue;
			printf("%-6s %-5s", inv_scenario_names[s], inv_hogs_names[h]);
			for (k = 0; k < o.nm; k++) {
				off = find(res, n, s, h, o.m[k], false);
				on = find(res, n, s, h, o.m[k], true);
				printf("  %7.1f %5.1f", p99_ratio(ctx, off, own),
				       p99_ratio(ctx, on, own));
				if (!o.m[k])
					continue;
				points++;
				met += p99_ratio(ctx, on, own) <= TARGET_RATIO;
			}
			printf("\n");
		}
	printf("on: p99 <= %.1f x %s in %d of %d points with hogs\n",
	       TARGET_RATIO, own ? "the own section" : "the section", met,
	       points);
}

static void json_str(FILE *f, const char *key, const char *val)
{
	const char *c;

	fprintf(f, "\"%s\": \"", key);
	for (c = val; *c; c++)
		fprintf(f, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
	fprintf(f, "\"");
}

static int write_json(const struct inv_ctx *ctx, const struct result *res,
		      int n)
{
	FILE *f = fopen(o.json, "w");
	struct utsname u;
	char kernel[2 * sizeof(u.release) + 2];
	int i, k;

	if (!f) {
		perror(o.json);
		return -1;
	}
	uname(&u);
	snprintf(kernel, sizeof(kernel), "%s %s", u.release, u.version);
	fprintf(f, "{\n  ");
	json_str(f, "kernel", kernel);
	fprintf(f, ",\n  \"c_us\": %.1f, \"c_target_us\": %.0f, \"loops\": %llu, \"sleep_us\": %u,\n",
		ctx->c_us, o.c_us, ctx->loops, ctx->sleep_us);
	fprintf(f, "  ");
	json_str(f, "owner", inv_owner_names[o.owner]);
	fprintf(f, ", \"iterations\": %d, ", o.iterations);
	/* a feature name is [A-Za-z0-9_]+ (parse_args) */
	if (o.feature)
		fprintf(f, "\"feature\": \"%s\",\n", o.feature);
	else
		fprintf(f, "\"feature\": null,\n");
	fprintf(f, "  \"points\": [\n");
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		fprintf(f, "    {\"scenario\": \"%s\", \"hogs\": \"%s\", \"m\": %d, ",
			inv_scenario_names[r->p.scenario], inv_hogs_names[r->p.hogs], r->p.m);
		if (o.feature)
			fprintf(f, "\"feature_on\": %s, ", r->feature_on ? "true" : "false");
		fprintf(f, "\"p50_us\": %.1f, \"p99_us\": %.1f, \"max_us\": %.1f, ",
			r->p50, r->p99, r->max);
		fprintf(f, "\"section_us\": %.1f, ", section_us(ctx, r));
		fprintf(f, "\"p50_ratio\": %.3f, \"p99_ratio\": %.3f, \"max_ratio\": %.3f, ",
			r->p50 / section_us(ctx, r), r->p99 / section_us(ctx, r),
			r->max / section_us(ctx, r));
		fprintf(f, "\"uncontended\": %d, \"samples_us\": [", r->p.uncontended);
		for (k = 0; k < r->p.n; k++)
			fprintf(f, "%s%.1f", k ? ", " : "", r->p.block_us[k]);
		fprintf(f, "], \"late_us\": [");
		for (k = 0; k < r->p.n; k++)
			fprintf(f, "%s%.1f", k ? ", " : "", r->p.late_us[k]);
		fprintf(f, "], \"own_us\": [");
		for (k = 0; k < r->p.n; k++)
			fprintf(f, "%s%.1f", k ? ", " : "", r->p.own_us[k]);
		fprintf(f, "], \"own_ratio_p50\": %.2f, \"own_ratio_p99\": %.2f}%s\n",
			r->rel_p50, r->rel_p99, i + 1 < n ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	return fclose(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct inv_ctx ctx;
	struct result *res;
	int n, ret = 1;

	parse_args(argc, argv);
	n = plan(NULL);
	if (!n) {
		fprintf(stderr, "inversion: nothing to run\n");
		return 2;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "inversion: needs 2 CPUs or more (tools/vm --smp 2)\n");
		return 1;
	}
	feature_prepare();
	res = calloc(n, sizeof(*res));
	if (!res || inv_open(&ctx))
		return 1;
	ctx.owner = o.owner;
	ctx.timeout_s = o.timeout_s;
	ctx.sleep_us = o.sleep_us < 0 ? o.c_us : o.sleep_us;
	plan(res);
	fprintf(stderr, "calibrating a %.0f us section on CPU %d\n", o.c_us, INV_CPU);
	if (inv_calibrate(&ctx, o.c_us) || run_all(&ctx, res, n))
		return 1;	/* exit: the module releases what a thread held */
	print_table(&ctx, res, n);
	if (o.feature) {
		print_summary(&ctx, res, n, false);
		print_summary(&ctx, res, n, true);
	}
	if (o.json && write_json(&ctx, res, n))
		fprintf(stderr, "inversion: cannot write %s\n", o.json);
	else
		ret = 0;
	inv_close(&ctx);
	return ret;
}
