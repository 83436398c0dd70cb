// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf.c - collect a run's events, then write them with emu/trace.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace.h"
#include "tracebuf.h"

void tb_init(struct tracebuf *tb)
{
	memset(tb, 0, sizeof(*tb));
	pthread_mutex_init(&tb->lock, NULL);
}

void tb_free(struct tracebuf *tb)
{
	free(tb->ev);
	tb->ev = NULL;
	tb->n = tb->cap = 0;
	pthread_mutex_destroy(&tb->lock);
}

/* A slot for one more event, NULL when out of memory (the event is lost). */
static struct tb_event *tb_add(struct tracebuf *tb, enum tb_kind kind,
			       const char *name)
{
	struct tb_event *e;

	if (tb->n == tb->cap) {
		size_t cap = tb->cap ? tb->cap * 2 : 4096;
		void *p = realloc(tb->ev, cap * sizeof(*tb->ev));

		if (!p)
			return NULL;
		tb->ev = p;
		tb->cap = cap;
	}
	e = &tb->ev[tb->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->frame = -1;
	snprintf(e->name, sizeof(e->name), "%s", name);
	return e;
}

void tb_thread(struct tracebuf *tb, pid_t tid, const char *name)
{
	pthread_mutex_lock(&tb->lock);
	if (tb->nthreads < TB_MAX_THREADS) {
		tb->tids[tb->nthreads] = tid;
		snprintf(tb->tnames[tb->nthreads], TB_NAME_LEN, "%s", name);
		tb->nthreads++;
	}
	pthread_mutex_unlock(&tb->lock);
}

void tb_slice(struct tracebuf *tb, pid_t tid, const char *cat, const char *name,
	      int64_t frame, int64_t ts, int64_t end)
{
	struct tb_event *e;

	pthread_mutex_lock(&tb->lock);
	e = tb_add(tb, TB_SLICE, name);
	if (e) {
		e->cat = cat;
		e->tid = tid;
		e->ts = ts;
		e->dur = end > ts ? end - ts : 0;
		e->frame = frame;
		/* the thread recording its own slice: where it ran at the end */
		e->cpu = tid == gettid() ? sched_getcpu() : -1;
	}
	pthread_mutex_unlock(&tb->lock);
}

void tb_instant(struct tracebuf *tb, pid_t tid, const char *name, int64_t ts)
{
	struct tb_event *e;

	pthread_mutex_lock(&tb->lock);
	e = tb_add(tb, tid ? TB_INSTANT : TB_GLOBAL_INSTANT, name);
	if (e) {
		e->tid = tid;
		e->ts = ts;
	}
	pthread_mutex_unlock(&tb->lock);
}

void tb_counter(struct tracebuf *tb, const char *name, int64_t ts, double v)
{
	struct tb_event *e;

	pthread_mutex_lock(&tb->lock);
	e = tb_add(tb, TB_COUNTER, name);
	if (e) {
		e->ts = ts;
		e->value = v;
	}
	pthread_mutex_unlock(&tb->lock);
}

void tb_async(struct tracebuf *tb, const char *track, int64_t frame,
	      int64_t ts, int64_t end, const char *jank)
{
	struct tb_event *e;

	pthread_mutex_lock(&tb->lock);
	e = tb_add(tb, TB_ASYNC, track);
	if (e) {
		e->frame = frame;
		e->ts = ts;
		e->dur = end > ts ? end - ts : 0;
		e->arg = jank;
	}
	pthread_mutex_unlock(&tb->lock);
}

void tb_flow(struct tracebuf *tb, const char *name, pid_t from, int64_t ts0,
	     pid_t to, int64_t ts1)
{
	struct tb_event *e;

	pthread_mutex_lock(&tb->lock);
	e = tb_add(tb, TB_FLOW, name);
	if (e) {
		e->tid = from;
		e->tid1 = to;
		e->ts = ts0;
		e->dur = ts1 - ts0;
	}
	pthread_mutex_unlock(&tb->lock);
}

static void write_event(struct trace *t, int pid, const struct tb_event *e,
			uint64_t *flow_id)
{
	struct trace_arg args[3] = { { 0 } };
	char name[TB_NAME_LEN + 24];
	int n;

	switch (e->kind) {
	case TB_SLICE:
		n = 0;
		if (e->frame >= 0)
			args[n++] = (struct trace_arg){ .key = "frame", .num = e->frame };
		if (e->cpu >= 0)
			args[n++] = (struct trace_arg){ .key = "cpu", .num = e->cpu };
		trace_slice(t, pid, e->tid, e->name, e->cat, e->ts, e->dur,
			    n ? args : NULL);
		break;
	case TB_INSTANT:
		trace_instant(t, pid, e->tid, e->name, e->ts, TRACE_SCOPE_THREAD);
		break;
	case TB_GLOBAL_INSTANT:
		trace_instant(t, pid, 0, e->name, e->ts, TRACE_SCOPE_GLOBAL);
		break;
	case TB_COUNTER:
		trace_counter(t, pid, e->name, e->ts, e->value);
		break;
	case TB_ASYNC:
		/*
		 * Perfetto puts a process's async slices of one name on one
		 * track: "Expected Timeline", and the actual frames on one
		 * track per jank type, so that janks stand out.
		 */
		if (e->arg)
			snprintf(name, sizeof(name), "%s: %s", e->name, e->arg);
		else
			snprintf(name, sizeof(name), "%s", e->name);
		args[0] = (struct trace_arg){ .key = "frame", .num = e->frame };
		if (e->arg)
			args[1] = (struct trace_arg){ .key = "jank", .str = e->arg };
		/* ids apart per track: expected and actual never collide */
		trace_async(t, pid, "frametimeline", name,
			    (uint64_t)e->frame * 2 + (e->arg != NULL),
			    e->ts, e->dur, args);
		break;
	case TB_FLOW:
		trace_flow(t, e->name, ++*flow_id, pid, e->tid, e->ts, pid,
			   e->tid1, e->ts + e->dur);
		break;
	}
}

int tb_write(struct tracebuf *tb, const char *path, const char *process)
{
	FILE *f = fopen(path, "w");
	struct trace *t;
	int pid = (int)getpid(), i, ret;
	uint64_t flow_id = 0;
	size_t k;

	if (!f)
		return -1;
	t = trace_open(f);
	if (!t) {
		fclose(f);
		return -1;
	}
	trace_process_name(t, pid, process);
	for (i = 0; i < tb->nthreads; i++)
		trace_thread_name(t, pid, tb->tids[i], tb->tnames[i]);
	for (k = 0; k < tb->n; k++)
		write_event(t, pid, &tb->ev[k], &flow_id);
	ret = trace_close(t);
	if (fclose(f))
		ret = -1;
	return ret;
}
