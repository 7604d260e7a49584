// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cgroup lock of every settings writer (issue 33): flock(LOCK_EX) on the cgroup's
 * own directory, the same kind of lock as cgctl_move_lock() takes on a hierarchy's root
 * (lib/kernel/attach.c).  flock(2) needs nothing of the filesystem (the VFS keeps it on
 * the inode), any caller that may read the cgroup can take it, and the kernel drops it
 * when the holder dies, SIGKILL included.  A writer holds it from its read of the
 * current state to the end of its rollback, so two writers of one cgroup never plan
 * from a state the other is changing.  Locks from different open file descriptions
 * conflict even within one process, so a context counts the locks it holds: taking one
 * again through the same context nests.  Also the signal flag of the writers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "ctx.h"
#include "kernel/cglock.h"

int cgctl_flock_wait(int fd, unsigned int wait_ms)
{
	struct timespec ts = { 0, 1000 * 1000 };
	unsigned int waited_ms = 0;

	/* not a blocking flock(): a holder that hangs must not hang us for ever */
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		if (waited_ms >= wait_ms)
			return -EBUSY;
		nanosleep(&ts, NULL);
		waited_ms++;
	}
	return 0;
}

static struct cg_lock *held(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			    const char *path)
{
	for (size_t i = 0; i < ctx->n_locks; i++)
		if (ctx->locks[i].m == m && !strcmp(ctx->locks[i].path, path))
			return &ctx->locks[i];
	return NULL;
}

CGCTL_EXPORT int cgctl_cgroup_lock(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				   const char *path)
{
	struct cg_lock *l, *v;
	int fd, r;

	if (!ctx || !m || !path)
		return -EINVAL;
	l = held(ctx, m, path);
	if (l) {
		l->depth++;
		return 0;
	}
	v = realloc(ctx->locks, (ctx->n_locks + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	ctx->locks = v;
	fd = cgctl_cg_open(ctx, m, path);
	if (fd < 0)
		return fd;
	r = cgctl_flock_wait(fd, CGCTL_CGROUP_LOCK_WAIT_MS);
	if (r == 0) {
		l = &ctx->locks[ctx->n_locks];
		l->path = strdup(path);
		if (!l->path)
			r = -ENOMEM;
	}
	if (r < 0) {
		close(fd);
		return r;
	}
	l->m = m;
	l->fd = fd;
	l->depth = 1;
	ctx->n_locks++;
	dbg(ctx, "cgroup lock of %s taken", path);
	return 0;
}

CGCTL_EXPORT int cgctl_cgroup_unlock(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				     const char *path)
{
	struct cg_lock *l;

	if (!ctx || !m || !path)
		return -EINVAL;
	l = held(ctx, m, path);
	if (!l)
		return -ENOLCK;
	if (--l->depth)
		return 0;
	close(l->fd);	/* the last close of the description drops the lock */
	free(l->path);
	*l = ctx->locks[--ctx->n_locks];
	return 0;
}

void cgctl_ctx_release_locks(struct cgctl_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n_locks; i++) {
		close(ctx->locks[i].fd);
		free(ctx->locks[i].path);
	}
	free(ctx->locks);
	ctx->locks = NULL;
	ctx->n_locks = 0;
}

CGCTL_EXPORT int cgctl_set_block_signals(struct cgctl_ctx *ctx, bool enable)
{
	if (!ctx)
		return -EINVAL;
	ctx->block_signals = enable;
	return 0;
}

bool cgctl_ctx_blocks_signals(const struct cgctl_ctx *ctx)
{
	return ctx && ctx->block_signals;
}
