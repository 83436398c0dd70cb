/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emu_test.h - what the emu host tests share on top of kselftest_harness.h.
 */
#ifndef EMU_TEST_H
#define EMU_TEST_H

#include <math.h>
#include "kselftest_harness.h"

/* The harness prints doubles as integers; this one says what it saw. */
#define ASSERT_NEAR(expected, seen, tol) do {				\
	double __e = (expected), __s = (seen), __t = (tol);		\
	ASSERT_TRUE(fabs(__e - __s) <= __t)				\
		TH_LOG("%s: expected %.9g, got %.9g (tolerance %g)",	\
		       #seen, __e, __s, __t);				\
} while (0)

/* ASSERT that the string hay contains needle, showing both if not. */
#define ASSERT_CONTAINS(hay, needle) do {				\
	const char *__h = (hay), *__n = (needle);			\
	ASSERT_NE(NULL, strstr(__h, __n))				\
		TH_LOG("expected \"%s\" in \"%s\"", __n, __h);		\
} while (0)

#endif
