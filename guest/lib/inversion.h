/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Priority inversion on a kernel mutex, driven through
 * framesched_inversion.ko: load the module, calibrate the owner's section,
 * run one scenario at one hog count and return the waiter's blocking
 * times. Shared by bench/inversion and tests/guest/inversion.
 *
 * Who is where: the owner (CFS nice 19 or SCHED_IDLE) and the M hogs are
 * pinned on INV_CPU; the waiter too, except in the "remote" scenario
 * (INV_OTHER_CPU) and under SCHED_DEADLINE (unpinned: a DEADLINE task's
 * affinity must span its root domain). In the "free" scenario neither the
 * owner nor the waiter is pinned. The calling thread moves to
 * INV_OTHER_CPU while a point runs, so that it never queues behind hogs.
 *
 * Every sample is an inversion: the hogs are parked while the owner takes
 * the mutex, and come back a quarter section later, while it holds it.
 */
#ifndef FRAMESCHED_INVERSION_H
#define FRAMESCHED_INVERSION_H

#include <stdbool.h>

#include "../modules/inversion/inversion_uapi.h"

#define INV_CPU			1
#define INV_OTHER_CPU		0
#define INV_WAITER_PRIO		80
#define INV_HOG_PRIO		50	/* SCHED_FIFO hogs, below the waiter */
#define INV_MAX_HOGS		16
/*
 * A hog's loop pauses once in so many turns: a spin-wait loop should, and
 * under QEMU's icount a vCPU that never pauses hides its stores (the
 * owner's preemption among them) from the other vCPUs until the next
 * timer deadline, milliseconds (bench/spin_visibility.c). Not every turn:
 * each pause costs the host a vCPU switch there.
 */
#define INV_HOG_LOOPS_PER_PAUSE	1024

/* the waiter's side of a scenario */
enum inv_scenario {
	INV_FIFO,	/* SCHED_FIFO waiter on the owner's CPU */
	INV_DL,		/* SCHED_DEADLINE waiter, unpinned */
	INV_REMOTE,	/* SCHED_FIFO waiter on another CPU */
	INV_SLEEP,	/* as INV_FIFO; the owner sleeps in the middle */
	INV_CHAIN,	/* as INV_FIFO, through a middle task and a 2nd mutex */
	INV_FREE,	/* SCHED_FIFO waiter and owner unpinned: only the
			 * scheduler decides where each runs */
	INV_TOKEN,	/* as INV_DL, the reservation a SCHED_DEADLINE
			 * token's (patch 0023) that the waiter holds */
	INV_NR_SCENARIOS
};

/*
 * What the M hogs are: CFS nice 0, or SCHED_FIFO below the waiter. FIFO
 * hogs share one priority, so one of them runs and the others wait their
 * turn: for the owner, M >= 1 FIFO hogs are one 95% hog (RT throttling).
 */
enum inv_hogs { INV_HOGS_CFS, INV_HOGS_FIFO, INV_NR_HOGS };

enum inv_owner { INV_OWNER_NICE19, INV_OWNER_IDLE, INV_NR_OWNERS };

extern const char *const inv_scenario_names[INV_NR_SCENARIOS];
extern const char *const inv_hogs_names[INV_NR_HOGS];
extern const char *const inv_owner_names[INV_NR_OWNERS];

struct inv_ctx {
	int fd;			/* INVERSION_PATH */
	bool loaded;		/* we loaded the module: unload it on close */
	enum inv_owner owner;
	unsigned long long loops;	/* the section's work, calibrated */
	double c_us;		/* its uncontended duration (median) */
	unsigned int sleep_us;	/* INV_SLEEP: S in the middle of the section */
	double timeout_s;	/* for one iteration */
	unsigned long long seq;	/* the module's event count, last seen */
};

/* One point: n samples of the waiter's time in mutex_lock(). */
struct inv_point {
	enum inv_scenario scenario;
	enum inv_hogs hogs;
	int m;
	int n;
	double *block_us;	/* n values, filled in */
	double *late_us;	/* n values, or NULL: the waiter's wake-up */
	/*
	 * n values, or NULL: the owner's own time in its section, the
	 * section as long as it was in that sample: its hold time less
	 * its waits for a CPU. Under TCG a vCPU's speed changes with the
	 * host's load (and with a waiter spinning on the other vCPU), so
	 * the calibrated C is only the section's usual length.
	 */
	double *own_us;
	int uncontended;	/* samples where the owner was already gone */
};

/*
 * Open INVERSION_PATH; if it is not there, load the module built for the
 * running kernel (see kmod_path()). 0, or -1 with a message on
 * stderr.
 */
int inv_open(struct inv_ctx *ctx);
/* Close the file, and unload the module if inv_open() loaded it. */
void inv_close(struct inv_ctx *ctx);

/*
 * Find how many loop iterations take @target_us on INV_CPU with nothing
 * else there, and measure that section: ctx->loops and ctx->c_us.
 */
int inv_calibrate(struct inv_ctx *ctx, double target_us);

/*
 * Run @p->n iterations of one point. 0, or -1 with a message on stderr;
 * after -1 the caller should exit: a thread may still be in the module
 * (every wait there is killable, so exiting cleans up).
 */
int inv_run(struct inv_ctx *ctx, struct inv_point *p);

/* Nearest-rank percentile @pct (0-100] of @n values (not modified). */
double inv_percentile(const double *v, int n, double pct);

/* Parse a name from @names (@n of them); -1 if none matches. */
int inv_lookup(const char *const *names, int n, const char *name);

#endif
