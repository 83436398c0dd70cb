// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated phone (phone-cpufreq, booted with phone_cpufreq.enable=1):
 * the platform is the configured one, a CPU really works at its capacity
 * and frequency, schedutil and scaling_min_freq drive the frequency, the
 * energy meter follows the power model, and EAS places tasks by size.
 *
 * Times are compared as ratios of runs of the same work in one boot, so
 * that TCG's speed does not decide a verdict; bounds are the (10%
 * for the slowdown law) or generous where the scheduler decides.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "cpu_share.h"
#include "phone.h"
#include "clock.h"

#define LITTLE	0	/* index in struct phone */
#define BIG	1

/* the default phone of phone-cpufreq (Documentation/cpu-freq/phone-cpufreq.rst) */
static const unsigned int little_khz[] = {
	300000, 600000, 900000, 1200000, 1500000, 1800000,
};
static const unsigned int big_khz[] = {
	500000, 900000, 1300000, 1700000, 2100000, 2500000, 2800000,
};

FIXTURE(phone) {
	struct phone ph;
};

FIXTURE_SETUP(phone)
{
	ASSERT_EQ(0, phone_read(&self->ph));
	ASSERT_EQ(2, self->ph.npolicies);
}

/* every policy back to its full range */
FIXTURE_TEARDOWN(phone)
{
	int i;

	for (i = 0; i < self->ph.npolicies; i++) {
		struct phone_policy *p = &self->ph.pol[i];

		phone_policy_limit(p->id, p->khz[0], p->khz[p->nopp - 1]);
	}
}

static unsigned int cur_khz(struct phone_policy *p)
{
	uint64_t khz = 0;

	phone_policy_read(p->id, "scaling_cur_freq", &khz);
	return khz;
}

/* Hold @p at @khz, and wait until schedutil's worker has switched to it. */
static void pin_opp(struct __test_metadata *_metadata, struct phone_policy *p,
		    unsigned int khz)
{
	int i;

	ASSERT_EQ(0, phone_policy_limit(p->id, khz, khz));
	for (i = 0; i < 100 && cur_khz(p) != khz; i++)
		usleep(10000);
	ASSERT_EQ(khz, cur_khz(p));
}

