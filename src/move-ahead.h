/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl move of many PIDs without a plan: each task's current memory cgroup ("from")
 * read one step ahead on another CPU while the main thread writes the PIDs.
 */
#ifndef CGCTL_MOVE_AHEAD_H
#define CGCTL_MOVE_AHEAD_H

#include <stddef.h>
#include <sys/types.h>

#include "libcgctl.h"

struct move_ahead;

/* Start reading /proc/PID/cgroup of @pids[0..@n) in order (@pids must outlive the
 * reader).  Returns: 0, -errno (then read them yourself). */
int move_ahead_start(struct move_ahead **ret, struct cgctl_ctx *ctx,
		     const struct cgctl_mount *m, const pid_t *pids, size_t n);
/* Wait for @i (taken in increasing order) and lend its cgroup path (the PIDs of one
 * cgroup share one copy): valid until move_ahead_stop(), not to be freed.
 * Returns: 0, -errno as cgctl_pid_cgroup(). */
int move_ahead_get(struct move_ahead *a, size_t i, char **from);
/* Join the reader and free what was not taken. */
void move_ahead_stop(struct move_ahead *a);

#endif
