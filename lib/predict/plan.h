/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one executor of settings (lib/predict/plan.c): a plan of writes (add, check,
 * apply, roll back) under the cgroup lock of every cgroup it writes.  cgctl_bw_apply(),
 * cgctl_mem_apply() and cgctl_set_apply() only build plans for it.  Not installed.
 *
 * A backend that writes a cgroup another way (the systemd backend: one D-Bus call with
 * every property of a unit) plugs in as @backend: plan_run() hands it, once per cgroup
 * and before any write of that cgroup, the list of the plan's (file, value) steps of
 * that cgroup, in plan order.  It returns 1 when it applied them all (the executor then
 * writes none of them and cannot undo them: the backend's own transaction is the
 * rollback), 0 to let the executor write them to cgroupfs, or -errno to fail the plan
 * before that cgroup's first write (earlier cgroups are rolled back).
 */
#ifndef CGCTL_PREDICT_PLAN_H
#define CGCTL_PREDICT_PLAN_H

#include "libcgctl.h"
#include "predict/settings-internal.h"

#define PLAN_LOCKS CGCTL_SET_MAX

struct plan_backend {
	int (*apply)(void *arg, struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		     const char *path, const struct cgctl_set_step *const *steps, size_t n);
	void *arg;
};

struct plan {
	struct cgctl_ctx *ctx;
	const struct predict_writer *wr;	/* NULL: cgctl_cg_write() */
	const struct plan_backend *backend;	/* NULL: none */
	struct cgctl_set_step *s;		/* the caller's steps */
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
	       struct cgctl_set_step *steps, int max);
/* Take the cgroup lock (cgctl_cgroup_lock()) of @path in @m, at most PLAN_LOCKS
 * cgroups, each once.  Returns: 0, -errno with the cgroup named in @e. */
int plan_lock(struct plan *p, const struct cgctl_mount *m, const char *path,
	      struct cgctl_error *e);
/* Drop the locks plan_lock() took. */
void plan_unlock(struct plan *p);
/* Append a write of @value (kept by the caller) to @file of @path; @old is what the file
 * holds before it (NULL: irreversible).  Returns: the step, or NULL when full. */
struct cgctl_set_step *plan_add(struct plan *p, const struct cgctl_mount *m,
				const char *path, const char *file, const char *value,
				const char *old, size_t item);
/* What @file of @path holds, trailing newlines cut, as a value it takes back, into
 * @buf.  Returns: 0, -EFBIG (too long or several lines), -errno of the read. */
int plan_read_old(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		  const char *file, char *buf, size_t len);
/* Run the steps (signals blocked when the context says so and there are two or more);
 * a failed write undoes the earlier ones newest first.  Returns: the number of steps,
 * or the failed write's -errno with @e naming it (and what the files hold when the
 * undo failed too). */
int plan_run(struct plan *p, struct cgctl_error *e);
/* Unless @r (the planning's result) is an error, plan_run(); then the outcome into
 * *@failed and *@rolled_back, and the locks dropped.  Returns: as plan_run(), or @r. */
int plan_finish(struct plan *p, int r, int *failed, bool *rolled_back,
		struct cgctl_error *e);

#endif
