// SPDX-License-Identifier: GPL-2.0
/*
 * Proxy execution disturbed under load: six threads of mixed policies (two
 * SCHED_FIFO, three CFS, one SCHED_DEADLINE) take and release the mutexes
 * of framesched_inversion.ko in short sections, some nested (chains of up
 * to four mutexes), some sleeping with the mutex held, for RUN_S seconds,
 * while one of two things happens every few milliseconds:
 *
 * - flip_feature: the PROXY_EXEC sched feature is switched on and off. A
 *   waiter kept queued with the feature on must still get its mutex when
 *   it is switched off, and the other way round.
 * - cpu_hotplug: with the feature on, CPUs 1 to 3 in turn go offline and
 *   come back. Blocked donors queued on a dying CPU, proxies running
 *   there and donors parked on a sleeping owner must all be moved off it
 *   and still get their mutex; pinned workers lose their pinning.
 *
 * Asserted: every request succeeded; every thread completed requests in
 * every second of the run; no request took REQ_TIMEOUT_S or more; every
 * disturbance took; the feature and the CPUs end as they were. A thread
 * stuck for good trips the hung-task panic of tools/vm as well; this test
 * says which one, and sooner.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "cpu_share.h"
#include "inversion.h"
#include "clock.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

#define FEATURE		"PROXY_EXEC"
#define RUN_S		10
#define REQ_TIMEOUT_S	10
#define FLIP_MIN_US	1000	/* between flips: 1 to 5 ms */
#define FLIP_SPAN_US	4000
#define PLUG_MIN_US	5000	/* between hotplug steps: 5 to 25 ms */
#define PLUG_SPAN_US	20000
#define PLUG_FIRST_CPU	1	/* CPUs 1..3 go offline in turn, never CPU 0 */
#define PLUG_CPUS	3
#define PAUSE_US	500	/* between a thread's requests: 0 to 0.5 ms */
#define SECTION_US	100	/* one unit of work in a section */

/*
 * Who does what. Mutex i's holders, outer first: 0 -> 1 -> 2 -> 3, so
 * the FIFO chain thread may wait through the CFS sleeper on 1, the
 * DEADLINE thread on 2 and the CFS sleeper on 3. CPUs: the FIFO threads
 * share their CPUs with CFS threads, which they would starve without the
 * pauses between requests.
 */
static const struct spec {
	const char *name;
	int policy;
	int prio;		/* FIFO priority, or nice */
	int cpu;		/* -1: any (DEADLINE must) */
	unsigned int outer, mutex, work, sleep_us;
} specs[] = {
	{ "fifo60 0->1",   SCHED_FIFO,     60,  0, 0, 1, 1, 0 },
	{ "fifo50 1",      SCHED_FIFO,     50,  1, INVERSION_NO_OUTER, 1, 1, 0 },
	{ "cfs 1->2 sleep", SCHED_OTHER,    0,  1, 1, 2, 1, 200 },
	{ "cfs19 0",       SCHED_OTHER,    19,  0, INVERSION_NO_OUTER, 0, 4, 0 },
	{ "dl 2->3",       SCHED_DEADLINE,  0, -1, 2, 3, 1, 0 },
	{ "cfs 3 sleep",   SCHED_OTHER,     0,  2, INVERSION_NO_OUTER, 3, 1, 500 },
};

#define NR_WORKERS	(int)(sizeof(specs) / sizeof(specs[0]))

struct worker {
	const struct spec *s;
	pthread_t thread;
	int fd;
	unsigned long long loops;
	volatile bool *stop;
	volatile bool ready, exited;
	volatile unsigned long done;	/* requests completed */
	volatile double started;	/* the one in flight began; 0: none */
	double max_s;			/* the longest one */
	const char *what;		/* the failed step */
	volatile int err;		/* its errno */
};

