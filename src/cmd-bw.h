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

/* A whole cpu hierarchy read for the write rules (node 0 is the root). */
struct bw_tree {
	struct cgctl_bw_node *nodes;
	size_t n, cap;
	size_t target;
};

/* Resolve @arg in the cpu hierarchy and check that it exists.  Returns: exit status. */
int bw_resolve(struct cli *cli, const char *arg, struct bw_target *t);
/* Current (quota, period, burst) of @path; *has_burst tells whether the kernel has the
 * burst file.  Returns: 0 or -errno. */
int bw_read_settings(struct cli *cli, const struct cgctl_mount *m, const char *path,
		     struct cgctl_bw_settings *bw, bool *has_burst);
/* Read every cgroup of the hierarchy (parents first).  Returns: 0 or -errno. */
int bw_tree_read(struct cli *cli, const struct bw_target *t, struct bw_tree *tree);
void bw_tree_free(struct bw_tree *tree);
/* The kernel the cgroupfs belongs to (fixture osrelease, else uname); 0 if unknown. */
uint32_t bw_kver(struct cli *cli);
/* Online CPUs (fixture /sys/devices/system/cpu/online, else sysconf). */
unsigned int bw_ncpu(struct cli *cli);
/* Parse a duration option into whole µs.  Returns: exit status. */
int bw_parse_us(struct cli *cli, const char *opt, const char *s, uint64_t *us);

#endif
