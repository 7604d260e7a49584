#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl stat --long` task states (cgroupstats on v1) and `stat --tasks` (taskstats): a
# spinner, a sleeper in pause(), one in nanosleep (sleep 30) and a stopped process in a
# scratch cpu cgroup are counted as running, 2 sleeping and stopped (from /proc from 6.1
# on: cgroupstats counts no TASK_FREEZABLE sleeper there); --tasks lists each.
# run-test: shared (states of its own four tasks; no time measured)
. "$top_srcdir/tests/lib.sh"
spinner_setup

scratch g cpu "cgctl-stat-tasks-$$"
# shellcheck disable=SC2016
start() { sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CPU$g" "$@" & }
start "$SPIN" 0; spin=$!
start "$SPIN" -p; sleeper=$!
start "$SPIN" -p; stopped=$!
start sleep 30; napper=$!
PIDS="$spin $sleeper $stopped $napper"
sleep 0.3
kill -STOP "$stopped"
sleep 0.2

cg --json stat --long "$g"
expect_rc 0 "stat"
echo "tasks: $(json_get 'j["cgroups"][0]["tasks"]')"
kmaj=$(uname -r | cut -d. -f1) kmin=$(uname -r | cut -d. -f2)
src=cgroupstats
[ "$kmaj" -gt 6 ] || { [ "$kmaj" -eq 6 ] && [ "$kmin" -ge 1 ]; } && src=proc
[ "$(json_get 'j["cgroups"][0]["tasks"]["source"]')" = $src ] && ok ||
	fail "source (want $src on $(uname -r)): $OUT"
[ "$(json_get 'j["cgroups"][0]["tasks"]["running"]')" = 1 ] && ok || fail "running: $OUT"
[ "$(json_get 'j["cgroups"][0]["tasks"]["sleeping"]')" = 2 ] && ok ||
	fail "sleeping: pause() and nanosleep: $OUT"
[ "$(json_get 'j["cgroups"][0]["tasks"]["stopped"]')" = 1 ] && ok || fail "stopped: $OUT"

cg --json stat --tasks "$g"
expect_rc 0 "stat --tasks"
# --tasks brings the task states of --long, not the rest of it
[ "$(json_get 'j["cgroups"][0]["tasks"]["running"]')" = 1 ] && ok || fail "--tasks states: $OUT"
[ "$(json_get '"quota_usec" in j["cgroups"][0]["cpu"]')" = False ] && ok || fail "--tasks lean: $OUT"
[ "$(json_get 'len(j["processes"])')" = 4 ] && ok || fail "four processes: $OUT"
# delay accounting off: cpu_delay still reads (sched_info's run_delay), the rest read 0;
# the warning said "delay fields read 0" beside a CPU-DELAY column of real figures
if [ "$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)" = 0 ]; then
	case $ERR in
	*"delay accounting is off: delays other than cpu_delay read 0;"*) ok ;;
	*) fail "the warning of delay accounting off: $ERR" ;;
	esac
fi
[ "$(json_get 'sorted(set(p["comm"] for p in j["processes"]))')" = "['sleep', 'spinner']" ] && ok ||
	fail "comm: $OUT"
# the spinner has run ~0.5 s; its CPU time agrees with /proc's utime+stime (ticks)
cpu=$(json_get '[p["cpu_usec"] for p in j["processes"] if p["pid"] == '"$spin"'][0]')
ticks=$(awk '{ print $14 + $15 }' "/proc/$spin/stat")
hz=$(getconf CLK_TCK)
echo "spinner: taskstats ${cpu} us, /proc $((ticks * 1000000 / hz)) us"
[ "$cpu" -gt 100000 ] && ok || fail "spinner CPU time $cpu us"
[ "$(json_get '[p["cpu_usec"] for p in j["processes"] if p["pid"] == '"$sleeper"'][0] < 50000')" = True ] &&
	ok || fail "sleeper CPU time: $OUT"

# TSV: one table, the cgroups'; --tsv=processes: one row per process
cg --tsv stat --tasks "$g"
expect_rc 0 "stat --tasks --tsv"
[ "$(printf '%s\n' "$OUT" | head -1 | cut -f1)" = path ] &&
	[ "$(printf '%s\n' "$OUT" | grep -c .)" = 2 ] && ok || fail "tsv cgroups: $OUT"
cg --tsv=processes stat --tasks "$g"
expect_rc 0 "stat --tasks --tsv=processes"
[ "$(printf '%s\n' "$OUT" | grep -c '	spinner	')" = 3 ] &&
	[ "$(printf '%s\n' "$OUT" | grep -c .)" = 5 ] && ok || fail "tsv rows: $OUT"
# the processes' cgroup is the cgroups' "/a/b", not the PATH as typed ("a/b/")
cg --json stat --tasks "${g#/}/"
expect_rc 0 "stat --tasks PATH/"
[ "$(json_get 'sorted(set([j["cgroups"][0]["path"]] + [p["cgroup"] for p in j["processes"]]))')" = "['$g']" ] &&
	ok || fail "processes' cgroup, want $g: $OUT"
done_testing
