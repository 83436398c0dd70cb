/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line arguments of guest programs. */
#ifndef FRAMESCHED_ARGS_H
#define FRAMESCHED_ARGS_H

/*
 * @s, the value of option @opt of program @prog, as an integer in
 * @lo..@hi; anything else exits with status 2 after
 * "PROG: OPT: expected an integer, LO to HI, got 'S'".
 */
long long arg_int(const char *prog, const char *opt, const char *s,
		  long long lo, long long hi);

/*
 * For programs that take options only: if argv[@optind] exists, exit
 * with status 2 after "PROG: ARG: unexpected argument (options only)".
 */
void args_none_left(const char *prog, int optind, int argc, char **argv);

#endif
