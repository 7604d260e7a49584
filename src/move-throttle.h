/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl move`: the CPU throttling predicted at the destination once the tasks join. */
#ifndef CGCTL_MOVE_THROTTLE_H
#define CGCTL_MOVE_THROTTLE_H

#include "cgctl.h"

/* move_throttle_limits: the bandwidth settings of @dest and of its limited ancestors in
 * the cpu hierarchy @m into *@mt (cgctl_move_throttle_free()).  Returns: exit status
 * (an error line printed). */
int move_throttle_limits(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 struct cgctl_move_throttle **mt);
/* Returns: true when a finite quota limits @mt's destination. */
bool move_throttle_limited(const struct cgctl_move_throttle *mt);
/*
 * move_throttle_sample: after move_throttle_limits() found a limit, record for
 * @sample_ns the threads of @pids (thread groups) and the tasks already in @dest (and
 * below it), and predict the throttling before and after the move
 * (cgctl_move_throttle_predict; a warning when only CPU-time deltas could be had).
 * Returns: exit status (an error line printed).
 */
int move_throttle_sample(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 const pid_t *pids, size_t n, uint64_t sample_ns,
			 struct cgctl_move_throttle *mt);
/* The "throttling" object of the move output; @mt NULL: nothing looked at (null; in TSV
 * the same columns as ever, all "-"; nothing in the human output). */
void move_throttle_emit(struct cli *cli, const struct cgctl_move_throttle *mt);

#endif
