// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
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

#include "clock.h"
#include "cpu_share.h"
#include "dl_token.h"
#include "inversion.h"
#include "kmod.h"
#include "spin_pause.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

const char *const inv_scenario_names[INV_NR_SCENARIOS] = {
	[INV_FIFO] = "fifo", [INV_DL] = "dl", [INV_REMOTE] = "remote",
	[INV_SLEEP] = "sleep", [INV_CHAIN] = "chain", [INV_FREE] = "free",
	[INV_TOKEN] = "token",
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
	int token_fd;		/* >= 0: SCHED_DEADLINE from this token */
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
		if (r->token_fd >= 0) {
			r->what = "SCHED_DL_TOKEN_GIVE to itself";
			return dl_token_give(r->token_fd, 0) ? errno : 0;
		}
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
 * The M hogs, and the gate that makes every sample an inversion. Spinning
 * all along, hogs leave the owner only RT throttling's and the fair
 * server's 50 ms a second to take the mutex in; a section taken early in
 * that window ends in it, and a waiter that RT throttling does not stop
 * meets no inversion at all. So between iterations the hogs are parked:
 * the owner takes the mutex on its CPU, free, and the hogs come back a
 * quarter section later, while it holds the mutex, as medium-importance
 * tasks that wake up would. They park again once the waiter has the
 * mutex, so that the owner, back to its low importance, can finish the
 * iteration without waiting for RT throttling.
 *
 * The last hog to park keeps the gate: told to open it, it sleeps that
 * quarter section on INV_CPU and lets the others go, so that nothing on
 * another CPU (a waiter spinning on the owner there) holds the hogs back.
 */
struct hog_gang {
	pthread_t thread[INV_MAX_HOGS];
	int n;			/* threads started */
	uint64_t pause_ns;	/* the gate opens so long after it is told */
	bool parked_all;	/* the caller's view: all parked */
	bool long_iteration;	/* the last one may have ended in a window */
	volatile bool stop;
	unsigned int round;	/* bumped to have the hogs park; atomic */
	int parked;		/* hogs parked this round; atomic */
	unsigned int gate;	/* bumped to let the parked hogs go; futex */
	sem_t all_parked;	/* posted by the gate keeper */
	sem_t open;		/* the gate keeper waits here */
};

static void timespec_add_ns(struct timespec *t, uint64_t ns)
{
	ns += t->tv_nsec;
	t->tv_sec += ns / 1000000000;
	t->tv_nsec = ns % 1000000000;
}

/*
 * A generation, not a semaphore: a FIFO hog woken by a post runs only
 * when the one before it blocks, and would find its token taken by that
 * one parking again.
 */
static void wait_at_gate(struct hog_gang *h, unsigned int gen)
{
	while (__atomic_load_n(&h->gate, __ATOMIC_ACQUIRE) == gen && !h->stop)
		syscall(SYS_futex, &h->gate, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
}

static void release_parked(struct hog_gang *h)
{
	__atomic_add_fetch(&h->gate, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &h->gate, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* The last hog parked: when told, wait pause_ns and let every hog go. */
static void keep_gate(struct hog_gang *h)
{
	struct timespec until;

	sem_post(&h->all_parked);
	sem_wait_intr(&h->open);
	if (h->stop)
		return;
	clock_gettime(CLOCK_MONOTONIC, &until);
	timespec_add_ns(&until, h->pause_ns);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	__atomic_store_n(&h->parked, 0, __ATOMIC_RELEASE);
	release_parked(h);
}

/*
 * Not cpu_share's hog_start(): that waits for each hog to run after it
 * became SCHED_FIFO, and a second SCHED_FIFO hog of one priority never
 * runs while the first spins. Here pthread_create() pins the thread and
 * sets its policy before it first runs, so nothing waits on it. FIFO hogs
 * of one priority park one after the other: each one runs when the one
 * before it has parked.
 */
static void *inv_hog_main(void *arg)
{
	struct hog_gang *h = arg;
	unsigned int seen = 0, gen, spins = 0;

	while (!h->stop) {
		if (__atomic_load_n(&h->round, __ATOMIC_ACQUIRE) == seen) {
			if (!(++spins % INV_HOG_LOOPS_PER_PAUSE))
				spin_pause();
			continue;
		}
		seen++;
		gen = __atomic_load_n(&h->gate, __ATOMIC_ACQUIRE);
		if (__atomic_add_fetch(&h->parked, 1, __ATOMIC_ACQ_REL) == h->n)
			keep_gate(h);
		else
			wait_at_gate(h, gen);
	}
	return NULL;
}

/* Stop the hogs, parked or not. */
static void stop_hogs(struct hog_gang *h)
{
	int i;

	h->stop = true;
	release_parked(h);
	for (i = 0; i < h->n; i++)
		sem_post(&h->open);
	for (i = 0; i < h->n; i++)
		pthread_join(h->thread[i], NULL);
	sem_destroy(&h->all_parked);
	sem_destroy(&h->open);
	h->n = 0;
}

/* Park every hog, if they are not; -1 if they did not within 10 s. */
static int park_hogs(struct hog_gang *h)
{
	struct timespec deadline;

	if (!h->n || h->parked_all)
		return 0;
	__atomic_add_fetch(&h->round, 1, __ATOMIC_RELEASE);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 10;
	while (sem_timedwait(&h->all_parked, &deadline)) {
		if (errno == EINTR)
			continue;
		fprintf(stderr, "inversion: %d of %d hogs parked in 10 s\n",
			__atomic_load_n(&h->parked, __ATOMIC_ACQUIRE), h->n);
		return -1;
	}
	h->parked_all = true;
	return 0;
}

/* Let the parked hogs go @pause_us from now. */
static void open_gate(struct hog_gang *h, unsigned int pause_us)
{
	if (!h->n)
		return;
	h->pause_ns = pause_us * 1000ull;
	h->parked_all = false;
	sem_post(&h->open);
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
static int start_hogs(struct hog_gang *h, const struct inv_point *p)
{
	pthread_attr_t attr;
	int err = 0;

	memset(h, 0, sizeof(*h));
	sem_init(&h->all_parked, 0, 0);
	sem_init(&h->open, 0, 0);
	if (hog_attr(&attr, p->hogs)) {
		fprintf(stderr, "inversion: hog thread attributes\n");
		stop_hogs(h);
		return -1;
	}
	for (; h->n < p->m && !err; h->n += !err) {
		err = pthread_create(&h->thread[h->n], &attr, inv_hog_main, h);
		if (err)
			fprintf(stderr, "inversion: cannot start hog %d (%s): %s\n",
				h->n, inv_hogs_names[p->hogs], strerror(err));
	}
	pthread_attr_destroy(&attr);
	/* parked while the roles start: on INV_CPU, they must run */
	if (!err && !park_hogs(h))
		return 0;
	stop_hogs(h);
	return -1;
}

/*
 * One iteration: every role gets "go" with the same @after, and the
 * module's wait_locked orders them (the owner first, then whoever blocks
 * on it; the waiter is the last role). The hogs @h are parked until the
 * owner has had a quarter section to take its mutex, and again from when
 * the waiter has it. Returns 0 and ctx->seq advanced, or -1.
 */
static int iterate(struct inv_ctx *ctx, struct role **roles, int n,
		   struct hog_gang *h)
{
	struct timespec deadline;
	int i;

	if (park_hogs(h))
		return -1;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += (time_t)ctx->timeout_s;
	for (i = 0; i < n; i++) {
		roles[i]->req.after = ctx->seq;
		sem_post(&roles[i]->go);
	}
	open_gate(h, ctx->c_us / 4);
	if (role_wait(roles[n - 1], &deadline, ctx->timeout_s) || park_hogs(h))
		return -1;
	for (i = 0; i < n; i++) {
		if (i < n - 1 && role_wait(roles[i], &deadline, ctx->timeout_s))
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

/*
 * Hogs that held the owner off until RT throttling or the fair server let
 * it run leave a window of up to 5% of the 1 s period (50 ms) in which
 * the RT class of INV_CPU is throttled, or the fair server runs CFS tasks
 * above it. An iteration started there measures nothing: the owner runs
 * its section alone, above its waiter and the hogs. So after a long
 * iteration (RT throttling's window, and some) the next one waits for
 * the window to end.
 */
#define HOG_WINDOW_SETTLE_US	100000

static void role_init(struct role *r, const char *name, struct inv_ctx *ctx,
		      unsigned long cmd, int mutex)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->fd = ctx->fd;
	r->cmd = cmd;
	r->req.mutex = mutex;
	r->req.outer = INVERSION_NO_OUTER;
	r->token_fd = -1;
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
	if (p->scenario == INV_DL || p->scenario == INV_TOKEN) {
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
 * A SCHED_DEADLINE waiter's reservation is for one activation a period:
 * start its iterations a period apart, as a periodic task would come.
 * Back to back, a waiter that spins on the owner in mutex_lock() spends
 * the period's runtime in a few iterations and is throttled to the next.
 *
 * An iteration can end late: without proxy execution the waiter waits
 * for its owner up to a second. Its activation then ran late too, so
 * the next one waits a full period from now: on what a late activation
 * left of the runtime, a waiter runs out of it halfway and waits for its
 * next period, a slow sample that is not the mutex's.
 */
static void pace(struct timespec *next, const struct role *waiter)
{
	struct timespec now;

	if (waiter->policy != SCHED_DEADLINE)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec ||
	    (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec)) {
		*next = now;
		timespec_add_ns(next, waiter->dl_period_ns);
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
	timespec_add_ns(next, waiter->dl_period_ns);
}

/*
 * One iteration when its time has come: at @next for a DEADLINE waiter,
 * and after the hog window that a long iteration before it ended in.
 */
static int timed_iteration(struct inv_ctx *ctx, struct role **roles, int n,
			   struct hog_gang *h, struct timespec *next)
{
	double t0;

	if (h->long_iteration)
		usleep(HOG_WINDOW_SETTLE_US);
	pace(next, roles[n - 1]);
	t0 = mono_now();
	if (iterate(ctx, roles, n, h))
		return -1;
	h->long_iteration = h->n && mono_now() - t0 > HOG_WINDOW_SETTLE_US / 1e6;
	return 0;
}

/*
 * One line per sample in the trace when the guest traces (tracefs mounted,
 * tools/guest-trace): the slow samples can then be found in the trace.
 * Without tracefs the file is not there and nothing is written. Opened
 * once, on the first sample, and left open for the process.
 */
static void mark_sample(const struct inv_point *p, int i,
			const struct role *waiter, const struct role *owner)
{
	static int fd = -2;
	char line[160];
	int len;

	if (fd == -2)
		fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line),
		       "inversion: %s hogs=%s m=%d sample %d wait_us=%.0f late_us=%.0f own_us=%.0f\n",
		       inv_scenario_names[p->scenario], inv_hogs_names[p->hogs],
		       p->m, i,
		       waiter->out.wait_ns / 1e3, waiter->out.late_ns / 1e3,
		       (owner->out.hold_ns - owner->out.queued_ns) / 1e3);
	if (write(fd, line, len) < 0)
		return;	/* tracing off or buffer full: the sample still counts */
}

int inv_run(struct inv_ctx *ctx, struct inv_point *p)
{
	struct role owner, middle, waiter;
	struct role *roles[3];
	static struct hog_gang hogs;
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
	if (p->scenario == INV_TOKEN) {
		/* the waiter takes it as it starts: nobody holds a new token */
		waiter.token_fd = dl_token_create(waiter.dl_runtime_ns,
						  waiter.dl_period_ns,
						  waiter.dl_period_ns, 0);
		if (waiter.token_fd < 0) {
			fprintf(stderr, "inversion: %s: %s\n", DL_TOKEN_DEV,
				strerror(errno));
			goto out_pin;
		}
	}
	/* the middle task must hold A before the owner starts, see above */
	if (chain)
		roles[nroles++] = &middle;
	roles[nroles++] = &owner;
	roles[nroles++] = &waiter;
	if (start_hogs(&hogs, p))
		goto out_pin;
	for (; started < nroles; started++)
		if (role_start(roles[started]))
			goto out;
	clock_gettime(CLOCK_MONOTONIC, &next);
	/* a first iteration, not counted: threads and caches warm up */
	if (timed_iteration(ctx, roles, nroles, &hogs, &next))
		return -1;	/* a thread may be stuck: the caller exits */
	p->uncontended = 0;
	for (i = 0; i < p->n; i++) {
		if (timed_iteration(ctx, roles, nroles, &hogs, &next))
			return -1;
		p->block_us[i] = waiter.out.wait_ns / 1e3;
		if (p->late_us)
			p->late_us[i] = waiter.out.late_ns / 1e3;
		if (p->own_us)
			p->own_us[i] = (owner.out.hold_ns -
					owner.out.queued_ns) / 1e3;
		p->uncontended += !waiter.out.contended;
		mark_sample(p, i, &waiter, &owner);
	}
	ret = 0;
out:
	while (started--)
		role_stop(roles[started]);
	stop_hogs(&hogs);
	/* the next point's first iteration must not start in the window */
	if (p->m)
		usleep(HOG_WINDOW_SETTLE_US);
out_pin:
	if (waiter.token_fd >= 0)
		close(waiter.token_fd);
	pin(-1);
	return ret;
}
