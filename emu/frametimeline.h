/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frametimeline.h - per-frame records and jank classification, as
 * SurfaceFlinger's FrameTimeline (Android 12+) reports them.
 *
 * A record holds the prediction (what the VSYNC schedule promised) and the
 * actual times of one app frame, plus the SurfaceFlinger "display frame"
 * that showed it. All times are ns on one clock; FT_TIME_NONE when unset.
 *
 *   expected.start   VSYNC-app: present - app_duration - sf_duration
 *   expected.end     the app's deadline: present - sf_duration (SF latch)
 *   expected.present the VSYNC at which the frame should be on screen
 *   actual.start     when the UI thread started the frame
 *   actual.end       max(GPU completion, queueBuffer time)
 *   actual.present   the present fence time; NONE if never presented
 *   sf_expected      the display frame that presented this one (or would
 *                    have): start = VSYNC-sf, end = SF's deadline, present
 *   sf_actual        that display frame's SF main thread start and end,
 *                    and its present fence. When the app misses its latch
 *                    a later display frame shows it: record that one.
 *   last_latch       when SF latched this layer's previous buffer
 *
 * Classification rules (our wording of FrameTimeline's documented
 * behaviour; thresholds: present 2 ms, deadline 0, start 2 ms):
 *
 *  1. Dropped: SF latched a newer buffer instead; no jank attributed to
 *     the frame itself, but it never reached the screen.
 *  2. No present time at all: Unknown.
 *  3. Expired prediction (the app used a token too old to be remembered):
 *     AppDeadlineMissed - only a huge delay gets there.
 *  4. presentDelta = actual.present - expected.present. Within +-2 ms:
 *     None, whatever happened on the way.
 *  5. Early present: the app finished on time and the error is a whole
 *     number of vsyncs (within 2 ms): SurfaceFlingerScheduling; not whole:
 *     PredictionError; the app finished late yet presented early: Unknown.
 *  6. Late present. First, buffer stuffing: if the frame's deadline was at
 *     or before SF latched the previous buffer (last_latch), the queue was
 *     still full of older frames; the frame is BufferStuffing and its
 *     deadline moves to last_latch + one period (dequeue waits are not the
 *     app's fault). Then, with the (possibly moved) deadline:
 *     - finished on time: if the display frame was janky, its jank is the
 *       cause (e.g. SurfaceFlingerCpuDeadlineMissed); else, if stuffed,
 *       BufferStuffing alone; else SurfaceFlingerScheduling when late by
 *       whole vsyncs, PredictionError when not;
 *     - finished late: AppDeadlineMissed (plus the display frame's jank).
 *
 * The display frame (SF's own) is judged the same way from sf_*: within
 * 2 ms of its predicted present: None; late and SF's CPU work ended after
 * its deadline: SurfaceFlingerCpuDeadlineMissed; late, SF on time but it
 * started over 2 ms late: SurfaceFlingerScheduling; late otherwise:
 * DisplayHAL when late by whole vsyncs, PredictionError when not.
 * (Android also has SurfaceFlingerGpuDeadlineMissed for GPU composition;
 * our SF composes on the CPU only.)
 *
 * Android reports a bit mask; ft_classify() gives the mask and the one
 * cause that explains the frame best (see ft_primary()).
 */
#ifndef EMU_FRAMETIMELINE_H
#define EMU_FRAMETIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#define FT_TIME_NONE		INT64_MIN
#define FT_PRESENT_THRESHOLD_NS	2000000
#define FT_DEADLINE_THRESHOLD_NS 0
#define FT_START_THRESHOLD_NS	2000000

enum ft_jank {
	FT_JANK_NONE,
	FT_JANK_APP_DEADLINE_MISSED,
	FT_JANK_BUFFER_STUFFING,
	FT_JANK_SF_CPU_DEADLINE_MISSED,
	FT_JANK_SF_SCHEDULING,
	FT_JANK_PREDICTION_ERROR,
	FT_JANK_DISPLAY_HAL,
	FT_JANK_UNKNOWN,
	FT_JANK_DROPPED,
	FT_JANK_COUNT
};

#define FT_BIT(j)	(1u << (j))

enum ft_present_type {
	FT_PRESENT_ON_TIME,
	FT_PRESENT_EARLY,
	FT_PRESENT_LATE,
	FT_PRESENT_DROPPED,
	FT_PRESENT_UNKNOWN,
};

struct ft_times {
	int64_t start, end, present;
};

struct ft_frame {
	int64_t token;			/* vsync id */
	int64_t period_ns;
	struct ft_times expected;
	struct ft_times actual;
	struct ft_times sf_expected;
	struct ft_times sf_actual;
	int64_t last_latch;
	bool dropped;
	bool prediction_expired;
};

struct ft_verdict {
	enum ft_jank jank;		/* the main cause */
	uint32_t mask;			/* every cause, FT_BIT(jank) ... */
	enum ft_present_type present;
	bool on_time_finish;
};

/* A record with every time unset. */
void ft_frame_init(struct ft_frame *f, int64_t token, int64_t period_ns);
/*
 * Fill the predictions from the VSYNC schedule: the app wakes
 * app_ns + sf_ns before present, SF wakes sf_ns before it, and SF's
 * deadline is the present itself.
 */
void ft_frame_predict(struct ft_frame *f, int64_t present_ns, int64_t app_ns,
		      int64_t sf_ns);
/* Classify the display frame (SF side) alone: None or one SF cause. */
enum ft_jank ft_classify_display(const struct ft_frame *f);
/* Classify the app frame; a pure function of the record. */
struct ft_verdict ft_classify(const struct ft_frame *f);
/* The main cause in a mask: app over SF over the rest (see .c). */
enum ft_jank ft_primary(uint32_t mask);
/* Janky as counted in our statistics: not None, not BufferStuffing. */
bool ft_is_janky(enum ft_jank j);
/* Names as Perfetto shows them, e.g. "App Deadline Missed". */
const char *ft_jank_name(enum ft_jank j);
const char *ft_present_name(enum ft_present_type p);
/* actual.present - expected.start: VSYNC-app to on screen, ns; -1 if none */
int64_t ft_present_latency_ns(const struct ft_frame *f);

#endif
