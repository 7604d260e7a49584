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

/* The memory counters of one cgroup (v1 or v2 names) as `mem show`, `mem set` and `move`
 * print them, in bytes (failcnt: a count).  A figure the kernel prints as unlimited and
 * a file that does not exist both read UINT64_MAX; the has_ flags say which exist. */
struct mem_counters {
	bool has_usage, has_limit, has_memsw;
	uint64_t usage;			/* usage_in_bytes / memory.current */
	uint64_t limit;			/* limit_in_bytes / memory.max */
	uint64_t failcnt;		/* v1 failcnt */
	uint64_t max_usage;		/* max_usage_in_bytes / memory.peak (5.19+) */
	uint64_t soft_limit;		/* v1 soft_limit_in_bytes */
	uint64_t memsw_usage;		/* memsw.usage_in_bytes / memory.swap.current */
	uint64_t memsw_limit;		/* memsw.limit_in_bytes / memory.swap.max */
	uint64_t memsw_failcnt;		/* v1 memsw.failcnt */
	uint64_t memsw_max_usage;	/* v1 memsw.max_usage_in_bytes */
	uint64_t move_charge;		/* v1 move_charge_at_immigrate */
};
/* Read them through the library's one reader, the cgroup object (cgctl_cgroup_stat_get()
 * and the knob getters).  Returns: 0, or -errno when the usage cannot be read (-ENOENT:
 * no such cgroup or file); the v2 root has no usage: 0 with has_usage false. */
int mem_read_counters(struct cli *cli, const struct cgctl_mount *m, const char *path,
		      struct mem_counters *c);

#endif
