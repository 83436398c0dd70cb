// SPDX-License-Identifier: GPL-2.0
/*
 * framesched_display.ko leaks nothing: a process that submits GPU jobs
 * and presents buffers, then exits or is killed with its fences pending
 * (also in the middle of a submit's or a hold's CPU work, under the driver
 * mutex), leaves the module's live-object counters (debugfs, see
 * display_uapi.h) at zero once the hardware is done, the driver mutex
 * free, and the module unloadable. A fence still held by someone pins the
 * module: its ops are module code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "display.h"
#include "clock.h"

static const char *const counters[] = {
	"live_fences", "pending_fences", "gpu_jobs", "buffers", "open_files",
};
#define NR_COUNTERS	(sizeof(counters) / sizeof(counters[0]))

/*
 * Wait up to @timeout_s for every counter to be 0. 0, or -1 with the
 * counters that are not in @why.
 */
static int wait_idle(double timeout_s, char *why, size_t len)
{
	double end = mono_now() + timeout_s;
	long long v[NR_COUNTERS];
	size_t i, busy, n;

	for (;;) {
		busy = 0;
		for (i = 0; i < NR_COUNTERS; i++) {
			if (display_counter(counters[i], &v[i])) {
				snprintf(why, len, "cannot read %s", counters[i]);
				return -1;
			}
			busy += v[i] != 0;
		}
		if (!busy)
			return 0;
		if (mono_now() > end)
			break;
		usleep(10000);
	}
	n = 0;
	why[0] = 0;
	for (i = 0; i < NR_COUNTERS && n < len; i++)
		n += snprintf(why + n, len - n, "%s=%lld ", counters[i], v[i]);
	return -1;
}

FIXTURE(leaks) {
	char why[256];
};

FIXTURE_SETUP(leaks)
{
	bool loaded;

	ASSERT_EQ(0, display_load(&loaded));
	ASSERT_EQ(0, wait_idle(10, self->why, sizeof(self->why)))
		TH_LOG("busy before the test: %s", self->why);
}

FIXTURE_TEARDOWN(leaks)
{
}

/* where the child is when it ends */
enum child_end {
	CHILD_EXITS,		/* exit(0) with everything pending */
	CHILD_KILLED,		/* SIGKILL while idle, everything pending */
	CHILD_KILLED_IN_SUBMIT,	/* SIGKILL in a submit's CPU work */
	CHILD_KILLED_IN_HOLD,	/* SIGKILL in a GPU_HOLD */
};

FIXTURE_VARIANT(leaks) {
	enum child_end end;
};

FIXTURE_VARIANT_ADD(leaks, exits) { .end = CHILD_EXITS };
FIXTURE_VARIANT_ADD(leaks, killed) { .end = CHILD_KILLED };
FIXTURE_VARIANT_ADD(leaks, killed_in_submit) { .end = CHILD_KILLED_IN_SUBMIT };
FIXTURE_VARIANT_ADD(leaks, killed_in_hold) { .end = CHILD_KILLED_IN_HOLD };

#define CHILD_JOBS	40
#define CHILD_PRESENTS	8

/*
 * The child's work: GPU jobs (0.4 s of GPU time queued), presents at
 * 30 Hz, some with a signaled GPU fence as acquire fence, all fds left
 * open. Writes a byte to @ready when it is about to end as @end says.
 * Exits with 0, or a step number on failure.
 */
static void child_main(enum child_end end, int ready)
{
	struct display_gpu_submit s, first;
	struct display_present p;
	struct display_ctx ctx;
	int i;

	if (display_open(&ctx) || display_set_mode(ctx.fd, 30, NULL))
		_exit(1);
	if (display_gpu_submit(ctx.fd, 200, 1000, &first) ||
	    display_fence_wait(first.fence_fd, 5000) != 1)
		_exit(2);
	for (i = 0; i < CHILD_JOBS; i++)
		if (display_gpu_submit(ctx.fd, 200, 10000, &s))
			_exit(3);
	for (i = 0; i < CHILD_PRESENTS; i++) {
		if (display_present(ctx.fd, i % 2 ? first.fence_fd : -1, i, &p))
			_exit(4);
		usleep(10000);
	}
	if (write(ready, "x", 1) != 1)
		_exit(5);
	switch (end) {
	case CHILD_EXITS:
		_exit(0);
	case CHILD_KILLED:
		pause();
		break;
	case CHILD_KILLED_IN_SUBMIT:
		display_gpu_submit(ctx.fd, DISPLAY_MAX_CPU_US, 1000, &s);
		break;
	case CHILD_KILLED_IN_HOLD:
		display_gpu_hold(ctx.fd, DISPLAY_MAX_CPU_US, NULL);
		break;
	}
	_exit(6);	/* should have been killed by now */
}

