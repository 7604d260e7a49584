/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lib/predict settings: what the executors share with their unit tests (not installed). */
#ifndef CGCTL_PREDICT_SETTINGS_INTERNAL_H
#define CGCTL_PREDICT_SETTINGS_INTERNAL_H

#include "libcgctl.h"

/* How a plan's files are written: cgctl_cg_write() unless a test injects faults. */
struct predict_writer {
	int (*write)(void *arg, struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		     const char *path, const char *file, const char *value);
	void *arg;
};

/* cgctl_bw_apply()/cgctl_mem_apply() writing through @wr (NULL: cgctl_cg_write). */
int predict_bw_apply_with(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			  const char *path, const struct cgctl_bw_settings *want,
			  struct cgctl_bw_applied *res, struct cgctl_error *e,
			  const struct predict_writer *wr);
int predict_mem_apply_with(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *path, const struct cgctl_mem_settings *want,
			   unsigned int which, struct cgctl_mem_applied *res,
			   struct cgctl_error *e, const struct predict_writer *wr);
int predict_set_apply_with(struct cgctl_ctx *ctx, const struct cgctl_set_item *items,
			   size_t n, struct cgctl_set_applied *res, struct cgctl_error *e,
			   const struct predict_writer *wr);
/*
 * After a failed write of @file that held @old: does it still hold @old?  A write can
 * fail after the kernel took it (a short write(2) count: cgroupfs applies the value at
 * once, kernfs_fop_write_iter() passes the whole buffer to the file's handler), so the
 * undo must restore this file too unless it reads back as before.  Returns: true when
 * it reads back as @old (trailing newlines and spaces aside), false otherwise or when
 * it cannot be read.
 */
bool predict_unchanged(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		       const char *file, const char *old);
/* Returns: the interface file of CGCTL_MEMSET_* @bit for cgroup @version, or NULL. */
const char *predict_mem_file(unsigned int bit, int version);

#endif
