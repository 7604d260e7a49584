#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgctl move against the kernel that moves charges (6.1 v1) on random cases: a workload
# (anon pages, anon shared with a child, a mapped file written through every page or
# every few, THPs with some PMDs split) in a source group, a destination with random
# move_charge_at_immigrate bits and sometimes a limit.  Each case: the plan's verdict
# is match, or the model said the kernel would refuse the precharge (ENOMEM) and with
# --force the kernel did refuse.  With zram in the kernel cache, a case in three first
# squeezes the source group to half the workload's pages, so reclaim swaps the rest out
# (zram0, 128M, taken down at the end).  CGCTL_SWEEP_SEED and CGCTL_SWEEP_N choose the
# cases.
. "$VMLIB"
vm_need_config 6.1-v1
vm_need_jq
vm_plain_workload
W=${CGCTL_WORKLOAD_EXE:-/usr/libexec/cgctl/cgctl-workload}
[ -x "$W" ] || vm_skip "no workload helper packed"

M=$(vm_cgdir memory)
RANDOM=${CGCTL_SWEEP_SEED:-20261204}
N=${CGCTL_SWEEP_N:-8}
cleanup() {
	for g in sa sb; do
		for p in $(cat "$M/$g/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	done
	sleep 0.3
	rmdir "$M/sa" "$M/sb" 2>/dev/null
	rm -f /dev/shm/cgctl-sweep-*
}
teardown() {
	cleanup
	vm_swap_off
	vm_cleanup
}
trap teardown EXIT
grep -qx zram /vm/modules/order 2>/dev/null && vm_swap_on 128M
rnd() { r=$((RANDOM % $1)); }

i=0
while [ $i -lt "$N" ]; do
	i=$((i + 1))
	cleanup
	mkdir "$M/sa" "$M/sb" || vm_fail "cannot create the groups"
	rnd 3; flags=$((r + 1))
	echo $flags > "$M/sb/memory.move_charge_at_immigrate"
	rnd 4; k=$r; rnd 8; pages=$(((r + 1) * 256))
	case $k in
	0) args="touch $pages" ;;
	1) args="fork-touch $pages" ;;
	2) rnd 3; args="file-touch /dev/shm/cgctl-sweep-$i $pages $((r * 3 + 1))" ;;
	3) rnd 4; b=$((r + 1)); rnd $((b + 1)); args="thp-touch $b $r" ;;
	esac
	lim=
	rnd 4
	if [ $r -eq 0 ]; then
		rnd 3; lim=$(((r + 1) * 2097152))
		echo $lim > "$M/sb/memory.limit_in_bytes"
	fi
	rnd 3
	squeeze=
	[ $vm_swap = 1 ] && [ $r -eq 0 ] && squeeze=$((pages * 2048))
	case="case $i: bits $flags, limit ${lim:-none}, squeeze ${squeeze:-no}, $args"
	rm -f /tmp/sweep.out
	# shellcheck disable=SC2086
	(echo go; sleep 4) | sh -c 'echo $$ > /tmp/sweep.pid; echo $$ > "$1"; shift; exec "$@"' \
		sh "$M/sa/cgroup.procs" "$W" $args > /tmp/sweep.out &
	n=0
	until grep -q '^done' /tmp/sweep.out 2>/dev/null || [ $n -ge 50 ]; do
		sleep 0.1; n=$((n + 1))
	done
	grep -q "^done" /tmp/sweep.out || vm_fail "$case: the workload did not start: $(cat /tmp/sweep.out)"
	pid=$(cat /tmp/sweep.pid)
	# half of the workload's pages (THPs: blocks of 512) to swap, charged to sa
	if [ -n "$squeeze" ]; then
		[ $k = 3 ] && squeeze=$((b * 1048576))
		echo "$squeeze" > "$M/sa/memory.limit_in_bytes" ||
			vm_fail "$case: cannot squeeze sa to $squeeze"
	fi
	if out=$(cgctl --json move "$pid" /sb 2>/tmp/sweep.err); then
		v=$(echo "$out" | jq -r '.moves[0].verdict')
		[ "$v" = match ] || vm_fail "$case: verdict $v: $out"
	elif grep -q 'would refuse' /tmp/sweep.err; then
		cgctl move --force "$pid" /sb 2>/tmp/sweep.err &&
			vm_fail "$case: predicted a refused precharge, the kernel moved"
		grep -q 'could not precharge' /tmp/sweep.err ||
			vm_fail "$case: --force: $(cat /tmp/sweep.err)"
		v="refused, as predicted"
	else
		vm_fail "$case: $(cat /tmp/sweep.err)"
	fi
	vm_log "$case: $v"
	wait
done
exit 0
