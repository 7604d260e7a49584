/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside the move throttling prediction (lib/predict/move-throttle*.c). */
#ifndef CGCTL_PREDICT_MOVE_THROTTLE_INTERNAL_H
#define CGCTL_PREDICT_MOVE_THROTTLE_INTERNAL_H

#include "libcgctl.h"

/* Returns: the simulated time of @mt's prediction. */
uint64_t mt_run_ns(const struct cgctl_move_throttle *mt);
/* A simulator with @mt's limited levels; *group is the destination's.
 * Returns: 0, -EINVAL, -ENOMEM. */
int mt_sim_new(const struct cgctl_move_throttle *mt, uint32_t kver, uint64_t run_ns,
	       struct cgctl_bw_sim **sim, int *group);
/* Sort @v and drop duplicates. */
void mt_tids_sort(pid_t *v, size_t *n);
/* Every task of @path and below it appended to *v.  Returns: 0, -errno. */
int mt_tasks_below(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   pid_t **v, size_t *n, int depth);
/*
 * mt_by_cputime: the fallback where recording is refused: the CPU time each thread of
 * @pids (thread groups) and @in (sorted TIDs) used over @sample_ns, each replayed as a
 * periodic worker of that demand.  Returns: 0, -ENOMEM.
 */
int mt_by_cputime(struct cgctl_ctx *ctx, const pid_t *pids, size_t n, const pid_t *in,
		  size_t nin, uint64_t sample_ns, uint32_t kver,
		  struct cgctl_move_throttle *mt);

#endif
