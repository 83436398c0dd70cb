// SPDX-License-Identifier: GPL-2.0
/*
 * mutex_contention: the throughput of one contended kernel mutex, with the
 * PROXY_EXEC sched feature off and on. N threads (CFS, any CPU) each run
 * INVERSION_IOC_SECTION on mutex 0 of framesched_inversion.ko with a tiny
 * section, back to back, for D seconds; we count the sections done.
 * Proxy execution changes what a waiter does when it blocks (it stays
 * queued and, picked, runs the owner or moves to its CPU), so this is
 * where its cost shows. Off and on alternate within each round, in one
 * boot; the table gives acquisitions per second, mean and standard
 * deviation over the rounds, and the on/off ratio of the means. The
 * feature's state is restored at the end.
 *
 *   mutex_contention [-t THREADS] [-l LOOPS] [-d SECONDS] [-r ROUNDS]
 *                    [-j FILE.json]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cpu_share.h"
#include "inversion.h"
#include "clock.h"
#include "args.h"

#define FEATURE		"PROXY_EXEC"
#define MAX_THREADS	256
#define MAX_ROUNDS	100

static struct opts {
	int threads;
	unsigned long long loops;
	double duration_s;
	int rounds;
	const char *json;
} o = {
	.threads = 8,
	.loops = 100,
	.duration_s = 5,
	.rounds = 3,
};

/* the feature's state before we touched it: 0 or 1, -1 not touched */
static int feature_saved = -1;

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: mutex_contention [options]\n"
		"  -t, --threads N      threads contending for the mutex (default %d)\n"
		"  -l, --loops N        busy-loop iterations in each section (default %llu)\n"
		"  -d, --duration SEC   length of one measurement (default %.0f)\n"
		"  -r, --rounds N       rounds of %s off, then on (default %d)\n"
		"  -j, --json FILE      also write the results as JSON\n",
		o.threads, o.loops, o.duration_s, FEATURE, o.rounds);
	exit(status);
}

