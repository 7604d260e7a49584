/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Moving processes (cgroup.procs, one PID per write) and finding a process's cgroup. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"
#include "util/strbuf.h"

#define ATTACH_RETRIES 5
#define ATTACH_RETRY_NS (30 * 1000 * 1000)

static int pid_exists(struct cgctl_ctx *ctx, pid_t pid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	fd = cgctl_open_sys(ctx, path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd == -ENOENT ? -ESRCH : fd;
	close(fd);
	return 0;
}

/*
 * One write(2) of one PID.  A task between fork and its first schedule (TASK_NEW) makes
 * the kernel return EINVAL; runc and containerd retry 5 times 30 ms apart, and so do we,
 * but only while the PID still exists (a dead PID gives ESRCH).
 */
CGCTL_EXPORT int cgctl_cg_attach(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				 const char *path, pid_t pid)
{
	const struct timespec ts = { 0, ATTACH_RETRY_NS };
	char buf[24];
	int fd, r, tries;

	if (pid <= 0)
		return -EINVAL;
	if (*ctx->root) {
		/* fixture: no kernel to check the PID for us */
		r = pid_exists(ctx, pid);
		if (r == 0)
			r = cgctl_fixture_write_error(ctx, m, path, "cgroup.procs");
		if (r < 0)
			return r;
	}
	snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	for (tries = 0;; tries++) {
		/* through cgfs.c's checks: a bind mount over the cgroup or over its
		 * cgroup.procs is refused (-EXDEV) before the PID is written */
		fd = cgctl_cg_open_append(ctx, m, path, "cgroup.procs");
		if (fd < 0)
			return fd;
		r = write(fd, buf, strlen(buf)) < 0 ? -errno : 0;
		close(fd);
		if (r != -EINVAL || tries >= ATTACH_RETRIES || pid_exists(ctx, pid) < 0)
			break;
		nanosleep(&ts, NULL);
	}
	dbg(ctx, "attach %d to %s%s: %s", (int)pid, m->path, path, r ? strerror(-r) : "ok");
	return r;
}

/* /proc/PID/cgroup into @buf without an allocation (one read in the common case).
 * Returns: the length, -E2BIG when it does not fit (the caller falls back to
 * cgctl_read_sys()), -errno. */
static ssize_t read_proc_small(struct cgctl_ctx *ctx, const char *path, char *buf,
			       size_t size)
{
	/* the live system needs no root prefix: no snprintf per PID */
	int fd = *ctx->root ? cgctl_open_sys(ctx, path, O_RDONLY)
			    : open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return *ctx->root ? fd : -errno;
	n = cgctl_read_small(fd, buf, size);
	return n == (ssize_t)size - 1 ? -E2BIG : n;
}

/* The line of v1 hierarchy @m: any one of its controllers names it. */
static int pid_cgroup_v1(const char *buf, size_t len, const struct cgctl_mount *m,
			 char **ret)
{
	char name[NAME_MAX + 1];
	int r = -ENOENT;

	for (const char *c = m->controllers; c && *c && r == -ENOENT;) {
		const char *e = strchr(c, ',');
		size_t l = e ? (size_t)(e - c) : strlen(c);

		if (l >= sizeof(name))
			return -ENAMETOOLONG;
		memcpy(name, c, l);
		name[l] = '\0';
		r = cgctl_parse_proc_cgroup(buf, len, name, ret, NULL);
		c = e ? e + 1 : NULL;
	}
	return r;
}

/* "/proc/PID/cgroup" (PID 0: "/proc/self/cgroup") into @buf of 64 bytes, without printf. */
static void proc_cgroup_path(pid_t pid, char *buf)
{
	size_t len = sizeof("/proc/") - 1;

	memcpy(buf, "/proc/", len);
	if (!pid) {
		memcpy(buf + len, "self", 4);
		len += 4;
	} else {
		len += fmt_u64(buf + len, (unsigned int)pid);
	}
	memcpy(buf + len, "/cgroup", sizeof("/cgroup"));
}

/* Called once per PID by `cgctl move` (its "from"): no allocation but the result. */
CGCTL_EXPORT int cgctl_pid_cgroup(struct cgctl_ctx *ctx, pid_t pid,
				  const struct cgctl_mount *m, char **ret)
{
	_cleanup_(freep) char *big = NULL;
	char path[64], small[2048], *buf = small;
	ssize_t k;
	size_t len;
	int r;

	if (pid < 0)
		return -ESRCH;
	proc_cgroup_path(pid, path);
	k = read_proc_small(ctx, path, small, sizeof(small));
	if (k == -E2BIG) {
		r = cgctl_read_sys(ctx, path, &big, &len);
		k = r < 0 ? r : (ssize_t)len;
		buf = big;
	}
	if (k < 0)
		return k == -ENOENT ? -ESRCH : (int)k;
	len = (size_t)k;
	if (m->version == 2)
		return cgctl_parse_proc_cgroup(buf, len, NULL, ret, NULL);
	return pid_cgroup_v1(buf, len, m, ret);
}

CGCTL_EXPORT int cgctl_cg_ino(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			      const char *path, uint64_t *ino)
{
	struct stat st;
	int fd = cgctl_cg_open(ctx, m, path);
	int r = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else
		*ino = (uint64_t)st.st_ino;
	close(fd);
	return r;
}
