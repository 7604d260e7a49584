/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hosts whose PID 1 is systemd: each cgroup has one writer (systemd's
 * docs/CGROUP_DELEGATION.md).  A unit's own cgroup is systemd's; below a unit whose
 * cgroup systemd marked delegated (the trusted.delegate extended attribute, systemd
 * 251+ also user.delegate) the unit's processes, here cgctl, write.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"
#include "kernel/systemd.h"

/* mirrors systemd src/libsystemd/sd-daemon/sd-daemon.c:sd_booted() (v252) */
CGCTL_EXPORT bool cgctl_systemd_booted(struct cgctl_ctx *ctx)
{
	int fd;

	if (!ctx)
		return false;
	fd = cgctl_open_sys(ctx, "/run/systemd/system", O_PATH | O_DIRECTORY);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* systemd writes "1" (no NUL) to mark a delegated cgroup: src/core/cgroup.c
 * cgroup_delegate_xattr_apply() (v252) */
static bool xattr_is_one(int fd, const char *name)
{
	char v[8];
	ssize_t n = fgetxattr(fd, name, v, sizeof(v));

	return n == 1 && v[0] == '1';
}

static int delegated(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *cg)
{
	int fd = cgctl_cg_open(ctx, m, cg);
	bool d;

	if (fd < 0)
		return fd;
	d = xattr_is_one(fd, "trusted.delegate") || xattr_is_one(fd, "user.delegate");
	close(fd);
	return d;
}

CGCTL_EXPORT int cgctl_cgroup_unit(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				   const char *path, struct cgctl_unit *u)
{
	char norm[4096];
	int r;

	if (!ctx || !m || !path || !u || u->size < sizeof(*u))
		return -EINVAL;
	r = cgctl_path_normalize(path, norm, sizeof(norm));
	if (r < 0)
		return r;
	r = cgctl_cg_exists(ctx, m, norm);
	if (r <= 0)
		return r < 0 ? r : -ENOENT;
	if (!cgctl_systemd_booted(ctx))
		return 0;
	r = sd_unit_from_path(norm, u);
	if (r < 0)
		return r;
	r = delegated(ctx, m, u->cgroup);
	if (r < 0)
		return r;
	u->delegated = r;
	return 1;
}

CGCTL_EXPORT enum cgctl_writer cgctl_unit_writer(const struct cgctl_unit *u)
{
	if (!u)
		return CGCTL_WRITER_DIRECT;
	if (!u->below)
		return CGCTL_WRITER_SYSTEMD;
	return u->delegated ? CGCTL_WRITER_DIRECT : CGCTL_WRITER_REFUSED;
}
