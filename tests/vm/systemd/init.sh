#!/bin/busybox sh
# /init of the systemd VM's initramfs (tests/vm/run-vm --config 6.12-systemd; busybox).
#
# Loads the modules that reach the root disk (/vm-boot/modules: virtio_blk), mounts
# /dev/vda (the Debian 12 root scripts/install-deps built; qemu keeps it unchanged with
# snapshot=on), copies this run's files (/payload: cgctl, its libraries, the jobs, the
# autologin and the service units) over it and hands the machine to systemd.  The login
# shell on ttyS0 runs the jobs (session.sh).  Failures go to the console and to the
# result channel (ttyS1) as @@CGCTL-ERROR ...@@.
PATH=/usr/bin:/bin:/usr/sbin:/sbin
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
while read -r m; do
	[ -n "$m" ] || continue
	insmod "/vm-boot/modules/$m.ko" || die "insmod $m failed"
done </vm-boot/modules/order
i=0
while [ ! -b /dev/vda ]; do
	i=$((i + 1))
	[ $i -le 200 ] || die "no /dev/vda after 20 s"
	sleep 0.1
done
mkdir -p /sysroot
mount -t ext4 /dev/vda /sysroot || die "cannot mount /dev/vda"
cp -a /payload/. /sysroot/ || die "cannot copy the run's files into the root"
[ -x /sysroot/lib/systemd/systemd ] || die "no systemd in the root image"
umount /proc /sys /dev
exec switch_root /sysroot /lib/systemd/systemd
