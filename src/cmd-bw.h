/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of `cgctl bw` (set, show, predict). */
#ifndef CGCTL_CMD_BW_H
#define CGCTL_CMD_BW_H

#include <limits.h>

#include "cgctl.h"

/* A cgroup of the hierarchy carrying the cpu controller. */
struct bw_target {
	const struct cgctl_mount *m;
	char path[PATH_MAX];
};

/* Resolve @arg in the cpu hierarchy and check that it exists.  Returns: exit status. */
int bw_resolve(struct cli *cli, const char *arg, struct bw_target *t);
/* The kernel the cgroupfs belongs to (fixture osrelease, else uname); 0 if unknown. */
uint32_t bw_kver(struct cli *cli);
/* Online CPUs (fixture /sys/devices/system/cpu/online, else sysconf). */
unsigned int bw_ncpu(struct cli *cli);
/* Parse a duration option into whole µs.  Returns: exit status. */
int bw_parse_us(struct cli *cli, const char *opt, const char *s, uint64_t *us);
/* --cpus FLOAT: a limit in CPUs, the quota = FLOAT x @period_us.  Returns: EXIT_OK or
 * a usage error printed. */
int bw_parse_cpus(struct cli *cli, const char *s, uint64_t period_us, uint64_t *quota_us);

#endif
