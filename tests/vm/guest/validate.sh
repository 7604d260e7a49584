#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgctl validate inside each VM kernel: every verdict is match or n/a (move charge really
# moves on 6.1 v1, is n/a on v2 ...), exit 0, and nothing is left behind.  The CPU
# bandwidth scenarios are left out: under TCG emulation on a shared host the guest's
# CPU time is not a measurement of the kernel's bandwidth control.
. "$VMLIB"
vm_need_jq
# the workloads without sanitizers, also under CI's sanitizer build
vm_plain_workload
set -- mem-stock-pinned mem-stock-unpinned mem-stock-memcgs mem-hier-limit move-anon move-shared move-file \
	move-file-sparse move-file-tables move-thp move-thp-split \
	move-refused move-removed rss-bound pcp-lists
vm_ok cgctl validate --json --repeat 1 "$@"
vm_json_eq '.verdict' match "overall verdict"
vm_json_eq '[.scenarios[].quantities[] | select(.verdict != "match" and .verdict != "n/a")] | length' \
	0 "verdicts other than match or n/a"
vm_json_eq '.scenarios | length' "$#" "scenarios reported"
case "$VM_CONFIG" in
6.1-v1)
	vm_json_eq '[.scenarios[] | select(.name == "move-anon") | .quantities[].verdict] | unique | join(",")' \
		match "move charge checked on 6.1 v1"
	# cached file pages the task does not map, in ranges with a page table, move;
	# PMD-mapped THPs move whole, PTE-mapped ones (split by mprotect) stay
	for s in move-file-sparse move-file-tables move-thp move-thp-split; do
		vm_json_eq '[.scenarios[] | select(.name == "'$s'") | .quantities[].verdict] | unique | join(",")' \
			match "$s checked on 6.1 v1"
	done ;;
*)
	vm_json_eq '[.scenarios[] | select(.name == "move-anon") | .quantities[].verdict] | unique | join(",")' \
		n/a "no move charge on $VM_CONFIG" ;;
esac
left=$(find "$VM_CGROOT" -maxdepth 4 -type d -name 'cgctl-validate-*' | head -1)
vm_eq "$left" "" "scratch cgroups left behind"
exit 0
