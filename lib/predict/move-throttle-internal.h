/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside the move throttling prediction (lib/predict/move-throttle*.c). */
#ifndef CGCTL_PREDICT_MOVE_THROTTLE_INTERNAL_H
#define CGCTL_PREDICT_MOVE_THROTTLE_INTERNAL_H

#include "libcgctl.h"

/* Returns: the simulated time of @mt's prediction. */
uint64_t mt_run_ns(const struct cgctl_move_throttle *mt);
/* @mt's levels and simulated time in a replay spec (the demand left empty). */
void mt_spec(const struct cgctl_move_throttle *mt, uint32_t kver,
	     struct cgctl_bw_replay_spec *sp);
/* Replay @t, recorded for @rec_ns, repeated back to back over the simulated time, under
 * @mt's levels: the cpu.stat of one side.  Returns: 0, -EINVAL, -ENOMEM. */
int mt_replay_trace(const struct cgctl_move_throttle *mt, uint32_t kver,
		    const struct cgctl_bw_trace *t, uint64_t rec_ns,
		    struct cgctl_move_throttle_side *side);
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
