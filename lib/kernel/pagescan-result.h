/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Page inventory: from scan counters to struct cgctl_inventory (inode -> path). */
#ifndef CGCTL_KERNEL_PAGESCAN_RESULT_H
#define CGCTL_KERNEL_PAGESCAN_RESULT_H

#include "kernel/pagescan.h"

/* What the scan found, before inodes are resolved to paths. */
struct ps_scan_out {
	struct ps_runs runs;		/* sorted, deduplicated */
	struct ps_pmstat st;
	struct ps_groups groups;
	uint64_t zero;
	unsigned int unknown;		/* CGCTL_INV_UNKNOWN_* found while scanning */
	size_t n_vmas;
	uint64_t virt_pages;
	bool task_known;		/* the first task's cgroup was looked up: */
	char *task_cgroup;		/* it (NULL: unknown), for the result to take */
	uint64_t task_ino;
};

/* Build the public result (groups sorted, paths resolved unless CGCTL_INV_NO_PATHS);
 * it takes out->task_cgroup.  Returns: 0 or -ENOMEM. */
int ps_result_build(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
		    struct ps_scan_out *out, struct cgctl_inventory **ret,
		    struct cgctl_error *e);

#endif
