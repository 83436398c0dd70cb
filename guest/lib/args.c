// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"

long long arg_int(const char *prog, const char *opt, const char *s,
		  long long lo, long long hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: %s: expected an integer, %lld to %lld, got '%s'\n",
			prog, opt, lo, hi, s);
		exit(2);
	}
	return v;
}

void args_none_left(const char *prog, int optind, int argc, char **argv)
{
	if (optind < argc) {
		fprintf(stderr, "%s: %s: unexpected argument (options only)\n",
			prog, argv[optind]);
		exit(2);
	}
}
