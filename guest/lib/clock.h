/* SPDX-License-Identifier: GPL-2.0 */
/* The one clock guest programs time things with. */
#ifndef FRAMESCHED_CLOCK_H
#define FRAMESCHED_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in seconds */
double mono_now(void);
/* CLOCK_MONOTONIC in nanoseconds */
int64_t mono_ns(void);

#endif