static int setup_thread(const struct spec *s)
{
	struct sched_param sp = { .sched_priority = s->prio };
	struct {
		uint32_t size, policy;
		uint64_t flags;
		int32_t nice;
		uint32_t prio;
		uint64_t runtime, deadline, period;
	} attr = {
		.size = sizeof(attr), .policy = SCHED_DEADLINE,
		.runtime = 2000000, .deadline = 10000000, .period = 10000000,
	};
	long i, n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	for (i = 0; i < n; i++)
		if (s->cpu < 0 || s->cpu == i)
			CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return errno;
	switch (s->policy) {
	case SCHED_FIFO:
		return sched_setscheduler(0, SCHED_FIFO, &sp) ? errno : 0;
	case SCHED_DEADLINE:
		return syscall(SYS_sched_setattr, 0, &attr, 0) ? errno : 0;
	default:
		return setpriority(PRIO_PROCESS, gettid(), s->prio) ? errno : 0;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = w->s - specs + 1;
	struct inversion_req r;
	double t;

	w->what = "setting the policy";
	w->err = setup_thread(w->s);
	w->ready = true;
	while (!w->err && !*w->stop) {
		r = (struct inversion_req){
			.mutex = w->s->mutex, .outer = w->s->outer,
			.loops = w->s->work * w->loops,
			.sleep_us = w->s->sleep_us,
		};
		w->started = t = mono_now();
		if (ioctl(w->fd, INVERSION_IOC_SECTION, &r)) {
			w->what = "ioctl(SECTION)";
			w->err = errno;
		}
		t = mono_now() - t;
		w->started = 0;
		if (t > w->max_s)
			w->max_s = t;
		w->done++;
		usleep(rand_r(&seed) % PAUSE_US);
	}
	w->exited = true;
	return NULL;
}

FIXTURE(proxy_switch) {
	struct inv_ctx ctx;
	int saved;		/* PROXY_EXEC before the test */
	pid_t pid;		/* the test's process, which opened ctx */
};

/* what disturbs the workers */
FIXTURE_VARIANT(proxy_switch) {
	bool hotplug;	/* CPUs go offline and online, PROXY_EXEC on */
};

FIXTURE_VARIANT_ADD(proxy_switch, flip_feature) {
	.hotplug = false,
};

FIXTURE_VARIANT_ADD(proxy_switch, cpu_hotplug) {
	.hotplug = true,
};

FIXTURE_SETUP(proxy_switch)
{
	self->ctx.fd = -1;
	self->pid = getpid();
	self->saved = sched_feature_state(FEATURE);
	ASSERT_GE(self->saved, 0)
		TH_LOG("%s: %s", SCHED_FEATURES, self->saved != -ENOENT ?
		       strerror(-self->saved) : "no " FEATURE " there: this kernel should have proxy execution (CONFIG_SCHED_PROXY_EXEC)");
	ASSERT_GE(sysconf(_SC_NPROCESSORS_ONLN), variant->hotplug ? 4 : 3)
		TH_LOG("needs %d CPUs or more", variant->hotplug ? 4 : 3);
	ASSERT_EQ(0, inv_open(&self->ctx));
	if (variant->hotplug)
		ASSERT_EQ(0, set_sched_feature(FEATURE, true));
}

/*
 * In the parent, once the test's process is gone: there the feature is
 * restored even after a crash, or after a failed ASSERT whose longjmp()
 * made the harness's child lose track of which process it is (its pid
 * variable is not volatile: it then skips a child's teardown, and comes
 * here itself). In the parent proper, the module's file went with the
 * test's process: only unload the module, if the test loaded it.
 */
FIXTURE_TEARDOWN_PARENT(proxy_switch)
{
	int cpu;

	for (cpu = PLUG_FIRST_CPU; variant->hotplug && cpu < PLUG_FIRST_CPU + PLUG_CPUS; cpu++)
		if (set_cpu_online(cpu, true))
			TH_LOG("could not bring CPU %d back online", cpu);
	if (self->saved >= 0 && set_sched_feature(FEATURE, self->saved))
		TH_LOG("could not restore %s", FEATURE);
	if (getpid() != self->pid)
		self->ctx.fd = -1;
	inv_close(&self->ctx);
}

/* what the run saw */
struct verdict {
	int steps, step_errors;		/* disturbances, failed ones */
	int step_errno;			/* the first failure's */
	int stall_worker, stall_second;	/* the first second without progress */
	int late_worker;		/* a request over REQ_TIMEOUT_S */
	double late_s;
};

/*
 * One disturbance, step number ++v->steps: flip the feature, or take the
 * next CPU offline or bring it back; the first failure's errno is kept in
 * @v. Returns how long to wait before the next one, us.
 */
static unsigned int disturb(bool hotplug, unsigned int *seed,
			    struct verdict *v)
{
	int step = ++v->steps, cpu, ret;
	unsigned int pause_us;

	if (!hotplug) {
		pause_us = FLIP_MIN_US + rand_r(seed) % FLIP_SPAN_US;
		ret = set_sched_feature(FEATURE, !(step & 1));
	} else {
		/* odd steps take CPU 1, 2, 3, 1, ... down, even ones bring it back */
		cpu = PLUG_FIRST_CPU + ((step - 1) / 2) % PLUG_CPUS;
		pause_us = PLUG_MIN_US + rand_r(seed) % PLUG_SPAN_US;
		ret = set_cpu_online(cpu, !(step & 1));
	}
	if (ret && !v->step_errors++)
		v->step_errno = -ret;
	return pause_us;
}

/*
 * Disturb for RUN_S seconds; at each second, check that every worker
 * completed a request since the last check. A check window is at least a
 * second (a hotplug step may take longer than that under TCG). Stop at
 * the first failure; end with every CPU online.
 */
static void disturb_and_watch(struct worker *w, bool hotplug, struct verdict *v)
{
	unsigned long last[NR_WORKERS];
	double start = mono_now(), next = start + 1, now, t;
	unsigned int seed = 1;
	int i;

	for (i = 0; i < NR_WORKERS; i++)
		last[i] = w[i].done;
	while ((now = mono_now()) < start + RUN_S) {
		usleep(disturb(hotplug, &seed, v));
		for (i = 0; i < NR_WORKERS; i++) {
			t = w[i].started;
			if (w[i].err)
				goto out;
			if (t && now - t >= REQ_TIMEOUT_S) {
				v->late_worker = i;
				v->late_s = now - t;
				goto out;
			}
		}
		if (now < next)
			continue;
		for (i = 0; i < NR_WORKERS; i++) {
			if (w[i].done == last[i] && v->stall_worker < 0) {
				v->stall_worker = i;
				v->stall_second = (int)(next - start);
			}
			last[i] = w[i].done;
		}
		next = now + 1;
	}
out:
	/* an odd number of hotplug steps left a CPU offline */
	while (hotplug && v->steps & 1)
		disturb(hotplug, &seed, v);
}

TEST_F_TIMEOUT(proxy_switch, disturbed_under_load, 120)
{
	struct verdict v = { .stall_worker = -1, .late_worker = -1 };
	struct sched_param sp = { .sched_priority = 90 };
	/* static: on the stack they make gcc fear for the harness's setjmp */
	static struct worker w[NR_WORKERS];
	static volatile bool stop;
	double end;
	int i;

	/* short sections, a unit of SECTION_US */
	ASSERT_EQ(0, inv_calibrate(&self->ctx, SECTION_US));
	TH_LOG("section unit: %.0f us (%llu loops)", self->ctx.c_us, self->ctx.loops);
	/* the flips go on whatever the FIFO workers do */
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO, &sp));
	stop = false;
	memset(w, 0, sizeof(w));
	for (i = 0; i < NR_WORKERS; i++) {
		w[i].s = &specs[i];
		w[i].fd = self->ctx.fd;
		w[i].loops = self->ctx.loops;
		w[i].stop = &stop;
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, worker_main, &w[i]));
	}
	for (i = 0; i < NR_WORKERS; i++) {
		while (!w[i].ready)
			usleep(1000);
		ASSERT_EQ(0, w[i].err)
			TH_LOG("%s: setting its policy failed: %s", specs[i].name,
			       strerror(w[i].err));
	}
	disturb_and_watch(w, variant->hotplug, &v);
	stop = true;
	/* let each finish its request in flight */
	end = mono_now() + REQ_TIMEOUT_S;
	for (i = 0; i < NR_WORKERS; i++)
		while (!w[i].exited && mono_now() < end)
			usleep(1000);
	for (i = 0; i < NR_WORKERS; i++)
		if (!w[i].exited)
			TH_LOG("%s: its request did not end within %d s of the run's end (%.1f s in)",
			       specs[i].name, REQ_TIMEOUT_S, mono_now() - w[i].started);
	for (i = 0; i < NR_WORKERS && w[i].exited; i++)
		pthread_join(w[i].thread, NULL);
	ASSERT_EQ(NR_WORKERS, i) TH_LOG("stuck requests, see above");
	ASSERT_EQ(0, set_sched_feature(FEATURE, self->saved));
	EXPECT_EQ(self->saved, sched_feature_state(FEATURE))
		TH_LOG("%s should be back %s", FEATURE, self->saved ? "on" : "off");

	TH_LOG("%d %s in %d s", v.steps,
	       variant->hotplug ? "CPU offline/online steps" : "flips of " FEATURE, RUN_S);
	for (i = 0; i < NR_WORKERS; i++)
		TH_LOG("%-15s %7lu requests, longest %6.1f ms",
		       specs[i].name, w[i].done, w[i].max_s * 1e3);
	EXPECT_EQ(0, v.step_errors)
		TH_LOG("%d of %d %s failed, the first with %s", v.step_errors, v.steps,
		       variant->hotplug ? "CPU offline/online steps" : "flips of " FEATURE,
		       strerror(v.step_errno));
	for (i = 0; i < NR_WORKERS && !w[i].err; i++)
		;
	EXPECT_EQ(NR_WORKERS, i)
		TH_LOG("%s: %s failed: %s", specs[i].name, w[i].what,
		       strerror(w[i].err));
	EXPECT_EQ(-1, v.late_worker)
		TH_LOG("%s: a request still running after %.1f s (limit %d s)",
		       specs[v.late_worker].name, v.late_s, REQ_TIMEOUT_S);
	EXPECT_EQ(-1, v.stall_worker)
		TH_LOG("%s completed no request in second %d of the run",
		       specs[v.stall_worker].name, v.stall_second);
}

TEST_HARNESS_MAIN
