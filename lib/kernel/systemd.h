/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* systemd's units seen from cgroupfs, and its D-Bus API (lib/kernel/systemd*.c). */
#ifndef CGCTL_KERNEL_SYSTEMD_H
#define CGCTL_KERNEL_SYSTEMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

/*
 * A unit name systemd accepts for a unit with a cgroup (service, scope, slice, socket,
 * mount, swap): "hog.service", "getty@tty1.service", "system-serial\x2dgetty.slice".
 * @len bytes of @name.  Mirrors systemd src/basic/unit-name.c:unit_name_is_valid() (v252)
 * for plain names and instances.
 */
bool sd_unit_name_valid(const char *name, size_t len);
/*
 * The unit that owns the cgroup @path by the names of its components, as systemd's
 * cg_path_get_unit() and cg_path_get_slice() read them (src/basic/cgroup-util.c, v252):
 * nested slices from the top, then one unit; else the deepest slice; else "-.slice".
 * Fills u->name, u->cgroup and u->below (not u->delegated).
 * Returns: 0, -EINVAL (not an absolute path), -ENAMETOOLONG.
 */
int sd_unit_from_path(const char *path, struct cgctl_unit *u);

/* A unit property of D-Bus type "t" and its value. */
struct sd_prop {
	const char *name;
	uint64_t value;
};
/*
 * The properties that hold the v2 interface file @file at @value ("20000 100000",
 * "536870912", "max"): cpu.max gives CPUQuotaPerSecUSec and CPUQuotaPeriodUSec, the
 * memory limits and cpu.weight one each.  Returns: the number of properties in @p (0:
 * systemd has none for @file), -EINVAL (a value systemd cannot hold), -ERANGE.
 */
int sd_props_of_knob(const char *file, const char *value, struct sd_prop p[2]);

#endif
