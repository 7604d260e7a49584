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
CPU_SELF=$(self_cgroup cpu)
MEM_SELF=$(self_cgroup memory)
BASE="cgctl-$T_NAME-$$"
CPU_REL="${CPU_SELF%/}/$BASE"
MEM_REL="${MEM_SELF%/}/$BASE"
NL_PGIDS=""

nl_cleanup() {
	for g in $NL_PGIDS; do /bin/kill -KILL -- "-$g" 2>/dev/null; done
	for g in $NL_PGIDS; do wait "$g" 2>/dev/null; done
	for d in "$CPU$CPU_REL" "$MEM$MEM_REL"; do
		[ -d "$d" ] || continue
		for f in $(find "$d" -name cgroup.procs); do
			for pid in $(cat "$f"); do kill -KILL "$pid" 2>/dev/null; done
		done
	done
	sleep 0.2
	for d in "$CPU$CPU_REL" "$MEM$MEM_REL"; do
		[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
	return 0
}
at_exit nl_cleanup

for d in "$CPU$CPU_REL" "$MEM$MEM_REL"; do
	mkdir "$d" "$d/a" "$d/b" "$d/c" "$d/d" 2>/dev/null ||
		skip "cannot create scratch cgroups in $d"
done

# targets SIDE: the nltool target list for side a or b
targets() { echo "cpu:$CPU_REL/$1,memory:$MEM_REL/$1"; }

# start_in SIDE CMD...: run CMD as its own process group inside side SIDE; sets STARTED
start_in() {
	side=$1
	shift
	setsid sh -c 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" && shift 2 &&
		exec "$@"' sh "$CPU$CPU_REL/$side" "$MEM$MEM_REL/$side" "$@" &
	STARTED=$!
	NL_PGIDS="$STARTED $NL_PGIDS"
}

# left SIDE: tasks (threads included) still in SIDE, both hierarchies
left() {
	cat "$CPU$CPU_REL/$1/tasks" "$MEM$MEM_REL/$1/tasks" | wc -l
}

# procs SIDE: processes in SIDE (cpu hierarchy)
procs() { wc -l < "$CPU$CPU_REL/$1/cgroup.procs"; }
