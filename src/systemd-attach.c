/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Moves into a unit's own cgroup on a host whose PID 1 is systemd (issue 27): through
 * systemd's AttachProcessesToUnit (systemd 248+) where systemd allows it, so that
 * systemd knows the process is the unit's; systemd 252 refuses it for units that are
 * not delegated ("Process migration not available on non-delegated units",
 * src/core/dbus-unit.c:bus_unit_method_attach_processes()): then cgctl writes
 * cgroup.procs as it does without systemd, and says so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "systemd-route.h"
#include "util/sdbus.h"

int sd_attach(struct cli *cli, const struct cgctl_mount *m, const char *path, pid_t pid,
	      struct sd_attach *a)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	struct cgctl_unit u = CGCTL_UNIT_INIT;
	sd_bus *bus = NULL;
	char *at = NULL;
	int r;

	memset(a, 0, sizeof(*a));
	if (cli->root || m->version != 2 || cgctl_cgroup_unit(cli->ctx, m, path, &u) != 1)
		return 0;
	a->how = "direct";	/* systemd's host: the move says how it went */
	if (u.below)		/* below a unit: its delegate's (or --force's) business */
		return 0;
	r = sdbus_open_system(&bus);
	if (r < 0) {	/* no bus, or no libsystemd to reach it: the sym_ calls are not ours */
		snprintf(a->why, sizeof(a->why), "systemd did not attach it to %s (%s): "
			 "cgroup.procs written", u.name, strerror(-r));
		return 0;
	}
	r = sym_sd_bus_call_method(bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
				   "org.freedesktop.systemd1.Manager", "AttachProcessesToUnit",
				   &err, NULL, "ssau", u.name, "", 1, (uint32_t)pid);
	if (r < 0)
		snprintf(a->why, sizeof(a->why), "systemd did not attach it to %s (%s): "
			 "cgroup.procs written", u.name,
			 err.message ? err.message : strerror(-r));
	sym_sd_bus_error_free(&err);
	sym_sd_bus_flush_close_unref(bus);
	if (r < 0)
		return 0;
	/* systemd moved it: where it is now is the proof */
	r = cgctl_pid_cgroup(cli->ctx, pid, m, &at);
	if (r == 0 && strcmp(at, path))
		r = -EIO;
	free(at);
	if (r < 0)
		return r;
	a->how = "systemd";
	return 1;
}
