/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl move`: the engine's plan for one task, built from the kernel's counters. */
#ifndef CGCTL_MOVE_PLAN_H
#define CGCTL_MOVE_PLAN_H

#include "mem-util.h"

/* A model of the memory cgroups a move touches, seeded from the kernel's counters. */
struct move_model {
	struct cgctl_memcg_tree *tree;
	uint32_t kver;
	unsigned int ncpu;
	size_t n;
	char **paths;		/* id -> cgroup path */
};

/* What one task's move is expected to do. */
struct move_expect {
	bool have;		/* a plan was made */
	const char *why_none;	/* when !have: the reason (static) */
	struct cgctl_move_plan plan;
	uint64_t resident_pages;	/* all resident pages of the task */
	uint64_t headroom_pages;	/* room below the destination's limits */
	bool headroom_known;
};

int move_model_init(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm);
void move_model_free(struct move_model *mm);
/* Plan moving @pid from @from to @to on the model (applied, so PIDs accumulate).
 * Returns: 0 (see e->have), or -ESRCH when the task vanished. */
int move_expect(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm,
		pid_t pid, const char *from, const char *to, struct move_expect *e);
/* The same for the tasks of a process tree moved together (@pids[0] its root, in
 * @from): their pages' union, each page once.  Returns: 0, or -ESRCH (root gone). */
int move_expect_tasks(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm,
		      const pid_t *pids, size_t n, const char *from, const char *to,
		      struct move_expect *e);
/* Stock bound (bytes) of @path's subtree: the tolerance of an observed delta. */
uint64_t move_tolerance(struct cli *cli, const struct cgctl_mount *m,
			const struct move_model *mm, const char *path);

#endif
