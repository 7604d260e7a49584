#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bw record PATH against the kernel (v1 cpu hierarchy): the processes of a cgroup are
# recorded, and so is a process moved into it while the recording runs (found at the
# next poll, <= 100 ms): its thread appears with on-CPU time; a process that never joins
# does not; no record is lost.  No CPU limit, no timing budget: this checks what is
# recorded, not how a replay compares (tests/kernel/bw-record.sh does that, by hand).
. "$top_srcdir/tests/lib.sh"
spinner_setup
[ -x "$CGCTL" ] || skip "no cgctl binary"
at_exit scratch_cleanup
"$CGCTL" bw record --duration 0.1s $$ >/dev/null 2>"$T_TMP/perr" ||
	skip "bw record cannot record here: $(cat "$T_TMP/perr")"
scratch G cpu "bw-record-cgroup-$$"
"$SPIN" -p &
sleeper=$!
PIDS="$sleeper"
echo "$sleeper" >"$CPU$G/cgroup.procs"
"$CGCTL" bw record --duration 1.5s --output "$T_TMP/trace" "$G" 2>"$T_TMP/err" &
rec=$!
sleep 0.4
"$SPIN" 600 &
joiner=$!
"$SPIN" 600 &
outsider=$!
PIDS="$PIDS $joiner $outsider"
echo "$joiner" >"$CPU$G/cgroup.procs"
wait "$rec"
rc=$?
[ $rc = 0 ] && ok || fail "bw record exited $rc: $(cat "$T_TMP/err")"
cat "$T_TMP/err"

# thread N TID COMM lines name the recorded threads
tnum() { awk -v t="$1" '$1 == "thread" && $3 == t { print $2 }' "$T_TMP/trace"; }
busy_ms() {	# total busy of trace thread $1, in ms
	awk -v n="$1" '
	function ns(d) {
		if (d ~ /ns$/) return d + 0
		if (d ~ /us$/) return d * 1000
		if (d ~ /ms$/) return d * 1000000
		if (d ~ /s$/) return d * 1000000000
		return d * 1000
	}
	$1 == n && $2 == "busy" { s += ns($3) } END { printf "%d\n", s / 1000000 }' "$T_TMP/trace"
}
[ -n "$(tnum "$sleeper")" ] && ok || fail "the member at the start is not in the trace"
j=$(tnum "$joiner")
if [ -n "$j" ]; then
	ok
	b=$(busy_ms "$j")
	echo "joiner: trace thread $j, busy ${b} ms"
	# it spun 600 ms of CPU from 0.4 s on, found within 100 ms
	[ "$b" -ge 300 ] && ok || fail "joiner busy ${b} ms in the trace, expected >= 300"
else
	fail "the process moved in while recording is not in the trace"
fi
[ -z "$(tnum "$outsider")" ] && ok || fail "a process outside the cgroup was recorded"
[ "$(awk '$1 == "lost" { print $2 }' "$T_TMP/trace")" = 0 ] && ok ||
	fail "records lost: $(grep '^lost' "$T_TMP/trace")"
done_testing
