# framesched: the two commands are "make run" and "make check".
# Each installs what is missing and builds what is stale.
SHELL := /bin/bash
KDIR := build/linux
KREL := build/linux-release
KSCR := build/linux-scrutiny
CC := gcc
CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -pthread -Iguest/lib
HARNESS := -I$(KDIR)/tools/testing/selftests

GUEST_LIB := $(wildcard guest/lib/*.c)
GUEST_HDRS := $(wildcard guest/lib/*.h guest/modules/*/*_uapi.h)
GUEST_TESTS := $(patsubst tests/guest/%.c,build/guest/tests/%,$(wildcard tests/guest/*.c))
BENCHES := $(patsubst bench/%.c,build/guest/bench/%,$(wildcard bench/*.c))
# tests of the emulated phone: run by tests/vm/phone.sh in a phone boot
PHONE_TESTS := $(patsubst tests/phone/%.c,build/guest/phone-tests/%,$(wildcard tests/phone/*.c))
PIPELINE := build/guest/bin/framesched-pipeline

.PHONY: help run results-doc check deps kernel kernel-release kernel-reset export-patches \
	guest modules soak scrutiny check-series bench-sched clean

## make (or make help): this list
help:
	@awk '/^## /{sub(/^## /, ""); print}' $(MAKEFILE_LIST)

## make run: build, boot the release kernel (deterministic, the emulated
## phone) RUN_REPEAT times for each workload of WORKLOADS, run it under
## every strategy in each boot, print the table of their medians and
## ranges and which strategy wins; build/results/WORKLOAD/: run.json,
## chart.svg, table.txt, and run-K/ for boot K (its run.json, table.txt,
## trace-STRATEGY.json, timings.txt). WORKLOADS=all: every file of
## emu/workloads/. RUN_FRAMES frames a strategy; RUN_SCHED_TRACE=1 also
## records each boot's scheduling, merged into trace-STRATEGY-sched.json
## (tools/run-comparison --help for the rest)
RUN_FRAMES ?= 400
RUN_REPEAT ?= 3
WORKLOADS ?= article-example ui-heavy-background
RUN_WORKLOADS = $(if $(filter all,$(WORKLOADS)),$(basename $(notdir $(wildcard emu/workloads/*.json))),$(WORKLOADS))
run: deps
	@tools/kernel-build release
	@$(MAKE) -s guest
	@for w in $(RUN_WORKLOADS); do \
		[ -f emu/workloads/$$w.json ] || { echo "make run: no workload emu/workloads/$$w.json" >&2; exit 2; }; \
	done; \
	for w in $(RUN_WORKLOADS); do \
		echo "== make run: workload $$w" >&2; \
		FRAMESCHED_RUN_FRAMES=$(RUN_FRAMES) FRAMESCHED_RUN_REPEAT=$(RUN_REPEAT) \
		FRAMESCHED_RUN_COMMAND="make run RUN_REPEAT=$(RUN_REPEAT) RUN_FRAMES=$(RUN_FRAMES) WORKLOADS='$(WORKLOADS)'" \
		tools/run-comparison \
			--kernel $(KREL)/arch/x86/boot/bzImage --workload emu/workloads/$$w.json \
			$(if $(RUN_SCHED_TRACE),--sched-trace) \
			--out build/results/$$w || exit $$?; \
	done

## make results-doc: put build/results/ (the last make run) into
## docs/results.md (written whole, a section a workload) and the results
## blocks of docs/pipeline.md and README.md, for a commit of the docs
results-doc:
	@tools/results-doc --results build/results --full docs/results.md \
		docs/pipeline.md README.md

## make check: every test (host, VM runner, guest suite in the debug kernel;
## the phone under icount in the release kernel, as make run boots it)
check: deps
	@tools/kernel-build debug
	@tools/kernel-build release
	@$(MAKE) -s guest
	@tests/run

## make scrutiny: the scrutiny kernel (KASAN, UBSAN, kmemleak, schedstats on
## top of the debug kernel's checkers) runs the proxy-execution, token and
## inversion tests and locktorture; any report fails it (tests/scrutiny.sh)
scrutiny: deps
	@tools/kernel-build scrutiny
	@$(MAKE) -s guest
	@tests/scrutiny.sh

## make check-series: each patch alone builds, boots, passes the lock suites
check-series: deps
	@tools/check-series

## make soak: the long runs: the scheduler's peer suites at once for
## SOAK_PEERS_S seconds (trinity, stress-ng, cyclicdeadline, pi_stress,
## hackbench, locktorture, the token tests) with PROXY_EXEC flipping,
## reported in build/results/soak/report.txt; the lock torture suite for
## longer, SOAK_S seconds a lock type; proxy execution's inversion target
## with 1, 2 and 4 hogs in a deterministic boot (make check: 1 hog); the
## SCHED_DEADLINE token tests with SOAK_TOKEN_PASSES round trips (make
## check: 2000)
SOAK_S ?= 600
SOAK_PEERS_S ?= 1800
SOAK_TOKEN_PASSES ?= 100000
soak: deps
	@tools/kernel-build debug
	@$(MAKE) -s guest
	@SOAK_PEERS_S=$(SOAK_PEERS_S) FRAMESCHED_SOAK_COMMAND="make soak SOAK_PEERS_S=$(SOAK_PEERS_S)" \
		tests/soak/sched_peers.sh
	@FRAMESCHED_TORTURE_S=$(SOAK_S) tests/vm/locktorture.sh
	@FRAMESCHED_INVERSION_M=1,2,4 tests/vm/inversion_icount.sh
	@tools/vm --timeout 3600 -- env FRAMESCHED_TOKEN_PASSES=$(SOAK_TOKEN_PASSES) \
		build/guest/tests/dl_token

## make bench-sched: the series against the pristine tree, scheduler
## micro-benchmarks in alternating boots (BENCH_ROUNDS boots of each)
BENCH_ROUNDS ?= 5
bench-sched: deps
	@tools/kernel-build release
	@tools/kernel-build pristine
	@mkdir -p build/results
	@bench/sched_overhead -r $(BENCH_ROUNDS) -j build/results/sched_overhead.json
	@echo "results: build/results/sched_overhead.json"

deps:
	@tools/deps

## the debug kernel (make check) in build/linux
kernel: deps
	@tools/kernel-build debug

## the release kernel (benchmarks, make run) in build/linux-release
kernel-release: deps
	@tools/kernel-build release

## drop unexported commits in build/linux and re-apply kernel/patches
kernel-reset:
	@git -C $(KDIR) reset -q --hard base && rm -f $(KDIR)/.git/framesched-applied
	@tools/kernel-tree

## write build/linux's commits on top of base to kernel/patches/
export-patches:
	@tools/export-patches

guest: modules $(GUEST_TESTS) $(PHONE_TESTS) $(BENCHES) $(PIPELINE)

## guest kernel modules, for every kernel tree that is built: the debug
## kernel's in build/guest/modules/, the release and pristine kernels' in
## build/guest/modules-release/ and modules-pristine/ (not loadable into
## each other: one version string, different struct layouts)
KPRI := build/linux-pristine
INV_SRC := $(wildcard guest/modules/inversion/*)
INV_KO := inversion/framesched_inversion.ko
DSP_SRC := $(wildcard guest/modules/phone_display/*)
DSP_KO := phone_display/framesched_display.ko
# $(call tree_kos,TREE): the modules TREE can take: the display module
# needs dma_fence and sync_file (CONFIG_SYNC_FILE), which a tree built
# before base.config had them lacks until it is rebuilt
tree_kos = $(INV_KO) $(if $(shell grep -qx CONFIG_SYNC_FILE=y $(1)/.config 2>/dev/null && echo y),$(DSP_KO))
modules: $(if $(wildcard $(KDIR)/vmlinux),$(addprefix build/guest/modules/,$(call tree_kos,$(KDIR)))) \
	$(if $(wildcard $(KREL)/vmlinux),$(addprefix build/guest/modules-release/,$(call tree_kos,$(KREL)))) \
	$(if $(wildcard $(KPRI)/vmlinux),$(addprefix build/guest/modules-pristine/,$(call tree_kos,$(KPRI)))) \
	$(if $(wildcard $(KSCR)/vmlinux),$(addprefix build/guest/modules-scrutiny/,$(call tree_kos,$(KSCR))))

# $(call kbuild_module,TREE): build the module of $@ out of tree against
# TREE from a copy of its sources in $(@D), so that no build product lands
# in guest/modules/. TREE's "uname -v" goes beside the .ko as
# kernel-version: the loader (guest/lib/kmod.c) checks it.
define kbuild_module
	@rm -rf $(@D) && mkdir -p $(@D)
	@cp $(filter guest/modules/%,$^) $(@D)/
	$(MAKE) -s -C $(1) M=$(CURDIR)/$(@D) modules
	@sed -n 's/^#define UTS_VERSION "\(.*\)"$$/\1/p' \
		$(1)/include/generated/utsversion.h >$(@D)/kernel-version
endef

build/guest/modules/$(INV_KO): $(INV_SRC) $(KDIR)/vmlinux
	$(call kbuild_module,$(KDIR))

build/guest/modules-release/$(INV_KO): $(INV_SRC) $(KREL)/vmlinux
	$(call kbuild_module,$(KREL))

build/guest/modules-pristine/$(INV_KO): $(INV_SRC) $(KPRI)/vmlinux
	$(call kbuild_module,$(KPRI))

build/guest/modules-scrutiny/$(INV_KO): $(INV_SRC) $(KSCR)/vmlinux
	$(call kbuild_module,$(KSCR))

build/guest/modules/$(DSP_KO): $(DSP_SRC) $(KDIR)/vmlinux
	$(call kbuild_module,$(KDIR))

build/guest/modules-scrutiny/$(DSP_KO): $(DSP_SRC) $(KSCR)/vmlinux
	$(call kbuild_module,$(KSCR))

build/guest/modules-release/$(DSP_KO): $(DSP_SRC) $(KREL)/vmlinux
	$(call kbuild_module,$(KREL))

build/guest/modules-pristine/$(DSP_KO): $(DSP_SRC) $(KPRI)/vmlinux
	$(call kbuild_module,$(KPRI))

build/guest/tests/%: tests/guest/%.c $(GUEST_LIB) $(GUEST_HDRS) $(wildcard tests/guest/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(HARNESS) -o $@ $< $(GUEST_LIB)

## the display-pipeline emulator (emu/pipeline/README.md): the program, and
## the guest tests tests/guest/pipeline_*.c, which link its library
EMU_CFLAGS := -Iemu -Iemu/strategies -Iemu/pipeline
EMU_LIB := $(wildcard emu/*.c emu/strategies/*.c) \
	$(filter-out emu/pipeline/main.c,$(wildcard emu/pipeline/*.c))
EMU_HDRS := $(wildcard emu/*.h emu/strategies/*.h emu/pipeline/*.h)

$(PIPELINE): emu/pipeline/main.c $(EMU_LIB) $(EMU_HDRS) $(GUEST_LIB) $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(EMU_CFLAGS) -o $@ emu/pipeline/main.c $(EMU_LIB) \
		$(GUEST_LIB) -ljansson -lm

build/guest/tests/pipeline_%: tests/guest/pipeline_%.c $(EMU_LIB) $(EMU_HDRS) \
		$(GUEST_LIB) $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(HARNESS) $(EMU_CFLAGS) -o $@ $< $(EMU_LIB) $(GUEST_LIB) \
		-ljansson -lm

build/guest/phone-tests/%: tests/phone/%.c $(GUEST_LIB) $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(HARNESS) -o $@ $< $(GUEST_LIB) -lm

build/guest/bench/%: bench/%.c $(GUEST_LIB) $(GUEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(GUEST_LIB)

clean:
	rm -rf build/guest build/results

## tools/insn-profile's QEMU plugin (host) and its guest marker
build/tools/insn_count.so: tools/insn-count/insn_count.c tools/insn-count/*.h
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Wno-unused-parameter -shared -fPIC -fvisibility=hidden -o $@ $<

build/tools/insn_mark: tools/insn-count/insn_mark.c tools/insn-count/insn_mark.h
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -o $@ $<
