// SPDX-License-Identifier: GPL-2.0
/*
 * sys.c - system settings for the strategies, each change in an undo log.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys.h"

int sys_sched_getattr(pid_t tid, struct sched_attr_v1 *a)
{
	memset(a, 0, sizeof(*a));
	return sched_attr_get(tid, a);
}

int sys_sched_setattr(pid_t tid, const struct sched_attr_v1 *a)
{
	struct sched_attr_v1 k = *a;

	k.size = sizeof(k);
	return sched_attr_set(tid, &k);
}

const char *sys_policy_name(uint32_t policy)
{
	switch (policy) {
	case SCHED_OTHER: return "SCHED_OTHER";
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	case SCHED_BATCH: return "SCHED_BATCH";
	case SCHED_IDLE: return "SCHED_IDLE";
	case SCHED_DEADLINE: return "SCHED_DEADLINE";
	}
	return "unknown policy";
}

static void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

int sys_read_str(const char *path, char *buf, size_t len,
		 const char *who, char *err, size_t errlen)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: open %s: %s", who, path, strerror(errno));
		return -1;
	}
	n = read(fd, buf, len - 1);
	if (n < 0) {
		snprintf(err, errlen, "%s: read %s: %s", who, path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	rstrip(buf);
	return 0;
}

int sys_write_str(const char *path, const char *val,
		  const char *who, char *err, size_t errlen)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: open %s: %s", who, path, strerror(errno));
		return -1;
	}
	n = write(fd, val, len);
	if (n != (ssize_t)len) {
		snprintf(err, errlen, "%s: write \"%s\" to %s: %s", who, val, path,
			 n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int sys_read_s64(const char *path, int64_t *v,
		 const char *who, char *err, size_t errlen)
{
	char buf[64], *end;

	if (sys_read_str(path, buf, sizeof(buf), who, err, errlen))
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end) {
		snprintf(err, errlen, "%s: %s: expected an integer, got \"%s\"",
			 who, path, buf);
		return -1;
	}
	return 0;
}

int sys_read_u64(const char *path, uint64_t *v,
		 const char *who, char *err, size_t errlen)
{
	int64_t s;

	if (sys_read_s64(path, &s, who, err, errlen))
		return -1;
	if (s < 0) {
		snprintf(err, errlen, "%s: %s: expected a non-negative integer, got %" PRId64,
			 who, path, s);
		return -1;
	}
	*v = (uint64_t)s;
	return 0;
}

/* sched features */

int sys_feature_get(const char *name, int *on,
		    const char *who, char *err, size_t errlen)
{
	char buf[4096], *tok, *save;

	if (sys_read_str(SYS_SCHED_FEATURES, buf, sizeof(buf), who, err, errlen)) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n,
			 " (needs debugfs on /sys/kernel/debug and CONFIG_SCHED_DEBUG)");
		return -1;
	}
	*on = -1;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, name))
			*on = 1;
		else if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			*on = 0;
	}
	return 0;
}

int sys_feature_set(const char *name, bool on,
		    const char *who, char *err, size_t errlen)
{
	char val[SYS_PATH_LEN];

	snprintf(val, sizeof(val), "%s%s", on ? "" : "NO_", name);
	return sys_write_str(SYS_SCHED_FEATURES, val, who, err, errlen);
}

/* the undo log */

static struct sys_undo_entry *undo_find(struct sys_undo *u,
					enum sys_undo_kind kind, const char *key)
{
	unsigned int i;

	for (i = 0; i < u->n; i++)
		if (u->e[i].kind == kind && !strcmp(u->e[i].key, key))
			return &u->e[i];
	return NULL;
}

static struct sys_undo_entry *undo_add(struct sys_undo *u,
				       enum sys_undo_kind kind, const char *key,
				       const char *who, char *err, size_t errlen)
{
	struct sys_undo_entry *e;

	if (u->n == SYS_UNDO_MAX) {
		snprintf(err, errlen, "%s: more than %d settings to undo (SYS_UNDO_MAX)",
			 who, SYS_UNDO_MAX);
		return NULL;
	}
	e = &u->e[u->n];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	snprintf(e->key, sizeof(e->key), "%s", key);
	return e;
}

int sys_undo_write(struct sys_undo *u, const char *path, const char *val,
		   const char *who, char *err, size_t errlen)
{
	struct sys_undo_entry *e = undo_find(u, SYS_UNDO_FILE, path);
	char cur[SYS_VAL_LEN];

	if (!e) {
		if (sys_read_str(path, cur, sizeof(cur), who, err, errlen))
			return -1;
		/* already so: nothing to write, nothing to undo */
		if (!strcmp(cur, val))
			return 0;
		e = undo_add(u, SYS_UNDO_FILE, path, who, err, errlen);
		if (!e)
			return -1;
		snprintf(e->old, sizeof(e->old), "%s", cur);
		u->n++;
	}
	return sys_write_str(path, val, who, err, errlen);
}

