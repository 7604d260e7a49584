/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* struct cgctl_cgroup's layout (lib/kernel/cgroup.c, lib/predict/cgroup-set.c).  Not installed. */
#ifndef CGCTL_KERNEL_CGROUP_H
#define CGCTL_KERNEL_CGROUP_H

#include "libcgctl.h"

struct knob;

struct cgctl_cgroup {
	int refcount;
	struct cgctl_ctx *ctx;		/* a reference */
	const struct cgctl_mount *m;	/* points into @ctx */
	char *path;			/* normalised */
};

/* Returns: the knob table's entry of @k, NULL for an unknown @k. */
const struct knob *cgroup_knob(enum cgctl_knob k);
/* Returns: the file that holds @k on @cg's hierarchy version, NULL when none does. */
const char *cgroup_knob_file(const struct cgctl_cgroup *cg, enum cgctl_knob k);

#endif
