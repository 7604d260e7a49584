/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Moving processes (cgroup.procs, one PID per write) and finding a process's cgroup. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"
#include "kernel/cglock.h"
#include "kernel/proctree.h"
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

	if (pid <= 0 || !ctx || !m)
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

	if (!ctx || !m || !ret)
		return -EINVAL;
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
	int fd, r = 0;

	if (!ino)
		return -EINVAL;
	fd = cgctl_cg_open(ctx, m, path);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else
		*ino = (uint64_t)st.st_ino;
	close(fd);
	return r;
}

/* ---- the move lock ---- */

static int mount_cmp(const void *a, const void *b)
{
	const struct cgctl_mount *x = *(const struct cgctl_mount *const *)a;
	const struct cgctl_mount *y = *(const struct cgctl_mount *const *)b;

	return strcmp(x->path, y->path);
}

/*
 * Two movers that take the same hierarchies' locks in different orders could deadlock,
 * so the order is fixed: mount paths sorted.  flock(2) needs nothing of the filesystem
 * (the VFS keeps the lock on the inode), and any caller can open a hierarchy's root
 * read-only, so an unprivileged (delegated) mover takes the same lock as root.
 */
int cgctl_move_lock(struct cgctl_ctx *ctx, const struct cgctl_mount *const *ms, size_t n,
		    int *fds)
{
	const struct cgctl_mount *v[CGCTL_MOVE_LOCK_MAX];
	size_t k = 0, i, j;
	int r = 0;

	for (i = 0; i < n && k < ARRAY_SIZE(v); i++) {
		for (j = 0; j < k && v[j] != ms[i]; j++)
			;
		if (j == k)
			v[k++] = ms[i];
	}
	qsort(v, k, sizeof(*v), mount_cmp);
	for (i = 0; i < ARRAY_SIZE(v); i++)
		fds[i] = -1;
	for (i = 0; i < k && r == 0; i++) {
		fds[i] = cgctl_cg_open(ctx, v[i], "/");
		if (fds[i] < 0) {
			r = fds[i];
			fds[i] = -1;
			break;
		}
		r = cgctl_flock_wait(fds[i], CGCTL_MOVE_LOCK_WAIT_MS);
	}
	if (r < 0)
		cgctl_move_unlock(fds);
	dbg(ctx, "move lock of %zu hierarchies: %s", k, r ? strerror(-r) : "taken");
	return r;
}

void cgctl_move_unlock(int *fds)
{
	for (size_t i = 0; i < CGCTL_MOVE_LOCK_MAX; i++) {
		if (fds[i] >= 0)
			close(fds[i]);	/* the last close of the description drops the lock */
		fds[i] = -1;
	}
}

/* ---- what the kernel would refuse ---- */

/* The real and saved UIDs of @pid (/proc/PID/status "Uid:").  Returns: 0, -ESRCH, -errno. */
static int task_uids(struct cgctl_ctx *ctx, pid_t pid, uid_t *ruid, uid_t *suid)
{
	_cleanup_(freep) char *buf = NULL;
	unsigned long r, e, s;
	char path[48];
	const char *p;
	size_t len;
	int k;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	k = cgctl_read_sys(ctx, path, &buf, &len);
	if (k < 0)
		return k == -ENOENT ? -ESRCH : k;
	p = strstr(buf, "\nUid:");
	if (!p || sscanf(p + 5, "%lu %lu %lu", &r, &e, &s) != 3)
		return -EBADMSG;
	*ruid = (uid_t)r;
	*suid = (uid_t)s;
	return 0;
}

/* The longest common ancestor of two normalized cgroup paths, into @out. */
static void common_ancestor(const char *a, const char *b, char *out, size_t size)
{
	size_t i = 0, last = 0;

	while (a[i] && a[i] == b[i]) {
		if (a[i] == '/')
			last = i;
		i++;
	}
	if ((!a[i] || a[i] == '/') && (!b[i] || b[i] == '/'))
		last = i;	/* one is the other's ancestor (or they are equal) */
	if (last >= size)
		last = size - 1;
	memcpy(out, a, last);
	out[last] = '\0';
	if (!last)
		snprintf(out, size, "/");
}

static int may_write_procs(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *path)
{
	int fd = cgctl_cg_open(ctx, m, path), r;

	if (fd < 0)
		return fd;
	r = faccessat(fd, "cgroup.procs", W_OK, AT_EACCESS) < 0 ? -errno : 0;
	close(fd);
	return r;
}

/*
 * The kernel's permission checks of a cgroup.procs write (6.1 and 6.12 alike): the open
 * needs write access to the file; v1 __cgroup1_procs_write() then wants an euid of root
 * or the task's real or saved UID; v2 cgroup_procs_write_permission() wants write access
 * to cgroup.procs of the common ancestor of source and destination.
 */
int cgctl_attach_permitted(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *to, const char *from, pid_t pid)
{
	uid_t euid = geteuid(), ruid, suid;
	char com[PATH_MAX];
	int r;

	r = may_write_procs(ctx, m, to);
	if (r < 0)
		return r;
	if (m->version == 2) {
		if (!from)
			return 0;
		common_ancestor(from, to, com, sizeof(com));
		return may_write_procs(ctx, m, com);
	}
	if (euid == 0)
		return 0;
	r = task_uids(ctx, pid, &ruid, &suid);
	if (r < 0)
		return r;
	return euid == ruid || euid == suid ? 0 : -EACCES;
}
