#!/bin/bash
# tools/vm-scan-log flags every kind of kernel splat and passes clean logs.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

cat >"$d/clean" <<'LOG'
[    0.000000] Linux version 6.12.118+ (framesched@framesched)
[    0.018000] tsc: Unable to calibrate against PIT
[    1.500000] Locking API testsuite: Good, all 261 testcases passed!
[    4.900000] Freeing unused kernel image (initmem) memory: 832K
[   12.000000] sched: RT throttling activated
LOG

flags() { tools/vm-scan-log "$d/$1" >/dev/null; }
clean() { ! tools/vm-scan-log "$d/$1" >/dev/null; }
splat() { printf '%s\n' "[    5.0] $2" >"$d/$1"; }

check "clean boot log passes" clean clean
splat warn "WARNING: CPU: 1 PID: 42 at kernel/sched/rt.c:900 update_curr_rt+0x1/0x2"
check "WARNING" flags warn
splat oops "Oops: general protection fault, probably for non-canonical address"
check "oops" flags oops
splat bug "BUG: sleeping function called from invalid context at kernel/locking/mutex.c:585"
check "BUG" flags bug
splat lockdep "WARNING: possible circular locking dependency detected"
check "lockdep circular" flags lockdep
splat lockdep2 "inconsistent lock state"
check "lockdep inconsistent" flags lockdep2
splat hung "INFO: task kworker/0:1:12 blocked for more than 30 seconds."
check "hung task" flags hung
splat panic "Kernel panic - not syncing: sysrq triggered crash"
check "panic" flags panic
splat torture "mutex_lock-torture: --- End of test: FAILURE: nwriters_stress=4"
check "locktorture failure" flags torture
done_testing
