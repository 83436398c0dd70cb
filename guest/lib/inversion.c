// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpu_share.h"
#include "inversion.h"
#include "kmod.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

const char *const inv_scenario_names[INV_NR_SCENARIOS] = {
	[INV_FIFO] = "fifo", [INV_DL] = "dl", [INV_REMOTE] = "remote",
	[INV_SLEEP] = "sleep", [INV_CHAIN] = "chain", [INV_FREE] = "free",
};
const char *const inv_hogs_names[INV_NR_HOGS] = {
	[INV_HOGS_CFS] = "cfs", [INV_HOGS_FIFO] = "fifo",
};
const char *const inv_owner_names[INV_NR_OWNERS] = {
	[INV_OWNER_NICE19] = "nice19", [INV_OWNER_IDLE] = "idle",
};

/* the mutexes: the owner holds A; in the chain, A -> middle -> B -> owner */
#define MUTEX_A		0
#define MUTEX_B		1

int inv_lookup(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* --- the module -------------------------------------------------------- */

/* FRAMESCHED_INVERSION_KO overrides the search (unchecked) */
static const struct kmod inv_kmod = {
	.tag = "inversion",
	.dir = "inversion",
	.name = INVERSION_MODULE,
	.env = "FRAMESCHED_INVERSION_KO",
};

int inv_open(struct inv_ctx *ctx)
{
	int ret;

	memset(ctx, 0, sizeof(*ctx));
	ctx->timeout_s = 30;
	ctx->fd = open(INVERSION_PATH, O_RDWR | O_CLOEXEC);
	if (ctx->fd < 0 && errno == ENOENT) {
		ret = kmod_load(&inv_kmod);
		if (ret < 0)
			return -1;
		ctx->loaded = !ret;
		ctx->fd = open(INVERSION_PATH, O_RDWR | O_CLOEXEC);
	}
	if (ctx->fd < 0) {
		fprintf(stderr, "inversion: %s: %s (is debugfs mounted?)\n",
			INVERSION_PATH, strerror(errno));
		return -1;
	}
	return 0;
}

void inv_close(struct inv_ctx *ctx)
{
	int err;

	if (ctx->fd >= 0)
		close(ctx->fd);
	ctx->fd = -1;
	if (ctx->loaded && (err = kmod_unload(&inv_kmod)))
		fprintf(stderr, "inversion: unloading " INVERSION_MODULE ": %s\n",
			strerror(-err));
	ctx->loaded = false;
}

/* --- threads ----------------------------------------------------------- */

static int pin(int cpu)
{
	cpu_set_t set;
	long i, n = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	for (i = 0; i < n; i++)
		if (cpu < 0 || cpu == i)
			CPU_SET(i, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* glibc has no sched_setattr() */
struct inv_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

/* One task of the scenario: a thread that runs one request per "go". */
struct role {
	const char *name;
	pthread_t thread;
	int cpu;		/* -1: every CPU */
	int policy;		/* SCHED_OTHER means nice 19 */
	uint64_t dl_runtime_ns, dl_period_ns;
	unsigned long cmd;
	struct inversion_req req;	/* the request; after is set per go */
	struct inversion_req out;	/* its result */
	int fd;
	sem_t go, done;
	volatile bool quit;
	int err;		/* errno of the failed step */
	const char *what;	/* that step */
};

static int role_sched(struct role *r)
{
	struct sched_param sp = { .sched_priority = INV_WAITER_PRIO };
	struct inv_sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = r->dl_runtime_ns,
		.sched_deadline = r->dl_period_ns,
		.sched_period = r->dl_period_ns,
	};

	switch (r->policy) {
	case SCHED_DEADLINE:
		r->what = "sched_setattr(SCHED_DEADLINE)";
		return syscall(SYS_sched_setattr, 0, &attr, 0) ? errno : 0;
	case SCHED_FIFO:
		r->what = "sched_setscheduler(SCHED_FIFO)";
		return sched_setscheduler(0, SCHED_FIFO, &sp) ? errno : 0;
	case SCHED_IDLE:
		sp.sched_priority = 0;
		r->what = "sched_setscheduler(SCHED_IDLE)";
		return sched_setscheduler(0, SCHED_IDLE, &sp) ? errno : 0;
	default:
		r->what = "setpriority(19)";
		return setpriority(PRIO_PROCESS, gettid(), 19) ? errno : 0;
	}
}

static void sem_wait_intr(sem_t *s)
{
	while (sem_wait(s) && errno == EINTR)
		;
}

static void *role_main(void *arg)
{
	struct role *r = arg;

	r->what = "sched_setaffinity";
	r->err = -pin(r->cpu);
	if (!r->err)
		r->err = role_sched(r);
	sem_post(&r->done);
	if (r->err)
		return NULL;
	for (;;) {
		sem_wait_intr(&r->go);
		if (r->quit)
			break;
		r->out = r->req;
		if (ioctl(r->fd, r->cmd, &r->out)) {
			r->err = errno;
			r->what = "ioctl";
		}
		sem_post(&r->done);
	}
	return NULL;
}

static int role_start(struct role *r)
{
	sem_init(&r->go, 0, 0);
	sem_init(&r->done, 0, 0);
	if (pthread_create(&r->thread, NULL, role_main, r)) {
		fprintf(stderr, "inversion: cannot create the %s thread\n", r->name);
		return -1;
	}
	sem_wait_intr(&r->done);
	if (r->err) {
		fprintf(stderr, "inversion: %s thread: %s: %s\n", r->name,
			r->what, strerror(r->err));
		pthread_join(r->thread, NULL);
		return -1;
	}
	return 0;
}

static void role_stop(struct role *r)
{
	r->quit = true;
	sem_post(&r->go);
	pthread_join(r->thread, NULL);
}

/* Wait for @r's request; -1 on timeout or error (message on stderr). */
static int role_wait(struct role *r, const struct timespec *deadline,
		     double timeout_s)
{
	while (sem_timedwait(&r->done, deadline)) {
		if (errno == EINTR)
			continue;
		fprintf(stderr, "inversion: the %s did not finish its request within %.0f s\n",
			r->name, timeout_s);
		return -1;
	}
	if (r->err) {
		fprintf(stderr, "inversion: %s: %s: %s\n", r->name, r->what,
			strerror(r->err));
		return -1;
	}
	return 0;
}

/*
 * One iteration: every role gets "go" with the same @after, and the
 * module's wait_locked orders them (the owner first, then whoever blocks
 * on it). Returns 0 and ctx->seq advanced, or -1.
 */
static int iterate(struct inv_ctx *ctx, struct role **roles, int n)
{
	struct timespec deadline;
	int i;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += (time_t)ctx->timeout_s;
	for (i = 0; i < n; i++) {
		roles[i]->req.after = ctx->seq;
		sem_post(&roles[i]->go);
	}
	for (i = 0; i < n; i++) {
		if (role_wait(roles[i], &deadline, ctx->timeout_s))
			return -1;
		if (roles[i]->out.seq > ctx->seq)
			ctx->seq = roles[i]->out.seq;
	}
	return 0;
}

/* --- calibration ------------------------------------------------------- */

#define CALIB_RUNS	5

static int section_ns(struct inv_ctx *ctx, unsigned long long loops,
		      double *ns)
{
	struct inversion_req req = {
		.mutex = MUTEX_A,
		.outer = INVERSION_NO_OUTER,
		.loops = loops,
	};

	if (ioctl(ctx->fd, INVERSION_IOC_SECTION, &req)) {
		fprintf(stderr, "inversion: calibration section: %s\n",
			strerror(errno));
		return -1;
	}
	ctx->seq = req.seq;
	*ns = req.hold_ns;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double inv_percentile(const double *v, int n, double pct)
{
	double *s, r;
	int k;

	if (n <= 0)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		abort();
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	k = (int)(pct / 100 * n + 0.999999) - 1;
	r = s[k < 0 ? 0 : k >= n ? n - 1 : k];
	free(s);
	return r;
}

/* The median of CALIB_RUNS sections of @loops: the uncontended C, in us. */
static int median_us(struct inv_ctx *ctx, unsigned long long loops, double *us)
{
	double runs[CALIB_RUNS];
	int i;

	for (i = 0; i < CALIB_RUNS; i++)
		if (section_ns(ctx, loops, &runs[i]))
			return -1;
	*us = inv_percentile(runs, CALIB_RUNS, 50) / 1e3;
	return 0;
}

static unsigned long long scale(unsigned long long loops, double from,
				double to)
{
	double v = loops * to / from;

	return v < 1 ? 1 : v > INVERSION_MAX_LOOPS ? INVERSION_MAX_LOOPS : v;
}

int inv_calibrate(struct inv_ctx *ctx, double target_us)
{
	unsigned long long loops = 1024;
	double us = 0;
	int ret = -1;

	/* on the owner's CPU, which nothing else uses yet */
	if (pin(INV_CPU)) {
		fprintf(stderr, "inversion: cannot run on CPU %d (needs 2 CPUs)\n",
			INV_CPU);
		return -1;
	}
	/* grow the section until it is long enough to time */
	for (;;) {
		if (median_us(ctx, loops, &us))
			goto out;
		if (us >= 20e3 || us >= 4 * target_us ||
		    loops >= INVERSION_MAX_LOOPS / 2)
			break;
		loops *= 2;
	}
	/* twice: TCG's speed is not quite linear in the loop count */
	loops = scale(loops, us, target_us);
	if (median_us(ctx, loops, &us))
		goto out;
	ctx->loops = scale(loops, us, target_us);
	ret = median_us(ctx, ctx->loops, &ctx->c_us);
out:
	pin(-1);
	return ret;
}

/* --- one point --------------------------------------------------------- */

/* 5% of the default 1 s RT period, and some */
#define RT_THROTTLE_SETTLE_US	100000

static void role_init(struct role *r, const char *name, struct inv_ctx *ctx,
		      unsigned long cmd, int mutex)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->fd = ctx->fd;
	r->cmd = cmd;
	r->req.mutex = mutex;
	r->req.outer = INVERSION_NO_OUTER;
}

/*
 * The tasks of a scenario. The owner (and the middle task of the chain)
 * has the low importance; the waiter blocks on mutex A once it is held.
 * In the chain, the middle takes A, then blocks on B, which the owner
 * takes once A is taken: the waiter starts when both are held.
 */
static int setup_roles(struct inv_ctx *ctx, const struct inv_point *p,
		       struct role *owner, struct role *middle,
		       struct role *waiter)
{
	int low = ctx->owner == INV_OWNER_IDLE ? SCHED_IDLE : SCHED_OTHER;
	bool chain = p->scenario == INV_CHAIN;
	/*
	 * The DEADLINE waiter's reservation: the section fits four times.
	 * It lends its runtime to the owner, and under TCG a section of C
	 * takes up to about 2.4C (a slower vCPU, see inv_point::own_us):
	 * with room for only two, one sample in a few ran out of runtime
	 * and waited for the next period, 20 sections. The runtime still
	 * bounds what the owner gets (tests/guest/proxy_dl_budget.c).
	 */
	uint64_t c_ns = ctx->c_us * 1e3;

	role_init(owner, "owner", ctx, INVERSION_IOC_SECTION,
		  chain ? MUTEX_B : MUTEX_A);
	owner->cpu = INV_CPU;
	owner->policy = low;
	owner->req.loops = ctx->loops;
	if (p->scenario == INV_SLEEP)
		owner->req.sleep_us = ctx->sleep_us;
	if (chain)
		owner->req.wait_locked = 1u << MUTEX_A;

	role_init(middle, "middle task", ctx, INVERSION_IOC_SECTION, MUTEX_B);
	middle->cpu = INV_CPU;
	middle->policy = low;
	middle->req.outer = MUTEX_A;
	middle->req.wait_locked = 1u << MUTEX_B;

	role_init(waiter, "waiter", ctx, INVERSION_IOC_LOCK, MUTEX_A);
	waiter->cpu = p->scenario == INV_REMOTE ? INV_OTHER_CPU : INV_CPU;
	waiter->policy = SCHED_FIFO;
	waiter->req.wait_locked = 1u << MUTEX_A | (chain ? 1u << MUTEX_B : 0);
	if (p->scenario == INV_FREE)
		owner->cpu = waiter->cpu = -1;
	if (p->scenario == INV_DL) {
		waiter->cpu = -1;
		waiter->policy = SCHED_DEADLINE;
		waiter->dl_runtime_ns = 4 * c_ns + 500000;
		waiter->dl_period_ns = 20 * c_ns;
		if (waiter->dl_period_ns < 4 * waiter->dl_runtime_ns)
			waiter->dl_period_ns = 4 * waiter->dl_runtime_ns;
	}
	return chain;
}

/*
 * Stop @n hogs. SCHED_FIFO hogs of one priority run one after the other:
 * each one sees @stop when the one before it has ended.
 */
static void stop_hogs(pthread_t *hogs, volatile bool *stop, int n)
{
	int i;

	*stop = true;
	for (i = 0; i < n; i++)
		pthread_join(hogs[i], NULL);
}

/*
 * The M hogs. Not cpu_share's hog_start(): that waits for each hog to run
 * after it became SCHED_FIFO, and a second SCHED_FIFO hog of one priority
 * never runs while the first spins. Here pthread_create() pins the thread
 * and sets its policy before it first runs, so nothing waits on it.
 */
static void *inv_hog_main(void *arg)
{
	volatile bool *stop = arg;

	while (!*stop)
		;
	return NULL;
}

static int hog_attr(pthread_attr_t *attr, enum inv_hogs hogs)
{
	struct sched_param sp = {
		.sched_priority = hogs == INV_HOGS_FIFO ? INV_HOG_PRIO : 0,
	};
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(INV_CPU, &set);
	return pthread_attr_init(attr) ||
	       pthread_attr_setaffinity_np(attr, sizeof(set), &set) ||
	       pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED) ||
	       pthread_attr_setschedpolicy(attr, hogs == INV_HOGS_FIFO ?
					   SCHED_FIFO : SCHED_OTHER) ||
	       pthread_attr_setschedparam(attr, &sp);
}

/* Start @p->m hogs on INV_CPU; 0, or -1 with none left running. */
static int start_hogs(pthread_t *hogs, volatile bool *stop,
		      const struct inv_point *p)
{
	pthread_attr_t attr;
	int i, err = 0;

	*stop = false;
	if (hog_attr(&attr, p->hogs)) {
		fprintf(stderr, "inversion: hog thread attributes\n");
		return -1;
	}
	for (i = 0; i < p->m && !err; i++) {
		err = pthread_create(&hogs[i], &attr, inv_hog_main, (void *)stop);
		if (err)
			fprintf(stderr, "inversion: cannot start hog %d (%s): %s\n",
				i, inv_hogs_names[p->hogs], strerror(err));
	}
	pthread_attr_destroy(&attr);
	if (!err)
		return 0;
	stop_hogs(hogs, stop, i - 1);
	return -1;
}

/*
 * A SCHED_DEADLINE waiter's reservation is for one activation a period:
 * start its iterations a period apart, as a periodic task would come.
 * Back to back, a waiter that spins on the owner in mutex_lock() spends
 * the period's runtime in a few iterations and is throttled to the next.
 */
static int pace(struct timespec *next, const struct role *waiter)
{
	uint64_t ns;

	if (waiter->policy != SCHED_DEADLINE)
		return 0;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
	ns = next->tv_nsec + waiter->dl_period_ns;
	next->tv_sec += ns / 1000000000;
	next->tv_nsec = ns % 1000000000;
	return 0;
}

int inv_run(struct inv_ctx *ctx, struct inv_point *p)
{
	struct role owner, middle, waiter;
	struct role *roles[3];
	pthread_t hogs[INV_MAX_HOGS];
	static volatile bool hogs_stop;
	struct timespec next;
	int nroles = 0, started = 0, i, ret = -1;
	bool chain;

	if (p->m < 0 || p->m > INV_MAX_HOGS || p->n < 1)
		return -1;
	if (pin(INV_OTHER_CPU)) {
		fprintf(stderr, "inversion: cannot run on CPU %d\n", INV_OTHER_CPU);
		return -1;
	}
	chain = setup_roles(ctx, p, &owner, &middle, &waiter);
	/* the middle task must hold A before the owner starts, see above */
	if (chain)
		roles[nroles++] = &middle;
	roles[nroles++] = &owner;
	roles[nroles++] = &waiter;
	if (start_hogs(hogs, &hogs_stop, p))
		goto out_pin;
	for (; started < nroles; started++)
		if (role_start(roles[started]))
			goto out;
	clock_gettime(CLOCK_MONOTONIC, &next);
	/* a first iteration, not counted: threads and caches warm up */
	if (pace(&next, &waiter) || iterate(ctx, roles, nroles))
		return -1;	/* a thread may be stuck: the caller exits */
	p->uncontended = 0;
	for (i = 0; i < p->n; i++) {
		if (pace(&next, &waiter) || iterate(ctx, roles, nroles))
			return -1;
		p->block_us[i] = waiter.out.wait_ns / 1e3;
		if (p->late_us)
			p->late_us[i] = waiter.out.late_ns / 1e3;
		if (p->own_us)
			p->own_us[i] = (owner.out.hold_ns -
					owner.out.queued_ns) / 1e3;
		p->uncontended += !waiter.out.contended;
	}
	ret = 0;
out:
	while (started--)
		role_stop(roles[started]);
	stop_hogs(hogs, &hogs_stop, p->m);
	/*
	 * SCHED_FIFO hogs leave INV_CPU's RT class throttled for up to the
	 * rest of the RT period (5% of it): let that pass before the next
	 * point's SCHED_FIFO waiter comes.
	 */
	if (p->hogs == INV_HOGS_FIFO && p->m)
		usleep(RT_THROTTLE_SETTLE_US);
out_pin:
	pin(-1);
	return ret;
}
