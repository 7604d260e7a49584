#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: the progress text on a terminal is erased before the table: `mem where`
# printed "scanning PID (1/1)" and the table header went on the same line.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v script >/dev/null 2>&1 || skip "needs script(1) for a terminal"

sleep 30 &
pid=$!
stop_it() { kill "$pid" 2>/dev/null; }
at_exit stop_it
script -qec "'$CGCTL' mem where $pid" /dev/null </dev/null >"$T_TMP/tty"
grep -q 'PID' "$T_TMP/tty" || skip "mem where cannot scan here: $(cat "$T_TMP/tty")"
grep -q "scanning $pid" "$T_TMP/tty" && ok || fail "no progress shown: $(cat -v "$T_TMP/tty")"
# what follows the progress text: the erase sequence, not the header
after=$(sed -n "s/.*scanning $pid (1\\/1)\\(.\\{0,4\\}\\).*/\\1/p" "$T_TMP/tty" | od -An -c | tr -s ' ')
case $after in
*'\r 033 [ K'*) ok ;;
*) fail "the table follows the progress text unerased: $(cat -v "$T_TMP/tty" | head -2)" ;;
esac
# no progress on a pipe
"$CGCTL" mem where "$pid" 2>"$T_TMP/err" >/dev/null
[ -s "$T_TMP/err" ] && fail "progress in a pipe: $(cat "$T_TMP/err")" || ok

done_testing
