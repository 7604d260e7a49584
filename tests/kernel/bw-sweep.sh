#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A randomized sweep of the CFS bandwidth model on the running kernel (v1 cpu + cpuacct):
# BW_SWEEP_N (8) configurations drawn from BW_SWEEP_SEED (1) -- quota, period, burst,
# threads (up to one more than the CPUs), spinning or busy/idle phases -- each run once
# in a fresh group below our own cgroup and compared with `cgctl bw predict` for the
# same configuration.  The tolerances are validate's (cgctl-validate(1)): nr_throttled
# 2, throttled_time max(30 ms, 15%), usage max(20 ms, 5%).  Prints each case and the
# share of quantities within tolerance; fails below 95% (the issue's target) or on any
# error, unless the machine was too busy to judge (load average above 2 per CPU: 77).  About 2.5 s per configuration (~25 s).  Replay a case with its line's
# BW_SWEEP_SEED and BW_SWEEP_N=1 (the first draw of a seed is that seed's case).
. "$top_srcdir/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "no cgctl binary"
WL=${CGCTL_WORKLOAD_EXE:-$top_builddir/src/cgctl-workload}
[ -x "$WL" ] || skip "no cgctl-workload binary"
command -v python3 >/dev/null || skip "needs python3"
CPU=$(mount_of cpu)
[ -n "$CPU" ] && [ -f "$CPU/cpu.cfs_quota_us" ] || skip "no v1 cpu hierarchy with CFS bandwidth"
NCPU=$(getconf _NPROCESSORS_ONLN)
N=${BW_SWEEP_N:-8}
SEED=${BW_SWEEP_SEED:-1}

SELF_CPU=$(self_cgroup cpu)
B="${SELF_CPU%/}/bw-sweep-$$"
WPID=""
cleanup() {
	[ -n "$WPID" ] && kill -9 "$WPID" 2>/dev/null && wait "$WPID" 2>/dev/null
	: >"$T_TMP/go"		# the feeder of its "go" ends
	WPID=""
	[ -d "$CPU$B" ] && find "$CPU$B" -depth -type d -exec rmdir {} \; 2>/dev/null
	return 0
}
at_exit cleanup
mkdir "$CPU$B" 2>/dev/null || skip "cannot create cgroups below $SELF_CPU"
# the largest weight for the base, so other load on the machine takes little from it
echo 262144 >"$CPU$B/cpu.shares"

