// SPDX-License-Identifier: GPL-2.0
/*
 * rt_greed_table: the RT_RUNTIME_GREED comparison that "make run" prints.
 * For the root group and an RT cgroup with half the period, a SCHED_FIFO
 * hog alone and beside a CFS hog on one CPU: the share of that CPU each
 * gets with the feature off and on.
 *
 *   rt_greed_table [-w SECONDS] [-j FILE.json]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_share.h"
#include "greed.h"

struct row {
	const char *name;
	const char *group_runtime;	/* NULL: root group */
	bool with_cfs;
	double rt[2], cfs[2];		/* [greed off, greed on] */
};

static struct row rows[] = {
	{ .name = "root group, RT alone" },
	{ .name = "root group, RT + CFS", .with_cfs = true },
	{ .name = "RT cgroup 50%, RT alone", .group_runtime = "500000" },
	{ .name = "RT cgroup 50%, RT + CFS", .group_runtime = "500000",
	  .with_cfs = true },
};

#define NROWS (int)(sizeof(rows) / sizeof(rows[0]))

static void usage(void)
{
	fprintf(stderr, "usage: rt_greed_table [-w SECONDS] [-j FILE.json]\n");
	exit(2);
}

static int run_row(struct row *r, double window)
{
	const char *tasks = r->group_runtime ? GREED_GROUP_TASKS : NULL;
	int greed, err = 0;

	if (r->group_runtime && greed_group_create(r->group_runtime))
		return -1;
	for (greed = 0; greed < 2 && !err; greed++)
		err = greed_run(greed, r->with_cfs, tasks, window,
				&r->rt[greed], &r->cfs[greed]);
	if (r->group_runtime)
		greed_group_destroy();
	return err;
}

static void print_cfs(double v, bool valid)
{
	if (valid)
		printf(" %6.1f%%", 100 * v);
	else
		printf(" %7s", "-");
}

static void write_json(const char *path)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "[\n");
	for (i = 0; i < NROWS; i++) {
		struct row *r = &rows[i];

		fprintf(f, "  {\"case\": \"%s\", \"rt_off\": %.4f, \"rt_on\": %.4f",
			r->name, r->rt[0], r->rt[1]);
		if (r->with_cfs)
			fprintf(f, ", \"cfs_off\": %.4f, \"cfs_on\": %.4f",
				r->cfs[0], r->cfs[1]);
		fprintf(f, "}%s\n", i + 1 < NROWS ? "," : "");
	}
	fprintf(f, "]\n");
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *json = NULL;
	double window = 4;
	char *end;
	int opt, i;

	while ((opt = getopt(argc, argv, "w:j:")) != -1) {
		switch (opt) {
		case 'w':
			window = strtod(optarg, &end);
			if (*end || window <= 0) {
				fprintf(stderr, "rt_greed_table: -w: expected seconds > 0, got '%s'\n", optarg);
				return 2;
			}
			break;
		case 'j':
			json = optarg;
			break;
		default:
			usage();
		}
	}
	if (set_sched_feature("RT_RUNTIME_SHARE", false)) {
		fprintf(stderr, "rt_greed_table: cannot write %s\n", SCHED_FEATURES);
		return 1;
	}
	for (i = 0; i < NROWS; i++) {
		fprintf(stderr, "[%d/%d] %s (2 x %.0f s)\n", i + 1, NROWS, rows[i].name, window);
		if (run_row(&rows[i], window))
			return 1;
	}
	set_sched_feature("RT_RUNTIME_GREED", false);

	printf("\nShare of CPU %d over %.0f s windows (schedstat), NO_RT_RUNTIME_SHARE\n\n",
	       GREED_CPU, window);
	printf("%-26s %17s   %17s\n", "", "GREED off", "GREED on");
	printf("%-26s %8s %8s   %8s %8s\n", "case", "RT", "CFS", "RT", "CFS");
	for (i = 0; i < NROWS; i++) {
		struct row *r = &rows[i];

		printf("%-26s %7.1f%%", r->name, 100 * r->rt[0]);
		print_cfs(r->cfs[0], r->with_cfs);
		printf("   %7.1f%%", 100 * r->rt[1]);
		print_cfs(r->cfs[1], r->with_cfs);
		printf("\n");
	}
	if (json)
		write_json(json);
	return 0;
}
