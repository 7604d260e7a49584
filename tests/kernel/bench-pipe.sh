#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl bench pipe`, short: each configuration ran in the cpu cgroup and at the depth it
# claims, cpu.stat nr_periods of the leaf as the bandwidth model predicts; SIGINT in
# the middle of a run removes every scratch cgroup and workload.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CTRL=cpu
. "$top_srcdir/tests/kernel/bench-lib.sh"

# KNOWN: at periods of 1 ms and 10 ms (quota 4 and 40 ms on 2 CPUs) the kernel's period
# timer goes idle in periods without a request to the pool more often than the
# bandwidth model's: pipe-test there counted about half the periods predicted
# (2026-12-06, 6.18, load 15-27 on 2 CPUs, two runs of 3,000 round trips each: 1 ms
# 56, 58, 59 and 91 observed against 113, 114, 116 and 222; 10 ms 38, 43 and 47
# against 38, 46 and 84); at 100 ms and 1 s, and at depth 3, they agree.  Reported
# to the model's owner.  With a configuration differing the exit status is 7, which
# this test accepts only when the differing ones are these.
KNOWN="bw-1ms bw-10ms"
cg --json bench --repeat 2 --rounds 3000 --seed 5 pipe
[ "$RC" = 0 ] || [ "$RC" = 7 ] && ok || fail "bench pipe: rc $RC: $ERR"
bench_check "own=0 bw-off=1 bw-1ms=1 bw-10ms=1 bw-100ms=1 bw-1s=1 bw-off-d3=3 bw-100ms-d3=3" pipe \
	"$KNOWN"
# with bandwidth off no period timer runs
p=$(json_get '[c["kernel_check"]["observed"] for c in j["configurations"] if c["name"] == "bw-off"][0]')
[ "$p" = 0 ] && ok || fail "bw-off: nr_periods $p"

# SIGINT in a run: exit with an error, nothing left
"$CGCTL" bench --repeat 50 --rounds 1000000 pipe >"$T_TMP/out" 2>"$T_TMP/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
[ "$rc" != 0 ] && ok || fail "SIGINT: exit status 0"
grep -q interrupted "$T_TMP/err" && ok || fail "SIGINT: $(cat "$T_TMP/err")"
bench_expect_clean "bench pipe SIGINT"
done_testing
