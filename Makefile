# framesched: the two commands are "make run" and "make check".
# Each installs what is missing and builds what is stale.
SHELL := /bin/bash
KDIR := build/linux
KREL := build/linux-release
CC := gcc
CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -pthread -Iguest/lib
HARNESS := -I$(KDIR)/tools/testing/selftests

GUEST_LIB := $(wildcard guest/lib/*.c)
GUEST_TESTS := $(patsubst tests/guest/%.c,build/guest/tests/%,$(wildcard tests/guest/*.c))
BENCHES := $(patsubst bench/%.c,build/guest/bench/%,$(wildcard bench/*.c))

.PHONY: all run check deps kernel kernel-release kernel-reset export-patches \
	guest clean

all: check

## make run: build, boot the release kernel, print the strategy comparison
run: deps
	@tools/kernel-build release
	@$(MAKE) -s guest
	@mkdir -p build/results
	@tools/vm --kernel $(KREL)/arch/x86/boot/bzImage --out build/results -- \
		build/guest/bench/rt_greed_table -j build/results/greed.json
	@echo "results: build/results/greed.json"

## make check: every test (host, VM runner, guest suite in the debug kernel)
check: deps
	@tools/kernel-build debug
	@$(MAKE) -s guest
	@tests/run

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

guest: $(GUEST_TESTS) $(BENCHES)

build/guest/tests/%: tests/guest/%.c $(GUEST_LIB) guest/lib/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(HARNESS) -o $@ $< $(GUEST_LIB)

build/guest/bench/%: bench/%.c $(GUEST_LIB) guest/lib/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(GUEST_LIB)

clean:
	rm -rf build/guest build/results
