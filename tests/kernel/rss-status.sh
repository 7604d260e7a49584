#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# /proc/PID/status, statm and stat RSS figures of a multi-threaded helper against its
# smaps_rollup (exact page-table walk), within the bounds of the RSS counter model for
# this kernel and CPU count.  The helper only touches its own memory; it is killed on
# every path (the helper itself kills its child before exiting).
# run-test: shared (its own helper's RSS counters against its own page tables)
helper="${top_builddir:-.}/tests/helpers/rss-touch"
[ -x "$helper" ] || { echo "SKIP: $helper not built"; exit 77; }
[ -r /proc/self/smaps_rollup ] || { echo "SKIP: no smaps_rollup (kernel < 4.14)"; exit 77; }
rc=0
# single thread, a page count that leaves a partial percpu batch; then 4 and 16 threads
for args in "1 1000" "4 1031" "16 300"; do
	echo "== rss-touch $args"
	"$helper" $args
	r=$?
	[ $r -eq 77 ] && exit 77
	[ $r -ne 0 ] && rc=1
done
exit $rc
