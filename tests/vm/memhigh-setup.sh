#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest setup for the memhigh validate scenarios (not a guest test: run it as run-vm's
# guest command).  zram0 becomes 256M of swap, zram1 an ext2 disk at /var/tmp (clean,
# evictable page cache; the guest has no disk).  The modules come from the kernel
# cache, decompressed on the host into $M/<kernel>/ and passed with --file:
#   6.12: mm/zsmalloc lib/lz4/lz4_compress lib/lz4/lz4hc_compress drivers/block/zram/zram
#   6.1:  mm/zsmalloc crypto/lzo-rle drivers/block/zram/zram
# e.g.
#   tests/vm/run-vm --config 6.12-v2 --file tests/vm/memhigh-setup.sh \
#     --file $M/6.12/zsmalloc.ko ... --file $M/6.12/zram.ko --tests EMPTYDIR -- \
#     sh -c 'sh /vm/files/memhigh-setup.sh && cgctl validate --json -r 3 memhigh-file \
#            memhigh-anon memhigh-swap memhigh-protect'
set -e
for m in zsmalloc lzo-rle lz4_compress lz4hc_compress zram; do
	[ -f /vm/files/$m.ko ] || continue
	if [ $m = zram ]; then insmod /vm/files/$m.ko num_devices=2; else insmod /vm/files/$m.ko; fi
done
echo 256M >/sys/block/zram0/disksize
mkswap /dev/zram0 >/dev/null
swapon /dev/zram0
echo 192M >/sys/block/zram1/disksize
mke2fs -q -b 4096 /dev/zram1 >/dev/null
mkdir -p /var/tmp
mount -t ext2 /dev/zram1 /var/tmp 2>/dev/null || mount -t ext4 /dev/zram1 /var/tmp
cat /proc/swaps >&2
grep /var/tmp /proc/mounts >&2
