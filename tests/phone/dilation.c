// SPDX-License-Identifier: GPL-2.0
/*
 * phone_cpufreq.dilation (Documentation/cpu-freq/phone-cpufreq.rst): under
 * QEMU's icount all vCPUs share one instruction stream, and without
 * dilation two busy CPUs each run at about half speed. Booted with
 * phone_cpufreq.dilation=N under tools/vm --deterministic, busy CPUs must
 * run in parallel: each keeps most of the speed it has alone. Skipped in
 * a boot without the parameter (tests/vm/phone.sh boots it for this test).
 *
 * Measured with dilation 4: 0.99 for two big CPUs, 0.82 (big) and 0.73
 * (LITTLE) with all four busy; without dilation 0.78/0.22 and 0.09.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "phone.h"

#define SECS	1.0

/* N of phone_cpufreq.dilation=N on the kernel command line, or 0 */
static unsigned int cmdline_dilation(void)
{
	char buf[4096] = "", *p;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	p = strstr(buf, "phone_cpufreq.dilation=");
	return p ? strtoul(p + strlen("phone_cpufreq.dilation="), NULL, 10) : 0;
}

FIXTURE(dilated) {
	struct phone ph;
	unsigned int dilation;
};

FIXTURE_SETUP(dilated)
{
	int i;

	self->dilation = cmdline_dilation();
	if (!self->dilation)
		SKIP(return, "boot with phone_cpufreq.dilation=N (tests/vm/phone.sh does)");
	ASSERT_EQ(0, phone_read(&self->ph));
	ASSERT_EQ(2, self->ph.npolicies);
	/* every CPU at its fmax: the most instructions a CPU asks for */
	for (i = 0; i < self->ph.npolicies; i++) {
		struct phone_policy *p = &self->ph.pol[i];

		ASSERT_EQ(0, phone_policy_limit(p->id, p->khz[p->nopp - 1],
						p->khz[p->nopp - 1]));
	}
}

FIXTURE_TEARDOWN(dilated)
{
	int i;

	for (i = 0; i < self->ph.npolicies; i++) {
		struct phone_policy *p = &self->ph.pol[i];

		phone_policy_limit(p->id, p->khz[0], p->khz[p->nopp - 1]);
	}
}

/* the kernel took the command line's value (a kernel without it has no file) */
TEST_F(dilated, parameter_is_the_command_line)
{
	FILE *f = fopen("/sys/module/phone_cpufreq/parameters/dilation", "r");
	unsigned int v = 0;

	ASSERT_NE(NULL, f) TH_LOG("no /sys/module/phone_cpufreq/parameters/dilation");
	ASSERT_EQ(1, fscanf(f, "%u", &v));
	fclose(f);
	ASSERT_EQ(self->dilation, v);
}

/* rate of @cpu alone */
static double alone(struct __test_metadata *_metadata, int cpu)
{
	double r = 0;

	EXPECT_EQ(0, phone_parallel_rates(&cpu, 1, SECS, &r));
	return r;
}

TEST_F(dilated, two_big_cpus_run_in_parallel)
{
	int big = self->ph.pol[1].first_cpu;
	int cpus[2] = { big, big + 1 };
	double solo = alone(_metadata, big), both[2];
	int i;

	ASSERT_EQ(0, phone_parallel_rates(cpus, 2, SECS, both));
	for (i = 0; i < 2; i++) {
		TH_LOG("cpu%d: %.1f iterations/us busy with cpu%d, %.1f alone (%.2f)",
		       cpus[i], both[i], cpus[1 - i], solo, both[i] / solo);
		EXPECT_GE(both[i], 0.85 * solo);
	}
}

TEST_F(dilated, four_busy_cpus_keep_most_of_their_speed)
{
	int little = self->ph.pol[0].first_cpu, big = self->ph.pol[1].first_cpu;
	int cpus[4] = { little, little + 1, big, big + 1 };
	double solo_little = alone(_metadata, little);
	double solo_big = alone(_metadata, big), all[4];
	int i;

	ASSERT_EQ(0, phone_parallel_rates(cpus, 4, SECS, all));
	for (i = 0; i < 4; i++) {
		double solo = i < 2 ? solo_little : solo_big;

		TH_LOG("cpu%d: %.1f iterations/us with all four busy, %.1f alone (%.2f)",
		       cpus[i], all[i], solo, all[i] / solo);
		EXPECT_GE(all[i], 0.6 * solo);
	}
}

TEST_HARNESS_MAIN
