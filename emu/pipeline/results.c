// SPDX-License-Identifier: GPL-2.0
/*
 * results.c - the comparison as a table and as JSON (jansson); the chart is
 * tools/run-summary's, drawn from that JSON.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"
#include "../strategies/sys.h"

static const char *const status_name[] = {
	[PL_OK] = "ok", [PL_FAILED] = "failed", [PL_INTERRUPTED] = "interrupted",
};

void results_table_header(FILE *f, const struct results_meta *m)
{
	fprintf(f, "workload %s: %u frames at %u Hz (app %u us, sf %u us), kernel %s\n",
		m->wl->name, m->wl->frames, m->wl->refresh_hz,
		m->wl->app_duration_us, m->wl->sf_duration_us, m->kernel);
	fprintf(f, "platform: %s; energy: %s\n", m->ph->plat_source,
		m->ph->energy ? "energy_uj of every cpufreq policy" :
				"unavailable (no cpufreq energy meter)");
	fprintf(f, "nominal present latency %.1f ms (VSYNC-app to present); the first %u frames are warm-up, left out\n",
		(m->wl->app_duration_us + m->wl->sf_duration_us) / 1000.0,
		PL_WARMUP_FRAMES);
	fprintf(f, "%-12s %6s %8s %7s %7s %7s %7s %7s %9s %8s %6s %7s %8s\n",
		"strategy", "frames", "ontime%", "janky%", "stuffed", "skipped",
		"p50ms", "p99ms", "energy_mJ", "mJ/frame", "xlimit", "DL_bw%",
		"bg_it/s");
}

void results_table_row(FILE *f, const struct pl_result *r)
{
	const struct run_summary *s = &r->sum;
	char e[16] = "-", ef[16] = "-", x[16] = "-", dl[16] = "-";

	if (r->status == PL_FAILED && !s->frames) {
		fprintf(f, "%-12s FAILED: %s\n", r->strategy, r->error);
		return;
	}
	if (r->energy_ok) {
		snprintf(e, sizeof(e), "%.1f", r->energy_uj / 1000);
		snprintf(ef, sizeof(ef), "%.2f", s->energy_per_frame_mj);
		if (s->energy_vs_limit > 0)
			snprintf(x, sizeof(x), "%.2f", s->energy_vs_limit);
	}
	if (r->dl_bw_ppm)
		snprintf(dl, sizeof(dl), "%.1f", r->dl_bw_ppm / 1e4);
	fprintf(f, "%-12s %6u %8.1f %7.1f %7u %7u %7.1f %7.1f %9s %8s %6s %7s %8.0f%s%s\n",
		r->strategy, s->frames, s->on_time_pct, s->janky_pct,
		s->jank[FT_JANK_BUFFER_STUFFING], s->skipped,
		s->latency_p50_ms, s->latency_p99_ms, e, ef,
		x, dl, r->bg_iter_per_s,
		r->status == PL_OK ? "" : "  ",
		r->status == PL_OK ? "" : status_name[r->status]);
}

/* a number, or null when not finite */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *residency_json(const struct gplat *ph, const struct pl_result *r)
{
	json_t *o = json_object();
	int i;
	uint32_t k;

	for (i = 0; i < ph->npol; i++) {
		json_t *p = json_object();
		char key[16];

		for (k = 0; k < ph->pol[i].nfreq; k++) {
			snprintf(key, sizeof(key), "%u", ph->pol[i].khz[k]);
			json_object_set_new(p, key,
				json_integer((json_int_t)r->residency.ms[i][k]));
		}
		json_object_set_new(o, ph->pol[i].name, p);
	}
	return o;
}

/* "0-1,4": the CPUs of mask @cpus */
static void cpu_list(uint64_t cpus, char *buf, size_t len)
{
	size_t n = 0;
	int cpu = 0;

	buf[0] = 0;
	while (cpu < 64 && n < len) {
		int first;

		if (!(cpus & (1ULL << cpu))) {
			cpu++;
			continue;
		}
		first = cpu;
		while (cpu < 64 && (cpus & (1ULL << cpu)))
			cpu++;
		n += snprintf(buf + n, len - n, first == cpu - 1 ? "%s%d" : "%s%d-%d",
			      n ? "," : "", first, cpu - 1);
	}
}

