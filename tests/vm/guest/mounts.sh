# The harness mounted the hierarchies of this configuration (VM tier self-check).
. "$VMLIB"

vm_eq "$(uname -r)" "$VM_KRELEASE" "kernel release"
case "$VM_KERNEL" in
6.1) vm_match "$VM_KRELEASE" '^6\.1\.' "kernel release" ;;
6.12) vm_match "$VM_KRELEASE" '^6\.12\.' "kernel release" ;;
esac
mounts=$(cat /proc/mounts)
if [ "$VM_MODE" = v1 ]; then
	for c in memory cpu cpuacct; do
		vm_match "$mounts" "^cgroup /sys/fs/cgroup/$c cgroup .*[,]$c( |,)" "v1 $c mount"
		[ -f "/sys/fs/cgroup/$c/cgroup.procs" ] || vm_fail "no cgroup.procs in v1 $c"
	done
	vm_match "$mounts" '^cgroup2 /sys/fs/cgroup/unified cgroup2 ' "cgroup2 at unified"
	[ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ] || vm_fail "no v1 memory.limit_in_bytes"
	[ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] || vm_fail "no v1 cpu.cfs_quota_us"
	# controllers bound to a v1 hierarchy are not offered by cgroup2
	vm_nomatch "$(cat /sys/fs/cgroup/unified/cgroup.controllers)" '(^| )memory( |$)' \
		"memory in unified cgroup.controllers"
else
	vm_match "$mounts" '^cgroup2 /sys/fs/cgroup cgroup2 ' "cgroup2 at /sys/fs/cgroup"
	vm_nomatch "$mounts" '^cgroup ' "v1 hierarchy"
	sc=$(cat /sys/fs/cgroup/cgroup.subtree_control)
	vm_match "$sc" '(^| )memory( |$)' "memory in subtree_control"
	vm_match "$sc" '(^| )cpu( |$)' "cpu in subtree_control"
	mkdir /sys/fs/cgroup/vm-selfcheck || vm_fail "cannot create a v2 cgroup"
	[ -f /sys/fs/cgroup/vm-selfcheck/memory.max ] || vm_fail "no memory.max in a child"
	[ -f /sys/fs/cgroup/vm-selfcheck/cpu.max ] || vm_fail "no cpu.max in a child"
	rmdir /sys/fs/cgroup/vm-selfcheck
fi
echo "mounts ok for $VM_CONFIG"
