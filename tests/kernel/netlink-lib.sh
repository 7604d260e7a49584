# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by tests/kernel/tree-*.sh and netlink-*.sh: scratch cgroups a/ b/ c/ d/ below
# our own cgroup in the cpu and memory hierarchies, the helpers, and cleanup of both.
. "$top_srcdir/tests/lib.sh"
require_root

H="$top_builddir/tests/helpers"
NLTOOL="$H/nltool"
for x in nltool forkstorm threadchurn spinner; do
	[ -x "$H/$x" ] || skip "$H/$x not built"
done

CPU=$(mount_of cpu)
MEM=$(mount_of memory)
[ -n "$CPU" ] && [ -n "$MEM" ] || skip "needs v1 cpu and memory hierarchies"
ACCT=$(mount_of cpuacct)
[ "$ACCT" = "$CPU" ] && ACCT=""	# co-mounted: cpu,cpuacct
CPU_SELF=$(self_cgroup cpu)
ACCT_SELF=$(self_cgroup cpuacct)
MEM_SELF=$(self_cgroup memory)
BASE="cgctl-$T_NAME-$$"
CPU_REL="${CPU_SELF%/}/$BASE"
MEM_REL="${MEM_SELF%/}/$BASE"
ACCT_REL="${ACCT_SELF%/}/$BASE"
ACCT_DIR=${ACCT:+$ACCT$ACCT_REL}
NL_PGIDS=""

nl_cleanup() {
	for g in $NL_PGIDS; do /bin/kill -KILL -- "-$g" 2>/dev/null; done
	for g in $NL_PGIDS; do wait "$g" 2>/dev/null; done
	for d in "$CPU$CPU_REL" "$MEM$MEM_REL" $ACCT_DIR; do
		[ -d "$d" ] || continue
		for f in $(find "$d" -name cgroup.procs); do
			for pid in $(cat "$f"); do kill -KILL "$pid" 2>/dev/null; done
		done
	done
	# a fork storm of ~2000 processes takes a while to die: retry for up to 10 s
	n=0
	while [ $n -lt 50 ]; do
		sleep 0.2
		busy=0
		for d in "$CPU$CPU_REL" "$MEM$MEM_REL" $ACCT_DIR; do
			[ -d "$d" ] || continue
			for f in $(find "$d" -name cgroup.procs); do
				for pid in $(cat "$f"); do kill -KILL "$pid" 2>/dev/null; done
			done
			find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
			[ -d "$d" ] && busy=1
		done
		[ $busy -eq 0 ] && break
		n=$((n + 1))
	done
	[ $busy -eq 0 ] || echo "$T_NAME: could not remove scratch cgroups $BASE" >&2
	return 0
}
at_exit nl_cleanup

for d in "$CPU$CPU_REL" "$MEM$MEM_REL" $ACCT_DIR; do
	mkdir "$d" "$d/a" "$d/b" "$d/c" "$d/d" 2>/dev/null ||
		skip "cannot create scratch cgroups in $d"
done

# targets SIDE: the nltool target list for side a or b
targets() { echo "cpu:$CPU_REL/$1,memory:$MEM_REL/$1"; }

# start_in SIDE CMD...: run CMD as its own process group inside side SIDE (cpu, memory
# and a separate cpuacct); sets STARTED
start_in() {
	side=$1
	shift
	setsid sh -c 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" &&
		{ [ -z "$3" ] || echo $$ > "$3/cgroup.procs"; } && shift 3 && exec "$@"' \
		sh "$CPU$CPU_REL/$side" "$MEM$MEM_REL/$side" "${ACCT_DIR:+$ACCT_DIR/$side}" "$@" &
	STARTED=$!
	NL_PGIDS="$STARTED $NL_PGIDS"
}

# left SIDE: tasks (threads included) still in SIDE, both hierarchies
left() {
	cat "$CPU$CPU_REL/$1/tasks" "$MEM$MEM_REL/$1/tasks" | wc -l
}

# procs SIDE: processes in SIDE (cpu hierarchy)
procs() { wc -l < "$CPU$CPU_REL/$1/cgroup.procs"; }

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
# check each time that the source is left empty (with NL_COMPARE set: only count)
runs() {
	kind=$1 mode=$2 n=$3 src=$4 dst=$5 i=0 clean=0 max_dying=0 total_left=0 max_left=0
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
		total_left=$((total_left + l))
		[ "$l" -gt "$max_left" ] && max_left=$l
		if [ "$rc" = 0 ] && [ "$l" = 0 ]; then
			clean=$((clean + 1))
			ok
		elif [ -z "${NL_COMPARE:-}" ]; then
			fail "$kind $mode run $i: rc $rc, $l live tasks left in $src ($res $(cat "$T_TMP/err"))"
		fi
		[ "$dying" -gt "$max_dying" ] && max_dying=$dying
		[ "$i" = 1 ] && echo "$kind $mode run 1: $res, $(procs $dst) processes in $dst"
		t=$src src=$dst dst=$t
		sleep 0.1
	done
	echo "$kind $mode: $clean of $n runs left nothing behind; live tasks left: $total_left in all, at most $max_left in a run (at most $max_dying exiting tasks lingered)"
}
