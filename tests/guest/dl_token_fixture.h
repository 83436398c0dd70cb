/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dl_token_fixture.h - what the SCHED_DEADLINE token tests share: a helper
 * thread that passes tokens when told, a thread's policy, how many tokens
 * the root domain admits, and the deadline runqueues' bandwidth sums.
 */
#ifndef FRAMESCHED_DL_TOKEN_FIXTURE_H
#define FRAMESCHED_DL_TOKEN_FIXTURE_H

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "dl_token.h"
#include "sched_attr.h"

#define MS		1000000ULL
#define SCHED_OTHER_	0
#define SCHED_DEADLINE_	6

static inline pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static inline double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * A thread of this process that does what it is told, one step at a time.
 * A SCHED_DEADLINE thread cannot create threads (EAGAIN): a holder asks a
 * helper to.
 */
enum step {
	STEP_NONE, STEP_GIVE_BACK, STEP_TAKE, STEP_GIVE_UP, STEP_SWAP,
	STEP_SPIN_UNTIL_THROTTLED, STEP_SPAWN_EXITING, STEP_JOIN, STEP_QUIT,
};

struct helper {
	pthread_t thread;
	pid_t tid;
	int nice;
	sem_t go, done;
	enum step step;
	int fd;			/* token, for the steps that pass one */
	int other_fd;		/* the token to swap with, for STEP_SWAP */
	pid_t to;		/* receiver, for STEP_GIVE_BACK */
	int ret, err;		/* of the last step */
	double cpu_ms;		/* STEP_SPIN_UNTIL_THROTTLED: CPU time run */
	pthread_t spawned;	/* STEP_SPAWN_EXITING: the thread, */
	pid_t spawned_tid;	/* its ID */
};

static pid_t exiting_tid;

/* Say who it is, then exit within 0-255 us: a pass may meet any stage. */
static inline void *exit_at_once(void *arg)
{
	double t0 = mono_now(), wait = (random() & 255) * 1e-6;

	(void)arg;
	__atomic_store_n(&exiting_tid, gettid_(), __ATOMIC_RELEASE);
	while (mono_now() - t0 < wait)
		;
	return NULL;
}

/*
 * Spin until a gap of more than 200 ms in CLOCK_MONOTONIC (throttled until
 * the next period, far longer; a vCPU the host preempts under TCG loses
 * tens of ms) or 400 ms of CPU time: the CPU time run before the gap.
 */
static inline double spin_until_throttled(void)
{
	double start = thread_cpu_ms(), last = mono_now();

	while (thread_cpu_ms() - start < 400) {
		double now = mono_now();

		if (now - last > 0.200)
			break;
		last = now;
	}
	return thread_cpu_ms() - start;
}

static inline void *helper_main(void *arg)
{
	struct helper *h = arg;

	h->tid = gettid_();
	setpriority(PRIO_PROCESS, h->tid, h->nice);
	sem_post(&h->done);
	for (;;) {
		sem_wait(&h->go);
		h->ret = 0;
		h->err = 0;
		switch (h->step) {
		case STEP_GIVE_BACK:
			h->ret = dl_token_give(h->fd, h->to);
			h->err = errno;
			break;
		case STEP_TAKE:
			h->ret = dl_token_give(h->fd, 0);
			h->err = errno;
			break;
		case STEP_GIVE_UP:
			h->ret = dl_token_give_up(h->fd);
			h->err = errno;
			break;
		case STEP_SWAP:
			h->ret = dl_token_swap(h->fd, h->other_fd);
			h->err = errno;
			break;
		case STEP_SPIN_UNTIL_THROTTLED:
			h->cpu_ms = spin_until_throttled();
			break;
		case STEP_SPAWN_EXITING:
			exiting_tid = 0;
			h->ret = pthread_create(&h->spawned, NULL, exit_at_once, NULL);
			while (!h->ret &&
			       !(h->spawned_tid = __atomic_load_n(&exiting_tid,
								  __ATOMIC_ACQUIRE)))
				;
			break;
		case STEP_JOIN:
			pthread_join(h->spawned, NULL);
			break;
		case STEP_QUIT:
			sem_post(&h->done);
			return NULL;
		default:
			break;
		}
		sem_post(&h->done);
	}
}

static inline void helper_start(struct helper *h, int nice)
{
	memset(h, 0, sizeof(*h));
	h->nice = nice;
	sem_init(&h->go, 0, 0);
	sem_init(&h->done, 0, 0);
	pthread_create(&h->thread, NULL, helper_main, h);
	sem_wait(&h->done);
}

static inline int helper_do(struct helper *h, enum step step)
{
	h->step = step;
	sem_post(&h->go);
	sem_wait(&h->done);
	errno = h->err;
	return h->ret;
}

static inline void helper_stop(struct helper *h)
{
	helper_do(h, STEP_QUIT);
	pthread_join(h->thread, NULL);
}

static inline int policy_of(pid_t tid, struct sched_attr_v1 *a)
{
	memset(a, 0, sizeof(*a));
	if (sched_attr_get(tid, a))
		return -1;
	return a->sched_policy;
}

/* How many tokens of @pct% the root domain admits now (closed again). */
static inline int tokens_that_fit(int pct)
{
	int fds[256], n, i;

	for (n = 0; n < 256; n++) {
		fds[n] = dl_token_create(pct * MS, 100 * MS, 100 * MS, 0);
		if (fds[n] < 0)
			break;
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	return n;
}

/*
 * A holder's bandwidth leaves the root domain at its 0-lag time, at most
 * a period after close: wait for the count to come back.
 */
static inline int tokens_that_fit_settled(int pct, int expected)
{
	int n = 0, i;

	for (i = 0; i < 20; i++) {
		n = tokens_that_fit(pct);
		if (n == expected)
			break;
		usleep(50000);
	}
	return n;
}

/*
 * How many tokens of @pct% fit in an idle root domain: the default
 * sched_rt_runtime_us / sched_rt_period_us give SCHED_DEADLINE 95% of
 * each CPU. An earlier test's holders leave at their 0-lag time.
 */
static inline int tokens_that_fit_idle(int pct)
{
	int expected = sysconf(_SC_NPROCESSORS_ONLN) * 95 / pct;

	return tokens_that_fit_settled(pct, expected);
}

/* The deadline runqueues' sums (CONFIG_SCHED_DEBUG's debugfs file). */
struct dl_sums {
	long long this_bw, running_bw, running_dens, total_bw;
};

static inline int dl_sums_read(struct dl_sums *s)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	char line[256], name[64];
	long long v;

	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " .%63s : %lld", name, &v) != 2)
			continue;
		if (!strcmp(name, "this_bw"))
			s->this_bw += v;
		else if (!strcmp(name, "running_bw"))
			s->running_bw += v;
		else if (!strcmp(name, "running_dens"))	/* patch 0026 */
			s->running_dens += v;
		else if (!strcmp(name, "dl_bw->total_bw"))
			s->total_bw = v;	/* one root domain */
	}
	fclose(f);
	return 0;
}

/* to_ratio() of kernel/sched/core.c: BW_SHIFT 20 */
static inline long long bw_of(uint64_t runtime, uint64_t period)
{
	return (long long)((runtime << 20) / period);
}

/* The sums once an earlier test's holders have reached their 0-lag time. */
static inline void dl_sums_idle(struct dl_sums *s)
{
	tokens_that_fit_idle(30);
	dl_sums_read(s);
}

#endif