int sys_undo_feature(struct sys_undo *u, const char *name, bool on,
		     const char *who, char *err, size_t errlen)
{
	struct sys_undo_entry *e;
	int cur;

	if (sys_feature_get(name, &cur, who, err, errlen))
		return -1;
	if (cur < 0) {
		if (!on)
			return 0;
		snprintf(err, errlen,
			 "%s: this kernel has no sched feature %s in %s (a kernel without the framesched series?)",
			 who, name, SYS_SCHED_FEATURES);
		return -1;
	}
	if (!undo_find(u, SYS_UNDO_FEATURE, name)) {
		e = undo_add(u, SYS_UNDO_FEATURE, name, who, err, errlen);
		if (!e)
			return -1;
		e->was_on = cur;
		u->n++;
	}
	if (cur == on)
		return 0;
	return sys_feature_set(name, on, who, err, errlen);
}

int sys_undo_setattr(struct sys_undo *u, pid_t tid, const char *role,
		     const struct sched_attr_v1 *a,
		     const char *who, char *err, size_t errlen)
{
	struct sys_undo_entry *e;
	char key[SYS_PATH_LEN];

	if (tid <= 0) {
		snprintf(err, errlen, "%s: %s: no thread id (%d)", who, role, (int)tid);
		return -1;
	}
	snprintf(key, sizeof(key), "%d", (int)tid);
	if (!undo_find(u, SYS_UNDO_THREAD, key)) {
		e = undo_add(u, SYS_UNDO_THREAD, key, who, err, errlen);
		if (!e)
			return -1;
		if (sys_sched_getattr(tid, &e->attr)) {
			snprintf(err, errlen, "%s: sched_getattr(%s, tid %d): %s",
				 who, role, (int)tid, strerror(errno));
			return -1;
		}
		e->tid = tid;
		u->n++;
	}
	if (sys_sched_setattr(tid, a)) {
		int en = errno;

		snprintf(err, errlen, "%s: sched_setattr(%s, tid %d, %s", who, role,
			 (int)tid, sys_policy_name(a->sched_policy));
		if (a->sched_flags & SA_FLAG_KEEP_POLICY)
			snprintf(err + strlen(err), errlen - strlen(err), " kept");
		if (a->sched_policy == SCHED_FIFO || a->sched_policy == SCHED_RR)
			snprintf(err + strlen(err), errlen - strlen(err),
				 " priority %u", a->sched_priority);
		if (a->sched_policy == SCHED_DEADLINE)
			snprintf(err + strlen(err), errlen - strlen(err),
				 " runtime %" PRIu64 " us deadline %" PRIu64
				 " us period %" PRIu64 " us",
				 a->sched_runtime / 1000, a->sched_deadline / 1000,
				 a->sched_period / 1000);
		if (a->sched_flags & SA_FLAG_UTIL_CLAMP_MIN)
			snprintf(err + strlen(err), errlen - strlen(err),
				 " uclamp.min %u", a->sched_util_min);
		snprintf(err + strlen(err), errlen - strlen(err), "): %s", strerror(en));
		return -1;
	}
	return 0;
}

/* Back to the saved attributes, utilization clamps included. */
static void undo_thread(const struct sys_undo_entry *e)
{
	struct sched_attr_v1 a = e->attr;

	a.sched_flags &= SA_FLAG_RESET_ON_FORK | SA_FLAG_RECLAIM |
			 SA_FLAG_DL_OVERRUN;
	a.sched_flags |= SA_FLAG_UTIL_CLAMP_MIN | SA_FLAG_UTIL_CLAMP_MAX;
	/* the defaults stay defaults rather than becoming requests */
	if (a.sched_util_min == 0 && a.sched_util_max == 1024)
		a.sched_util_min = a.sched_util_max = SA_UCLAMP_RESET;
	if (sys_sched_setattr(e->tid, &a) && errno != ESRCH)
		fprintf(stderr, "strategy teardown: sched_setattr(tid %d, back to %s): %s\n",
			(int)e->tid, sys_policy_name(a.sched_policy), strerror(errno));
}

void sys_undo_all(struct sys_undo *u)
{
	char err[256];

	while (u->n) {
		const struct sys_undo_entry *e = &u->e[--u->n];
		int r = 0;

		switch (e->kind) {
		case SYS_UNDO_FILE:
			r = sys_write_str(e->key, e->old, "strategy teardown",
					  err, sizeof(err));
			break;
		case SYS_UNDO_FEATURE:
			r = sys_feature_set(e->key, e->was_on, "strategy teardown",
					    err, sizeof(err));
			break;
		case SYS_UNDO_THREAD:
			undo_thread(e);
			break;
		}
		/* nobody to return it to: say it, and go on restoring */
		if (r)
			fprintf(stderr, "%s\n", err);
	}
}

