/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lib/predict settings: what the planners share with their unit tests (not installed). */
#ifndef CGCTL_PREDICT_SETTINGS_INTERNAL_H
#define CGCTL_PREDICT_SETTINGS_INTERNAL_H

#include "libcgctl.h"

/* How a plan's files are written: cgctl_cg_write() unless a test injects faults. */
struct predict_writer {
	int (*write)(void *arg, struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		     const char *path, const char *file, const char *value);
	void *arg;
};

/* The plan @p writes through @wr (NULL: cgctl_cg_write()) from now on. */
void predict_plan_set_writer(struct cgctl_plan *p, const struct predict_writer *wr);
struct plan;
/*
 * The writes that take @path of the cpu hierarchy @m from @old to @want, checked against
 * the tree (predict_bw_tree()) and appended to @p (from @item).
 * Returns: the number of writes, -errno with @e.
 */
int predict_bw_steps(struct plan *p, const struct cgctl_mount *m, const char *path,
		     const struct cgctl_bw_settings *old, const struct cgctl_bw_settings *want,
		     size_t item, struct cgctl_error *e);
/*
 * cgctl_bw_tree_read() for a write to @target: a cgroup neither an ancestor nor a
 * descendant of @target whose setting cannot be read is left out (no rule of a write to
 * @target involves it); one that is, is named with its file in @e.
 * Returns: 0 (the target found), -errno with @e.
 */
int predict_bw_tree(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *target,
		    struct cgctl_bw_tree *ret, struct cgctl_error *e);
/* Returns: the field of CGCTL_MEMSET_* limit @bit in @s, or NULL. */
uint64_t *predict_mem_field(struct cgctl_mem_settings *s, unsigned int bit);
/* The memory knobs @which of @want against @old (version, the era of @kver, memory <=
 * memsw).  Returns: 0, -EINVAL, -EOPNOTSUPP with @e. */
int predict_mem_check(const struct cgctl_mem_settings *old,
		      const struct cgctl_mem_settings *want, unsigned int which, int version,
		      uint32_t kver, struct cgctl_error *e);

#endif
