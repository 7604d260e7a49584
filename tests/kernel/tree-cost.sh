#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Benchmark: the cost of cgctl_move_tree() for a static tree of 1000 processes (a parent
# and 999 sleeping children), with the proc connector ("tree") and with re-walks only
# ("walk"), against the baseline measured in the same run: one walk writing each PID once
# ("oneshot", the least any mover must do).  Median of 5 moves each, back and forth.
. "$top_srcdir/tests/kernel/netlink-lib.sh"

N=${NL_TREE:-1000}
start_in a "$H/forkstorm" -i 0 -l 3600000 -n $((N - 1))
w=0
while [ "$(procs a)" -lt "$N" ] && [ "$w" -lt 1200 ]; do
	sleep 0.1
	w=$((w + 1))
done
[ "$(procs a)" -ge "$N" ] || skip "only $(procs a) of $N processes started in 120 s"

# median_us MODE: median elapsed_us of 5 moves
src=a dst=b
median_us() {
	for i in 1 2 3 4 5; do
		"$NLTOOL" move "$1" "$(targets $dst)" "$STARTED" 2>/dev/null |
			tr ' ' '\n' | sed -n 's/^elapsed_us=//p'
		t=$src src=$dst dst=$t
	done | sort -n | sed -n 3p
}
base=$(median_us oneshot)
tree=$(median_us tree)
walk=$(median_us walk)
[ -n "$base" ] && [ -n "$tree" ] && [ -n "$walk" ] || fail "a move failed"
echo "move-tree $N processes (2 hierarchies): tree $((tree / 1000)) ms, walk $((walk / 1000)) ms, one-shot baseline $((base / 1000)) ms"
awk -v t="$tree" -v w="$walk" -v b="$base" -v n="$N" 'BEGIN {
	printf "ratio tree/oneshot %.2f, walk/oneshot %.2f; tree %.1f us per process\n",
	       t / b, w / b, t / n }'
ok
done_testing
