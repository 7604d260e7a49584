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

# is_dying TID: exiting (PF_EXITING in stat's flags) or SIGKILL pending (a storm
# grandchild whose parent just died gets PR_SET_PDEATHSIG's SIGKILL; meanwhile it is an
# orphan of init, outside the tree).  Returns 2 when the task is gone.
is_dying() {
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 2
	set -- ${st##*) }	# state ppid pgrp session tty tpgid flags ...
	[ $(($7 & 4)) != 0 ] && return 0
	pnd=$(awk '/^(SigPnd|ShdPnd):/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	for p in $pnd; do
		[ $((0x$p & 0x100)) != 0 ] && return 0
	done
	return 1
}

# live_left SIDE: "LIVE DYING" counts of the tasks still in SIDE (both hierarchies); a
# live one is printed to stderr
live_left() {
	live=0 dying=0
	for h in "$CPU:cpu:$CPU_REL" "$MEM:memory:$MEM_REL"; do
		mnt=${h%%:*} rest=${h#*:}
		for t in $(cat "$mnt${rest#*:}/$1/tasks"); do
			is_dying "$t"
			case $? in
			0) dying=$((dying + 1)) ;;
			2) ;;
			*)	# the TID may have been reused meanwhile by a task elsewhere
				grep -q ":${rest%%:*}:${rest#*:}/$1\$" "/proc/$t/cgroup" 2>/dev/null ||
					continue
				live=$((live + 1))
				echo "left: $t $(cat "/proc/$t/stat" 2>/dev/null | cut -c1-60)" >&2 ;;
			esac
		done
	done
	echo "$live $dying"
}

# runs KIND MODE N SRC DST: move the tree N times back and forth between SRC and DST,
# check each time that the source is left empty
runs() {
	kind=$1 mode=$2 n=$3 src=$4 dst=$5 i=0 clean=0 max_dying=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		res=$("$NLTOOL" move "$mode" "$(targets $dst)" "$STARTED" 2>"$T_TMP/err")
		rc=$?
		# Tasks already exiting (PF_EXITING) when the move ran are not migrated
		# (kernel/cgroup/cgroup.c:cgroup_migrate_add_task()) and stay listed in the
		# source until cgroup_exit(), a while on a loaded machine.  Those are fine;
		# any other task still in the source was left behind alive.
		sleep 0.02
		set -- $(live_left $src)
		l=$1 dying=$2
		if [ "$rc" = 0 ] && [ "$l" = 0 ]; then
			clean=$((clean + 1))
			ok
		else
			fail "$kind $mode run $i: rc $rc, $l live tasks left in $src ($res $(cat "$T_TMP/err"))"
		fi
		[ "$dying" -gt "$max_dying" ] && max_dying=$dying
		[ "$i" = 1 ] && echo "$kind $mode run 1: $res, $(procs $dst) processes in $dst"
		t=$src src=$dst dst=$t
		sleep 0.1
	done
	echo "$kind $mode: $clean of $n runs left nothing behind (at most $max_dying exiting tasks lingered)"
}

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
