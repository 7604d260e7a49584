/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "from" read ahead: reading /proc/PID/cgroup costs the kernel about as much as the
 * write to cgroup.procs that follows (measured: 10,000 PIDs, 120-145 ms of reads beside
 * 90-116 ms of writes), and the two do not share a lock, so a second thread reads the
 * next tasks while the main thread moves the current one.  The main thread never
 * writes a PID before its "from" is read: it waits for it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "move-ahead.h"

struct move_ahead {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	const pid_t *pids;
	size_t n;
	char **from;
	int *err;
	size_t ready;		/* [0, ready) are read (release/acquire) */
	pthread_t th;
};

static void *reader(void *arg)
{
	struct move_ahead *a = arg;

	for (size_t i = 0; i < a->n; i++) {
		a->err[i] = cgctl_pid_cgroup(a->ctx, a->pids[i], a->m, &a->from[i]);
		__atomic_store_n(&a->ready, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

int move_ahead_start(struct move_ahead **ret, struct cgctl_ctx *ctx,
		     const struct cgctl_mount *m, const pid_t *pids, size_t n)
{
	struct move_ahead *a = calloc(1, sizeof(*a));
	int r;

	if (!a)
		return -ENOMEM;
	a->ctx = ctx;
	a->m = m;
	a->pids = pids;
	a->n = n;
	a->from = calloc(n, sizeof(*a->from));
	a->err = calloc(n, sizeof(*a->err));
	r = a->from && a->err ? -pthread_create(&a->th, NULL, reader, a) : -ENOMEM;
	if (r < 0) {
		free(a->from);
		free(a->err);
		free(a);
		return r;
	}
	*ret = a;
	return 0;
}

int move_ahead_get(struct move_ahead *a, size_t i, char **from)
{
	while (__atomic_load_n(&a->ready, __ATOMIC_ACQUIRE) <= i)
		sched_yield();
	*from = a->from[i];
	a->from[i] = NULL;
	return a->err[i];
}

void move_ahead_stop(struct move_ahead *a)
{
	if (!a)
		return;
	pthread_join(a->th, NULL);
	for (size_t i = 0; i < a->n; i++)
		free(a->from[i]);
	free(a->from);
	free(a->err);
	free(a);
}
