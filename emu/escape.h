/* SPDX-License-Identifier: GPL-2.0 */
/*
 * escape.h - write text into JSON strings, always well-formed (the trace
 * writer's; run.json goes through jansson).
 *
 * Valid UTF-8 passes through; each byte of an invalid sequence becomes
 * '?', so no output file can be rejected for its encoding.
 */
#ifndef EMU_ESCAPE_H
#define EMU_ESCAPE_H

#include <stdio.h>

/* Length (1..4) of the valid UTF-8 sequence at s, 0 if invalid. */
int utf8_seq_len(const unsigned char *s);
/* A quoted JSON string; NULL writes "". Returns -1 if a write failed. */
int escape_json(FILE *f, const char *s);

#endif
