/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hierarchy discovery.  Live system: libcgroup (cgroup_init(), cgroup_get_controller_*)
 * lists controllers and their mount points; statfs() tells v1 from v2.  With a root
 * prefix (fixtures, --root) the same map is read from ROOT/cgctl-mounts, so everything
 * below discovery runs unchanged against a fixture tree.  This is the only file that
 * includes <libcgroup.h>.
 */
#include <errno.h>
#include <fcntl.h>
#include <libcgroup.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/hier.h"
#include "kernel/cgfs.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif
int cgctl_hier_ecg_to_errno(int ecg)
{
	switch (ecg) {
	case 0:
		return 0;
	case ECGROUPNOTCOMPILED:
	case ECGROUPNOTMOUNTED:
	case ECGROUPSUBSYSNOTMOUNTED:
		return -ENODEV;
	case ECGROUPNOTEXIST:
	case ECGROUPNOTALLOWED:	/* historically "doesn't exist" for missing paths */
		return -ENOENT;
	case ECGROUPNOTOWNER:
	case ECGROUPNOTCREATED:
		return -EPERM;
	case ECGROUPMULTIMOUNTED:
		return -EBUSY;
	case ECGROUPNOTINITIALIZED:
	case ECGINVAL:
		return -EINVAL;
	case ECGOTHER:
		return -(cgroup_get_last_errno() ? cgroup_get_last_errno() : EIO);
	case ECGEOF:
		return -ENODATA;
	default:
		return -EIO;
	}
}

int cgctl_hier_add(struct cgctl_ctx *ctx, int version, const char *path, const char *ctrls)
{
	struct cgctl_mount *m;
	int *fds;
	size_t i;

	for (i = 0; i < ctx->n_mounts; i++) {
		m = &ctx->mounts[i];
		if (strcmp(m->path, path) != 0)
			continue;
		/* another controller co-mounted here: append it */
		if (ctrls && *ctrls && !cgctl_mount_has(m, ctrls)) {
			size_t n = strlen(m->controllers) + strlen(ctrls) + 2;
			char *s = malloc(n);

			if (!s)
				return -ENOMEM;
			snprintf(s, n, "%s%s%s", m->controllers, *m->controllers ? "," : "",
				 ctrls);
			free((char *)m->controllers);
			m->controllers = s;
		}
		return 0;
	}
	fds = realloc(ctx->mount_fds, (ctx->n_mounts + 1) * sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	ctx->mount_fds = fds;
	m = realloc(ctx->mounts, (ctx->n_mounts + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	ctx->mounts = m;
	m = &ctx->mounts[ctx->n_mounts];
	m->size = sizeof(*m);
	m->path = strdup(path);
	m->controllers = strdup(ctrls ? ctrls : "");
	m->version = version;
	ctx->mount_fds[ctx->n_mounts] = -1;
	if (!m->path || !m->controllers) {
		free((char *)m->path);
		free((char *)m->controllers);
		return -ENOMEM;
	}
	ctx->n_mounts++;
	return 0;
}

int cgctl_hier_parse_map(struct cgctl_ctx *ctx, const char *buf)
{
	const char *line = buf;
	int lineno = 0;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char tmp[1024], path[512], ctrls[512];
		int version, r;

		lineno++;
		if (len >= sizeof(tmp))
			return -EINVAL;
		memcpy(tmp, line, len);
		tmp[len] = '\0';
		line = nl ? nl + 1 : NULL;
		if (tmp[0] == '#' || tmp[0] == '\0')
			continue;
		if (sscanf(tmp, "%d %511s %511s", &version, path, ctrls) != 3 ||
		    (version != 1 && version != 2) || path[0] != '/') {
			err(ctx, "cgctl-mounts:%d: expected '<1|2> /path controllers'", lineno);
			return -EINVAL;
		}
		/* safety: a hierarchy below the root only ("/../x" would leave it) */
		if (cgctl_path_normalize(path, tmp, sizeof(tmp)) < 0) {
			err(ctx, "cgctl-mounts:%d: %s: a path with \"..\" leaves the root",
			    lineno, path);
			return -EINVAL;
		}
		/* a plain list: a control character (fuzz-mounts-map found 0x06) is refused */
		for (const char *c = ctrls; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				err(ctx, "cgctl-mounts:%d: a control character in the controllers",
				    lineno);
				return -EINVAL;
			}
		r = cgctl_hier_add(ctx, version, path, strcmp(ctrls, "-") ? ctrls : "");
		if (r < 0)
			return r;
	}
	return 0;
}

static int load_fixture(struct cgctl_ctx *ctx)
{
	_cleanup_(freep) char *buf = NULL;
	size_t len;
	int r;

	r = cgctl_read_sys(ctx, "/cgctl-mounts", &buf, &len);
	if (r < 0) {
		err(ctx, "%s/cgctl-mounts: %s", ctx->root, strerror(-r));
		return r == -ENOENT ? -ENODEV : r;
	}
	return cgctl_hier_parse_map(ctx, buf);
}

static int fs_version(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf) < 0)
		return -errno;
	if ((unsigned long)sf.f_type == CGROUP2_SUPER_MAGIC)
		return 2;
	if ((unsigned long)sf.f_type == CGROUP_SUPER_MAGIC)
		return 1;
	return -ENODEV;
}