static void parse_args(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "loops", required_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "t:l:d:r:j:h", longs, NULL)) != -1) {
		switch (opt) {
		case 't':
			o.threads = arg_int("mutex_contention", "--threads", optarg, 1, MAX_THREADS);
			break;
		case 'l':
			o.loops = arg_int("mutex_contention", "--loops", optarg, 0, 1000000000);
			break;
		case 'd':
			o.duration_s = arg_int("mutex_contention", "--duration", optarg, 1, 3600);
			break;
		case 'r':
			o.rounds = arg_int("mutex_contention", "--rounds", optarg, 1, MAX_ROUNDS);
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
	args_none_left("mutex_contention", optind, argc, argv);
}

static void feature_restore(void)
{
	if (feature_saved >= 0)
		set_sched_feature(FEATURE, feature_saved);
}

/* open, write, close: fit for a signal handler */
static void on_signal(int sig)
{
	feature_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* --- one measurement ----------------------------------------------------- */

struct contender {
	pthread_t thread;
	int fd;
	pthread_barrier_t *start;
	volatile bool *stop;
	unsigned long long count;
	int err;
};

static void *contender_main(void *arg)
{
	struct contender *c = arg;
	struct inversion_req r;

	pthread_barrier_wait(c->start);
	while (!*c->stop) {
		r = (struct inversion_req){
			.mutex = 0, .outer = INVERSION_NO_OUTER, .loops = o.loops,
		};
		if (ioctl(c->fd, INVERSION_IOC_SECTION, &r)) {
			c->err = errno;
			break;
		}
		c->count++;
	}
	return NULL;
}

/* Acquisitions per second of o.threads contenders over o.duration_s; <0 on error. */
static double run_once(int fd)
{
	static struct contender c[MAX_THREADS];
	pthread_barrier_t start;
	volatile bool stop = false;
	unsigned long long total = 0;
	double t0, t1;
	int i, err = 0;

	pthread_barrier_init(&start, NULL, o.threads + 1);
	for (i = 0; i < o.threads; i++) {
		c[i] = (struct contender){ .fd = fd, .start = &start, .stop = &stop };
		if (pthread_create(&c[i].thread, NULL, contender_main, &c[i])) {
			fprintf(stderr, "mutex_contention: cannot create thread %d\n", i);
			exit(1);	/* the others wait at the barrier */
		}
	}
	pthread_barrier_wait(&start);
	t0 = mono_now();
	usleep(o.duration_s * 1e6);
	stop = true;
	t1 = mono_now();
	for (i = 0; i < o.threads; i++) {
		pthread_join(c[i].thread, NULL);
		total += c[i].count;
		if (c[i].err && !err)
			err = c[i].err;
	}
	pthread_barrier_destroy(&start);
	if (err) {
		fprintf(stderr, "mutex_contention: ioctl(SECTION): %s\n", strerror(err));
		return -1;
	}
	/* the sections in flight at t1 end a little later: noise of N in total */
	return total / (t1 - t0);
}

/* --- statistics and output ----------------------------------------------- */

struct series {
	double v[MAX_ROUNDS];
	double mean, sd;
};

/* no libm: the Makefile links none, and this is all we need of it */
static double root(double x)
{
	double r = x > 1 ? x : 1;
	int i;

	if (x <= 0)
		return 0;
	for (i = 0; i < 100; i++)
		r = (r + x / r) / 2;
	return r;
}

static void stats(struct series *s, int n)
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += s->v[i];
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (s->v[i] - s->mean) * (s->v[i] - s->mean);
	s->sd = n > 1 ? root(sq / (n - 1)) : 0;
}

static void print_table(const struct series *mode, const char *kernel)
{
	static const char *const names[2] = { "off", "on" };
	int m, i;

	printf("\nContended kernel mutex, kernel %s\n", kernel);
	printf("%d threads, sections of %llu loops, %.0f s a measurement, %d rounds\n",
	       o.threads, o.loops, o.duration_s, o.rounds);
	printf("Acquisitions per second:\n\n%-10s", FEATURE);
	for (i = 0; i < o.rounds; i++)
		printf(" %9s%-2d", "round ", i + 1);
	printf(" %11s %9s\n", "mean", "stdev");
	for (m = 0; m < 2; m++) {
		printf("%-10s", names[m]);
		for (i = 0; i < o.rounds; i++)
			printf(" %11.0f", mode[m].v[i]);
		printf(" %11.0f %9.0f\n", mode[m].mean, mode[m].sd);
	}
	printf("\non/off ratio of the means: %.3f\n", mode[1].mean / mode[0].mean);
}

static void json_series(FILE *f, const char *name, const struct series *s)
{
	int i;

	fprintf(f, "  \"%s\": {\"acq_per_s\": [", name);
	for (i = 0; i < o.rounds; i++)
		fprintf(f, "%s%.1f", i ? ", " : "", s->v[i]);
	fprintf(f, "], \"mean\": %.1f, \"stdev\": %.1f},\n", s->mean, s->sd);
}

static int write_json(const struct series *mode, const char *kernel)
{
	FILE *f = fopen(o.json, "w");
	const char *c;

	if (!f) {
		perror(o.json);
		return -1;
	}
	fprintf(f, "{\n  \"kernel\": \"");
	for (c = kernel; *c; c++)
		fprintf(f, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
	fprintf(f, "\",\n  \"feature\": \"%s\", \"threads\": %d, \"loops\": %llu, \"duration_s\": %.0f, \"rounds\": %d,\n",
		FEATURE, o.threads, o.loops, o.duration_s, o.rounds);
	json_series(f, "off", &mode[0]);
	json_series(f, "on", &mode[1]);
	fprintf(f, "  \"ratio_on_off\": %.4f\n}\n", mode[1].mean / mode[0].mean);
	return fclose(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct series mode[2];	/* [0] off, [1] on */
	char kernel[2 * sizeof(((struct utsname *)0)->release) + 2];
	struct inv_ctx ctx;
	struct utsname u;
	int r, m, n = 0;
	double t0 = mono_now();

	parse_args(argc, argv);
	feature_saved = sched_feature_state(FEATURE);
	if (feature_saved == -ENOENT) {
		fprintf(stderr, "mutex_contention: this kernel has no sched feature %s (see %s): no proxy execution\n",
			FEATURE, SCHED_FEATURES);
		return 1;
	} else if (feature_saved < 0) {
		fprintf(stderr, "mutex_contention: cannot read %s: %s (debugfs mounted? root?)\n",
			SCHED_FEATURES, strerror(-feature_saved));
		return 1;
	}
	atexit(feature_restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (inv_open(&ctx))
		return 1;
	for (r = 0; r < o.rounds; r++) {
		for (m = 0; m < 2; m++) {
			if (set_sched_feature(FEATURE, m)) {
				fprintf(stderr, "mutex_contention: cannot write %s%s to %s\n",
					m ? "" : "NO_", FEATURE, SCHED_FEATURES);
				return 1;
			}
			mode[m].v[r] = run_once(ctx.fd);
			if (mode[m].v[r] < 0)
				return 1;
			fprintf(stderr, "[%d/%d] %5.0f s  round %d, %s %-3s: %.0f acquisitions/s\n",
				++n, 2 * o.rounds, mono_now() - t0, r + 1, FEATURE,
				m ? "on" : "off", mode[m].v[r]);
		}
	}
	feature_restore();
	inv_close(&ctx);
	stats(&mode[0], o.rounds);
	stats(&mode[1], o.rounds);
	uname(&u);
	snprintf(kernel, sizeof(kernel), "%s %s", u.release, u.version);
	print_table(mode, kernel);
	if (o.json && write_json(mode, kernel)) {
		fprintf(stderr, "mutex_contention: cannot write %s\n", o.json);
		return 1;
	}
	return 0;
}
