#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 33: a `cgctl validate` killed with SIGKILL leaves its scratch cgroups
# (cgctl-validate-PID/bw-1); the next run removes those of runs whose PID is gone, and
# leaves those of a live cgctl alone, saying so in one line by default.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "cgctl not built"
cpu=$(mount_of cpu)
[ -n "$cpu" ] || skip "no v1 cpu hierarchy"
own=$(self_cgroup cpu)
base="$cpu${own%/}"

# the scratch of the cgctl this test starts (PID $pid), whatever happens
cleanup() {
	[ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null
	[ -n "${pid:-}" ] && [ -d "$base/cgctl-validate-$pid" ] &&
		find "$base/cgctl-validate-$pid" -depth -type d -exec rmdir {} \; 2>/dev/null
	return 0
}
at_exit cleanup

"$CGCTL" validate --repeat 1 bw-quota-50-1t >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -d "$base/cgctl-validate-$pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -d "$base/cgctl-validate-$pid" ] || skip "validate made no scratch cgroup in 10 s"
sleep 0.5
kill -9 "$pid"
wait "$pid" 2>/dev/null
sleep 0.3	# its workload dies with it (PR_SET_PDEATHSIG)
[ -d "$base/cgctl-validate-$pid" ] && ok || fail "the killed run left nothing to clean up"

# at the default level (no -v): the notice was only shown with -v before
cg validate --repeat 1 bw-small-quota
case $RC in 0 | 7) ok ;; *) fail "the next validate: exit $RC: $ERR" ;; esac
left=$(find "$base/cgctl-validate-$pid" -type d 2>/dev/null | wc -l)
[ "$left" = 0 ] && ok || fail "$left cgroups of the killed run left after the next run"
echo "leftovers after a killed validate and one more run: $left"
case $ERR in
*"removed $cpu"*"cgctl-validate-$pid of a run that is gone (PID $pid)"*) ok ;;
*) fail "the next run did not say what it removed: $ERR" ;;
esac
done_testing
