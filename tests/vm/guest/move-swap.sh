#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Move charge with pages on swap (6.1, cgroup v1): cgctl validate's move-anon-swap and
# move-shmem-swap squeeze a workload's group until reclaim swaps half of its pages out,
# then move it.  Swapped anon moves its swap charge with bit 0 (mc_handle_swap_pte);
# swapped shmem moves neither page nor swap charge since 5.10 (mc_handle_file_pte finds
# only swap-cache pages).  Both must match the model, memory and memsw usage of both
# groups, over 2 runs.  zram0 becomes 128M of swap and is taken down at the end: the
# tests after this one expect a guest without swap.
. "$VMLIB"
vm_need_mode v1
vm_need_jq
# the workloads without sanitizers: ASan's shadow pages would be charged to the group
vm_plain_workload

teardown() {
	vm_swap_off
	vm_cleanup
}
trap teardown EXIT
vm_swap_on 128M

set -- move-anon-swap move-shmem-swap
vm_ok cgctl validate --json --repeat 2 "$@"
printf "%s\n" "$OUT" >/tmp/move-swap-validate.json
vm_json_eq '.scenarios | length' "$#" "scenarios reported"
for s in "$@"; do
	vm_json_eq '[.scenarios[] | select(.name == "'$s'") | .quantities[].verdict] | unique | join(",")' \
		match "$s on $VM_CONFIG"
done
left=$(find "$VM_CGROOT" -maxdepth 4 -type d -name 'cgctl-validate-*' | head -1)
vm_eq "$left" "" "scratch cgroups left behind"
exit 0