/* A cgroup2 mount without controllers is invisible to libcgroup's controller list. */
static void add_bare_v2(struct cgctl_ctx *ctx)
{
	static const char *const candidates[] = { "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };
	size_t i;

	for (i = 0; i < ctx->n_mounts; i++)
		if (ctx->mounts[i].version == 2)
			return;
	for (i = 0; i < ARRAY_SIZE(candidates); i++)
		if (fs_version(candidates[i]) == 2) {
			cgctl_hier_add(ctx, 2, candidates[i], "");
			return;
		}
}

static int load_libcgroup(struct cgctl_ctx *ctx)
{
	struct cgroup_mount_point mp;
	void *handle = NULL;
	int r, ecg;

	ecg = cgroup_init();
	if (ecg != 0) {
		r = cgctl_hier_ecg_to_errno(ecg);
		dbg(ctx, "cgroup_init: %s", cgroup_strerror(ecg));
		/* no v1 controllers mounted: a pure or bare v2 system is still usable */
		add_bare_v2(ctx);
		return ctx->n_mounts ? 0 : r;
	}
	ecg = cgroup_get_controller_begin(&handle, &mp);
	while (ecg == 0) {
		int v = fs_version(mp.path);

		if (v > 0) {
			r = cgctl_hier_add(ctx, v, mp.path, mp.name);
			if (r < 0) {
				cgroup_get_controller_end(&handle);
				return r;
			}
		}
		ecg = cgroup_get_controller_next(&handle, &mp);
	}
	cgroup_get_controller_end(&handle);
	if (ecg != ECGEOF && ecg != 0)
		dbg(ctx, "controller iteration: %s", cgroup_strerror(ecg));
	add_bare_v2(ctx);
	return 0;
}

int cgctl_hier_load(struct cgctl_ctx *ctx)
{
	int r;

	if (ctx->mounts_loaded)
		return 0;
	r = *ctx->root ? load_fixture(ctx) : load_libcgroup(ctx);
	if (r < 0) {
		cgctl_ctx_release_mounts(ctx);
		return r;
	}
	ctx->mounts_loaded = true;
	return 0;
}

void cgctl_ctx_release_mounts(struct cgctl_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->n_mounts; i++) {
		free((char *)ctx->mounts[i].path);
		free((char *)ctx->mounts[i].controllers);
		if (ctx->mount_fds[i] >= 0)
			close(ctx->mount_fds[i]);
	}
	free(ctx->mounts);
	free(ctx->mount_fds);
	ctx->mounts = NULL;
	ctx->mount_fds = NULL;
	ctx->n_mounts = 0;
	ctx->mounts_loaded = false;
}
