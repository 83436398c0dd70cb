/* SPDX-License-Identifier: GPL-2.0 */
/* The x86 PAUSE of a spin-wait loop, as the kernel's cpu_relax(). */
#ifndef FRAMESCHED_SPIN_PAUSE_H
#define FRAMESCHED_SPIN_PAUSE_H

/*
 * Besides telling the CPU that the loop only waits, PAUSE ends a vCPU's
 * turn under QEMU's icount (tools/vm --deterministic), where the vCPUs
 * take turns on one host thread: see bench/spin_visibility.c.
 */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif
