/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the proxy-execution tests share: the inversion module open with a
 * calibrated section, PROXY_EXEC saved and put back, threads pinned, and
 * a SCHED_FIFO hog that runs for a while once mutex 0 has been locked (so
 * that a task arriving then finds the owner off the CPU and blocks,
 * instead of spinning on it from another CPU).
 */
#ifndef PROXY_FIXTURE_H
#define PROXY_FIXTURE_H

#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include "inversion.h"
#include "cpu_share.h"
#include "clock.h"

struct proxy_fixture {
	struct inv_ctx ctx;
	int proxy_exec;		/* PROXY_EXEC before the test, -1: none */
};

/* Thread @tid (0: the caller) onto CPU @a, and @b too if >= 0. */
static inline int pin_cpus(pid_t tid, int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	return sched_setaffinity(tid, sizeof(set), &set) ? -errno : 0;
}

/*
 * Open the module, save PROXY_EXEC, calibrate a section of @section_us on
 * INV_CPU (which moves the caller there), then move the caller to
 * @main_cpu (< 0: leave it there), and switch PROXY_EXEC on if @proxy_on.
 * 0, or -1 with the reason in @err.
 */
static inline int proxy_fixture_open(struct proxy_fixture *f, double section_us,
				     int main_cpu, bool proxy_on, char *err,
				     size_t len)
{
	f->proxy_exec = -1;
	if (inv_open(&f->ctx))
		return snprintf(err, len, "cannot open the inversion module"), -1;
	f->proxy_exec = sched_feature_state("PROXY_EXEC");
	if (f->proxy_exec < 0)
		return snprintf(err, len, "this kernel has no PROXY_EXEC sched feature"), -1;
	if (inv_calibrate(&f->ctx, section_us))
		return snprintf(err, len, "calibration failed"), -1;
	if (main_cpu >= 0 && pin_cpus(0, main_cpu, -1))
		return snprintf(err, len, "cannot run on CPU %d", main_cpu), -1;
	if (proxy_on && set_sched_feature("PROXY_EXEC", true))
		return snprintf(err, len, "cannot switch PROXY_EXEC on"), -1;
	return 0;
}

static inline void proxy_fixture_close(struct proxy_fixture *f)
{
	if (f->proxy_exec >= 0)
		set_sched_feature("PROXY_EXEC", f->proxy_exec);
	inv_close(&f->ctx);
}

struct proxy_hog {
	int fd;
	unsigned long long after;	/* wait for mutex 0 locked after this */
	int cpu, prio;
	double ms;
	unsigned long long seq;		/* out: the module's count it saw */
	int err;			/* out */
};

/*
 * A thread (pthread_create(..., proxy_hog_main, hog)): SCHED_FIFO @prio on
 * @cpu; once mutex 0 has been locked after @after (its lock of mutex 1
 * says when), spin @ms.
 */
static inline void *proxy_hog_main(void *arg)
{
	struct proxy_hog *h = arg;
	struct sched_param sp = { .sched_priority = h->prio };
	struct inversion_req r = {
		.mutex = 1, .outer = INVERSION_NO_OUTER,
		.wait_locked = 1u << 0, .after = h->after,
	};
	double t0;

	if (pin_cpus(0, h->cpu, -1) || sched_setscheduler(0, SCHED_FIFO, &sp) ||
	    ioctl(h->fd, INVERSION_IOC_LOCK, &r)) {
		h->err = errno ? errno : EIO;
		return NULL;
	}
	h->seq = r.seq;
	t0 = mono_now();
	while ((mono_now() - t0) * 1e3 < h->ms)
		;
	return NULL;
}

#endif
