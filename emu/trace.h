/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - a Chrome/Perfetto JSON trace writer, streaming to a FILE*.
 *
 * Output: {"traceEvents":[ ... ],"displayTimeUnit":"ms"}. Times are
 * taken in ns and written as µs with three decimals, as the format wants.
 * Strings are escaped (emu/escape.c), so any name is safe. The file is
 * valid JSON once trace_close() has run; events written before a crash
 * are still readable by Perfetto, which accepts a missing end.
 *
 * Written by hand, not with jansson as run.json is: the writer streams
 * events as they are recorded, and a timestamp is an exact decimal of
 * the nanosecond clock, which jansson cannot print (it writes a real
 * with %.17g: 0.1 comes out as 0.10000000000000001, 5.001 as
 * 5.0010000000000003).
 *
 * Event kinds (ph): X complete slices (thread work), C counters (CPU
 * frequency), i instants (VSYNC), b/e async slices (one track per frame
 * timeline, keyed by id), s/f flow arrows (fences: from the signaller to
 * the waiter), M metadata (process and thread names).
 */
#ifndef EMU_TRACE_H
#define EMU_TRACE_H

#include <stdint.h>
#include <stdio.h>

struct trace;

/* Optional arguments: an array ended by an entry with key == NULL. */
struct trace_arg {
	const char *key;
	const char *str;	/* a string value, or NULL for num */
	int64_t num;
};

enum trace_scope { TRACE_SCOPE_THREAD, TRACE_SCOPE_PROCESS, TRACE_SCOPE_GLOBAL };

/* Start a trace on f (not closed by trace_close). NULL on ENOMEM. */
struct trace *trace_open(FILE *f);
/* End the JSON, free t. 0, or -1 if any write failed. */
int trace_close(struct trace *t);

void trace_process_name(struct trace *t, int pid, const char *name);
void trace_thread_name(struct trace *t, int pid, int tid, const char *name);
/* A slice of work on a thread, [ts, ts + dur). */
void trace_slice(struct trace *t, int pid, int tid, const char *name,
		 const char *cat, int64_t ts_ns, int64_t dur_ns,
		 const struct trace_arg *args);
/* A counter track "name" of process pid, e.g. "cpu2 freq" in kHz. */
void trace_counter(struct trace *t, int pid, const char *name, int64_t ts_ns,
		   double value);
void trace_instant(struct trace *t, int pid, int tid, const char *name,
		   int64_t ts_ns, enum trace_scope scope);
/* An async slice, e.g. one frame on an "Actual Timeline"-like track. */
void trace_async(struct trace *t, int pid, const char *cat, const char *name,
		 uint64_t id, int64_t ts_ns, int64_t dur_ns,
		 const struct trace_arg *args);
/* A flow arrow from (pid, tid, ts0) to (pid1, tid1, ts1), e.g. a fence. */
void trace_flow(struct trace *t, const char *name, uint64_t id,
		int pid0, int tid0, int64_t ts0_ns,
		int pid1, int tid1, int64_t ts1_ns);

#endif
