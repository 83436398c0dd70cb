// SPDX-License-Identifier: GPL-2.0
/*
 * frametimeline.c - FrameTimeline's jank classification as a pure function
 * of one frame's record. The rules are spelled out in frametimeline.h.
 */
#include <stddef.h>
#include "frametimeline.h"

static const char *const jank_names[FT_JANK_COUNT] = {
	[FT_JANK_NONE] = "None",
	[FT_JANK_APP_DEADLINE_MISSED] = "App Deadline Missed",
	[FT_JANK_BUFFER_STUFFING] = "Buffer Stuffing",
	[FT_JANK_SF_CPU_DEADLINE_MISSED] = "SurfaceFlinger CPU Deadline Missed",
	[FT_JANK_SF_SCHEDULING] = "SurfaceFlinger Scheduling",
	[FT_JANK_PREDICTION_ERROR] = "Prediction Error",
	[FT_JANK_DISPLAY_HAL] = "Display HAL",
	[FT_JANK_UNKNOWN] = "Unknown Jank",
	[FT_JANK_DROPPED] = "Dropped Frame",
};

const char *ft_jank_name(enum ft_jank j)
{
	return (unsigned int)j < FT_JANK_COUNT ? jank_names[j] : "?";
}

const char *ft_present_name(enum ft_present_type p)
{
	static const char *const names[] = {
		"On-time Present", "Early Present", "Late Present",
		"Dropped Frame", "Unknown Present",
	};

	return (unsigned int)p <= FT_PRESENT_UNKNOWN ? names[p] : "?";
}

void ft_frame_init(struct ft_frame *f, int64_t token, int64_t period_ns)
{
	const struct ft_times none = {
		FT_TIME_NONE, FT_TIME_NONE, FT_TIME_NONE
	};

	f->token = token;
	f->period_ns = period_ns;
	f->expected = f->actual = f->sf_expected = f->sf_actual = none;
	f->last_latch = FT_TIME_NONE;
	f->dropped = false;
	f->prediction_expired = false;
}

void ft_frame_predict(struct ft_frame *f, int64_t present_ns, int64_t app_ns,
		      int64_t sf_ns)
{
	f->expected.start = present_ns - app_ns - sf_ns;
	f->expected.end = present_ns - sf_ns;
	f->expected.present = present_ns;
	f->sf_expected.start = present_ns - sf_ns;
	f->sf_expected.end = present_ns;
	f->sf_expected.present = present_ns;
}

/* |delta| is within the present threshold of a whole number of periods */
static bool vsync_multiple(int64_t delta, int64_t period)
{
	int64_t r;

	if (period <= 0)
		return true;
	r = (delta < 0 ? -delta : delta) % period;
	return r < FT_PRESENT_THRESHOLD_NS ||
	       r >= period - FT_PRESENT_THRESHOLD_NS;
}

static enum ft_present_type present_type(int64_t delta)
{
	if (delta > FT_PRESENT_THRESHOLD_NS)
		return FT_PRESENT_LATE;
	if (delta < -FT_PRESENT_THRESHOLD_NS)
		return FT_PRESENT_EARLY;
	return FT_PRESENT_ON_TIME;
}

enum ft_jank ft_classify_display(const struct ft_frame *f)
{
	const struct ft_times *e = &f->sf_expected, *a = &f->sf_actual;
	int64_t delta;

	if (a->present == FT_TIME_NONE || e->present == FT_TIME_NONE)
		return FT_JANK_NONE;	/* nothing to judge */
	delta = a->present - e->present;
	switch (present_type(delta)) {
	case FT_PRESENT_ON_TIME:
		return FT_JANK_NONE;
	case FT_PRESENT_EARLY:
		return vsync_multiple(delta, f->period_ns) ?
			FT_JANK_SF_SCHEDULING : FT_JANK_PREDICTION_ERROR;
	default:
		break;
	}
	if (a->end != FT_TIME_NONE &&
	    a->end - e->end > FT_DEADLINE_THRESHOLD_NS)
		return FT_JANK_SF_CPU_DEADLINE_MISSED;
	if (a->start != FT_TIME_NONE &&
	    a->start - e->start > FT_START_THRESHOLD_NS)
		return FT_JANK_SF_SCHEDULING;
	return vsync_multiple(delta, f->period_ns) ?
		FT_JANK_DISPLAY_HAL : FT_JANK_PREDICTION_ERROR;
}