TEST_F(phone, platform_is_the_default)
{
	struct phone_policy *l = &self->ph.pol[LITTLE], *b = &self->ph.pol[BIG];
	char buf[256], path[256];
	int i;

	EXPECT_EQ(0, l->first_cpu);
	EXPECT_EQ(2, l->ncpus);
	EXPECT_EQ(450u, l->capacity);
	ASSERT_EQ(6, l->nopp);
	for (i = 0; i < l->nopp; i++)
		EXPECT_EQ(little_khz[i], l->khz[i]);
	EXPECT_EQ(2, b->first_cpu);
	EXPECT_EQ(2, b->ncpus);
	EXPECT_EQ(1024u, b->capacity);
	ASSERT_EQ(7, b->nopp);
	for (i = 0; i < b->nopp; i++)
		EXPECT_EQ(big_khz[i], b->khz[i]);
	for (i = 0; i < 2; i++) {
		phone_policy_path(path, sizeof(path), self->ph.pol[i].id, "scaling_governor");
		ASSERT_EQ(0, read_str(path, buf, sizeof(buf)));
		EXPECT_STREQ("schedutil", buf);
	}
	/* the scheduler sees the asymmetry, and EAS is on */
	ASSERT_EQ(0, write_str("/sys/kernel/debug/sched/verbose", "Y"));
	ASSERT_EQ(0, read_str("/sys/kernel/debug/sched/domains/cpu0/domain0/flags",
			      buf, sizeof(buf)));
	if (!strstr(buf, "SD_ASYM_CPUCAPACITY")) {
		ASSERT_EQ(0, read_str("/sys/kernel/debug/sched/domains/cpu0/domain1/flags",
				      buf, sizeof(buf)));
	}
	EXPECT_NE(NULL, strstr(buf, "SD_ASYM_CPUCAPACITY"));
	ASSERT_EQ(0, read_str("/proc/sys/kernel/sched_energy_aware", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	/* the Energy Model is registered with the policies' OPPs */
	snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu2/ps:%u/power",
		 big_khz[6]);
	EXPECT_EQ(0, access(path, R_OK));
}

/*
 * A fixed loop takes (1024 / capacity) * (fmax / f) times as long as on a
 * big CPU at its fmax, within 10%, at every OPP of each cluster.
 */
TEST_F(phone, slowdown_law)
{
	struct phone_policy *b = &self->ph.pol[BIG];
	uint64_t iters = 1000000;
	double ref, t;
	int c, k;

	pin_opp(_metadata, b, b->khz[b->nopp - 1]);
	/* about 40 ms at full speed */
	while ((ref = phone_time_work(b->first_cpu, iters, 3)) < 0.04)
		iters *= 2;
	TH_LOG("reference: %lu iterations in %.1f ms on CPU %d at %u kHz",
	       (unsigned long)iters, ref * 1e3, b->first_cpu, b->khz[b->nopp - 1]);

	for (c = 0; c < 2; c++) {
		struct phone_policy *p = &self->ph.pol[c];

		for (k = 0; k < p->nopp; k++) {
			unsigned int khz = p->khz[k];
			double want = 1024.0 / p->capacity * p->khz[p->nopp - 1] / khz;

			pin_opp(_metadata, p, khz);
			t = phone_time_work(p->first_cpu, iters, 3);
			ASSERT_GT(t, 0);
			TH_LOG("CPU %d at %7u kHz: %.2fx slower (expected %.2fx)",
			       p->first_cpu, khz, t / ref, want);
			EXPECT_LT(fabs(t / ref / want - 1), 0.10);
		}
		ASSERT_EQ(0, phone_policy_limit(p->id, p->khz[0], p->khz[p->nopp - 1]));
	}
}

struct loop {
	pthread_t thread;
	int cpu;			/* -1: not pinned */
	unsigned int run_us, period_us;	/* period 0: always busy */
	volatile bool stop;
	int samples, on_big;		/* where it ran, sampled per period */
	int first_big;
};

static void *loop_main(void *arg)
{
	struct loop *l = arg;

	if (l->cpu >= 0)
		phone_pin(l->cpu);
	while (!l->stop) {
		double end = mono_now() + l->run_us / 1e6;

		while (mono_now() < end)
			phone_work(1000);
		l->samples++;
		l->on_big += sched_getcpu() >= l->first_big;
		if (l->period_us)
			usleep(l->period_us - l->run_us);
	}
	return NULL;
}

static void loop_start(struct __test_metadata *_metadata, struct loop *l)
{
	ASSERT_EQ(0, pthread_create(&l->thread, NULL, loop_main, l));
}

static void loop_stop(struct loop *l)
{
	l->stop = true;
	pthread_join(l->thread, NULL);
}

/*
 * The median of @n readings of @p's frequency, @gap_us apart: one reading
 * may catch the governor reacting to a moment of other work (a program
 * loaded over 9p, a kernel thread), the run of them does not.
 */
static unsigned int median_khz(struct phone_policy *p, int n,
			       unsigned int gap_us)
{
	unsigned int k[16], t;
	int i, j;

	for (i = 0; i < n && i < 16; i++) {
		usleep(gap_us);
		k[i] = cur_khz(p);
		for (j = i; j > 0 && k[j - 1] > k[j]; j--) {
			t = k[j];
			k[j] = k[j - 1];
			k[j - 1] = t;
		}
	}
	return k[i / 2];
}

/*
 * schedutil raises the frequency of a CPU running a hog to the highest
 * OPP, and brings it down when only a light task runs there; a
 * scaling_min_freq floor (TouchBoost's knob) holds whatever the load.
 */
/*
 * schedutil switches frequency from the scheduler itself (fast switching)
 * as on a phone, not from a sugov:N kthread woken for each change: it
 * creates that thread only for a policy that cannot switch fast, as when
 * the TSC's cpufreq notifier is registered (a guest CPU whose TSC the
 * kernel does not know to be constant; tools/vm presents one it does).
 */
TEST_F(phone, schedutil_switches_fast)
{
	char path[300], comm[32];
	struct dirent *e;
	int slow = 0;
	DIR *proc = opendir("/proc");

	ASSERT_NE(NULL, proc);
	while ((e = readdir(proc))) {
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;	/* not a process */
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "sugov:", 6)) {
			TH_LOG("pid %s is %.*s: a policy switches slowly", e->d_name,
			       (int)strcspn(comm, "\n"), comm);
			slow++;
		}
		fclose(f);
	}
	closedir(proc);
	EXPECT_EQ(0, slow);
}

