// SPDX-License-Identifier: GPL-2.0
/*
 * workload_test.c - workload files: the shipped ones load with the values
 * they say, defaults apply, and every kind of bad input is refused with a
 * message naming the file, the JSON path and what was expected.
 */
#include <string.h>
#include "emu_test.h"
#include "workload.h"

#define ERRLEN 512
#define WDIR "emu/workloads/"

/* a valid minimal file, with room for more top-level keys */
#define STAGES "\"stages\":{\"ui\":{\"base_us\":1000},\"render\":{\"base_us\":900}," \
	"\"gpu_submit\":{\"base_us\":100},\"gpu\":{\"base_us\":2000},\"sf\":{\"base_us\":500}}"
#define FILE_WITH(extra) "{\"refresh_hz\":60,\"frames\":10," STAGES extra "}"
#define BG(entry) FILE_WITH(",\"background\":[" entry "]")

TEST(minimal_file_gets_the_documented_defaults)
{
	struct workload wl;
	char err[ERRLEN] = "";

	ASSERT_EQ(0, wl_parse(FILE_WITH(""), "dir/min.json", &wl, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_STREQ("min", wl.name);
	ASSERT_EQ(60, wl.refresh_hz);
	ASSERT_EQ(10, wl.frames);
	ASSERT_EQ(1, wl.seed);
	ASSERT_EQ(20500, wl.app_duration_us);
	ASSERT_EQ(10500, wl.sf_duration_us);
	ASSERT_EQ(900, wl.stage[WL_RENDER].base_us);
	ASSERT_EQ(0, wl.stage[WL_UI].jitter_us);
	ASSERT_EQ(0, wl.stage[WL_UI].heavy_us);
	ASSERT_NEAR(0, wl.stage[WL_UI].heavy_rate, 0);
	ASSERT_EQ(0, wl.input.touch_ms);
	ASSERT_EQ(120, wl.input.event_hz);
	ASSERT_EQ(0, wl.nbg);
	ASSERT_EQ(16666667, wl_period_ns(&wl));
}

TEST(durations_scale_with_refresh_rate)
{
	uint32_t app, sf;

	wl_default_durations(60, &app, &sf);
	ASSERT_EQ(20500, app);
	ASSERT_EQ(10500, sf);
	wl_default_durations(90, &app, &sf);
	ASSERT_EQ(13667, app);
	ASSERT_EQ(7000, sf);
	wl_default_durations(120, &app, &sf);
	ASSERT_EQ(10250, app);
	ASSERT_EQ(5250, sf);
}

TEST(explicit_vsync_durations_win)
{
	struct workload wl;
	char err[ERRLEN] = "";

	ASSERT_EQ(0, wl_parse("{\"refresh_hz\":120,\"frames\":1,\"vsync\":{\"app_duration_us\":20500}," STAGES "}",
			      "v.json", &wl, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(20500, wl.app_duration_us);
	ASSERT_EQ(5250, wl.sf_duration_us);	/* the other keeps its default */
	ASSERT_EQ(8333333, wl_period_ns(&wl));
}

TEST(background_entries_and_their_defaults)
{
	struct workload wl;
	char err[ERRLEN] = "";

	ASSERT_EQ(0, wl_parse(BG("{\"type\":\"cfs_hog\"},"
				 "{\"type\":\"dl_periodic\",\"name\":\"audio\",\"period_us\":5000,\"run_us\":400,\"dl_runtime_us\":1000},"
				 "{\"type\":\"rt_periodic\",\"period_us\":5000,\"run_us\":400,\"priority\":3},"
				 "{\"type\":\"gpu_mutex_hog\",\"period_us\":100000,\"hold_us\":6000,\"nice\":10}"),
			      "bg.json", &wl, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(4, wl.nbg);
	ASSERT_EQ(WL_BG_CFS_HOG, wl.bg[0].type);
	ASSERT_STREQ("cfs_hog0", wl.bg[0].name);
	ASSERT_EQ(1, wl.bg[0].threads);
	ASSERT_EQ(0, wl.bg[0].nice);
	ASSERT_STREQ("audio", wl.bg[1].name);
	ASSERT_EQ(5000, wl.bg[1].dl_deadline_us);	/* = period */
	ASSERT_EQ(1000, wl.bg[1].dl_runtime_us);
	ASSERT_EQ(3, wl.bg[2].priority);
	ASSERT_STREQ("rt_periodic2", wl.bg[2].name);
	ASSERT_EQ(WL_BG_GPU_MUTEX_HOG, wl.bg[3].type);
	ASSERT_EQ(6000, wl.bg[3].run_us);
	ASSERT_EQ(10, wl.bg[3].nice);
}

TEST(shipped_light_scroll)
{
	struct workload wl;
	char err[ERRLEN] = "";

	ASSERT_EQ(0, wl_load(WDIR "light-scroll-60.json", &wl, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_STREQ("light-scroll-60", wl.name);
	ASSERT_EQ(60, wl.refresh_hz);
	ASSERT_EQ(2500, wl.stage[WL_UI].base_us);
	ASSERT_NEAR(0.05, wl.stage[WL_UI].heavy_rate, 1e-12);
	ASSERT_EQ(800, wl.input.touch_ms);
	ASSERT_EQ(0, wl.nbg);
}

TEST(shipped_game_is_120hz)
{
	struct workload wl;
	char err[ERRLEN] = "";

	ASSERT_EQ(0, wl_load(WDIR "game-120.json", &wl, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(120, wl.refresh_hz);
	ASSERT_EQ(10250, wl.app_duration_us);
	ASSERT_EQ(WL_BG_RT_PERIODIC, wl.bg[0].type);
}

TEST(shipped_ui_heavy_background_has_the_inversion_source)
{
	struct workload wl;
	char err[ERRLEN] = "";
	uint32_t i, hogs = 0;

	ASSERT_EQ(0, wl_load(WDIR "ui-heavy-background.json", &wl, err, sizeof(err)))
		TH_LOG("%s", err);
	for (i = 0; i < wl.nbg; i++)
		hogs += wl.bg[i].type == WL_BG_GPU_MUTEX_HOG;
	ASSERT_EQ(1, hogs);
}

TEST(shipped_article_example_is_half_a_frame_each)
{
	struct workload wl;
	char err[ERRLEN] = "";
	double period_us, ui, rt;

	ASSERT_EQ(0, wl_load(WDIR "article-example.json", &wl, err, sizeof(err)))
		TH_LOG("%s", err);
	period_us = wl_period_ns(&wl) / 1000.0;
	ui = wl.stage[WL_UI].base_us;
	rt = wl.stage[WL_RENDER].base_us + wl.stage[WL_GPU_SUBMIT].base_us;
	/* "about half a frame" each at fmax: 40..50% of the period */
	ASSERT_TRUE(ui >= 0.4 * period_us && ui <= 0.5 * period_us);
	ASSERT_TRUE(rt >= 0.4 * period_us && rt <= 0.5 * period_us);
	ASSERT_EQ(0, wl.stage[WL_UI].heavy_us);
}

TEST(missing_file_is_named)
{
	struct workload wl;
	char err[ERRLEN] = "";

	ASSERT_EQ(-1, wl_load("/nonexistent/w.json", &wl, err, sizeof(err)));
	ASSERT_CONTAINS(err, "/nonexistent/w.json");
	ASSERT_CONTAINS(err, "No such file");
}

/* Every kind of bad input, and the message it must produce. */
FIXTURE(bad) {
	char err[ERRLEN];
};

FIXTURE_VARIANT(bad) {
	const char *json;
	const char *msg;	/* the exact message ... */
	bool prefix_only;	/* ... or only its start, for jansson's words */
};

FIXTURE_SETUP(bad) { self->err[0] = 0; }
FIXTURE_TEARDOWN(bad) { }

FIXTURE_VARIANT_ADD(bad, syntax_error) {
	.json = "{\"refresh_hz\": 60,,}",
	.msg = "bad.json: line 1 column 19: invalid JSON: ", .prefix_only = true,
};
FIXTURE_VARIANT_ADD(bad, duplicate_key) {
	.json = "{\"frames\": 1, \"frames\": 2}",
	.msg = "bad.json: line 1 column ", .prefix_only = true,
};
FIXTURE_VARIANT_ADD(bad, top_level_not_object) {
	.json = "[1, 2]",
	.msg = "bad.json: (top level): expected an object",
};
FIXTURE_VARIANT_ADD(bad, unknown_top_level_key) {
	.json = FILE_WITH(",\"refresh\":60"),
	.msg = "bad.json: refresh: unknown key (expected one of: name, description, refresh_hz, frames, seed, vsync, stages, input, background)",
};
FIXTURE_VARIANT_ADD(bad, missing_refresh_hz) {
	.json = "{\"frames\":10," STAGES "}",
	.msg = "bad.json: refresh_hz: missing (expected an integer between 60 and 120)",
};
FIXTURE_VARIANT_ADD(bad, refresh_hz_75) {
	.json = "{\"refresh_hz\":75,\"frames\":10," STAGES "}",
	.msg = "bad.json: refresh_hz: expected 60, 90 or 120",
};
FIXTURE_VARIANT_ADD(bad, frames_zero) {
	.json = "{\"refresh_hz\":60,\"frames\":0," STAGES "}",
	.msg = "bad.json: frames: expected an integer between 1 and 1000000",
};
FIXTURE_VARIANT_ADD(bad, name_with_space) {
	.json = FILE_WITH(",\"name\":\"my load\""),
	.msg = "bad.json: name: expected a name of 1..47 characters from [A-Za-z0-9_.-]",
};
FIXTURE_VARIANT_ADD(bad, description_not_string) {
	.json = FILE_WITH(",\"description\":3"),
	.msg = "bad.json: description: expected a string",
};
FIXTURE_VARIANT_ADD(bad, missing_stages) {
	.json = "{\"refresh_hz\":60,\"frames\":10}",
	.msg = "bad.json: stages: missing (expected an object with ui, render, gpu_submit, gpu, sf)",
};
FIXTURE_VARIANT_ADD(bad, missing_stage_sf) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":1},\"render\":{\"base_us\":1},\"gpu_submit\":{\"base_us\":1},\"gpu\":{\"base_us\":1}}}",
	.msg = "bad.json: stages.sf: missing (expected an object with base_us)",
};
FIXTURE_VARIANT_ADD(bad, misspelt_stage) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":1},\"render\":{\"base_us\":1},\"gpu_sumbit\":{\"base_us\":1}}}",
	.msg = "bad.json: stages.gpu_sumbit: unknown key (expected one of: ui, render, gpu_submit, gpu, sf)",
};
FIXTURE_VARIANT_ADD(bad, stage_not_object) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":5}}",
	.msg = "bad.json: stages.ui: expected an object",
};
FIXTURE_VARIANT_ADD(bad, negative_base) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":-5}}}",
	.msg = "bad.json: stages.ui.base_us: expected an integer between 0 and 1000000",
};
FIXTURE_VARIANT_ADD(bad, base_as_string) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":\"3000\"}}}",
	.msg = "bad.json: stages.ui.base_us: expected an integer between 0 and 1000000",
};
FIXTURE_VARIANT_ADD(bad, base_as_real) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":3000.5}}}",
	.msg = "bad.json: stages.ui.base_us: expected an integer between 0 and 1000000",
};
FIXTURE_VARIANT_ADD(bad, missing_base) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"jitter_us\":5}}}",
	.msg = "bad.json: stages.ui.base_us: missing (expected an integer between 0 and 1000000)",
};
FIXTURE_VARIANT_ADD(bad, misspelt_stage_key) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":5,\"jiter_us\":1}}}",
	.msg = "bad.json: stages.ui.jiter_us: unknown key (expected one of: base_us, jitter_us, heavy_rate, heavy_us)",
};
FIXTURE_VARIANT_ADD(bad, jitter_over_base) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":500,\"jitter_us\":600}}}",
	.msg = "bad.json: stages.ui.jitter_us: expected an integer between 0 and base_us (500)",
};
FIXTURE_VARIANT_ADD(bad, heavy_rate_over_one) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":500,\"heavy_rate\":1.5}}}",
	.msg = "bad.json: stages.ui.heavy_rate: expected a number between 0 and 1",
};
FIXTURE_VARIANT_ADD(bad, heavy_rate_without_size) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"stages\":{\"ui\":{\"base_us\":500,\"heavy_rate\":0.25}}}",
	.msg = "bad.json: stages.ui.heavy_us: expected an integer > 0 since heavy_rate is 0.25",
};
FIXTURE_VARIANT_ADD(bad, vsync_duration_too_small) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"vsync\":{\"sf_duration_us\":10}," STAGES "}",
	.msg = "bad.json: vsync.sf_duration_us: expected an integer between 1000 and 100000",
};
FIXTURE_VARIANT_ADD(bad, vsync_unknown_key) {
	.json = "{\"refresh_hz\":60,\"frames\":1,\"vsync\":{\"app_us\":10}," STAGES "}",
	.msg = "bad.json: vsync.app_us: unknown key (expected one of: app_duration_us, sf_duration_us)",
};
FIXTURE_VARIANT_ADD(bad, input_event_hz_zero) {
	.json = FILE_WITH(",\"input\":{\"touch_ms\":100,\"event_hz\":0}"),
	.msg = "bad.json: input.event_hz: expected an integer between 1 and 1000",
};
FIXTURE_VARIANT_ADD(bad, input_not_object) {
	.json = FILE_WITH(",\"input\":true"),
	.msg = "bad.json: input: expected an object",
};
FIXTURE_VARIANT_ADD(bad, background_not_array) {
	.json = FILE_WITH(",\"background\":{}"),
	.msg = "bad.json: background: expected an array of at most 16 entries",
};
FIXTURE_VARIANT_ADD(bad, background_too_long) {
	.json = BG("{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},"
		   "{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},"
		   "{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},"
		   "{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\"},"
		   "{\"type\":\"cfs_hog\"}"),
	.msg = "bad.json: background: expected an array of at most 16 entries",
};
FIXTURE_VARIANT_ADD(bad, background_missing_type) {
	.json = BG("{\"name\":\"x\"}"),
	.msg = "bad.json: background[0].type: missing (expected one of: cfs_hog, cfs_periodic, rt_periodic, dl_periodic, gpu_mutex_hog)",
};
FIXTURE_VARIANT_ADD(bad, background_unknown_type) {
	.json = BG("{\"type\":\"cfs_hgo\"}"),
	.msg = "bad.json: background[0].type: unknown type (expected one of: cfs_hog, cfs_periodic, rt_periodic, dl_periodic, gpu_mutex_hog)",
};
FIXTURE_VARIANT_ADD(bad, background_key_of_another_type) {
	.json = BG("{\"type\":\"cfs_hog\"},{\"type\":\"cfs_hog\",\"priority\":5}"),
	.msg = "bad.json: background[1].priority: unknown key (expected one of: type, name, threads, nice, cpu)",
};
FIXTURE_VARIANT_ADD(bad, background_misspelt_period) {
	.json = BG("{\"type\":\"cfs_periodic\",\"perod_us\":1000,\"run_us\":10}"),
	.msg = "bad.json: background[0].perod_us: unknown key (expected one of: type, name, threads, nice, period_us, run_us, cpu)",
};
FIXTURE_VARIANT_ADD(bad, background_missing_period) {
	.json = BG("{\"type\":\"rt_periodic\",\"run_us\":10}"),
	.msg = "bad.json: background[0].period_us: missing (expected an integer between 100 and 10000000)",
};
FIXTURE_VARIANT_ADD(bad, background_run_over_period) {
	.json = BG("{\"type\":\"cfs_periodic\",\"period_us\":1000,\"run_us\":2000}"),
	.msg = "bad.json: background[0].run_us: expected an integer between 1 and period_us (1000)",
};
FIXTURE_VARIANT_ADD(bad, background_nice_out_of_range) {
	.json = BG("{\"type\":\"cfs_hog\",\"nice\":-21}"),
	.msg = "bad.json: background[0].nice: expected an integer between -20 and 19",
};
FIXTURE_VARIANT_ADD(bad, background_rt_priority_zero) {
	.json = BG("{\"type\":\"rt_periodic\",\"priority\":0,\"period_us\":1000,\"run_us\":10}"),
	.msg = "bad.json: background[0].priority: expected an integer between 1 and 99",
};
FIXTURE_VARIANT_ADD(bad, background_dl_runtime_over_deadline) {
	.json = BG("{\"type\":\"dl_periodic\",\"period_us\":5000,\"dl_deadline_us\":2000,\"run_us\":400,\"dl_runtime_us\":3000}"),
	.msg = "bad.json: background[0].dl_runtime_us: expected an integer between 1 and dl_deadline_us (2000)",
};
FIXTURE_VARIANT_ADD(bad, background_dl_missing_runtime) {
	.json = BG("{\"type\":\"dl_periodic\",\"period_us\":5000,\"run_us\":400}"),
	.msg = "bad.json: background[0].dl_runtime_us: missing (expected an integer between 1 and 10000000)",
};
FIXTURE_VARIANT_ADD(bad, background_hog_missing_hold) {
	.json = BG("{\"type\":\"gpu_mutex_hog\",\"period_us\":100000}"),
	.msg = "bad.json: background[0].hold_us: missing (expected an integer between 1 and 10000000)",
};
FIXTURE_VARIANT_ADD(bad, background_hog_has_no_threads) {
	.json = BG("{\"type\":\"gpu_mutex_hog\",\"threads\":2,\"period_us\":100000,\"hold_us\":5}"),
	.msg = "bad.json: background[0].threads: unknown key (expected one of: type, name, nice, period_us, hold_us, cpu)",
};
FIXTURE_VARIANT_ADD(bad, background_entry_not_object) {
	.json = BG("\"cfs_hog\""),
	.msg = "bad.json: background[0]: expected an object",
};

TEST_F(bad, refused_with_file_path_and_reason)
{
	struct workload wl;

	ASSERT_EQ(-1, wl_parse(variant->json, "bad.json", &wl, self->err,
			       sizeof(self->err)));
	if (variant->prefix_only) {
		ASSERT_EQ(0, strncmp(self->err, variant->msg, strlen(variant->msg)))
			TH_LOG("expected a message starting \"%s\", got \"%s\"",
			       variant->msg, self->err);
	} else {
		ASSERT_STREQ(variant->msg, self->err);
	}
}

TEST_HARNESS_MAIN
