// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - read a workload JSON file with jansson and check every field.
 *
 * Strict on purpose: an unknown key is an error (a typo such as "perod_us"
 * must not silently fall back to a default), integers must be integers,
 * and every message names the file, the JSON path and what was expected.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include "workload.h"

const char *const wl_stage_name[WL_NSTAGES] = {
	[WL_UI] = "ui", [WL_RENDER] = "render",
	[WL_GPU_SUBMIT] = "gpu_submit", [WL_GPU] = "gpu", [WL_SF] = "sf",
};

const char *const wl_bg_type_name[WL_BG_NTYPES] = {
	[WL_BG_CFS_HOG] = "cfs_hog",
	[WL_BG_CFS_PERIODIC] = "cfs_periodic",
	[WL_BG_RT_PERIODIC] = "rt_periodic",
	[WL_BG_DL_PERIODIC] = "dl_periodic",
	[WL_BG_GPU_MUTEX_HOG] = "gpu_mutex_hog",
};

/*
 * The defaults, all in one place (mirrored in workloads/README.md).
 * refresh_hz, frames, stages.*, stages.*.base_us and the per-type
 * required background fields have no default.
 */
#define DEF_SEED		1
#define DEF_INPUT_EVENT_HZ	120
#define DEF_BG_THREADS		1
#define DEF_BG_NICE		0
#define DEF_BG_RT_PRIORITY	1
/* Android's late durations at 60 Hz (Pixel: debug.sf.late.{app,sf}.duration) */
#define DEF_APP_DURATION_60_US	20500
#define DEF_SF_DURATION_60_US	10500

/*
 * Android's WorkDuration applies the configured durations as they are at
 * every refresh rate (and period / period - 1 ms when unset). We scale the
 * 60 Hz values by 60/hz instead, so that each workload keeps the same phase
 * structure (app 1.23 periods, sf 0.63 periods) at 60, 90 and 120 Hz:
 * 90 Hz: 13667/7000 µs, 120 Hz: 10250/5250 µs. A file can set both.
 */
void wl_default_durations(uint32_t refresh_hz, uint32_t *app_us, uint32_t *sf_us)
{
	*app_us = (DEF_APP_DURATION_60_US * 60 + refresh_hz / 2) / refresh_hz;
	*sf_us = (DEF_SF_DURATION_60_US * 60 + refresh_hz / 2) / refresh_hz;
}

uint64_t wl_period_ns(const struct workload *wl)
{
	return (1000000000ull + wl->refresh_hz / 2) / wl->refresh_hz;
}

static void wl_defaults(struct workload *wl)
{
	memset(wl, 0, sizeof(*wl));
	wl->seed = DEF_SEED;
	wl->input.event_hz = DEF_INPUT_EVENT_HZ;
}

static void bg_defaults(struct wl_bg *b)
{
	memset(b, 0, sizeof(*b));
	b->threads = DEF_BG_THREADS;
	b->nice = DEF_BG_NICE;
	b->priority = DEF_BG_RT_PRIORITY;
	b->cpu = -1;
}

struct ctx {
	const char *file;
	char *err;
	size_t errlen;
};

/* Always returns -1, so callers can "return fail(...)". */
static int fail(struct ctx *c, const char *path, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s: %s: %s", c->file,
		 *path ? path : "(top level)", what);
	return -1;
}

static const char *join(char *buf, size_t len, const char *parent,
			const char *key)
{
	/* paths are short; the precisions keep gcc sure of it */
	snprintf(buf, len, "%.60s%s%.60s", parent, *parent ? "." : "", key);
	return buf;
}

/* allowed is a NULL-terminated list of key names */
static int check_keys(struct ctx *c, json_t *obj, const char *path,
		      const char *const *allowed)
{
	const char *key;
	json_t *v;
	char sub[128], list[256];

	json_object_foreach(obj, key, v) {
		size_t i, n = 0;
		bool ok = false;

		for (i = 0; allowed[i]; i++)
			ok |= !strcmp(key, allowed[i]);
		if (ok)
			continue;
		list[0] = 0;
		for (i = 0; allowed[i]; i++)
			n += snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0,
				      "%s%s", i ? ", " : "", allowed[i]);
		return fail(c, join(sub, sizeof(sub), path, key),
			    "unknown key (expected one of: %s)", list);
	}
	return 0;
}

static int need_object(struct ctx *c, json_t *v, const char *path)
{
	return json_is_object(v) ? 0 : fail(c, path, "expected an object");
}

/*
 * Integer field key of obj: 0 if read into *out, 1 if absent and optional,
 * -1 on error. Reals such as 3000.0 are refused: µs are whole numbers.
 */
