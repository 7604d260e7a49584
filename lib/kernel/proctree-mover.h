/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The state of one cgctl_move_tree() call, shared by proctree.c (passes, events) and
 * proctree-guard.c (the connector probe, stopping the tree, the final verification).
 */
#ifndef CGCTL_KERNEL_PROCTREE_MOVER_H
#define CGCTL_KERNEL_PROCTREE_MOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"
#include "kernel/proctree.h"

enum { MODE_ATTACH, MODE_CHECK, MODE_WALK };

struct qitem {
	pid_t pid;
	uint8_t mode;
};

/* a process we stopped with CGCTL_MOVE_TREE_FREEZE, continued at the end */
struct stopped {
	pid_t pid;
	int pidfd;		/* -1: signal by PID (pidfd_open() unavailable) */
};

struct mover {
	struct cgctl_ctx *ctx;
	const struct cgctl_move_target *targets;
	size_t n_targets;
	char **tpaths;			/* normalized target paths */
	int *tfds;			/* their cgroup.procs, opened at the first write */
	const struct cgctl_move_tree_opts *opts;
	struct cgctl_move_tree_result *res;
	struct cgctl_error *e;
	struct cgctl_procev_sock *ev;
	struct cgctl_pidset set;
	struct cgctl_proc_snap snap;
	struct qitem *q;
	size_t q_head, q_len, q_cap;
	uint32_t drains;		/* complete drains so far */
	uint32_t pass;
	size_t pass_moved;		/* processes that needed a move in this pass */
	bool pass_overrun;
	pid_t self;			/* our tgid: the probe thread's fork event */
	bool probe_seen;
	struct stopped *stopped;	/* CGCTL_MOVE_TREE_FREEZE */
	size_t n_stopped, cap_stopped;
	int verify_err;			/* first failed re-move of the final pass */
	bool no_walk;			/* settling: follow events, not the snapshot */
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC: the passes' timeout */
	/* the cgroups the roots were in, per target (not the target itself): the final
	 * pass looks there for members a /proc snapshot missed */
	struct src_cg {
		size_t target;
		char *path;
	} *srcs;
	size_t n_srcs;
};

/* proctree.c */
/* Read everything queued on the connector.  Returns: 0, -errno. */
int cgctl_mover_drain(struct mover *mv);
/* Move @pid into every target (or the caller's attach()).  Returns: 0, -ESRCH, -errno. */
int cgctl_mover_attach(struct mover *mv, pid_t pid);
/* Queue @pid for cgctl_mover_run_queue() with MODE_*.  Returns: 0, -ENOMEM. */
int cgctl_mover_push(struct mover *mv, pid_t pid, uint8_t mode);
/* Move what is queued, following the fork events of what it moves (and, unless
 * @mv->no_walk, the snapshot's children).  Returns: 0, -errno. */
int cgctl_mover_run_queue(struct mover *mv);

/* proctree-guard.c */
/* Prove the connector delivers: a thread of ours is created and joined, and its fork
 * event must arrive.  Returns: 1 seen, 0 not within the timeout, -errno. */
int cgctl_mover_probe(struct mover *mv);
/* CGCTL_MOVE_TREE_FREEZE: SIGSTOP every member until a walk finds no new one.
 * Returns: 0, -errno. */
int cgctl_mover_stop_tree(struct mover *mv, const pid_t *tg, size_t n);
/* SIGCONT what cgctl_mover_stop_tree() stopped (every path, errors too). */
void cgctl_mover_cont_tree(struct mover *mv);
/* Remember the cgroups of the roots @tg[0..@n) in each target hierarchy.  Returns: 0,
 * -ENOMEM (a root that is gone is skipped). */
int cgctl_mover_sources(struct mover *mv, const pid_t *tg, size_t n);
/* The live members in the roots' source cgroups (parents leading to a root now), which
 * a snapshot can miss.  Returns: their count and *@ret (free()), -errno. */
ssize_t cgctl_mover_in_sources(struct mover *mv, const pid_t *tg, size_t n,
			       struct cgctl_proc_pair **ret);
/* Settle: read the roots' source cgroups again and again, moving every live member
 * listed there and, by fork events, the children it forked meanwhile, until a read
 * finds none or @mv->deadline_ns passes.  Returns: 1 settled, 0 not (yet), -errno. */
int cgctl_mover_settle(struct mover *mv, const pid_t *tg, size_t n);
/* The final pass: every live member of the trees in every target, stragglers and splits
 * repaired, re-checked.  Returns: 0, -EBUSY (stragglers listed in the result), -errno. */
int cgctl_mover_verify(struct mover *mv, const pid_t *tg, size_t n);

#endif
