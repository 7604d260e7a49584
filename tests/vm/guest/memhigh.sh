#!/bin/sh
# The cgroup v2 memory.high scenarios of cgctl validate (memhigh-file, memhigh-anon,
# memhigh-swap, memhigh-protect) against the kernel: every quantity must match the
# model over 3 runs.  The guest has no disk and no swap: zram0 becomes 256M of swap and
# zram1 an ext2 file system at /var/tmp (clean, evictable page cache), from the modules
# scripts/install-deps keeps in the kernel cache.  Both are taken down at the end: the
# tests after this one expect a guest without swap.  The full JSON is left in
# /tmp/memhigh-validate.json for a guest command to print.
. "$VMLIB"
vm_need_mode v2
vm_need_jq
# the workload without sanitizers: ASan's shadow pages would be charged to the group
vm_plain_workload

mounted=0
teardown() {
	[ $mounted = 1 ] && umount /var/tmp
	vm_swap_off
	[ -e /sys/block/zram1/reset ] && echo 1 >/sys/block/zram1/reset
	vm_cleanup
}
trap teardown EXIT

vm_swap_on 256M
echo 192M >/sys/block/zram1/disksize || vm_fail "zram1 disksize"
vm_ok mke2fs -q -b 4096 /dev/zram1
mkdir -p /var/tmp
# Debian's kernels have no ext2 driver; ext4 mounts the ext2 format
mount -t ext2 /dev/zram1 /var/tmp 2>/dev/null || mount -t ext4 /dev/zram1 /var/tmp ||
	vm_fail "cannot mount /dev/zram1"
mounted=1

set -- memhigh-file memhigh-anon memhigh-swap memhigh-protect
vm_run cgctl validate --json --repeat 3 "$@"
printf '%s\n' "$OUT" >/tmp/memhigh-validate.json
vm_eq "$RC" 0 "cgctl validate exit status"
vm_json_eq '.scenarios | length' "$#" "scenarios reported"
vm_json_eq '[.scenarios[].quantities[] | select(.verdict != "match")] | length' 0 \
	"quantities other than match"
vm_json_eq '[.scenarios[].quantities[]] | length' 14 "quantities reported"
left=$(find "$VM_CGROOT" -maxdepth 4 -type d -name 'cgctl-validate-*' | head -1)
vm_eq "$left" "" "scratch cgroups left behind"
exit 0