static json_t *settings_json(const struct pl_result *r)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < r->nsettings; i++) {
		const struct pl_thread_settings *t = &r->settings[i];
		char cpus[256];

		if (!t->ok) {
			json_array_append_new(a, json_pack("{s:s, s:s}", "role", t->role,
							   "error", strerror(t->err_no)));
			continue;
		}
		cpu_list(t->cpus, cpus, sizeof(cpus));
		json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i, s:I, s:I, s:I, s:i, s:i, s:s}",
			"role", t->role, "policy", sys_policy_name(t->policy),
			"nice", (int)t->nice, "priority", (int)t->priority,
			"runtime_us", (json_int_t)(t->runtime_ns / 1000),
			"deadline_us", (json_int_t)(t->deadline_ns / 1000),
			"period_us", (json_int_t)(t->period_ns / 1000),
			"uclamp_min", (int)t->util_min, "uclamp_max", (int)t->util_max,
			"cpus", cpus));
	}
	return a;
}

static json_t *run_json(const struct results_meta *m, const struct pl_result *r)
{
	const struct run_summary *s = &r->sum;
	json_t *o = json_object(), *jank = json_object(), *bg = json_array();
	uint32_t k;

	json_object_set_new(o, "strategy", json_string(r->strategy));
	json_object_set_new(o, "status", json_string(status_name[r->status]));
	json_object_set_new(o, "error", r->error[0] ? json_string(r->error) :
						      json_null());
	json_object_set_new(o, "frames", json_integer(s->frames));
	json_object_set_new(o, "frames_requested", json_integer(r->frames_requested));
	json_object_set_new(o, "warmup_frames", json_integer(r->warmup));
	json_object_set_new(o, "skipped", json_integer(s->skipped));
	json_object_set_new(o, "presented", json_integer(s->presented));
	json_object_set_new(o, "on_time", json_integer(s->on_time));
	json_object_set_new(o, "on_time_pct", num(s->on_time_pct));
	json_object_set_new(o, "janky", json_integer(s->janky));
	json_object_set_new(o, "janky_pct", num(s->janky_pct));
	json_object_set_new(o, "buffer_stuffing",
			    json_integer(s->jank[FT_JANK_BUFFER_STUFFING]));
	json_object_set_new(o, "ui_ahead", json_integer(r->ui_ahead));
	json_object_set_new(o, "dropped", json_integer(s->dropped));
	json_object_set_new(o, "app_missed_latch", json_integer(r->app_missed));
	json_object_set_new(o, "p50_latency_ms", num(s->latency_p50_ms));
	json_object_set_new(o, "p90_latency_ms", num(s->latency_p90_ms));
	json_object_set_new(o, "p99_latency_ms", num(s->latency_p99_ms));
	for (k = 0; k < FT_JANK_COUNT; k++)
		if (s->jank[k])
			json_object_set_new(jank, ft_jank_name(k),
					    json_integer(s->jank[k]));
	json_object_set_new(o, "jank_types", jank);
	json_object_set_new(o, "energy_mj", r->energy_ok ?
			    num(r->energy_uj / 1000) : json_null());
	json_object_set_new(o, "energy_per_frame_mj", r->energy_ok ?
			    num(s->energy_per_frame_mj) : json_null());
	json_object_set_new(o, "energy_limit_mj", num(r->limit_uj / 1000));
	json_object_set_new(o, "energy_limit_background_mj", num(r->limit_bg_uj / 1000));
	json_object_set_new(o, "energy_limit_infeasible_frames",
			    json_integer(r->limit_infeasible));
	json_object_set_new(o, "energy_vs_limit",
			    r->energy_ok && s->energy_vs_limit > 0 ?
			    num(s->energy_vs_limit) : json_null());
	json_object_set_new(o, "dl_bw_reserved_ppm", json_integer((json_int_t)r->dl_bw_ppm));
	json_object_set_new(o, "token_passes", json_integer(r->token_passes));
	json_object_set_new(o, "token_missing_ui", json_integer(r->token_missing_ui));
	json_object_set_new(o, "token_missing_render",
			    json_integer(r->token_missing_render));
	json_object_set_new(o, "token_not_followed",
			    json_integer(r->token_not_followed));
	json_object_set_new(o, "thread_settings", settings_json(r));
	json_object_set_new(o, "frequency_residency_ms", r->residency_ok ?
			    residency_json(m->ph, r) : json_null());
	for (k = 0; k < r->nbg; k++) {
		const struct bg_result *b = &r->bg[k];

		json_array_append_new(bg, json_pack("{s:s, s:s, s:i, s:I, s:o, s:o, s:I}",
			"name", b->name, "type", b->type, "threads", (int)b->threads,
			"iterations", (json_int_t)b->iterations,
			"iterations_per_s", num(b->per_s),
			"work_ms_per_s", num(b->work_ms_per_s),
			"periods_overrun", (json_int_t)b->missed));
	}
	json_object_set_new(o, "background", bg);
	json_object_set_new(o, "background_iterations_per_s", num(r->bg_iter_per_s));
	json_object_set_new(o, "background_work_ms_per_s", num(r->bg_work_ms_per_s));
	json_object_set_new(o, "gpu_mutex_wait_p99_ms", num(r->gpu_wait_p99_ms));
	json_object_set_new(o, "gpu_mutex_wait_max_ms", num(r->gpu_wait_max_ms));
	json_object_set_new(o, "sf_wake_p90_ms", num(r->sf_wake_p90_ms));
	json_object_set_new(o, "input_events", json_integer((json_int_t)r->inputs));
	json_object_set_new(o, "run_s", num(r->run_s));
	json_object_set_new(o, "trace", r->trace_file[0] ?
			    json_string(r->trace_file) : json_null());
	return o;
}