# draw SEED: "quota_us period_us burst_us threads busy_ms idle_ms"; busy 0: spin
draw() {
	python3 -c '
import random, sys
r = random.Random(int(sys.argv[1])); n = int(sys.argv[2]); burst_ok = sys.argv[3] == "1"
period = r.randrange(20, 201) * 1000
threads = r.randint(1, n + 1)
quota = r.randrange(max(1000, period // 10), int(period * min(threads, n) * 1.2) + 1, 1000)
burst = r.randrange(0, quota + 1, 1000) if burst_ok and r.random() < 0.3 else 0
busy, idle = (0, 0) if r.random() < 0.4 else (r.randint(2, 40), r.randint(5, 200))
print(quota, period, burst, threads, busy, idle)
' "$1" "$NCPU" "$( [ -f "$CPU$B/cpu.cfs_burst_us" ] && echo 1 || echo 0)"
}

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$CPU$1/cpu.stat"; }

# run_one CASE QUOTA PERIOD BURST THREADS BUSY IDLE: prints "nr_throttled throttled_ns
# usage_ns" of the kernel, or returns 1
run_one() {
	c=$1 q=$2 p=$3 b=$4 n=$5 busy=$6 idle=$7 dur=1500
	G="$B/c$c"
	mkdir "$CPU$G" || return 1
	echo "$p" >"$CPU$G/cpu.cfs_period_us" && echo "$q" >"$CPU$G/cpu.cfs_quota_us" || return 1
	[ "$b" = 0 ] || echo "$b" >"$CPU$G/cpu.cfs_burst_us" || return 1
	t0=$(stat_of "$G" nr_throttled) th0=$(stat_of "$G" throttled_time)
	rm -f "$T_TMP/go" "$T_TMP/out"
	# its "go" waits for a file: no fifo to block on if it dies
	if [ "$busy" = 0 ]; then set -- spin "$n" "$dur"; else set -- duty "$n" "$busy" "$idle" "$dur"; fi
	( while [ ! -e "$T_TMP/go" ]; do sleep 0.01; done; echo go ) |
		nice -n -20 "$WL" "$@" >"$T_TMP/out" &
	WPID=$!
	k=0
	until grep -q '^ready' "$T_TMP/out" 2>/dev/null; do
		k=$((k + 1)); [ $k -lt 1000 ] || return 1; sleep 0.01
	done
	# started outside the group (its start-up must not eat the quota), moved when ready
	echo "$WPID" >"$CPU$G/cgroup.procs" || return 1
	: >"$T_TMP/go"
	k=0
	until grep -q '^done' "$T_TMP/out" 2>/dev/null; do
		k=$((k + 1)); [ $k -lt 3000 ] || return 1; sleep 0.01
	done
	# its exit is not part of the run (it may be gone already)
	echo "$WPID" >"$CPU$SELF_CPU/cgroup.procs" 2>/dev/null
	wait "$WPID"
	WPID=""
	line=$(grep '^done' "$T_TMP/out")
	sleep 0.4				# the last episodes end at the next refill
	nt=$(( $(stat_of "$G" nr_throttled) - t0 ))
	th=$(( $(stat_of "$G" throttled_time) - th0 ))
	cpu=$(printf '%s\n' "$line" | sed -n 's/.*cpu_ns=\([0-9]*\).*/\1/p')
	wall=$(printf '%s\n' "$line" | sed -n 's/.*wall_ns=\([0-9]*\).*/\1/p')
	delay=$(printf '%s\n' "$line" | sed -n 's/.*delay_ns=\([0-9]*\).*/\1/p')
	rmdir "$CPU$G"
	[ -n "$cpu" ] && [ -n "$wall" ] || return 1
	echo "$nt $th $cpu $wall ${delay:-0}"
}

total=0 within=0 i=0
while [ $i -lt "$N" ]; do
	s=$((SEED + i))
	set -- $(draw "$s")
	q=$1 p=$2 b=$3 n=$4 busy=$5 idle=$6
	# (not in a command substitution: cleanup must see WPID)
	if ! run_one "$i" "$q" "$p" "$b" "$n" "$busy" "$idle" >"$T_TMP/obs"; then
		cleanup
		mkdir -p "$CPU$B"
		fail "seed $s: the run failed"
		i=$((i + 1))
		continue
	fi
	obs=$(cat "$T_TMP/obs")
	set -- $obs
	nt=$1 th=$2 use=$3 wall=$4 delay=$5
	# Other load: the workers' run_delay (schedstat) less the throttled time is the wait
	# other tasks caused when the workers have a CPU each (a parked thread's run_delay
	# grows per thread, throttled_time per CPU: with more threads than CPUs they also
	# wait for each other and park together, and 0 is given).  validate compares
	# run_delay with the model's own instead, which bw predict does not print.
	other=$(awk -v d="$delay" -v t="$th" -v u="$use" -v n="$n" -v c="$NCPU" 'BEGIN {
		w = d - t; o = (n <= c && w > 0 && u > 0) ? w / (w + u) : 0
		if (o > 0.9) o = 0.9; printf "%.3f", o }')
	phase=""
	[ "$busy" = 0 ] || phase="--busy ${busy}ms --idle ${idle}ms"
	# the prediction covers the run's wall time, from a fresh write's silos
	cg --json bw predict --quota "$q" --period "$p" --burst "$b" --threads "$n" \
		--online-cpus "$NCPU" $phase --duration "$((wall / 1000))us" --other-load "$other"
	expect_rc 0 "predict seed $s"
	res=$(printf '%s\n' "$OUT" | python3 -c '
import json, sys
p = json.load(sys.stdin)["predicted"]
nt, th, use = [float(x) for x in sys.argv[1:4]]
rows = [("nr_throttled", nt, p["nr_throttled"], 2),
        ("throttled_time", th, p["throttled_usec"] * 1e3, max(30e6, 0.15 * p["throttled_usec"] * 1e3)),
        ("usage", use, p["usage_usec"] * 1e3, max(20e6, 0.05 * p["usage_usec"] * 1e3))]
ok = sum(abs(o - e) <= t for _, o, e, t in rows)
print(ok, len(rows), " ".join("%s %.4g/%.4g%s" % (k, o, e, "" if abs(o - e) <= t else "!")
                                 for k, o, e, t in rows))
' "$nt" "$th" "$use")
	set -- $res
	within=$((within + $1)) total=$((total + $2))
	shift 2
	echo "seed $s: quota ${q}us period ${p}us burst ${b}us threads $n busy ${busy}ms" \
		"idle ${idle}ms other load $other | kernel/predicted: $*"
	i=$((i + 1))
done
load=$(cut -d' ' -f1 /proc/loadavg)
echo "bw-sweep: $within of $total quantities within tolerance (load average $load)"
if [ "$total" -gt 0 ] && [ $((within * 100)) -ge $((total * 95)) ]; then
	ok
elif [ "$T_FAILS" = 0 ] && awk -v l="$load" -v c="$NCPU" 'BEGIN { exit !(l > 2 * c) }'; then
	# the runs were measured, not judged: more than two runnable tasks per CPU besides
	# ours make the other load the model is given a guess (tolerances stay as they are)
	skip "load average $load on $NCPU CPUs: too busy to judge $within of $total"
else
	fail "only $within of $total quantities within tolerance (95% needed)"
fi
done_testing
