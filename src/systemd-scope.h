/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scratch work on a host whose PID 1 is systemd (issue 27): a cgroup that systemd manages
 * and has not delegated (a login session's scope, a service's cgroup) takes no children
 * with controllers, and systemd is its only writer.  validate, bench and --self work
 * below a transient scope of their own instead, started with Delegate=yes through
 * systemd's StartTransientUnit (systemd's docs/CGROUP_DELEGATION.md).  Elsewhere (no
 * systemd, cgroup v1, already below a delegated unit, --root) nothing changes.
 */
#ifndef CGCTL_SYSTEMD_SCOPE_H
#define CGCTL_SYSTEMD_SCOPE_H

#include <stdbool.h>
#include <sys/types.h>

#include "cgctl.h"

struct sd_scope {
	bool active;			/* a scope was started: the fields below hold */
	const struct cgctl_mount *m;	/* the unified hierarchy */
	char unit[256];			/* "cgctl-validate-4242.scope" */
	char cgroup[4096];		/* its cgroup: scratch work goes right below it */
	char leaf[4096];		/* the leaf below it holding the scope's process */
	char home[4096];		/* where cgctl was before (to go back to) */
};

/*
 * For validate and bench (@what names the scope: "cgctl-WHAT-PID.scope"): when cgctl's
 * own cgroup is one that systemd manages and has not delegated, start a delegated scope
 * holding cgctl, move cgctl into a leaf below it and enable every controller the scope
 * has in its cgroup.subtree_control: s->cgroup then takes scratch cgroups.  A scope that
 * cannot be started is a warning: the command goes on as without systemd.
 * Returns: EXIT_OK (s->active says whether a scope is in use).
 */
int sd_scope_enter(struct cli *cli, const char *what, struct sd_scope *s);
/* Move cgctl back to where it was and remove the leaf: systemd stops the empty scope
 * and collects it.  Nothing when !s->active. */
void sd_scope_leave(struct cli *cli, struct sd_scope *s);
/*
 * --self on such a host: the cgroup of "cgctl-self-UNIT.scope" for cgctl's own unit
 * UNIT, started on first use with a holder process of its own (so that the cgroups made
 * there outlive cgctl) and every controller enabled below it.  `systemctl stop` of the
 * scope removes it and everything below it.
 * Returns: 1 and the cgroup in @out, 0 when --self means cgctl's own cgroup as without
 * systemd, -errno.
 */
int sd_scope_self(struct cli *cli, const struct cgctl_mount *m, char *out, size_t len);

#endif
