#!/bin/sh
# Test driver wrapper (SH_LOG_COMPILER): kernel- and VM-tier tests measure CPU time and
# cgroup counters of the live machine, so they run one at a time even under make -j;
# unit and fixture tests run in parallel.  A kernel-tier test also starts only once the
# machine has settled (what an earlier test left dying, e.g. a fork storm's two thousand
# processes, has finished): at most as many runnable tasks as CPUs in five samples
# 100 ms apart, or 30 s passed.
sh=/bin/bash
[ -x "$sh" ] || sh=/bin/sh
case $1 in
*/kernel/*)
	lock=${TMPDIR:-/tmp}/cgctl-live-tier.lock
	exec flock "$lock" "$sh" -c '
		ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
		quiet=0 waited=0
		while [ $quiet -lt 5 ] && [ $waited -lt 300 ]; do
			# procs_running counts this shell too
			r=$(awk "/^procs_running/ { print \$2 }" /proc/stat 2>/dev/null || echo 0)
			if [ "${r:-0}" -le $((ncpu + 1)) ]; then quiet=$((quiet + 1)); else quiet=0; fi
			sleep 0.1
			waited=$((waited + 1))
		done
		[ $quiet -ge 5 ] || echo "run-test: machine still busy after 30 s ($r runnable)"
		exec "$0" "$@"' "$sh" "$@" ;;
*/vm/*)
	lock=${TMPDIR:-/tmp}/cgctl-live-tier.lock
	exec flock "$lock" "$sh" "$@" ;;
esac
exec "$sh" "$@"
