/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgctl_move_pids() (movebatch.c) and its "from" reader (movefrom.c). */
#ifndef CGCTL_KERNEL_MOVEBATCH_H
#define CGCTL_KERNEL_MOVEBATCH_H

#include <stddef.h>
#include <sys/types.h>

#include "libcgctl.h"

struct from_slot {
	pid_t pid;
	size_t i;		/* its index in the list */
};

struct move_from {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	struct cgctl_move_pid *v;
	size_t n;
	struct from_slot *sorted;	/* NULL: no (more) thread lists, /proc per PID */
	size_t list_reads, list_hits;
};

/* Start reading the "from" of @v[0..@n) in @m.  Returns: nothing (no index without
 * memory: every PID then reads /proc). */
void from_start(struct move_from *f, struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		struct cgctl_move_pid *v, size_t n);
/* Fill @f->v[@i].from, in list order.  Returns: 0, -ESRCH (gone), -errno. */
int from_get(struct move_from *f, size_t i);
/* Free the index.  Returns: nothing. */
void from_end(struct move_from *f);

#endif
