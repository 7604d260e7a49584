/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of `cgctl mem` and `cgctl move`: kernel facts and memcg counters. */
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
/* Does this kernel move charges on v1 attach at all (2.6.34 <= kver < 6.13)? */
bool mem_kernel_moves(uint32_t kver);

/* Counters of one memory cgroup, bytes; UINT64_MAX = unlimited or absent. */
struct mem_counters {
	bool present_memsw;
	uint64_t usage, limit, failcnt, max_usage, soft_limit;
	uint64_t memsw_usage, memsw_limit, memsw_failcnt, memsw_max_usage;
	uint64_t move_charge;	/* v1 memory.move_charge_at_immigrate; UINT64_MAX absent */
};
/* Read the counters of @path (v1 or v2 names).  Returns: 0 or -errno (usage missing). */
int mem_read_counters(struct cli *cli, const struct cgctl_mount *m, const char *path,
		      struct mem_counters *c);
/* Number of cgroups in the subtree of @path, itself included (>= 1). */
unsigned int mem_subtree_size(struct cli *cli, const struct cgctl_mount *m, const char *path);
/* Read one number file; absent or unreadable -> UINT64_MAX. */
uint64_t mem_read_or_max(struct cli *cli, const struct cgctl_mount *m, const char *path,
			 const char *file);

#endif
