/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of `cgctl mem` and `cgctl move`: the kernel they look at. */
#ifndef CGCTL_MEM_UTIL_H
#define CGCTL_MEM_UTIL_H

#include "cgctl.h"

/* The kernel whose cgroupfs we look at: /proc/sys/kernel/osrelease below the root
 * prefix (fixtures carry one), else uname.  0 if unknown. */
uint32_t mem_kver(struct cli *cli);
/* "6.18" */
const char *mem_kver_str(uint32_t kver, char *buf, size_t len);
/* Online CPUs: /sys/devices/system/cpu/online below the root prefix, else sysconf. */
unsigned int mem_ncpu(struct cli *cli);

/* The counters are read by the library (cgctl_mem_counters_read()); these names stay
 * for `cgctl mem set` (src/cmd-mem-set.c) until it calls the library itself. */
#define mem_counters cgctl_mem_counters
static inline int mem_read_counters(struct cli *cli, const struct cgctl_mount *m,
				    const char *path, struct cgctl_mem_counters *c)
{
	return cgctl_mem_counters_read(cli->ctx, m, path, c);
}

#endif
