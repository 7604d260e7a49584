#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: the progress text of `move` was never erased, so the table header started on
# its line.  On a terminal `move --sample` says what it records, then erases that line
# ("\r\033[K") before the table; in a pipe it prints no progress at all.  (mem where's
# progress: tests/cli/progress-erased.sh.)
# run-test: shared (moves its own sleeper between its own scratch cgroups; no time or
# throttling judged)
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v script >/dev/null 2>&1 || skip "needs script(1) for a terminal"
CPU=$(mount_of cpu)
[ -n "$CPU" ] || skip "no v1 cpu hierarchy"

scratch lim cpu "cgctl-move-progress-$$"
scratch free cpu "cgctl-move-progress-free-$$"
echo 100000 >"$CPU$lim/cpu.cfs_period_us"
echo 50000 >"$CPU$lim/cpu.cfs_quota_us"
sleep 30 &
pid=$!
stop_it() { kill "$pid" 2>/dev/null; }
at_exit stop_it

script -qec "'$CGCTL' move -c cpu --sample 100ms $pid $lim" /dev/null </dev/null >"$T_TMP/tty"
grep -qx "$pid" "$CPU$lim/cgroup.procs" && ok || fail "not moved: $(cat -v "$T_TMP/tty")"
grep -q 'recording the CPU demand' "$T_TMP/tty" && ok || fail "no progress shown: $(cat -v "$T_TMP/tty")"
# what follows the progress text: the erase sequence, then the header at a line's start
grep -q "$(printf 'for 0\\.1 s\r\033\\[K  *PID  *FROM')" "$T_TMP/tty" && ok ||
	fail "the table follows the progress text unerased: $(cat -v "$T_TMP/tty" | head -3)"
# no progress on a pipe
"$CGCTL" move -c cpu --sample 100ms "$pid" "$free" 2>"$T_TMP/err" >/dev/null
[ -s "$T_TMP/err" ] && fail "progress in a pipe: $(cat "$T_TMP/err")" || ok

done_testing
