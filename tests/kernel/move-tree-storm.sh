#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# cgctl_move_tree() against issue 15's storm: every process of the tree forks every
# 2-20 ms and lives 20-300 ms, under a pids limit (tests/helpers/treestorm), moved
# between two scratch cgroups in the cpu and memory hierarchies: 20 runs with the proc
# connector, 20 with the tree stopped (CGCTL_MOVE_TREE_FREEZE), and 20 of a thread churn.
# A run that exits 0 must leave no live task in the source, in either hierarchy; a run
# that does not must name its stragglers; the connector must be used and proven to
# deliver (its probe), and the fork events of the tree must be counted.
# Live means not exiting (PF_EXITING) and no SIGKILL pending; the storm's root is a
# child subreaper, so orphans stay in the tree and count.
. "$top_srcdir/tests/kernel/netlink-lib.sh"

STORM="$H/treestorm"
[ -x "$STORM" ] || skip "$STORM not built"
RUNS=${STORM_RUNS:-20}
PIDS_MAX=${STORM_PIDS:-150}
PMNT=$(mount_of pids)
[ -n "$PMNT" ] || skip "needs the v1 pids hierarchy"
PDIR="$PMNT$(self_cgroup pids | sed 's,/$,,')/$BASE"
mkdir "$PDIR" || skip "cannot create $PDIR"
storm_cleanup() {
	for g in $NL_PGIDS; do /bin/kill -KILL -- "-$g" 2>/dev/null; done
	n=0
	while [ -d "$PDIR" ] && [ $n -lt 50 ]; do
		for p in $(cat "$PDIR/cgroup.procs" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
		rmdir "$PDIR" 2>/dev/null || sleep 0.1
		n=$((n + 1))
	done
	[ -d "$PDIR" ] && echo "$T_NAME: could not remove $PDIR" >&2
	return 0
}
at_exit storm_cleanup
echo "$PIDS_MAX" > "$PDIR/pids.max" || skip "cannot set pids.max"

# start_storm SIDE CMD...: like start_in, inside the pids cgroup too
start_storm() {
	side=$1
	shift
	setsid sh -c 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" &&
		echo $$ > "$3/cgroup.procs" && shift 3 && exec "$@"' \
		sh "$PDIR" "$CPU$CPU_REL/$side" "$MEM$MEM_REL/$side" "$@" &
	STARTED=$!
	NL_PGIDS="$STARTED $NL_PGIDS"
}

# kv KEY: the value of KEY in the last nltool output
kv() { printf '%s\n' "$res" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# storm_runs KIND MODE N SRC DST
storm_runs() {
	kind=$1 mode=$2 n=$3 src=$4 dst=$5 i=0 exit0=0 bad=0 named=0 left_all=0 forks=0
	repaired=0 rewalk=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		res=$("$NLTOOL" move "$mode" "$(targets $dst)" "$STARTED" 2>"$T_TMP/err")
		rc=$?
		sleep 0.02
		set -- $(live_left $src)
		l=$1
		left_all=$((left_all + l))
		forks=$((forks + $(kv forks)))
		repaired=$((repaired + $(kv repaired)))
		rewalk=$((rewalk + $(kv rewalk_moved)))
		if [ "$rc" = 0 ]; then
			exit0=$((exit0 + 1))
			[ "$l" = 0 ] && ok || {
				bad=$((bad + 1))
				fail "$kind $mode run $i: exit 0 with $l live tasks left in $src ($res)"
			}
		else
			# a failure must say why: the stragglers, or a tree growing too fast
			grep -q -e 'outside the destination' -e 'keeps growing' "$T_TMP/err" &&
				ok || fail "$kind $mode run $i: rc $rc: $(cat "$T_TMP/err")"
			grep -q 'outside the destination' "$T_TMP/err" && named=$((named + 1))
			echo "$kind $mode run $i: rc $rc, $l live tasks left: $(cat "$T_TMP/err")"
		fi
		[ "$(kv connector)" = 1 ] && [ "$(kv deaf)" = 0 ] && ok ||
			fail "$kind $mode run $i: connector not used or not delivering ($res $(cat "$T_TMP/err"))"
		[ "$i" = 1 ] && echo "$kind $mode run 1: $res"
		t=$src src=$dst dst=$t
		sleep 0.05
	done
	# the tree forks all the time: a run of zero fork events is a deaf connector
	[ "$forks" -gt 0 ] || [ "$kind" = threadchurn ] && ok ||
		fail "$kind $mode: no fork event of the tree in $n runs"
	echo "$kind $mode: $n runs, $exit0 exited 0 ($bad of them left live tasks, $left_all live tasks left in all runs), $((n - exit0)) exited non-zero ($named naming stragglers); fork events $forks, moved by re-walks $rewalk, repaired by the final pass $repaired"
	STORM_EXIT0=$exit0
}

start_storm a "$STORM" -f 2,20 -l 20,300
sleep 1
echo "storm: $(procs a) processes in a after 1 s (pids.max $PIDS_MAX)"
[ "$(procs a)" -gt 20 ] && ok || fail "the storm did not grow: $(procs a) processes"
storm_runs treestorm tree "$RUNS" a b
[ -z "${STORM_TREE_ONLY:-}" ] || done_testing
# Without stopping it, whether the mover outruns a tree forking every 2-20 ms depends on
# the CPU it gets: each write of cgroup.procs waits for the forks in flight
# (cgroup_threadgroup_rwsem), milliseconds each at load 60-100 on 2 CPUs.  With the
# sources settled between walks (issue 15 round 2) 18 of 20 runs exited 0 in each of
# three measurements at that load, 14 of 20 before.  Not a pass criterion: every run
# above was checked to be safe (exit 0 leaves no live task, any other exit names the
# stragglers).  Convergence is asked of --freeze (the tree stopped while it moves): 19
# of 20 runs.  STORM_TREE_ONLY=1 stops after the plain runs (measuring them).
storm_runs treestorm freeze "$RUNS" a b
[ "$STORM_EXIT0" -ge $((RUNS - RUNS / 20)) ] && ok ||
	fail "treestorm freeze: only $STORM_EXIT0 of $RUNS runs exited 0"
# after the stopped runs the storm runs again: nothing of it may stay stopped
sleep 0.3
stopped=0
for p in $(cat "$PDIR/cgroup.procs"); do
	st=$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)
	[ "$st" = T ] && stopped=$((stopped + 1))
done
[ "$stopped" = 0 ] && ok || fail "freeze: $stopped processes left stopped"
/bin/kill -KILL -- "-$STARTED"

# (outside the pids limit: threadchurn stops when a thread cannot be created)
start_in c "$H/threadchurn" -n 64
sleep 0.3
storm_runs threadchurn tree "$RUNS" c d
[ "$STORM_EXIT0" -ge $((RUNS / 2)) ] && ok ||
	fail "threadchurn: only $STORM_EXIT0 of $RUNS runs exited 0"
done_testing
