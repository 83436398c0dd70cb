// SPDX-License-Identifier: GPL-2.0
/*
 * trace_test.c - the Chrome/Perfetto JSON trace writer: every event kind,
 * hostile strings, exact timestamps; read back with jansson. The sample is
 * also left in $EMU_TEST_OUT for tests/host/emu.sh to check with python.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "emu_test.h"
#include "trace.h"

/* write a trace of everything into a string (malloc'd) */
static char *sample(FILE **keep)
{
	static const struct trace_arg args[] = {
		{ "frame", NULL, 17 }, { "jank", "App Deadline Missed", 0 },
		{ "neg", NULL, -5 }, { NULL, NULL, 0 },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct trace *t = trace_open(f);

	trace_process_name(t, 10, "com.example.app");
	trace_thread_name(t, 10, 11, "RenderThread");
	trace_thread_name(t, 10, 12, "quote\" back\\ nl\n tab\t bell\a");
	trace_thread_name(t, 10, 13, "bad utf8 \xff\xfe ok \xc2\xb5s \xe2\x82\xac");
	trace_slice(t, 10, 11, "DrawFrame", "gfx", 1234567, 2000001, args);
	trace_slice(t, 10, 11, "queueBuffer", NULL, 3234568, 999, NULL);
	trace_counter(t, 1, "cpu2 freq", 1000, 1800000);
	trace_counter(t, 1, "util", 2000, 0.25);
	trace_instant(t, 1, 1, "VSYNC-app", 16666667, TRACE_SCOPE_GLOBAL);
	trace_instant(t, 10, 11, "dequeue", 5, TRACE_SCOPE_THREAD);
	trace_async(t, 10, "frame", "Actual Timeline 42", 42, 1000000, 31000000, args);
	trace_flow(t, "acquire fence", 7, 10, 11, 3000000, 20, 21, 4000000);
	trace_slice(t, 10, 11, "negative ts", NULL, -1500, 1, NULL);
	if (trace_close(t))
		return NULL;
	fclose(f);
	*keep = NULL;
	return buf;
}

static void save(const char *name, const char *text)
{
	const char *dir = getenv("EMU_TEST_OUT");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

FIXTURE(tr) {
	char *text;
	json_t *root, *ev;
};

FIXTURE_SETUP(tr)
{
	json_error_t err;
	FILE *keep;

	self->text = sample(&keep);
	ASSERT_NE(NULL, self->text);
	save("trace.json", self->text);
	self->root = json_loads(self->text, 0, &err);
	ASSERT_NE(NULL, self->root) TH_LOG("line %d: %s", err.line, err.text);
	self->ev = json_object_get(self->root, "traceEvents");
	ASSERT_TRUE(json_is_array(self->ev));
}

FIXTURE_TEARDOWN(tr)
{
	json_decref(self->root);
	free(self->text);
}

static json_t *event(json_t *ev, size_t i)
{
	return json_array_get(ev, i);
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

TEST_F(tr, every_event_is_there)
{
	/* 4 metadata + 2 slices + 2 counters + 2 instants + 2 async + 2 flow + 1 */
	ASSERT_EQ(15, json_array_size(self->ev));
	ASSERT_STREQ("ms", str(self->root, "displayTimeUnit"));
}

TEST_F(tr, metadata_names_processes_and_threads)
{
	json_t *e = event(self->ev, 0);

	ASSERT_STREQ("M", str(e, "ph"));
	ASSERT_STREQ("process_name", str(e, "name"));
	ASSERT_STREQ("com.example.app", str(json_object_get(e, "args"), "name"));
	e = event(self->ev, 1);
	ASSERT_STREQ("thread_name", str(e, "name"));
	ASSERT_NEAR(11, num(e, "tid"), 0);
}

TEST_F(tr, hostile_strings_survive)
{
	json_t *a2 = json_object_get(event(self->ev, 2), "args");
	json_t *a3 = json_object_get(event(self->ev, 3), "args");

	ASSERT_STREQ("quote\" back\\ nl\n tab\t bell\a", str(a2, "name"));
	/* invalid bytes become '?', valid UTF-8 stays */
	ASSERT_STREQ("bad utf8 ?? ok \xc2\xb5s \xe2\x82\xac", str(a3, "name"));
}

TEST_F(tr, slice_times_are_exact_microseconds)
{
	json_t *e = event(self->ev, 4), *a = json_object_get(e, "args");

	ASSERT_STREQ("X", str(e, "ph"));
	ASSERT_STREQ("gfx", str(e, "cat"));
	ASSERT_CONTAINS(self->text, "\"ts\":1234.567,\"dur\":2000.001");
	ASSERT_NEAR(17, num(a, "frame"), 0);
	ASSERT_NEAR(-5, num(a, "neg"), 0);
	ASSERT_STREQ("App Deadline Missed", str(a, "jank"));
	ASSERT_STREQ("emu", str(event(self->ev, 5), "cat"));
	ASSERT_CONTAINS(self->text, "\"ts\":3234.568,\"dur\":0.999");
	ASSERT_CONTAINS(self->text, "\"ts\":-1.500,");
}

TEST_F(tr, counters_and_instants)
{
	json_t *c = event(self->ev, 6), *i = event(self->ev, 8);

	ASSERT_STREQ("C", str(c, "ph"));
	ASSERT_NEAR(1800000, num(json_object_get(c, "args"), "value"), 0);
	ASSERT_NEAR(0.25, num(json_object_get(event(self->ev, 7), "args"), "value"), 0);
	ASSERT_STREQ("i", str(i, "ph"));
	ASSERT_STREQ("g", str(i, "s"));
	ASSERT_NEAR(16666.667, num(i, "ts"), 1e-9);
	ASSERT_STREQ("t", str(event(self->ev, 9), "s"));
}

TEST_F(tr, async_frame_and_fence_flow)
{
	json_t *b = event(self->ev, 10), *e = event(self->ev, 11);
	json_t *s = event(self->ev, 12), *f = event(self->ev, 13);

	ASSERT_STREQ("b", str(b, "ph"));
	ASSERT_STREQ("e", str(e, "ph"));
	ASSERT_STREQ(str(b, "id"), str(e, "id"));
	ASSERT_STREQ("0x2a", str(b, "id"));
	ASSERT_NEAR(32000, num(e, "ts"), 1e-9);
	ASSERT_STREQ("s", str(s, "ph"));
	ASSERT_STREQ("f", str(f, "ph"));
	ASSERT_STREQ(str(s, "id"), str(f, "id"));
	ASSERT_STREQ("e", str(f, "bp"));
	ASSERT_NEAR(20, num(f, "pid"), 0);
}

TEST(empty_trace_is_valid)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_error_t err;
	json_t *root;

	ASSERT_EQ(0, trace_close(trace_open(f)));
	fclose(f);
	save("trace-empty.json", buf);
	root = json_loads(buf, 0, &err);
	ASSERT_NE(NULL, root) TH_LOG("%s in: %s", err.text, buf);
	ASSERT_EQ(0, json_array_size(json_object_get(root, "traceEvents")));
	json_decref(root);
	free(buf);
}

TEST(write_errors_are_reported)
{
	FILE *f = fopen("/dev/full", "w");
	struct trace *t;
	int i;

	if (!f)
		SKIP(return, "no /dev/full");
	t = trace_open(f);
	for (i = 0; i < 10000; i++)
		trace_slice(t, 1, 1, "x", NULL, i, 1, NULL);
	ASSERT_EQ(-1, trace_close(t));
	fclose(f);
}

TEST_HARNESS_MAIN
