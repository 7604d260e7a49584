#!/bin/busybox sh
# /init of the VM tier's initramfs (busybox sh, runs as PID 1 inside the guest).
#
# Mounts the pseudo file systems and the cgroup hierarchies of the requested mode, runs
# each job listed in /vm/jobs (jobs.sh), and reports every job on the second serial port
# (/dev/ttyS1, the result channel; the kernel console stays on ttyS0):
#
#   @@CGCTL-BOOT <uptime seconds>@@
#   ... each job's markers (jobs.sh) ...
#   @@CGCTL-DONE@@
#
# then powers the machine off.  tests/vm/run-vm is the host side.
PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
export PATH

die() {
	echo "vm-init: $*" >/dev/console
	[ -e /dev/ttyS1 ] && echo "@@CGCTL-ERROR $*@@" >/dev/ttyS1
	poweroff -f
	exit 1
}

mount -t proc proc /proc || die "cannot mount /proc"
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev || die "cannot mount /dev"
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
# keep kernel chatter (e.g. OOM reports from memcg tests) off the console's prompt lines
dmesg -n 1 2>/dev/null

. /vm/env

exec 3>/dev/ttyS1 || die "no result channel /dev/ttyS1"
stty -F /dev/ttyS1 raw -echo 2>/dev/null
read -r up _ </proc/uptime
echo "@@CGCTL-BOOT $up@@" >&3

# ctrl_known NAME: the running kernel has controller NAME (enabled, v1 or v2)
ctrl_known() {
	awk -v c="$1" '$1 == c && $4 == 1 { f = 1 } END { exit !f }' /proc/cgroups
}

mount_v1() {
	mount -t tmpfs -o mode=755 cgroup_root /sys/fs/cgroup || die "cannot mount cgroup tmpfs"
	# the same layout as the development host: one hierarchy per controller
	for c in cpu cpuacct cpuset memory devices freezer blkio pids; do
		ctrl_known "$c" || continue
		mkdir -p "/sys/fs/cgroup/$c"
		mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/$c" || die "cannot mount v1 $c"
	done
	mkdir -p /sys/fs/cgroup/systemd /sys/fs/cgroup/unified
	mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd
	mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified || die "cannot mount cgroup2"
}

mount_v2() {
	mount -t cgroup2 cgroup2 /sys/fs/cgroup || die "cannot mount cgroup2"
	for c in $VM_V2_CONTROLLERS; do
		grep -qw "$c" /sys/fs/cgroup/cgroup.controllers || continue
		echo "+$c" >/sys/fs/cgroup/cgroup.subtree_control ||
			die "cannot enable $c in the v2 root"
	done
}

case "$VM_MODE" in
v1) mount_v1 ;;
v2) mount_v2 ;;
*) die "unknown mode '$VM_MODE'" ;;
esac

hostname "vm-$VM_CONFIG"
. /vm/jobs.sh
vm_env
run_jobs
# closing the tty waits until the UART has sent everything
exec 3>&-
sync
poweroff -f
# poweroff failed: panic=-1 with -no-reboot ends qemu when init exits
exit 0
