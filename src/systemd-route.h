/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Settings commands on a host whose PID 1 is systemd (issue 27): who writes the target
 * cgroup, and the systemd backend's one entry point.  The settings commands call
 * sd_route() once before their executor and, for a unit's own cgroup, hand their list
 * of (file, value) to sd_route_apply() instead of writing.
 */
#ifndef CGCTL_SYSTEMD_ROUTE_H
#define CGCTL_SYSTEMD_ROUTE_H

#include <popt.h>

#include "cgctl.h"

/* --persistent and --force of bw set, mem set and set */
extern const struct poptOption sd_route_options[];

struct sd_route {
	bool via_systemd;		/* the unit's own cgroup: through its properties */
	struct cgctl_unit unit;
};
/*
 * Who writes @path of @m: cgctl directly (no systemd, below a delegated unit, or
 * --force), or systemd (a unit's own cgroup).  Below a unit that is not delegated the
 * write is refused with one line naming the unit (exit 3) unless --force.
 * Returns: EXIT_OK with @r filled, or the exit status printed.
 */
int sd_route(struct cli *cli, const char *arg, const struct cgctl_mount *m,
	     const char *path, struct sd_route *r);
/*
 * Apply @k (n knobs) to the unit's cgroup through systemd (runtime unless --persistent);
 * each knob's how says "systemd" or "direct".  Returns: EXIT_OK, or the exit status
 * printed.
 */
int sd_route_apply(struct cli *cli, const char *arg, const struct cgctl_mount *m,
		   const struct sd_route *r, struct cgctl_unit_knob *k, size_t n);

/* How a move into @path went on a host whose PID 1 is systemd. */
struct sd_attach {
	const char *how;		/* NULL: no systemd; "systemd" or "direct" */
	char why[512];			/* why not through systemd ("": it was) */
};
/*
 * Move @pid into @path of @m through systemd's AttachProcessesToUnit when @path is a
 * unit's own cgroup (v2).  Returns: 1 moved (a->how "systemd"), 0 not moved: the caller
 * writes cgroup.procs (a->how "direct" on a systemd host, with a->why when systemd
 * refused), -errno (systemd said yes but @pid is elsewhere).
 */
int sd_attach(struct cli *cli, const struct cgctl_mount *m, const char *path, pid_t pid,
	      struct sd_attach *a);

#endif
