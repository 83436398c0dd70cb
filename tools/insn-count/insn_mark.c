// SPDX-License-Identifier: GPL-2.0
/*
 * insn_mark start|stop: in a guest run under the insn_count QEMU plugin,
 * open or close the window whose instructions the plugin counts. It runs
 * a one-instruction function ("ret") at the plugin's MARK_START or
 * MARK_STOP address; without the plugin it does nothing visible.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "insn_mark.h"

int main(int argc, char **argv)
{
	unsigned long at;
	unsigned char *page;

	if (argc != 2 || (strcmp(argv[1], "start") && strcmp(argv[1], "stop"))) {
		fprintf(stderr, "usage: insn_mark start|stop\n");
		return 2;
	}
	at = strcmp(argv[1], "start") ? MARK_STOP : MARK_START;
	page = mmap((void *)MARK_PAGE, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (page == MAP_FAILED) {
		perror("insn_mark: mmap of the mark page");
		return 1;
	}
	page[at - MARK_PAGE] = 0xc3;	/* ret */
	((void (*)(void))at)();
	return 0;
}
