#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl bench pipe`, short: each configuration ran in the cpu cgroup and at the depth it
# claims, cpu.stat nr_periods of the leaf as the bandwidth model predicts; SIGINT in
# the middle of a run removes every scratch cgroup and workload.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CTRL=cpu
. "$top_srcdir/tests/kernel/bench-lib.sh"

# The pipe pair runs on one CPU (sync wake-ups) and the model follows where the workload
# saw it run: at 1 ms the timer goes idle between the runqueue's 4 ms requests to the
# pool, about half the periods (6.18: model 108 and 105, kernel 110 and 111).
# KNOWN (issue 31, open): bw-1ms when round trips are slow (40-100 us, not 8-20 us: the
# pair's runqueues empty at every round trip) the kernel counts more periods than the
# model: 237 against 158, 353 against 231, 406 against 312 (2026-12-06, 6.18, CI runs
# and by hand); printed, never hidden; exit 7 is accepted only for it.  Since the model
# follows the placement round trip by round trip (one CPU / apart shares simulated each,
# the workload's stretches), mixed runs beside CPU hogs matched by hand (kernel/model
# 110/105, 55/56, 222/219, 2026-12-06), but the pair forced apart on a machine at load
# 16 still counted more (447 against 308): the gap stays known until that is followed.
# Followed further (2026-12-07, 6.18, the pair pinned to CPUs 0 and 1 by an LD_PRELOAD
# shim, round trips of 70-300 us; timer:hrtimer_* events on sched_cfs_period_timer):
# the timer fires once per nr_periods (no overrun counted), nothing throttles, and it
# runs on while any CPU's runqueue asks the pool (each does after every 1 ms of its own
# CPU time, the min_cfs_rq_runtime it keeps; any grant clears cfs_b->idle:
# __assign_cfs_rq_runtime(), __return_cfs_rq_runtime(), do_sched_cfs_period_timer(),
# v6.1 to v6.18), as the simulator does.  Two inputs of the apart model are off and
# partly cancel: perf's task-clock, which it drains by, is 50-76% of the two ends'
# thread CPU time (their sum_exec_runtime, what the group is charged); and it sets the
# ends' requests evenly interleaved, which shares no firing.  Thread CPU time with the
# lag averaged predicts 4-24% too many on this workload (the kernel falls between that
# and the ends in step), within 2% on a pair whose ends differ; task-clock and half a
# lag (as now) 2-18% too few pinned, 30-50% too few in the runs above.
KNOWN="bw-1ms"
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

# A killed run's scratch below a PATH (issue 33): the next bench below that PATH
# removes it and says so in one line by default.
R="${OWN%/}/reap-path-$$"
mkdir "$MNT$R"
trap 'rmdir "$MNT$R"/cgctl-bench-*/l1 "$MNT$R"/cgctl-bench-* "$MNT$R" 2>/dev/null' EXIT
sh -c 'exit 0' & dead=$!
wait $dead
while [ -e /proc/$dead ]; do sh -c 'exit 0' & dead=$!; wait $dead; done
mkdir -p "$MNT$R/cgctl-bench-$dead/l1"
cg bench --repeat 2 --rounds 200 --seed 5 pipe "$R"
# (the counts are checked above: here 7, a count that differs, is no failure)
[ "$RC" = 0 ] || [ "$RC" = 7 ] && ok || fail "bench pipe below PATH: rc $RC: $ERR"
[ ! -d "$MNT$R/cgctl-bench-$dead" ] && ok || fail "a dead run's scratch left below PATH"
case "$ERR" in *"removed "*"cgctl-bench-$dead"*"(PID $dead)"*) ok ;;
*) fail "no notice of the removed scratch: $ERR" ;; esac
rmdir "$MNT$R" && ok || fail "bench left something below PATH: $(ls "$MNT$R")"
done_testing
