// SPDX-License-Identifier: GPL-2.0
/*
 * Proxy execution and pressure stall information (CONFIG_PSI, on in the
 * debug kernel). When the owner a donor runs for cannot run on the
 * donor's CPU (it sleeps in its section, or runs elsewhere), the
 * scheduler blocks the donor while another task is current. PSI must see
 * that as the donor's sleep: psi_dequeue() leaves a sleep to the task
 * switch that follows it, and no switch follows for a task that is not
 * switching out. Missed, the donor keeps its running state: "psi:
 * inconsistent task state!" in the kernel log at its next wake-up, and a
 * runnable count that never drops, so an idle CPU reports CPU pressure
 * for ever.
 *
 * Every instrument scenario in which that happens runs with PROXY_EXEC
 * on; then, with the system left idle, /proc/pressure/cpu's "some" total
 * must grow by less than a tenth of the wall time, and the kernel log
 * must hold no complaint of PSI's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "inversion.h"
#include "cpu_share.h"
#include "clock.h"

#define PSI_CPU		"/proc/pressure/cpu"
#define SAMPLES		10
#define IDLE_S		3
#define SYSLOG_ACTION_READ_ALL	3

/* "some ... total=N": N µs; -1 if unreadable */
static long long psi_cpu_some_total_us(void)
{
	char line[256];
	long long total = -1;
	FILE *f = fopen(PSI_CPU, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *t = strstr(line, "total=");

		if (!strncmp(line, "some ", 5) && t)
			total = atoll(t + 6);
	}
	fclose(f);
	return total;
}

/* Whether the kernel log holds a line of PSI's own ("psi: ..."). */
static bool psi_complained(char *first, size_t len)
{
	static char buf[1 << 20];
	int n = klogctl(SYSLOG_ACTION_READ_ALL, buf, sizeof(buf) - 1);
	char *p;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strstr(buf, "psi: ");
	if (!p)
		return false;
	snprintf(first, len, "%.*s", (int)strcspn(p, "\n"), p);
	return true;
}

FIXTURE(psi) {
	struct inv_ctx ctx;
	int proxy_exec;
};

FIXTURE_SETUP(psi)
{
	ASSERT_EQ(0, access(PSI_CPU, R_OK))
		TH_LOG("%s: this kernel has no CONFIG_PSI (kernel/config/debug.config)",
		       PSI_CPU);
	ASSERT_EQ(0, inv_open(&self->ctx));
	self->proxy_exec = sched_feature_state("PROXY_EXEC");
	ASSERT_LE(0, self->proxy_exec)
		TH_LOG("this kernel has no PROXY_EXEC sched feature");
	ASSERT_EQ(0, inv_calibrate(&self->ctx, 2000));
	self->ctx.sleep_us = 1000;
}

FIXTURE_TEARDOWN(psi)
{
	if (self->proxy_exec >= 0)
		set_sched_feature("PROXY_EXEC", self->proxy_exec);
	inv_close(&self->ctx);
}

TEST_F_TIMEOUT(psi, donors_blocked_by_proxy_leave_no_pressure, 300)
{
	static const enum inv_scenario sc[] = {
		INV_SLEEP, INV_REMOTE, INV_CHAIN, INV_DL,
	};
	double block_us[SAMPLES];
	long long t0, t1;
	char first[256];
	size_t i;

	ASSERT_EQ(0, set_sched_feature("PROXY_EXEC", true));
	for (i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
		struct inv_point p = {
			.scenario = sc[i], .hogs = INV_HOGS_CFS, .m = 1,
			.n = SAMPLES, .block_us = block_us,
		};

		ASSERT_EQ(0, inv_run(&self->ctx, &p))
			TH_LOG("scenario %s", inv_scenario_names[sc[i]]);
	}
	sleep(1);
	t0 = psi_cpu_some_total_us();
	sleep(IDLE_S);
	t1 = psi_cpu_some_total_us();
	ASSERT_LE(0, t0);
	TH_LOG("idle %d s: CPU pressure 'some' grew by %.3f s", IDLE_S,
	       (t1 - t0) / 1e6);
	EXPECT_LT(t1 - t0, IDLE_S * 1000000LL / 10)
		TH_LOG("an idle system reports CPU pressure: a runnable count leaked");
	EXPECT_FALSE(psi_complained(first, sizeof(first)))
		TH_LOG("kernel log: %s", first);
}

TEST_HARNESS_MAIN