TEST_F(phone, schedutil_and_min_freq)
{
	struct phone_policy *b = &self->ph.pol[BIG];
	struct loop hog = { .cpu = b->first_cpu, .run_us = 1000 };
	struct loop light = { .cpu = b->first_cpu, .run_us = 100, .period_us = 8000 };
	unsigned int busy, quiet, floor;

	loop_start(_metadata, &hog);
	usleep(500000);
	busy = cur_khz(b);
	loop_stop(&hog);

	loop_start(_metadata, &light);
	usleep(500000);
	quiet = median_khz(b, 5, 100000);

	ASSERT_EQ(0, phone_policy_limit(b->id, b->khz[3], b->khz[b->nopp - 1]));
	usleep(300000);
	floor = cur_khz(b);
	loop_stop(&light);
	TH_LOG("big policy: %u kHz with a hog, %u kHz light (median of 5), %u kHz light with min %u",
	       busy, quiet, floor, b->khz[3]);
	EXPECT_EQ(b->khz[b->nopp - 1], busy);
	EXPECT_LE(quiet, b->khz[1]);
	EXPECT_GE(floor, b->khz[3]);
}

static double em_power_uw(int cpu, unsigned int khz)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/ps:%u/power",
		 cpu, khz);
	return read_str(path, buf, sizeof(buf)) ? -1 : atof(buf);
}

/*
 * Idle costs idle power only; the same work costs more at a higher OPP;
 * and the meter agrees with the Energy Model's power times the time.
 */
TEST_F(phone, energy_meter)
{
	struct phone_policy *l = &self->ph.pol[LITTLE];
	uint64_t e0, e1, iters = 2000000;
	double t0, t, idle_uj, e_lo, e_hi, p_lo, p_hi, idle_uw;

	/* idle: 2 LITTLE CPUs at 4000 µW each in the default phone */
	idle_uw = 2 * 4000;
	ASSERT_EQ(0, phone_energy_uj(l->id, &e0));
	t0 = mono_now();
	usleep(1000000);
	ASSERT_EQ(0, phone_energy_uj(l->id, &e1));
	idle_uj = idle_uw * (mono_now() - t0);
	TH_LOG("idle 1 s: %lu uJ (idle power alone: %.0f uJ)",
	       (unsigned long)(e1 - e0), idle_uj);
	EXPECT_GT(e1 - e0, idle_uj * 0.9);
	EXPECT_LT(e1 - e0, idle_uj * 1.5);

	/* the same work at the lowest and the highest OPP of CPU 0 */
	pin_opp(_metadata, l, l->khz[0]);
	ASSERT_EQ(0, phone_energy_uj(l->id, &e0));
	t = phone_time_work(l->first_cpu, iters, 1);
	ASSERT_EQ(0, phone_energy_uj(l->id, &e1));
	e_lo = e1 - e0;
	p_lo = em_power_uw(l->first_cpu, l->khz[0]);
	ASSERT_GT(p_lo, 0);
	TH_LOG("work at %u kHz: %.0f ms, %.0f uJ (model: %.0f uJ)", l->khz[0],
	       t * 1e3, e_lo, (p_lo + idle_uw / 2) * t);
	EXPECT_LT(fabs(e_lo / ((p_lo + idle_uw / 2) * t) - 1), 0.25);

	pin_opp(_metadata, l, l->khz[l->nopp - 1]);
	ASSERT_EQ(0, phone_energy_uj(l->id, &e0));
	t = phone_time_work(l->first_cpu, iters, 1);
	ASSERT_EQ(0, phone_energy_uj(l->id, &e1));
	e_hi = e1 - e0;
	p_hi = em_power_uw(l->first_cpu, l->khz[l->nopp - 1]);
	ASSERT_GT(p_hi, 0);
	TH_LOG("work at %u kHz: %.0f ms, %.0f uJ (model: %.0f uJ)",
	       l->khz[l->nopp - 1], t * 1e3, e_hi, (p_hi + idle_uw / 2) * t);
	EXPECT_LT(fabs(e_hi / ((p_hi + idle_uw / 2) * t) - 1), 0.25);
	EXPECT_GT(e_hi, 1.3 * e_lo);
}