int results_write_json(const char *path, const struct results_meta *m,
		       const struct pl_result *r, size_t n)
{
	json_t *root = json_object(), *runs = json_array();
	size_t i;
	int ret;

	json_object_set_new(root, "schema_version", json_integer(RESULTS_SCHEMA_VERSION));
	json_object_set_new(root, "workload", json_string(m->wl->name));
	json_object_set_new(root, "workload_file", json_string(m->workload_path));
	json_object_set_new(root, "refresh_hz", json_integer(m->wl->refresh_hz));
	json_object_set_new(root, "frames", json_integer(m->wl->frames));
	json_object_set_new(root, "period_ns", json_integer((json_int_t)m->period_ns));
	json_object_set_new(root, "nominal_latency_ms",
			    num((m->wl->app_duration_us + m->wl->sf_duration_us) / 1000.0));
	json_object_set_new(root, "warmup_frames", json_integer(PL_WARMUP_FRAMES));
	json_object_set_new(root, "kernel", json_string(m->kernel));
	json_object_set_new(root, "platform", json_string(m->ph->plat_source));
	json_object_set_new(root, "energy_meter", json_boolean(m->ph->energy));
	json_object_set_new(root, "loops_per_us", num(m->loops_per_us));
	json_object_set_new(root, "work", json_string(m->work_mode ? m->work_mode : "loops"));
	if (m->left_out && *m->left_out) {
		json_object_set_new(root, "left_out", json_string(m->left_out));
		json_object_set_new(root, "left_out_why", json_string(m->left_out_why));
	}
	for (i = 0; i < n; i++)
		json_array_append_new(runs, run_json(m, &r[i]));
	json_object_set_new(root, "runs", runs);
	ret = json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (ret)
		errno = EIO;
	return ret ? -1 : 0;
}