/* The driver mutex is free: an uncontended submit's wait, in seconds. */
static double mutex_wait_s(void)
{
	struct display_gpu_submit s;
	struct display_ctx ctx;
	double t = -1;

	if (display_open(&ctx))
		return -1;
	if (!display_gpu_submit(ctx.fd, 0, 0, &s)) {
		t = s.lock_wait_ns / 1e9;
		display_fence_wait(s.fence_fd, 5000);
		close(s.fence_fd);
	}
	display_close(&ctx);
	return t;
}

TEST_F_TIMEOUT(leaks, child_with_fences_pending, 60)
{
	int pipefd[2], status;
	double t_kill;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		close(pipefd[0]);
		child_main(variant->end, pipefd[1]);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1)) TH_LOG("the child failed early");
	close(pipefd[0]);
	if (variant->end != CHILD_EXITS) {
		/* well inside the submit's or the hold's second of work */
		usleep(200000);
		ASSERT_EQ(0, kill(pid, SIGKILL));
	}
	t_kill = mono_now();
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	t_kill = mono_now() - t_kill;
	if (variant->end == CHILD_EXITS) {
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	} else {
		ASSERT_TRUE(WIFSIGNALED(status))
			TH_LOG("the child exited with %d", WEXITSTATUS(status));
		ASSERT_EQ(SIGKILL, WTERMSIG(status));
		EXPECT_LT(t_kill, 0.5) TH_LOG("SIGKILL took %.2f s to end the CPU work",
					      t_kill);
	}
	/* the GPU ring drains in 0.4 s, the display turns off at 30 Hz */
	ASSERT_EQ(0, wait_idle(10, self->why, sizeof(self->why)))
		TH_LOG("objects left behind: %s", self->why);
	EXPECT_LT(mutex_wait_s(), 0.1) TH_LOG("the driver mutex is still held");
	ASSERT_EQ(0, wait_idle(10, self->why, sizeof(self->why)))
		TH_LOG("objects left behind: %s", self->why);
	EXPECT_EQ(0, display_unload(5));
	EXPECT_NE(0, access("/sys/module/" DISPLAY_MODULE, F_OK));
}

/*
 * A sync_file kept after the device is closed and the job done: the fence
 * is alive (and still answers SYNC_IOC_FILE_INFO, with the module's
 * names), so the module does not unload; once it is closed, it does.
 */
FIXTURE(pin) {
	char why[256];
};

FIXTURE_SETUP(pin)
{
	bool loaded;

	ASSERT_EQ(0, display_load(&loaded));
	ASSERT_EQ(0, wait_idle(10, self->why, sizeof(self->why)))
		TH_LOG("busy before the test: %s", self->why);
}

FIXTURE_TEARDOWN(pin)
{
}

TEST_F(pin, fence_pins_module)
{
	struct display_fence_state st;
	struct display_gpu_submit s;
	struct display_ctx ctx;
	long long live;

	ASSERT_EQ(0, display_open(&ctx));
	ASSERT_EQ(0, display_gpu_submit(ctx.fd, 0, 1000, &s));
	display_close(&ctx);
	ASSERT_EQ(1, display_fence_wait(s.fence_fd, 5000));
	ASSERT_EQ(0, display_counter("live_fences", &live));
	EXPECT_EQ(1, live);
	EXPECT_EQ(-EWOULDBLOCK, display_unload(0.2));
	ASSERT_EQ(0, display_fence_state(s.fence_fd, &st));
	EXPECT_EQ(1, st.status);
	close(s.fence_fd);
	ASSERT_EQ(0, wait_idle(10, self->why, sizeof(self->why)))
		TH_LOG("objects left behind: %s", self->why);
	EXPECT_EQ(0, display_unload(5));
}

TEST_HARNESS_MAIN