static int get_int(struct ctx *c, json_t *obj, const char *path, const char *key,
		   long long min, long long max, bool required, long long *out)
{
	json_t *v = json_object_get(obj, key);
	char sub[128], range[96];
	long long x;

	join(sub, sizeof(sub), path, key);
	if (max == LLONG_MAX)
		snprintf(range, sizeof(range), "an integer >= %lld", min);
	else
		snprintf(range, sizeof(range), "an integer between %lld and %lld",
			 min, max);
	if (!v)
		return required ? fail(c, sub, "missing (expected %s)", range) : 1;
	if (!json_is_integer(v))
		return fail(c, sub, "expected %s", range);
	x = json_integer_value(v);
	if (x < min || x > max)
		return fail(c, sub, "expected %s", range);
	*out = x;
	return 0;
}

static int get_u32(struct ctx *c, json_t *obj, const char *path, const char *key,
		   long long min, long long max, bool required, uint32_t *out)
{
	long long x;
	int r = get_int(c, obj, path, key, min, max, required, &x);

	if (r == 0)
		*out = (uint32_t)x;
	return r < 0 ? -1 : 0;
}

static int get_nice(struct ctx *c, json_t *obj, const char *path, int32_t *out)
{
	long long x;
	int r = get_int(c, obj, path, "nice", -20, 19, false, &x);

	if (r == 0)
		*out = (int32_t)x;
	return r < 0 ? -1 : 0;
}

static int get_rate(struct ctx *c, json_t *obj, const char *path,
		    const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);
	char sub[128];
	double x;

	if (!v)
		return 0;
	x = json_number_value(v);
	if (!json_is_number(v) || !(x >= 0 && x <= 1))
		return fail(c, join(sub, sizeof(sub), path, key),
			    "expected a number between 0 and 1");
	*out = x;
	return 0;
}

static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_.-", *s)))
			return false;
	return true;
}

