/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one door of the settings commands to systemd (see systemd-route.h).  Without
 * systemd as PID 1 nothing here changes what they do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "systemd-route.h"

static int opt_persistent, opt_force;

const struct poptOption sd_route_options[] = {
	{ "persistent", '\0', POPT_ARG_NONE, &opt_persistent, 0,
	  "systemd: keep the unit's properties across reboots (default: runtime only)",
	  NULL },
	{ "force", '\0', POPT_ARG_NONE, &opt_force, 0,
	  "write the files even where systemd is their only writer", NULL },
	POPT_TABLEEND
};

int sd_route(struct cli *cli, const char *arg, const struct cgctl_mount *m,
	     const char *path, struct sd_route *r)
{
	int k;

	r->via_systemd = false;
	r->unit = (struct cgctl_unit)CGCTL_UNIT_INIT;
	if (opt_force)
		return EXIT_OK;
	k = cgctl_cgroup_unit(cli->ctx, m, path, &r->unit);
	if (k < 0)
		return cli_error(cli, arg, k, NULL);
	if (k == 0)
		return EXIT_OK;
	switch (cgctl_unit_writer(&r->unit)) {
	case CGCTL_WRITER_SYSTEMD:
		r->via_systemd = m->version == 2;
		if (!r->via_systemd)
			cli_warn(cli, "%s: unit %s: systemd's properties are not used on cgroup "
				 "v1: written directly", arg, r->unit.name);
		return EXIT_OK;
	case CGCTL_WRITER_REFUSED:
		return cli_error(cli, arg, -EPERM, "systemd manages this cgroup (below unit "
				 "%s, not delegated) and would undo a direct write; "
				 "use --force to write it anyway", r->unit.name);
	case CGCTL_WRITER_DIRECT:
		break;
	}
	return EXIT_OK;
}

int sd_route_apply(struct cli *cli, const char *arg, const struct cgctl_mount *m,
		   const struct sd_route *r, struct cgctl_unit_knob *k, size_t n)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int rc = cgctl_unit_apply(cli->ctx, m, &r->unit, k, n,
				  opt_persistent ? CGCTL_UNIT_PERSISTENT : 0, &e);

	if (rc < 0)
		return cli_error(cli, arg, rc, "%s", e.msg[0] ? e.msg : cli_strerror(rc));
	cli->changed = true;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].how, "direct"))
			cli_warn(cli, "%s: systemd has no property for %s: written directly",
				 arg, k[i].file);
	return EXIT_OK;
}
