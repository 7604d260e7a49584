#!/bin/sh
# Test driver wrapper (SH_LOG_COMPILER): kernel- and VM-tier tests measure CPU time and
# cgroup counters of the live machine, so they run one at a time even under make -j;
# unit and fixture tests run in parallel.
sh=/bin/bash
[ -x "$sh" ] || sh=/bin/sh
case $1 in
*/kernel/*|*/vm/*)
	lock=${TMPDIR:-/tmp}/cgctl-live-tier.lock
	exec flock "$lock" "$sh" "$@" ;;
esac
exec "$sh" "$@"