static int get_name(struct ctx *c, json_t *obj, const char *path,
		    const char *key, char *out)
{
	json_t *v = json_object_get(obj, key);
	char sub[128];

	if (!v)
		return 0;
	if (!json_is_string(v) || json_string_length(v) >= WL_NAME_LEN ||
	    !name_ok(json_string_value(v)))
		return fail(c, join(sub, sizeof(sub), path, key),
			    "expected a name of 1..%d characters from [A-Za-z0-9_.-]",
			    WL_NAME_LEN - 1);
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

static int parse_dist(struct ctx *c, json_t *obj, const char *path,
		      struct wl_dist *d)
{
	static const char *const keys[] = {
		"base_us", "jitter_us", "heavy_rate", "heavy_us", NULL
	};
	char sub[128];

	if (need_object(c, obj, path) || check_keys(c, obj, path, keys) ||
	    get_u32(c, obj, path, "base_us", 0, 1000000, true, &d->base_us) ||
	    get_u32(c, obj, path, "jitter_us", 0, 1000000, false, &d->jitter_us) ||
	    get_rate(c, obj, path, "heavy_rate", &d->heavy_rate) ||
	    get_u32(c, obj, path, "heavy_us", 0, 1000000, false, &d->heavy_us))
		return -1;
	/* jitter beyond base would clip at 0 and skew the mean */
	if (d->jitter_us > d->base_us)
		return fail(c, join(sub, sizeof(sub), path, "jitter_us"),
			    "expected an integer between 0 and base_us (%u)",
			    d->base_us);
	if (d->heavy_rate > 0 && d->heavy_us == 0)
		return fail(c, join(sub, sizeof(sub), path, "heavy_us"),
			    "expected an integer > 0 since heavy_rate is %g",
			    d->heavy_rate);
	return 0;
}

static int parse_stages(struct ctx *c, json_t *obj, struct workload *wl)
{
	static const char *const keys[] = {
		"ui", "render", "gpu_submit", "gpu", "sf", NULL
	};
	char sub[128];
	int s;

	if (!obj)
		return fail(c, "stages", "missing (expected an object with %s)",
			    "ui, render, gpu_submit, gpu, sf");
	if (need_object(c, obj, "stages") || check_keys(c, obj, "stages", keys))
		return -1;
	for (s = 0; s < WL_NSTAGES; s++) {
		json_t *d = json_object_get(obj, wl_stage_name[s]);

		join(sub, sizeof(sub), "stages", wl_stage_name[s]);
		if (!d)
			return fail(c, sub, "missing (expected an object with base_us)");
		if (parse_dist(c, d, sub, &wl->stage[s]))
			return -1;
	}
	return 0;
}

static int parse_vsync(struct ctx *c, json_t *obj, struct workload *wl)
{
	static const char *const keys[] = {
		"app_duration_us", "sf_duration_us", NULL
	};

	wl_default_durations(wl->refresh_hz, &wl->app_duration_us,
			     &wl->sf_duration_us);
	if (!obj)
		return 0;
	if (need_object(c, obj, "vsync") || check_keys(c, obj, "vsync", keys) ||
	    get_u32(c, obj, "vsync", "app_duration_us", 1000, 100000, false,
		    &wl->app_duration_us) ||
	    get_u32(c, obj, "vsync", "sf_duration_us", 1000, 100000, false,
		    &wl->sf_duration_us))
		return -1;
	return 0;
}

static int parse_input(struct ctx *c, json_t *obj, struct wl_input *in)
{
	static const char *const keys[] = {
		"start_ms", "touch_ms", "gap_ms", "event_hz", "streams", NULL
	};
	const char *p = "input";

	if (!obj)
		return 0;
	if (need_object(c, obj, p) || check_keys(c, obj, p, keys) ||
	    get_u32(c, obj, p, "start_ms", 0, 3600000, false, &in->start_ms) ||
	    get_u32(c, obj, p, "touch_ms", 0, 3600000, false, &in->touch_ms) ||
	    get_u32(c, obj, p, "gap_ms", 0, 3600000, false, &in->gap_ms) ||
	    get_u32(c, obj, p, "event_hz", 1, 1000, false, &in->event_hz) ||
	    get_u32(c, obj, p, "streams", 0, 1000000, false, &in->streams))
		return -1;
	return 0;
}

static int get_cpu(struct ctx *c, json_t *obj, const char *path,
		   struct wl_bg *b)
{
	long long x;
	int r = get_int(c, obj, path, "cpu", 0, 1023, false, &x);

	if (r == 0)
		b->cpu = (int32_t)x;
	return r < 0 ? -1 : 0;
}

/* keys each background type accepts, besides "type" and "name" */
static const char *const bg_keys[WL_BG_NTYPES][8] = {
	[WL_BG_CFS_HOG] = { "type", "name", "threads", "nice", "cpu" },
	[WL_BG_CFS_PERIODIC] = { "type", "name", "threads", "nice",
				 "period_us", "run_us", "cpu" },
	[WL_BG_RT_PERIODIC] = { "type", "name", "threads", "priority",
				"period_us", "run_us", "cpu" },
	/* no "cpu": a DEADLINE task's affinity must span its root domain */
	[WL_BG_DL_PERIODIC] = { "type", "name", "threads", "period_us",
				"run_us", "dl_runtime_us", "dl_deadline_us" },
	[WL_BG_GPU_MUTEX_HOG] = { "type", "name", "nice", "period_us",
				  "hold_us", "cpu" },
};

static int parse_bg_type(struct ctx *c, json_t *obj, const char *path,
			 struct wl_bg *b)
{
	json_t *v = json_object_get(obj, "type");
	char sub[128];
	int t;

	join(sub, sizeof(sub), path, "type");
	for (t = 0; v && json_is_string(v) && t < WL_BG_NTYPES; t++) {
		if (!strcmp(json_string_value(v), wl_bg_type_name[t])) {
			b->type = t;
			return 0;
		}
	}
	return fail(c, sub, "%s (expected one of: cfs_hog, cfs_periodic, rt_periodic, dl_periodic, gpu_mutex_hog)",
		    v ? "unknown type" : "missing");
}

/* run_us (or hold_us) of every period_us */
static int parse_bg_period(struct ctx *c, json_t *obj, const char *path,
			   const char *runkey, struct wl_bg *b)
{
	char sub[128];

	if (get_u32(c, obj, path, "period_us", 100, 10000000, true, &b->period_us) ||
	    get_u32(c, obj, path, runkey, 1, 10000000, true, &b->run_us))
		return -1;
	if (b->run_us > b->period_us)
		return fail(c, join(sub, sizeof(sub), path, runkey),
			    "expected an integer between 1 and period_us (%u)",
			    b->period_us);
	return 0;
}

static int parse_bg_dl(struct ctx *c, json_t *obj, const char *path,
		       struct wl_bg *b)
{
	char sub[128];

	b->dl_deadline_us = b->period_us;
	if (get_u32(c, obj, path, "dl_deadline_us", 100, b->period_us, false,
		    &b->dl_deadline_us) ||
	    get_u32(c, obj, path, "dl_runtime_us", 1, 10000000, true,
		    &b->dl_runtime_us))
		return -1;
	/* the kernel's own rule: runtime <= deadline <= period */
	if (b->dl_runtime_us > b->dl_deadline_us)
		return fail(c, join(sub, sizeof(sub), path, "dl_runtime_us"),
			    "expected an integer between 1 and dl_deadline_us (%u)",
			    b->dl_deadline_us);
	return 0;
}

static int parse_bg(struct ctx *c, json_t *obj, const char *path,
		    size_t idx, struct wl_bg *b)
{
	bg_defaults(b);
	if (need_object(c, obj, path) || parse_bg_type(c, obj, path, b) ||
	    check_keys(c, obj, path, bg_keys[b->type]))
		return -1;
	snprintf(b->name, sizeof(b->name), "%s%zu", wl_bg_type_name[b->type], idx);
	if (get_name(c, obj, path, "name", b->name) ||
	    get_u32(c, obj, path, "threads", 1, 64, false, &b->threads) ||
	    get_u32(c, obj, path, "priority", 1, 99, false, &b->priority) ||
	    get_nice(c, obj, path, &b->nice) || get_cpu(c, obj, path, b))
		return -1;
	switch (b->type) {
	case WL_BG_CFS_HOG:
		return 0;
	case WL_BG_GPU_MUTEX_HOG:
		return parse_bg_period(c, obj, path, "hold_us", b);
	case WL_BG_DL_PERIODIC:
		return parse_bg_period(c, obj, path, "run_us", b) ||
		       parse_bg_dl(c, obj, path, b) ? -1 : 0;
	default:
		return parse_bg_period(c, obj, path, "run_us", b);
	}
}

static int parse_background(struct ctx *c, json_t *arr, struct workload *wl)
{
	char sub[64];
	json_t *v;
	size_t i;

	if (!arr)
		return 0;
	if (!json_is_array(arr) || json_array_size(arr) > WL_MAX_BG)
		return fail(c, "background", "expected an array of at most %d entries",
			    WL_MAX_BG);
	json_array_foreach(arr, i, v) {
		snprintf(sub, sizeof(sub), "background[%zu]", i);
		if (parse_bg(c, v, sub, i, &wl->bg[i]))
			return -1;
	}
	wl->nbg = (uint32_t)json_array_size(arr);
	return 0;
}

static int parse_top(struct ctx *c, json_t *root, struct workload *wl)
{
	static const char *const keys[] = {
		"name", "description", "refresh_hz", "frames", "seed", "vsync",
		"stages", "input", "background", NULL
	};
	json_t *d = json_object_get(root, "description");
	long long seed = (long long)wl->seed;

	if (need_object(c, root, "") || check_keys(c, root, "", keys) ||
	    get_name(c, root, "", "name", wl->name))
		return -1;
	if (d && !json_is_string(d))
		return fail(c, "description", "expected a string");
	if (get_u32(c, root, "", "refresh_hz", 60, 120, true, &wl->refresh_hz))
		return -1;
	if (wl->refresh_hz != 60 && wl->refresh_hz != 90 && wl->refresh_hz != 120)
		return fail(c, "refresh_hz", "expected 60, 90 or 120");
	if (get_u32(c, root, "", "frames", 1, 1000000, true, &wl->frames) ||
	    get_int(c, root, "", "seed", 0, LLONG_MAX, false, &seed) < 0)
		return -1;
	wl->seed = (uint64_t)seed;
	return parse_vsync(c, json_object_get(root, "vsync"), wl) ||
	       parse_stages(c, json_object_get(root, "stages"), wl) ||
	       parse_input(c, json_object_get(root, "input"), &wl->input) ||
	       parse_background(c, json_object_get(root, "background"), wl);
}

/* "dir/light-scroll.json" -> "light-scroll" */
static void name_from_file(const char *file, char *out)
{
	const char *b = strrchr(file, '/');
	size_t n;

	b = b ? b + 1 : file;
	n = strcspn(b, ".");
	if (n >= WL_NAME_LEN)
		n = WL_NAME_LEN - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

static int parse_root(json_t *root, const json_error_t *jerr, const char *file,
		      struct workload *wl, char *err, size_t errlen)
{
	struct ctx c = { .file = file, .err = err, .errlen = errlen };
	int r;

	wl_defaults(wl);
	if (!root) {
		snprintf(err, errlen, "%s: line %d column %d: invalid JSON: %s",
			 file, jerr->line, jerr->column, jerr->text);
		return -1;
	}
	name_from_file(file, wl->name);
	r = parse_top(&c, root, wl);
	json_decref(root);
	return r ? -1 : 0;
}

int wl_parse(const char *text, const char *name, struct workload *wl,
	     char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);

	return parse_root(root, &jerr, name, wl, err, errlen);
}

int wl_load(const char *path, struct workload *wl, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);

	if (!root && jerr.line < 0) {
		/* jansson reports unreadable files with line -1 */
		snprintf(err, errlen, "%s: %s", path, jerr.text);
		wl_defaults(wl);
		return -1;
	}
	return parse_root(root, &jerr, path, wl, err, errlen);
}
