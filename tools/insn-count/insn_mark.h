/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the guest's marks for insn_count are: a user page of code that
 * insn_mark maps, and the two entry points in it the plugin watches.
 */
#ifndef INSN_MARK_H
#define INSN_MARK_H

#define MARK_PAGE 0x5a5a00000000ull
#define MARK_START (MARK_PAGE + 0x000)
#define MARK_STOP (MARK_PAGE + 0x100)

#endif
