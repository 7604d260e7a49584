#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# taskstats and cgroupstats against the kernel: a spinner's taskstats CPU time
# (cpu_run_virtual_total) agrees with its rusage within 1%; cgroupstats of a scratch v1
# cgroup counts a running, a sleeping and a stopped task; errors for a missing PID and a
# cgroup2 directory; the delay accounting switch is reported.
. "$top_srcdir/tests/kernel/netlink-lib.sh"

# 1. taskstats vs rusage, 2 spinners of 1 s CPU each
for i in 1 2; do
	out=$("$NLTOOL" spin-check "$H/spinner" 1000 2>&1)
	if [ $? = 0 ]; then ok; else fail "spin-check $i: $out"; fi
	echo "spin-check $i: $out"
done

# 2. cgroupstats: spinner (R), a pause()r (S), stopped spinner (T) in a/.  Not sleep(1):
# nanosleep is TASK_INTERRUPTIBLE|TASK_FREEZABLE since 6.1, and cgroupstats_build()
# (kernel/cgroup/cgroup-v1.c) matches states exactly, so it counts such a task nowhere.
start_in a "$H/spinner" 0
spin=$STARTED
start_in a "$H/spinner" -p
start_in a "$H/spinner" 0
stopped=$STARTED
sleep 0.3
kill -STOP "$stopped"
sleep 0.2
out=$("$NLTOOL" cgroupstats "cpu:$CPU_REL/a" 2>&1)
echo "cgroupstats a: $out"
v() { printf '%s\n' "$out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
[ "$(v nr_running)" -ge 1 ] 2>/dev/null && ok || fail "nr_running: $out"
[ "$(v nr_sleeping)" -ge 1 ] 2>/dev/null && ok || fail "nr_sleeping: $out"
[ "$(v nr_stopped)" = 1 ] && ok || fail "nr_stopped: $out"
total=$(( $(v nr_running) + $(v nr_sleeping) + $(v nr_stopped) + $(v nr_uninterruptible) ))
[ "$total" = "$(wc -l < "$CPU$CPU_REL/a/tasks")" ] && ok || fail "total $total: $out"
out=$("$NLTOOL" cgroupstats "cpu:$CPU_REL/b" 2>&1)
[ "$out" = "nr_sleeping=0 nr_running=0 nr_stopped=0 nr_uninterruptible=0 nr_io_wait=0" ] &&
	ok || fail "empty cgroup: $out"
kill -CONT "$stopped"

# 3. taskstats of the running spinner moves forward
a=$("$NLTOOL" taskstats "$spin" | tr ' ' '\n' | sed -n 's/^cpu_run_virtual_total_ns=//p')
sleep 0.2
b=$("$NLTOOL" taskstats -t "$spin" | tr ' ' '\n' | sed -n 's/^cpu_run_virtual_total_ns=//p')
[ -n "$a" ] && [ "$b" -gt "$a" ] && ok || fail "spinner CPU time did not grow: $a -> $b"

# 4. errors: a PID that does not exist, a cgroup that does not exist
out=$("$NLTOOL" taskstats 2147483 2>&1)
case $out in *"no such process"*) ok ;; *) fail "missing pid: $out" ;; esac
out=$("$NLTOOL" cgroupstats "cpu:$CPU_REL/nonexistent" 2>&1)
case $out in *"No such file"*) ok ;; *) fail "missing cgroup: $out" ;; esac

# 5. delay accounting: 1 or 0, and how to turn it on when 0
out=$("$NLTOOL" delayacct)
case $out in
"1 "*) ok ;;
"0 "*"sysctl kernel.task_delayacct=1"*) ok ;;
*) fail "delayacct: $out" ;;
esac
echo "delayacct: $out"
done_testing
