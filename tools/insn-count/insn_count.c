// SPDX-License-Identifier: GPL-2.0
/*
 * insn_count: a QEMU TCG plugin that counts the guest instructions executed
 * per kernel translation block between two marks the guest sets, to say
 * where a kernel spends instructions on a workload (tools/insn-profile).
 *
 *   qemu-system-x86_64 ... -plugin insn_count.so,out=FILE
 *
 * The guest marks the window by running insn_mark (insn_mark.c): it maps
 * a page of code at MARK_PAGE and calls MARK_START or MARK_STOP there. At
 * the start mark the counters are snapshotted; at the stop mark FILE is
 * (re)written with, for every kernel block that ran in the window, its
 * start address and the instructions it executed, plus the window's user
 * and kernel totals.
 *
 * A block's count is bumped by its length when it is entered, so a block
 * left early by an exception counts whole: the counts are exact only up
 * to that. The counters are not atomic: under MTTCG two vCPUs may lose an
 * update; under -icount (one TCG thread) they are exact.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"
#include "insn_mark.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define KERNEL_START 0xffff800000000000ull
#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)

struct block_count {
	uint64_t vaddr;		/* 0: slot free */
	uint64_t count;		/* instructions run in this block since boot */
	uint64_t at_start;	/* count at the last start mark */
};

/*
 * protected by table_lock (translation and the marks may run on several
 * vCPU threads); the counts themselves are bumped by generated code
 */
static struct block_count *table;
static unsigned int used;
static int table_full;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t user_count, user_at_start;
static const char *out_path;

static unsigned int slot_of(uint64_t vaddr)
{
	return (unsigned int)((vaddr * 0x9e3779b97f4a7c15ull) >> (64 - TABLE_BITS));
}

/* the counter of the block at vaddr, new if needed; NULL if the table is full */
static struct block_count *block_count_get(uint64_t vaddr)
{
	unsigned int i = slot_of(vaddr);

	while (table[i].vaddr && table[i].vaddr != vaddr)
		i = (i + 1) & (TABLE_SIZE - 1);
	if (!table[i].vaddr) {
		if (used >= TABLE_SIZE / 2)
			return NULL;
		table[i].vaddr = vaddr;
		used++;
	}
	return &table[i];
}

static void mark_start(unsigned int vcpu, void *udata)
{
	pthread_mutex_lock(&table_lock);
	for (unsigned int i = 0; i < TABLE_SIZE; i++)
		table[i].at_start = table[i].count;
	user_at_start = user_count;
	pthread_mutex_unlock(&table_lock);
}

static void mark_stop(unsigned int vcpu, void *udata)
{
	uint64_t kernel = 0;
	FILE *f = fopen(out_path, "w");
	char msg[256];

	if (!f) {
		snprintf(msg, sizeof(msg), "insn_count: cannot write %s: %s\n",
			 out_path, strerror(errno));
		qemu_plugin_outs(msg);
		return;
	}
	pthread_mutex_lock(&table_lock);
	for (unsigned int i = 0; i < TABLE_SIZE; i++) {
		uint64_t n = table[i].count - table[i].at_start;

		if (!table[i].vaddr || !n)
			continue;
		fprintf(f, "0x%016" PRIx64 " %" PRIu64 "\n", table[i].vaddr, n);
		kernel += n;
	}
	fprintf(f, "# user %" PRIu64 "\n", user_count - user_at_start);
	fprintf(f, "# kernel %" PRIu64 "\n", kernel);
	if (table_full)
		fprintf(f, "# incomplete: more than %u kernel blocks\n", TABLE_SIZE / 2);
	pthread_mutex_unlock(&table_lock);
	fclose(f);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	uint64_t n = qemu_plugin_tb_n_insns(tb);
	struct block_count *c;

	if (vaddr == MARK_START)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_start,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
	else if (vaddr == MARK_STOP)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_stop,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
	if (vaddr < KERNEL_START) {
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
				QEMU_PLUGIN_INLINE_ADD_U64, &user_count, n);
		return;
	}
	pthread_mutex_lock(&table_lock);
	c = block_count_get(vaddr);
	if (!c)
		table_full = 1;
	pthread_mutex_unlock(&table_lock);
	if (c)
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
				QEMU_PLUGIN_INLINE_ADD_U64, &c->count, n);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const struct qemu_info_t *info,
					   int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_path = argv[i] + 4;
		} else {
			fprintf(stderr, "insn_count: unknown argument '%s' (expected out=FILE)\n",
				argv[i]);
			return -1;
		}
	}
	if (!out_path) {
		fprintf(stderr, "insn_count: no output file (expected out=FILE)\n");
		return -1;
	}
	table = calloc(TABLE_SIZE, sizeof(*table));
	if (!table) {
		fprintf(stderr, "insn_count: out of memory\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	return 0;
}