/* EAS: a small periodic task lands on a LITTLE CPU, a hog on a big one. */
TEST_F(phone, eas_placement)
{
	int first_big = self->ph.pol[BIG].first_cpu;
	struct loop small = { .cpu = -1, .run_us = 500, .period_us = 16000,
			      .first_big = first_big };
	struct loop hog = { .cpu = -1, .run_us = 2000, .first_big = first_big };

	loop_start(_metadata, &small);
	usleep(2000000);
	loop_stop(&small);
	TH_LOG("small periodic task: %d of %d periods on a big CPU",
	       small.on_big, small.samples);
	ASSERT_GT(small.samples, 20);
	EXPECT_LT(small.on_big, small.samples / 5);

	loop_start(_metadata, &hog);
	usleep(1000000);
	hog.samples = hog.on_big = 0;
	usleep(1000000);
	loop_stop(&hog);
	TH_LOG("hog: %d of %d ms on a big CPU", hog.on_big, hog.samples);
	ASSERT_GT(hog.samples, 20);
	EXPECT_GT(hog.on_big, hog.samples * 4 / 5);
}

/*
 * CPU hotplug: an offline CPU draws no power, and a CPU that comes back
 * online is slowed down as before (its steal timer must not have died or
 * moved to another CPU with it).
 */
TEST_F(phone, cpu_hotplug)
{
	struct phone_policy *b = &self->ph.pol[BIG];
	int cpu = b->first_cpu + b->ncpus - 1;
	uint64_t e0, e1, iters = 1000000;
	double t0, idle_uj, ref, t, want;

	ASSERT_GT(b->ncpus, 1);
	ASSERT_EQ(0, set_cpu_online(cpu, false));
	/* the other big CPUs idle: big idle power (12000 µW) each, nothing for @cpu */
	ASSERT_EQ(0, phone_energy_uj(b->id, &e0));
	t0 = mono_now();
	usleep(1000000);
	ASSERT_EQ(0, phone_energy_uj(b->id, &e1));
	idle_uj = 12000.0 * (b->ncpus - 1) * (mono_now() - t0);
	TH_LOG("CPU %d offline, 1 s: big policy %lu uJ (idle power of the others: %.0f uJ)",
	       cpu, (unsigned long)(e1 - e0), idle_uj);
	ASSERT_EQ(0, set_cpu_online(cpu, true));
	EXPECT_GT(e1 - e0, idle_uj * 0.9);
	EXPECT_LT(e1 - e0, idle_uj * 1.5);

	pin_opp(_metadata, b, b->khz[b->nopp - 1]);
	while ((ref = phone_time_work(cpu, iters, 3)) < 0.04)
		iters *= 2;
	pin_opp(_metadata, b, b->khz[0]);
	t = phone_time_work(cpu, iters, 3);
	want = (double)b->khz[b->nopp - 1] / b->khz[0];
	TH_LOG("CPU %d back online: %.2fx slower at %u kHz (expected %.2fx)",
	       cpu, t / ref, b->khz[0], want);
	EXPECT_LT(fabs(t / ref / want - 1), 0.10);
}

TEST_HARNESS_MAIN
