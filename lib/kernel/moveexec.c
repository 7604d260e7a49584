/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Executing a move: what kind of task a PID is (kernel threads and zombies cannot move),
 * the process tree of a PID as cgctl_move_tree() walks it, the members of a tree in
 * another memory cgroup, and a destination whose cgroup.procs stays open across the
 * attaches of many PIDs (one write(2) per PID: what makes 10,000 PIDs fast).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"
#include "kernel/proctree.h"

CGCTL_EXPORT int cgctl_move_task_kind(struct cgctl_ctx *ctx, pid_t pid)
{
	struct cgctl_proc_stat st;
	int r;

	if (!ctx || pid <= 0)
		return -EINVAL;
	r = cgctl_proc_stat_read(ctx, pid, &st);
	if (r == -ESRCH || r == -ENOENT)
		return CGCTL_TASK_GONE;
	if (r < 0)
		return r;
	if (st.flags & CGCTL_PF_KTHREAD)
		return CGCTL_TASK_KTHREAD;
	if (st.state == 'Z' || st.state == 'X')
		return CGCTL_TASK_ZOMBIE;
	return CGCTL_TASK_MOVABLE;
}

static int push(pid_t **v, size_t *n, size_t *cap, pid_t pid)
{
	if (*n == *cap) {
		pid_t *nv = realloc(*v, 2 * *cap * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap *= 2;
	}
	(*v)[(*n)++] = pid;
	return 0;
}

CGCTL_EXPORT int cgctl_move_tree_members(struct cgctl_ctx *ctx, pid_t pid, pid_t **ret,
					 size_t *n)
{
	struct cgctl_proc_snap snap = { 0 };
	char path[40], *buf = NULL;
	size_t len, head = 0, cap = 64;
	pid_t root = pid, *v;
	ssize_t r;

	if (!ctx || pid <= 0 || !ret || !n)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	r = cgctl_read_sys(ctx, path, &buf, &len);
	if (r == 0)
		r = cgctl_proctree_parse_tgid(buf, len, &root);
	free(buf);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : (int)r;
	r = cgctl_proc_snap_take(ctx, &snap);
	if (r < 0)
		return (int)r;
	v = malloc(cap * sizeof(*v));
	if (!v) {
		cgctl_proc_snap_free(&snap);
		return -ENOMEM;
	}
	*n = 0;
	v[(*n)++] = root;
	while (head < *n && r >= 0) {
		size_t first, k = cgctl_proc_snap_children(&snap, v[head++], &first);

		for (size_t j = 0; j < k && r >= 0; j++)
			r = push(&v, n, &cap, snap.v[first + j].pid);
	}
	cgctl_proc_snap_free(&snap);
	if (r < 0) {
		free(v);
		return (int)r;
	}
	*ret = v;
	return 0;
}

CGCTL_EXPORT size_t cgctl_move_tree_elsewhere(struct cgctl_ctx *ctx,
					      const struct cgctl_mount *m, const pid_t *pids,
					      size_t n, const char *from)
{
	size_t count = 0;

	if (!ctx || !m || !pids || !from)
		return 0;
	for (size_t i = 1; i < n; i++) {
		struct cgctl_proc_stat st;
		char *cg = NULL;

		if (cgctl_proc_stat_read(ctx, pids[i], &st) < 0 || cgctl_proc_stat_exiting(&st))
			continue;
		if (cgctl_pid_cgroup(ctx, pids[i], m, &cg) == 0 && strcmp(cg, from))
			count++;
		free(cg);
	}
	return count;
}

struct cgctl_move_dest {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	char *path;
	int dir_fd;		/* the cgroup, opened when it was looked up */
	int procs_fd;		/* its cgroup.procs, opened at the first attach */
};

int cgctl_move_dest_open(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			 const char *path, struct cgctl_move_dest **ret)
{
	struct cgctl_move_dest *d;
	int fd;

	if (!ctx || !m || !path || !ret)
		return -EINVAL;
	fd = cgctl_cg_open(ctx, m, path);
	if (fd < 0)
		return fd;
	d = calloc(1, sizeof(*d));
	if (d)
		d->path = strdup(path);
	if (!d || !d->path) {
		free(d);
		close(fd);
		return -ENOMEM;
	}
	d->ctx = ctx;
	d->m = m;
	d->dir_fd = fd;
	d->procs_fd = -1;
	*ret = d;
	return 0;
}

/* "PID\n" into @buf (at least 21 bytes), without printf.  Returns: its length. */
static size_t pid_line(pid_t pid, char *buf)
{
	char tmp[20];
	size_t k = 0, len = 0;
	unsigned int v = (unsigned int)pid;

	do
		tmp[k++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (k)
		buf[len++] = tmp[--k];
	buf[len++] = '\n';
	return len;
}

/*
 * On the live system cgroup.procs stays open for all PIDs; EINVAL (a task still being
 * forked) goes through cgctl_cg_attach(), which retries.  Below a root prefix (fixtures)
 * always cgctl_cg_attach(): it also checks that the PID exists there.
 */
int cgctl_move_dest_attach(struct cgctl_move_dest *d, pid_t pid)
{
	char line[24];
	size_t len;
	int r;

	if (!d || pid <= 0)
		return -EINVAL;
	if (cgctl_get_root(d->ctx)[0])
		return cgctl_cg_attach(d->ctx, d->m, d->path, pid);
	if (d->procs_fd < 0) {
		/* cgfs.c's checks: a bind mount over cgroup.procs is refused */
		d->procs_fd = cgctl_cg_open_in(d->dir_fd, "cgroup.procs", O_WRONLY);
		if (d->procs_fd < 0) {
			r = d->procs_fd;
			d->procs_fd = -1;
			return r;
		}
	}
	len = pid_line(pid, line);
	r = write(d->procs_fd, line, len) < 0 ? -errno : 0;
	if (r == -EINVAL)
		r = cgctl_cg_attach(d->ctx, d->m, d->path, pid);
	return r;
}

void cgctl_move_dest_close(struct cgctl_move_dest *d)
{
	if (!d)
		return;
	if (d->procs_fd >= 0)
		close(d->procs_fd);
	close(d->dir_fd);
	free(d->path);
	free(d);
}
