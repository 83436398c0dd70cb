// SPDX-License-Identifier: GPL-2.0
/*
 * spin_visibility: how long a store on one CPU takes to be seen by a task
 * spinning on it on another CPU, when the storing CPU goes on running a
 * busy loop that pauses (x86 PAUSE) every N turns, or never.
 *
 * On hardware the answer is nanoseconds whatever N. Under QEMU's icount
 * (tools/vm --deterministic) the vCPUs take turns on one host thread and a
 * turn ends at a PAUSE, a HLT or the next virtual timer deadline, so a
 * store is seen when the storing vCPU's turn ends: with N = never, at the
 * next timer interrupt, up to milliseconds. That is the mechanism behind
 * the README's "spin overrun": a mutex waiter spinning in the kernel
 * (mutex_spin_on_owner() pauses every turn) saw its owner's preemption by
 * a hog that never paused only at its next tick; the instrument's hogs now
 * pause every INV_HOG_LOOPS_PER_PAUSE turns (guest/lib/inversion.h).
 *
 * The storer runs on CPU 0, the spinner on CPU 1 (both pinned, default
 * policy). Per sample the storer busy-waits 0.1 to 3.1 ms (a fixed
 * pseudo-random sequence), takes the time, stores the sample's number and
 * loops until the spinner, which takes the time when it sees the number,
 * acknowledges it. The table gives the delay's percentiles per N.
 *
 *   spin_visibility [-n SAMPLES] [-p N[,N...]]     (N = 0: never pause)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "clock.h"
#include "inversion.h"
#include "spin_pause.h"

#define PROG		"spin_visibility"
#define MAX_SAMPLES	10000
#define MAX_POINTS	16
#define STORER_CPU	0
#define SPINNER_CPU	1

static struct opts {
	int samples;
	long long every[MAX_POINTS];	/* loops per pause; 0: never */
	int points;
} o = {
	.samples = 200,
	.every = { 0, INV_HOG_LOOPS_PER_PAUSE },
	.points = 2,
};

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: " PROG " [options]\n"
		"  -n, --samples N      stores timed per point (default %d)\n"
		"  -p, --pause-every N[,N...]\n"
		"                       the storer's loop pauses once in each N turns,\n"
		"                       0 never; one table row each (default 0,%d)\n",
		o.samples, INV_HOG_LOOPS_PER_PAUSE);
	exit(status);
}

static void parse_every(const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;

	if (!copy) {
		perror(PROG);
		exit(1);
	}
	o.points = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o.points == MAX_POINTS) {
			fprintf(stderr, PROG ": --pause-every: at most %d values\n",
				MAX_POINTS);
			exit(2);
		}
		o.every[o.points++] = arg_int(PROG, "--pause-every", tok, 0, 1LL << 40);
	}
	free(copy);
	if (!o.points) {
		fprintf(stderr, PROG ": --pause-every: expected N[,N...], got '%s'\n",
			list);
		exit(2);
	}
}

static void parse_args(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "samples", required_argument, NULL, 'n' },
		{ "pause-every", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "n:p:h", longs, NULL)) != -1) {
		switch (opt) {
		case 'n':
			o.samples = arg_int(PROG, "--samples", optarg, 1, MAX_SAMPLES);
			break;
		case 'p':
			parse_every(optarg);
			break;
		case 'h':
			usage(0);
		default:
			usage(2);
		}
	}
	args_none_left(PROG, optind, argc, argv);
}

/* --- one point ----------------------------------------------------------- */

struct point {
	long long every;
	int n;
	long seq;			/* written by the storer; atomic */
	long ack;			/* written by the spinner; atomic */
	int64_t *stored_ns, *seen_ns;	/* per sample */
};

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/*
 * As mutex_spin_on_owner(): look, pause, look again. Pinned by its
 * creator: a spinner that failed to pin itself and left would leave the
 * storer waiting for its acknowledgement for ever.
 */
static void *spinner_main(void *arg)
{
	struct point *p = arg;
	long i;

	for (i = 1; i <= p->n; i++) {
		while (__atomic_load_n(&p->seq, __ATOMIC_ACQUIRE) != i)
			spin_pause();
		p->seen_ns[i - 1] = mono_ns();
		__atomic_store_n(&p->ack, i, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* The storer: busy, store, then a hog's loop until the spinner saw it. */
static void store_samples(struct point *p)
{
	unsigned int rnd = 1;
	unsigned long long turns;
	int64_t until;
	long i;

	for (i = 1; i <= p->n; i++) {
		rnd = rnd * 1103515245 + 12345;
		until = mono_ns() + 100000 + (rnd >> 16) % 3000 * 1000;
		while (mono_ns() < until)
			;
		p->stored_ns[i - 1] = mono_ns();
		__atomic_store_n(&p->seq, i, __ATOMIC_RELEASE);
		for (turns = 1; __atomic_load_n(&p->ack, __ATOMIC_ACQUIRE) != i; turns++)
			if (p->every && !(turns % p->every))
				spin_pause();
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct_us(const int64_t *sorted, int n, int pct)
{
	int k = (n - 1) * pct / 100;

	return sorted[k] / 1e3;
}

/* Time @p->n stores; 0, or -1 after a message. */
static int run_point(struct point *p)
{
	pthread_attr_t attr;
	pthread_t spinner;
	cpu_set_t set;
	int i, err;

	if ((err = pin(STORER_CPU))) {
		fprintf(stderr, PROG ": pinning the storer to CPU %d: %s\n",
			STORER_CPU, strerror(-err));
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(SPINNER_CPU, &set);
	pthread_attr_init(&attr);
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&spinner, &attr, spinner_main, p);
	pthread_attr_destroy(&attr);
	if (err) {
		fprintf(stderr, PROG ": cannot start the spinner on CPU %d: %s\n",
			SPINNER_CPU, strerror(err));
		return -1;
	}
	store_samples(p);
	pthread_join(spinner, NULL);
	for (i = 0; i < p->n; i++)
		p->seen_ns[i] -= p->stored_ns[i];
	qsort(p->seen_ns, p->n, sizeof(p->seen_ns[0]), cmp_i64);
	return 0;
}

int main(int argc, char **argv)
{
	static int64_t stored[MAX_SAMPLES], seen[MAX_SAMPLES];
	char label[32];
	int i;

	parse_args(argc, argv);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, PROG ": needs two CPUs (storer on %d, spinner on %d)\n",
			STORER_CPU, SPINNER_CPU);
		return 1;
	}
	printf("a store on CPU %d seen by a spinner on CPU %d, %d samples each\n",
	       STORER_CPU, SPINNER_CPU, o.samples);
	printf("%-24s %9s %9s %9s %9s\n", "storer pauses every", "p50 us",
	       "p90 us", "p99 us", "max us");
	for (i = 0; i < o.points; i++) {
		struct point p = {
			.every = o.every[i], .n = o.samples,
			.stored_ns = stored, .seen_ns = seen,
		};

		if (run_point(&p))
			return 1;
		if (p.every)
			snprintf(label, sizeof(label), "%lld turns", p.every);
		else
			snprintf(label, sizeof(label), "never");
		printf("%-24s %9.1f %9.1f %9.1f %9.1f\n", label,
		       pct_us(seen, p.n, 50), pct_us(seen, p.n, 90),
		       pct_us(seen, p.n, 99), pct_us(seen, p.n, 100));
		fflush(stdout);
	}
	return 0;
}
