#!/bin/bash
# The default phone exists twice: in the kernel driver (patch "cpufreq: Add
# phone-cpufreq", which the guest runs) and in emu/platform.c (the host
# copy the emulator's unit tests use; in the guest the pipeline reads the
# platform from sysfs). The two tables must be the same: capacities, power
# parameters and OPPs (kHz, mV), cluster by cluster.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh

patch=$(grep -l '^+static const struct phone_cluster phone_default' kernel/patches/*.patch)

# table FILE START: the numbers of the table that starts at the line
# matching START, up to its "};", one "key value" per line
table() {
	sed -n "/$2/,/^+\{0,1\}};/p" "$1" |
		grep -oE '\.(capacity|cdyn|static_uw|idle_uw) = [0-9]+|\{ *[0-9]+, *[0-9]+ *\}' |
		tr -d '{}.=,' | tr -s ' ' | sed 's/^ //; s/ $//'
}

check "the driver's default phone is in one patch" \
	eval '[ -n "$patch" ] && [ "$(echo "$patch" | wc -l)" = 1 ]'
drv=$(table "$patch" '^+static const struct phone_cluster phone_default')
emu=$(table emu/platform.c '^static const struct platform platform_phone = {')
check "the driver's table has both clusters' numbers" \
	eval '[ "$(echo "$drv" | wc -l)" -ge 21 ] || { echo "$drv" | sed "s/^/# /"; false; }'
check "emu/platform.c's default phone is the driver's" \
	eval 'diff <(echo "$drv") <(echo "$emu") | sed "s/^/# /"; [ "$drv" = "$emu" ]'
done_testing