/*
 * The app missing its deadline explains a late frame best; SF's own
 * failures next; prediction trouble; stuffing is a state more than a
 * cause, so it comes last among the real ones.
 */
enum ft_jank ft_primary(uint32_t mask)
{
	static const enum ft_jank order[] = {
		FT_JANK_DROPPED, FT_JANK_APP_DEADLINE_MISSED,
		FT_JANK_SF_CPU_DEADLINE_MISSED, FT_JANK_SF_SCHEDULING,
		FT_JANK_DISPLAY_HAL, FT_JANK_PREDICTION_ERROR,
		FT_JANK_BUFFER_STUFFING, FT_JANK_UNKNOWN,
	};
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (mask & FT_BIT(order[i]))
			return order[i];
	return FT_JANK_NONE;
}

/* rule 6 of the header: a late present */
static uint32_t classify_late(const struct ft_frame *f, bool *on_time)
{
	enum ft_jank display = ft_classify_display(f);
	uint32_t mask = 0;

	if (f->last_latch != FT_TIME_NONE &&
	    f->expected.end <= f->last_latch) {
		mask |= FT_BIT(FT_JANK_BUFFER_STUFFING);
		*on_time = f->actual.end < f->last_latch + f->period_ns;
	}
	if (!*on_time)
		mask |= FT_BIT(FT_JANK_APP_DEADLINE_MISSED);
	if (display != FT_JANK_NONE)
		return mask | FT_BIT(display);
	if (!*on_time || mask)
		return mask;
	return FT_BIT(vsync_multiple(f->actual.present - f->expected.present,
				     f->period_ns) ?
		      FT_JANK_SF_SCHEDULING : FT_JANK_PREDICTION_ERROR);
}

static uint32_t classify_mask(const struct ft_frame *f, struct ft_verdict *v)
{
	int64_t delta;

	if (f->dropped) {
		v->present = FT_PRESENT_DROPPED;
		return FT_BIT(FT_JANK_DROPPED);
	}
	if (f->actual.present == FT_TIME_NONE)
		return FT_BIT(FT_JANK_UNKNOWN);
	if (f->prediction_expired) {
		v->on_time_finish = false;
		return FT_BIT(FT_JANK_APP_DEADLINE_MISSED);
	}
	delta = f->actual.present - f->expected.present;
	v->present = present_type(delta);
	if (v->present == FT_PRESENT_ON_TIME)
		return 0;
	if (v->present == FT_PRESENT_EARLY) {
		if (!v->on_time_finish)
			return FT_BIT(FT_JANK_UNKNOWN);
		return FT_BIT(vsync_multiple(delta, f->period_ns) ?
			      FT_JANK_SF_SCHEDULING : FT_JANK_PREDICTION_ERROR);
	}
	return classify_late(f, &v->on_time_finish);
}

struct ft_verdict ft_classify(const struct ft_frame *f)
{
	struct ft_verdict v = { .present = FT_PRESENT_UNKNOWN };

	v.on_time_finish = f->actual.end != FT_TIME_NONE &&
		f->actual.end - f->expected.end <= FT_DEADLINE_THRESHOLD_NS;
	v.mask = classify_mask(f, &v);
	v.jank = ft_primary(v.mask);
	return v;
}

/*
 * Every FrameTimeline jank type counts, Buffer Stuffing too: a stuffed
 * frame reaches the screen a period or more after its expected present,
 * which is what a user sees as lag, even when the app was not the cause.
 * Dropped counts although Perfetto paints it blue ("not a jank"): the
 * frame never reached the screen.
 */
bool ft_is_janky(enum ft_jank j)
{
	return j != FT_JANK_NONE;
}

int64_t ft_present_latency_ns(const struct ft_frame *f)
{
	if (f->dropped || f->actual.present == FT_TIME_NONE ||
	    f->expected.start == FT_TIME_NONE)
		return -1;
	return f->actual.present - f->expected.start;
}
