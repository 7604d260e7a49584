#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# cgctl_move_tree() against a fork storm (a parent forking every ms, children and
# grandchildren living 1 s) and a thread churn (64 threads each replacing itself): every
# move between two scratch cgroups must leave 0 processes and 0 threads behind, 20 of 20
# runs each, with the proc connector; 5 more runs each with re-walks only (fallback).
# Behind means alive: tasks already exiting (PF_EXITING) cannot be moved, and orphans
# with SIGKILL pending have left the tree; neither counts.
. "$top_srcdir/tests/kernel/netlink-lib.sh"

RUNS=${NL_RUNS:-20}

start_in a "$H/forkstorm" -i 1000 -l 1000 -g
sleep 1.2	# steady state on an idle machine: ~1000 children, ~1000 grandchildren
# a loaded machine forks slower (13 ms per fork at load 40 here): say so, still test
echo "fork storm: $(procs a) processes after 1.2 s"
runs forkstorm tree "$RUNS" a b
runs forkstorm walk 5 a b
/bin/kill -KILL -- "-$STARTED"

start_in c "$H/threadchurn" -n 64
sleep 0.3
runs threadchurn tree "$RUNS" c d
runs threadchurn walk 5 c d
done_testing
