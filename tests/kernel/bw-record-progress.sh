#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: `bw record` showed nothing while it recorded.  On a terminal stderr now says
# the time recorded of the total, the tasks recorded and the switches read so far (the
# library's progress callback: "bw record: 0.5/1.0 s, 1 thread, 0 switches"), erased
# before the summary; in a pipe nothing but the summary.
# run-test: shared (the progress and summary lines of a record of its own sleeper; no time
# or throttling judged)
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v script >/dev/null 2>&1 || skip "needs script(1) for a terminal"

sleep 30 &
pid=$!
stop_it() { kill "$pid" 2>/dev/null; }
at_exit stop_it
script -qec "'$CGCTL' bw record --duration 1s --output '$T_TMP/trace' $pid" /dev/null \
	</dev/null >"$T_TMP/tty"
grep -q 'recorded 1 threads' "$T_TMP/tty" || skip "bw record cannot record here: $(cat "$T_TMP/tty")"
grep -q 'bw record: 0\.[0-9]/1\.0 s' "$T_TMP/tty" && ok ||
	fail "no elapsed/total on a terminal: $(cat -v "$T_TMP/tty")"
grep -q 'bw record: 0\.[0-9]/1\.0 s, 1 thread, [0-9][0-9]* switches' "$T_TMP/tty" && ok ||
	fail "no threads and switches so far on a terminal: $(cat -v "$T_TMP/tty")"
grep -q "$(printf '\r\033\\[Kcgctl: bw record: recorded')" "$T_TMP/tty" && ok ||
	fail "the progress is not erased before the summary: $(cat -v "$T_TMP/tty")"
[ -s "$T_TMP/trace" ] && ok || fail "no trace written"
# a pipe: the summary line only
"$CGCTL" bw record --duration 1s --output "$T_TMP/trace" "$pid" 2>"$T_TMP/err"
[ "$(grep -c . "$T_TMP/err")" = 1 ] && ! grep -q '0/1\.0 s' "$T_TMP/err" && ok ||
	fail "in a pipe: $(cat "$T_TMP/err")"

done_testing