void *sys_priv(struct strategy_ctx *ctx, size_t size,
	       const char *who, char *err, size_t errlen)
{
	if (!ctx->priv) {
		ctx->priv = calloc(1, size);
		if (!ctx->priv)
			snprintf(err, errlen, "%s: out of memory", who);
	}
	return ctx->priv;
}

void sys_teardown(struct strategy_ctx *ctx)
{
	if (!ctx->priv)
		return;
	sys_undo_all(ctx->priv);
	free(ctx->priv);
	ctx->priv = NULL;
}

int sys_undo_app_threads(struct sys_undo *u, const struct strategy_ctx *ctx,
			 const struct sched_attr_v1 *a,
			 const char *who, char *err, size_t errlen)
{
	if (sys_undo_setattr(u, ctx->ui_tid, "UI thread", a, who, err, errlen))
		return -1;
	return sys_undo_setattr(u, ctx->render_tid, "RenderThread", a,
				who, err, errlen);
}

/* cpufreq */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int policy_index(const char *name)
{
	const char *d;

	if (strncmp(name, "policy", 6) || !name[6])
		return -1;
	for (d = name + 6; *d; d++)
		if (!isdigit((unsigned char)*d))
			return -1;
	return atoi(name + 6);
}

static int cmp_policy(const void *a, const void *b)
{
	const struct sys_policy *x = a, *y = b;
	int ix = policy_index(strrchr(x->dir, '/') + 1);
	int iy = policy_index(strrchr(y->dir, '/') + 1);

	return (ix > iy) - (ix < iy);
}

/* scaling_available_frequencies, if the driver has it */
static void policy_read_freqs(struct sys_policy *p)
{
	char path[SYS_PATH_LEN], buf[1024], err[16], *tok, *save;

	p->nfreq = 0;
	snprintf(path, sizeof(path), "%s/scaling_available_frequencies", p->dir);
	if (sys_read_str(path, buf, sizeof(buf), "", err, sizeof(err)))
		return;
	for (tok = strtok_r(buf, " \n", &save); tok && p->nfreq < SYS_MAX_FREQS;
	     tok = strtok_r(NULL, " \n", &save))
		p->freq[p->nfreq++] = (uint32_t)strtoul(tok, NULL, 10);
	qsort(p->freq, p->nfreq, sizeof(p->freq[0]), cmp_u32);
}

static int policy_read(struct sys_policy *p, const char *who, char *err, size_t errlen)
{
	char path[SYS_PATH_LEN];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/cpuinfo_min_freq", p->dir);
	if (sys_read_u64(path, &v, who, err, errlen))
		return -1;
	p->min_khz = (uint32_t)v;
	snprintf(path, sizeof(path), "%s/cpuinfo_max_freq", p->dir);
	if (sys_read_u64(path, &v, who, err, errlen))
		return -1;
	p->max_khz = (uint32_t)v;
	policy_read_freqs(p);
	return 0;
}

int sys_policies_find(struct sys_policies *ps,
		      const char *who, char *err, size_t errlen)
{
	struct dirent *d;
	DIR *dir;

	ps->n = 0;
	dir = opendir(SYS_CPUFREQ_DIR);
	while (dir && (d = readdir(dir)) && ps->n < SYS_MAX_POLICIES) {
		int idx = policy_index(d->d_name);

		if (idx < 0)
			continue;
		snprintf(ps->p[ps->n].dir, sizeof(ps->p[0].dir), "%s/policy%d",
			 SYS_CPUFREQ_DIR, idx);
		if (policy_read(&ps->p[ps->n], who, err, errlen)) {
			closedir(dir);
			return -1;
		}
		ps->n++;
	}
	if (dir)
		closedir(dir);
	if (!ps->n) {
		snprintf(err, errlen,
			 "%s: no cpufreq policy under %s: boot with the emulated phone (kernel parameter phone_cpufreq.enable=1)",
			 who, SYS_CPUFREQ_DIR);
		return -1;
	}
	qsort(ps->p, ps->n, sizeof(ps->p[0]), cmp_policy);
	return 0;
}

int sys_undo_min_freq(struct sys_undo *u, const struct sys_policy *p,
		      uint32_t khz, const char *who, char *err, size_t errlen)
{
	char path[SYS_PATH_LEN], val[16];

	snprintf(path, sizeof(path), "%s/scaling_min_freq", p->dir);
	snprintf(val, sizeof(val), "%u", khz);
	return sys_undo_write(u, path, val, who, err, errlen);
}
