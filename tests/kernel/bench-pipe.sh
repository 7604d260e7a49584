#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl bench pipe`, short: each configuration ran in the cpu cgroup and at the depth it
# claims, cpu.stat nr_periods of the leaf as the bandwidth model predicts; SIGINT in
# the middle of a run removes every scratch cgroup and workload.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CTRL=cpu
. "$top_srcdir/tests/kernel/bench-lib.sh"

# KNOWN: at a 1 ms period (quota 4 ms on 2 CPUs, below the 5 ms slice) the kernel
# counted about half the periods the bandwidth model predicts for pipe-test (2026-12-06,
# 6.18, two runs of 3,000 round trips: 56 and 58 observed, 113 and 114 predicted; at 10
# ms 38 and 43 against 38 and 46; 100 ms and 1 s equal).  Reported to the model's
# owner; the exit status is then 7 (a count differs), which this test accepts only
# with that one configuration differing.
KNOWN="bw-1ms"
cg --json bench -r 2 --rounds 3000 --seed 5 pipe
[ "$RC" = 0 ] || [ "$RC" = 7 ] && ok || fail "bench pipe: rc $RC: $ERR"
bench_check "own=0 bw-off=1 bw-1ms=1 bw-10ms=1 bw-100ms=1 bw-1s=1 bw-off-d3=3 bw-100ms-d3=3" pipe \
	"$KNOWN"
# with bandwidth off no period timer runs
p=$(json_get '[c["kernel_check"]["observed"] for c in j["configurations"] if c["name"] == "bw-off"][0]')
[ "$p" = 0 ] && ok || fail "bw-off: nr_periods $p"

# SIGINT in a run: exit with an error, nothing left
"$CGCTL" bench -r 50 --rounds 1000000 pipe >"$T_TMP/out" 2>"$T_TMP/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
[ "$rc" != 0 ] && ok || fail "SIGINT: exit status 0"
grep -q interrupted "$T_TMP/err" && ok || fail "SIGINT: $(cat "$T_TMP/err")"
bench_expect_clean "bench pipe SIGINT"
done_testing
