/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one executor of settings (lib/predict/plan.c): a plan of writes (add, check,
 * apply, roll back) under the cgroup lock of every cgroup it writes.  struct cgctl_plan
 * (lib/predict/plan-object.c) holds the items; its planners (settings-apply.c for the
 * typed bandwidth and memory items, settings-set.c for raw writes) turn them into the
 * steps of one struct plan, which plan_run() writes.  Not installed.
 */
#ifndef CGCTL_PREDICT_PLAN_H
#define CGCTL_PREDICT_PLAN_H

#include "libcgctl.h"
#include "predict/settings-internal.h"

#define PLAN_LOCKS CGCTL_SET_MAX
#define PLAN_STEPS (2 * CGCTL_SET_MAX)
#define PLAN_OLD_MAX 256

/* One write of a plan, in plan order. */
struct plan_step {
	const struct cgctl_mount *m;
	const char *path, *file;
	const char *value;		/* what is written (an item's value or @buf) */
	char buf[48];
	char old[PLAN_OLD_MAX];		/* what the file held before this step */
	bool has_old;			/* false: irreversible, nothing to restore */
	unsigned int flags;		/* CGCTL_PLAN_STEP_* */
	size_t item;			/* the item it comes from */
};

struct plan {
	struct cgctl_ctx *ctx;
	const struct predict_writer *wr;	/* NULL: cgctl_cg_write() */
	struct plan_step *s;			/* the caller's steps */
	int n, max;
	int failed;				/* the step that failed, or -1 */
	bool rolled_back;
	bool name_only;		/* messages name the file without its value (bw) */
	const char *restored;	/* "the previous setting was restored" */
	const char *undo_failed;	/* "restoring the previous setting failed too" */
	const char *const *also;	/* more files of the first cgroup a failed undo
					 * names with what they hold (NULL-terminated) */
	const struct cgctl_mount *lm[PLAN_LOCKS];
	const char *lp[PLAN_LOCKS];
	size_t nl, locked;
};

void plan_init(struct plan *p, struct cgctl_ctx *ctx, const struct predict_writer *wr,
	       struct plan_step *steps, int max);
/* Take the cgroup lock (cgctl_cgroup_lock()) of @path in @m, at most PLAN_LOCKS
 * cgroups, each once.  Returns: 0, -errno with the cgroup named in @e. */
int plan_lock(struct plan *p, const struct cgctl_mount *m, const char *path,
	      struct cgctl_error *e);
/* Drop the locks plan_lock() took. */
void plan_unlock(struct plan *p);
/* Append a write of @value (kept by the caller; NULL: the step's buf, to fill) to @file
 * of @path; @old is what the file holds before it (NULL: irreversible).
 * Returns: the step, or NULL when full. */
struct plan_step *plan_add(struct plan *p, const struct cgctl_mount *m, const char *path,
			   const char *file, const char *value, const char *old, size_t item);
/* What @file of @path holds, trailing newlines cut, as a value it takes back, into
 * @buf.  Returns: 0, -EFBIG (too long or several lines), -errno of the read. */
int plan_read_old(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		  const char *file, char *buf, size_t len);
/* Run the steps (signals blocked when the context says so and there are two or more);
 * a failed write undoes the earlier ones newest first.  Returns: the number of steps,
 * or the failed write's -errno with @e naming it (and what the files hold when the
 * undo failed too). */
int plan_run(struct plan *p, struct cgctl_error *e);

/* ---- the planners: append an item's steps to @p (under its cgroup's lock) ---- */

/* @path of the cpu hierarchy @m to @want, checked against the whole tree.
 * Returns: the number of steps, -errno with @e (nothing written). */
int predict_bw_plan(struct plan *p, const struct cgctl_mount *m, const char *path,
		    const struct cgctl_bw_settings *want, size_t item, struct cgctl_error *e);
/* The knobs @which (CGCTL_MEMSET_*) of @want to @path of the memory hierarchy @m.
 * Returns: the number of steps, -errno with @e. */
int predict_mem_plan(struct plan *p, const struct cgctl_mount *m, const char *path,
		     const struct cgctl_mem_settings *want, unsigned int which, size_t item,
		     struct cgctl_error *e);

/* One raw write of a plan (`cgctl set`). */
struct set_item {
	const struct cgctl_mount *m;
	const char *path;		/* normalised cgroup path in @m */
	const char *file;		/* "memory.max" */
	const char *value;		/* as written, without newline */
	size_t item;			/* its index among the plan's items */
};
/* The raw writes @items (1..CGCTL_SET_MAX) as one phase-ordered group of steps.
 * Returns: 0, -errno with @e and the item refused in *@refused. */
int predict_set_plan(struct plan *p, const struct set_item *items, size_t n,
		     size_t *refused, struct cgctl_error *e);

#endif
