/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sys.h - what the strategies share: sched_setattr(), sysfs/debugfs/procfs
 * files, sched features and cpufreq policies, all behind an undo log.
 *
 * A strategy changes the system only through a struct sys_undo: every
 * change first records the value it replaces (once per file, feature or
 * thread, so applying the same change twice keeps the original), and
 * sys_undo_all() puts everything back in reverse order. That makes setup
 * idempotent and teardown exact, also after a setup that failed halfway.
 *
 * Every function that fails returns -1 and writes into err a message that
 * starts with who (the strategy's name) and names the path or thread.
 */
#ifndef EMU_STRATEGIES_SYS_H
#define EMU_STRATEGIES_SYS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "strategy.h"

#define SYS_SCHED_FEATURES	"/sys/kernel/debug/sched/features"
#define SYS_CPUFREQ_DIR		"/sys/devices/system/cpu/cpufreq"
#define SYS_RT_RUNTIME		"/proc/sys/kernel/sched_rt_runtime_us"
#define SYS_RT_PERIOD		"/proc/sys/kernel/sched_rt_period_us"
#define SYS_FAIR_SERVER		"/sys/kernel/debug/sched/fair_server"

/* The policies and flags of <linux/sched.h>, without its clone flags. */
#ifndef SCHED_BATCH
#define SCHED_BATCH		3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE		5
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE		6
#endif
#include "sched_attr.h"

int sys_sched_getattr(pid_t tid, struct sched_attr_v1 *a);
/* 0 or -1 with errno, as the system call */
int sys_sched_setattr(pid_t tid, const struct sched_attr_v1 *a);
const char *sys_policy_name(uint32_t policy);

/* Files: the content without trailing whitespace. */
int sys_read_str(const char *path, char *buf, size_t len,
		 const char *who, char *err, size_t errlen);
int sys_write_str(const char *path, const char *val,
		  const char *who, char *err, size_t errlen);
int sys_read_u64(const char *path, uint64_t *v,
		 const char *who, char *err, size_t errlen);
int sys_read_s64(const char *path, int64_t *v,
		 const char *who, char *err, size_t errlen);

/* Sched features: *on is 1, 0, or -1 when the kernel has no such feature. */
int sys_feature_get(const char *name, int *on,
		    const char *who, char *err, size_t errlen);
int sys_feature_set(const char *name, bool on,
		    const char *who, char *err, size_t errlen);

/* The undo log */
#define SYS_UNDO_MAX	24
#define SYS_PATH_LEN	160
#define SYS_VAL_LEN	64

enum sys_undo_kind { SYS_UNDO_FILE, SYS_UNDO_FEATURE, SYS_UNDO_THREAD };

struct sys_undo_entry {
	enum sys_undo_kind kind;
	char key[SYS_PATH_LEN];		/* path, feature name or thread id */
	char old[SYS_VAL_LEN];		/* a file's content */
	bool was_on;			/* a feature */
	pid_t tid;			/* a thread */
	struct sched_attr_v1 attr;	/* its attributes before */
};

struct sys_undo {
	unsigned int n;
	struct sys_undo_entry e[SYS_UNDO_MAX];
};

/* Write val to path, saving the old content the first time. */
int sys_undo_write(struct sys_undo *u, const char *path, const char *val,
		   const char *who, char *err, size_t errlen);
/*
 * Turn a sched feature on or off, saving its state the first time. A
 * feature the kernel lacks is an error when asked on, and nothing to do
 * when asked off (it is off).
 */
int sys_undo_feature(struct sys_undo *u, const char *name, bool on,
		     const char *who, char *err, size_t errlen);
/*
 * sched_setattr(tid, a), saving the thread's attributes the first time.
 * role names the thread in messages ("UI thread"). A thread gone by
 * restore time is skipped.
 */
int sys_undo_setattr(struct sys_undo *u, pid_t tid, const char *role,
		     const struct sched_attr_v1 *a,
		     const char *who, char *err, size_t errlen);
/* Put everything back, newest first, and empty the log. */
void sys_undo_all(struct sys_undo *u);

/*
 * A strategy's ctx->priv: a struct that starts with a struct sys_undo.
 * sys_priv() allocates it zeroed the first time (NULL on ENOMEM, with a
 * message); sys_teardown() undoes the log and frees it; both are safe to
 * call again.
 */
void *sys_priv(struct strategy_ctx *ctx, size_t size,
	       const char *who, char *err, size_t errlen);
void sys_teardown(struct strategy_ctx *ctx);

/* Both app threads (UI thread, RenderThread) get attributes a. */
int sys_undo_app_threads(struct sys_undo *u, const struct strategy_ctx *ctx,
			 const struct sched_attr_v1 *a,
			 const char *who, char *err, size_t errlen);

/* cpufreq policies */
#define SYS_MAX_POLICIES	8
#define SYS_MAX_FREQS		32

struct sys_policy {
	char dir[96];			/* .../cpufreq/policyN */
	uint32_t min_khz, max_khz;	/* cpuinfo_{min,max}_freq */
	uint32_t nfreq;			/* 0: no scaling_available_frequencies */
	uint32_t freq[SYS_MAX_FREQS];	/* ascending */
};

struct sys_policies {
	uint32_t n;
	struct sys_policy p[SYS_MAX_POLICIES];
};

/*
 * Every policyN under SYS_CPUFREQ_DIR, in N order. None is an error that
 * says to boot the emulated phone.
 */
int sys_policies_find(struct sys_policies *ps,
		      const char *who, char *err, size_t errlen);
/* scaling_min_freq of a policy, through the undo log. */
int sys_undo_min_freq(struct sys_undo *u, const struct sys_policy *p,
		      uint32_t khz, const char *who, char *err, size_t errlen);

#endif
