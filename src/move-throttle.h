/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl move`: the CPU throttling predicted at the destination once the tasks join. */
#ifndef CGCTL_MOVE_THROTTLE_H
#define CGCTL_MOVE_THROTTLE_H

#include <limits.h>

#include "cgctl.h"

#define MOVE_THROTTLE_LEVELS	32	/* limited groups above the destination, at most */

/* The destination's group with one set of tasks: what they asked for, and what the
 * bandwidth engine predicts the group's cpu.stat will say. */
struct move_throttle_side {
	unsigned int threads;		/* threads that used any CPU in the sample */
	double demand_cpus;		/* their CPU time / the sample's wall time */
	struct cgctl_bw_stat st;	/* predicted over run_ns */
	uint64_t run_ns;		/* simulated wall time */
};

struct move_throttle {
	bool limited;			/* a finite quota at the destination or above */
	char path[PATH_MAX];		/* the destination in the cpu hierarchy */
	struct cgctl_bw_settings bw;	/* the destination's own setting */
	char limit_path[PATH_MAX];	/* the group whose quota allows the fewest CPUs */
	double limit_cpus;		/* that quota / period */
	unsigned int ncpus, levels;	/* CPUs; limited groups simulated (the destination
					 * counts always) */
	struct cgctl_bw_settings lv[MOVE_THROTTLE_LEVELS];	/* those groups, top down */
	uint64_t sample_ns;		/* sampling window actually measured */
	struct move_throttle_side before, after;
};

/* move_throttle_limits: the bandwidth settings of @dest and of its limited ancestors in
 * the cpu hierarchy @m (mt->limited: a finite quota among them).  Returns: exit status
 * (an error line printed). */
int move_throttle_limits(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 struct move_throttle *mt);
/*
 * move_throttle_sample: after move_throttle_limits() found a limit, sample for
 * @sample_ns the CPU time of every thread of @pids (thread groups) and of the tasks
 * already in @dest (and below it), then predict the throttling before and after the
 * move with the bandwidth engine.  Returns: exit status (an error line printed).
 */
int move_throttle_sample(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 const pid_t *pids, size_t n, uint64_t sample_ns,
			 struct move_throttle *mt);
/* The "throttling" object of the move output. */
void move_throttle_emit(struct cli *cli, const struct move_throttle *mt);

#endif
