// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - Chrome JSON trace events, one per line.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include "escape.h"
#include "trace.h"

struct trace {
	FILE *f;
	bool first;
	bool failed;
};

static void out(struct trace *t, int r)
{
	if (r < 0)
		t->failed = true;
}

static void put_str(struct trace *t, const char *s)
{
	out(t, escape_json(t->f, s));
}

/* ns as µs with three decimals, exact for any int64 */
static void put_us(struct trace *t, int64_t ns)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	out(t, fprintf(t->f, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "",
		       a / 1000, a % 1000));
}

/* opens an event object: {"ph":..,"name":..,"pid":..,"tid":.. */
static void begin(struct trace *t, char ph, const char *name, int pid, int tid)
{
	out(t, fputs(t->first ? "\n" : ",\n", t->f));
	t->first = false;
	out(t, fprintf(t->f, "{\"ph\":\"%c\",\"name\":", ph));
	put_str(t, name);
	out(t, fprintf(t->f, ",\"pid\":%d,\"tid\":%d", pid, tid));
}

static void put_ts(struct trace *t, const char *key, int64_t ns)
{
	out(t, fprintf(t->f, ",\"%s\":", key));
	put_us(t, ns);
}

static void put_args(struct trace *t, const struct trace_arg *a)
{
	bool first = true;

	if (!a)
		return;
	out(t, fputs(",\"args\":{", t->f));
	for (; a->key; a++, first = false) {
		out(t, fputs(first ? "" : ",", t->f));
		put_str(t, a->key);
		out(t, fputc(':', t->f));
		if (a->str)
			put_str(t, a->str);
		else
			out(t, fprintf(t->f, "%" PRId64, a->num));
	}
	out(t, fputc('}', t->f));
}

static void end(struct trace *t)
{
	out(t, fputc('}', t->f));
}

struct trace *trace_open(FILE *f)
{
	struct trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->f = f;
	t->first = true;
	out(t, fputs("{\"traceEvents\":[", f));
	return t;
}

int trace_close(struct trace *t)
{
	int r;

	out(t, fputs("\n],\"displayTimeUnit\":\"ms\"}\n", t->f));
	out(t, fflush(t->f));
	r = t->failed || ferror(t->f) ? -1 : 0;
	free(t);
	return r;
}

static void meta(struct trace *t, const char *what, int pid, int tid,
		 const char *name)
{
	const struct trace_arg args[] = { { "name", name, 0 }, { NULL, NULL, 0 } };

	begin(t, 'M', what, pid, tid);
	put_args(t, args);
	end(t);
}

void trace_process_name(struct trace *t, int pid, const char *name)
{
	meta(t, "process_name", pid, pid, name);
}

void trace_thread_name(struct trace *t, int pid, int tid, const char *name)
{
	meta(t, "thread_name", pid, tid, name);
}

void trace_slice(struct trace *t, int pid, int tid, const char *name,
		 const char *cat, int64_t ts_ns, int64_t dur_ns,
		 const struct trace_arg *args)
{
	begin(t, 'X', name, pid, tid);
	out(t, fputs(",\"cat\":", t->f));
	put_str(t, cat ? cat : "emu");
	put_ts(t, "ts", ts_ns);
	put_ts(t, "dur", dur_ns);
	put_args(t, args);
	end(t);
}

void trace_counter(struct trace *t, int pid, const char *name, int64_t ts_ns,
		   double value)
{
	begin(t, 'C', name, pid, pid);
	put_ts(t, "ts", ts_ns);
	/* %.17g never prints nan/inf for finite values; guard the others */
	if (value != value || value > 1e300 || value < -1e300)
		value = 0;
	out(t, fprintf(t->f, ",\"args\":{\"value\":%.17g}", value));
	end(t);
}

void trace_instant(struct trace *t, int pid, int tid, const char *name,
		   int64_t ts_ns, enum trace_scope scope)
{
	static const char s[] = { 't', 'p', 'g' };

	begin(t, 'i', name, pid, tid);
	put_ts(t, "ts", ts_ns);
	out(t, fprintf(t->f, ",\"s\":\"%c\"", s[scope]));
	end(t);
}

static void async_edge(struct trace *t, char ph, int pid, const char *cat,
		       const char *name, uint64_t id, int64_t ts_ns,
		       const struct trace_arg *args)
{
	begin(t, ph, name, pid, pid);
	out(t, fputs(",\"cat\":", t->f));
	put_str(t, cat ? cat : "emu");
	out(t, fprintf(t->f, ",\"id\":\"0x%" PRIx64 "\"", id));
	put_ts(t, "ts", ts_ns);
	put_args(t, args);
	end(t);
}

void trace_async(struct trace *t, int pid, const char *cat, const char *name,
		 uint64_t id, int64_t ts_ns, int64_t dur_ns,
		 const struct trace_arg *args)
{
	async_edge(t, 'b', pid, cat, name, id, ts_ns, args);
	async_edge(t, 'e', pid, cat, name, id, ts_ns + dur_ns, NULL);
}

void trace_flow(struct trace *t, const char *name, uint64_t id,
		int pid0, int tid0, int64_t ts0_ns,
		int pid1, int tid1, int64_t ts1_ns)
{
	begin(t, 's', name, pid0, tid0);
	out(t, fprintf(t->f, ",\"cat\":\"flow\",\"id\":\"0x%" PRIx64 "\"", id));
	put_ts(t, "ts", ts0_ns);
	end(t);
	/* "bp":"e": bind to the slice enclosing ts1, not the next one */
	begin(t, 'f', name, pid1, tid1);
	out(t, fprintf(t->f, ",\"cat\":\"flow\",\"id\":\"0x%" PRIx64 "\",\"bp\":\"e\"", id));
	put_ts(t, "ts", ts1_ns);
	end(t);
}
