#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgctl move --tree on a fork storm (a child every 5 ms living 500 ms, each with a
# grandchild) in every configuration: three moves back and forth, each leaving no live
# process of the storm behind, with the proc connector (root in the guest).
. "$VMLIB"
vm_need_cgctl
vm_need_jq
command -v forkstorm >/dev/null || vm_skip "forkstorm was not packed into the guest"

a=/vmtree-a b=/vmtree-b
procs() { echo "$(vm_cgdir memory)$1/cgroup.procs"; }
storm=
cleanup() {
	[ -n "$storm" ] && kill -KILL -- "-$storm" 2>/dev/null
	sleep 0.5
	vm_cleanup
	for c in $a $b; do
		if [ "$VM_MODE" = v1 ]; then
			for h in memory cpu cpuacct; do rmdir "$VM_CGROOT/$h$c" 2>/dev/null; done
		else
			rmdir "$VM_CGROOT$c" 2>/dev/null
		fi
	done
}
trap cleanup EXIT

vm_ok cgctl create $a
vm_ok cgctl create $b
# shellcheck disable=SC2016
sh -c 'cgctl move --no-plan $$ "$1" >/dev/null && exec forkstorm -i 5000 -l 500 -g' \
	sh $a </dev/null >/dev/null 2>&1 &
storm=$!
sleep 1.5
n=$(wc -l < "$(procs $a)")
vm_log "fork storm: $n processes in $a"
[ "$n" -gt 20 ] || vm_fail "the fork storm did not start ($n processes)"

# live_in CG: processes in CG that are neither zombies nor exiting (PF_EXITING)
live_in() {
	live=0
	for p in $(cat "$(procs "$1")"); do
		st=$(cat "/proc/$p/stat" 2>/dev/null) || continue
		set -- ${st##*) }
		[ "$1" = Z ] && continue
		[ $(($7 & 4)) != 0 ] && continue
		live=$((live + 1))
	done
	echo $live
}

src=$a dst=$b
for i in 1 2 3; do
	vm_ok cgctl --json move --tree --no-plan "$storm" $dst
	vm_json_eq '.moves[0].tree.connector' true "move $i used the proc connector"
	vm_jq '.moves[0].tree.moved >= 1' "move $i moved the tree"
	sleep 0.1
	vm_eq "$(live_in $src)" 0 "live processes left in $src after move $i"
	t=$src src=$dst dst=$t
done
exit 0
