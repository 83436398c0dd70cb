/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf.h - the events of one run, collected in memory by every
 * pipeline thread (under a lock, cheap) and written as a Perfetto/Chrome
 * JSON trace (emu/trace) after the run, so that writing the file never
 * delays a frame.
 */
#ifndef PL_TRACEBUF_H
#define PL_TRACEBUF_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#define TB_NAME_LEN	48
#define TB_MAX_THREADS	48

enum tb_kind { TB_SLICE, TB_INSTANT, TB_GLOBAL_INSTANT, TB_COUNTER, TB_ASYNC,
	       TB_FLOW };

struct tb_event {
	enum tb_kind kind;
	char name[TB_NAME_LEN];
	const char *cat;		/* static string */
	pid_t tid, tid1;		/* TB_FLOW: from tid to tid1 */
	int64_t ts, dur;		/* TB_FLOW: dur is ts1 - ts */
	int64_t frame;			/* -1: none */
	int cpu;			/* TB_SLICE: CPU it ended on, -1: unknown */
	double value;			/* TB_COUNTER */
	const char *arg;		/* TB_ASYNC: the jank type, static */
};

struct tracebuf {
	pthread_mutex_t lock;
	struct tb_event *ev;
	size_t n, cap;
	int nthreads;
	pid_t tids[TB_MAX_THREADS];
	char tnames[TB_MAX_THREADS][TB_NAME_LEN];
	uint64_t next_flow;
};

void tb_init(struct tracebuf *tb);
void tb_free(struct tracebuf *tb);
void tb_thread(struct tracebuf *tb, pid_t tid, const char *name);
void tb_slice(struct tracebuf *tb, pid_t tid, const char *cat, const char *name,
	      int64_t frame, int64_t ts, int64_t end);
void tb_instant(struct tracebuf *tb, pid_t tid, const char *name, int64_t ts);
void tb_counter(struct tracebuf *tb, const char *name, int64_t ts, double v);
void tb_async(struct tracebuf *tb, const char *track, int64_t frame,
	      int64_t ts, int64_t end, const char *jank);
void tb_flow(struct tracebuf *tb, const char *name, pid_t from, int64_t ts0,
	     pid_t to, int64_t ts1);
/* Write the trace to path: 0, or -1 (errno). */
int tb_write(struct tracebuf *tb, const char *path, const char *process);

#endif
