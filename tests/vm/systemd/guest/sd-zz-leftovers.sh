# issue 27, run last: after every other case, no scratch cgroup of cgctl's (cgctl-*,
# the cases' sd-*) and no transient unit of cgctl's is left anywhere.  The harness's
# own units (cgctl-vm-console.service, cgctl-vm-run@*.service and their slice) are not
# cgctl's.
. "$VMLIB"
vm_need_systemd
left=$(find /sys/fs/cgroup -type d \( -name 'cgctl-*' -o -name 'sd-*' \) |
	grep -v '/cgctl-vm-console\.service\|/cgctl-vm-run@' |
	grep -v '/system-cgctl\\x2dvm\\x2drun\.slice')
vm_eq "$left" "" "cgroups left behind"
vm_ok systemctl list-units --all --plain --no-legend --no-pager
# (device units are the root disk's: its label is cgctl-vm)
units=$(printf '%s\n' "$OUT" | awk '{ print $1 }' | grep -i 'cgctl\|^sd-' |
	grep -v '\.device$' | grep -v '^cgctl-vm-console\.service$\|^cgctl-vm-run@' |
	grep -v '^system-cgctl\\x2dvm\\x2drun\.slice$')
vm_eq "$units" "" "units left behind"
