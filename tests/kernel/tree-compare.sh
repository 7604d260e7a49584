#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# How many live tasks other ways of moving leave behind, against the same fork storm and
# thread churn as tree-move.sh: "oneshot" walks the tree once and writes each PID once
# (a tool handed a PID list), "tids" writes each TID of one walk to v1 "tasks" (what
# cgclassify does on v1), "tree" is cgctl_move_tree().  Prints counts, fails nothing.
# Run by hand: top_srcdir=... top_builddir=... sh tests/kernel/tree-compare.sh
NL_COMPARE=1
. "$top_srcdir/tests/kernel/netlink-lib.sh"

RUNS=${NL_RUNS:-5}
start_in a "$H/forkstorm" -i 1000 -l 1000 -g
sleep 1.2
echo "fork storm: $(procs a) processes after 1.2 s"
runs forkstorm oneshot "$RUNS" a b
runs forkstorm tids "$RUNS" a b
runs forkstorm tree "$RUNS" a b
/bin/kill -KILL -- "-$STARTED"

start_in c "$H/threadchurn" -n 64
sleep 0.3
runs threadchurn tids "$RUNS" c d
runs threadchurn oneshot "$RUNS" c d
runs threadchurn tree "$RUNS" c d
done_testing
