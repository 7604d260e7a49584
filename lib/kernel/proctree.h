/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Process trees: a snapshot of (pid, ppid) of every process from /proc/[0-9]*\/stat, and
 * a set of PIDs with per-PID state, used by cgctl_move_tree() (proctree.c).
 *
 * Why /proc/PID/stat and not /proc/PID/task/TID/children: the latter needs
 * CONFIG_PROC_CHILDREN (absent on many kernels, this one included) and is documented as
 * unreliable while the tree changes; stat's ppid is the tgid of the real parent, so a
 * child of any thread is found, and a re-walk plus fork events cover what changes.
 */
#ifndef CGCTL_KERNEL_PROCTREE_H
#define CGCTL_KERNEL_PROCTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

/* ---- parsers (pure, on canned text) ---- */
/* The ppid (field 4) of a /proc/PID/stat line; comm may hold spaces and ')'.
 * Returns: 0, -EBADMSG. */
int cgctl_proctree_parse_ppid(const char *buf, size_t len, pid_t *ppid);
/* The Tgid: line of /proc/PID/status.  Returns: 0, -EBADMSG. */
int cgctl_proctree_parse_tgid(const char *buf, size_t len, pid_t *tgid);

/* ---- /proc/PID/stat: the fields cgctl uses ---- */
#define CGCTL_PF_EXITING	0x00000004u	/* past exit_signals() */
#define CGCTL_PF_KTHREAD	0x00200000u
struct cgctl_proc_stat {
	char comm[64];		/* field 2, without the parentheses (truncated) */
	char state;		/* field 3: R S D T t Z X I ... */
	pid_t ppid;		/* 4 */
	unsigned long long flags;	/* 9: PF_* */
	unsigned long long minflt, majflt;	/* 10, 12 */
	unsigned long long utime, stime;	/* 14, 15: clock ticks */
};
/* Parse the text of /proc/PID/stat (comm may hold blanks and ')').  Returns: 0,
 * -EBADMSG. */
int cgctl_proc_stat_parse(const char *buf, size_t len, struct cgctl_proc_stat *st);
/* Read and parse /proc/@pid/stat (a TID works too).  Returns: 0, -ESRCH (gone),
 * -EBADMSG, -errno. */
int cgctl_proc_stat_read(struct cgctl_ctx *ctx, pid_t pid, struct cgctl_proc_stat *st);
/* A zombie, dead, or past exit_signals(): cgroup migration skips it, and its
 * /proc/PID/cgroup may already read the root (cgroup_exit()). */
static inline bool cgctl_proc_stat_exiting(const struct cgctl_proc_stat *st)
{
	return st->state == 'Z' || st->state == 'X' || (st->flags & CGCTL_PF_EXITING);
}

/* ---- snapshot ---- */
struct cgctl_proc_pair {
	pid_t pid, ppid;
};
struct cgctl_proc_snap {
	struct cgctl_proc_pair *v;	/* sorted by ppid after cgctl_proc_snap_index() */
	size_t n, cap;
};
/* Read every /proc/[0-9]* (processes, not threads).  Returns: count, -errno. */
ssize_t cgctl_proc_snap_take(struct cgctl_ctx *ctx, struct cgctl_proc_snap *s);
int cgctl_proc_snap_add(struct cgctl_proc_snap *s, pid_t pid, pid_t ppid);
/* Sort by ppid so children of a PID are one range. */
void cgctl_proc_snap_index(struct cgctl_proc_snap *s);
/* Children of @ppid: *@first is the index of the first.  Returns: their count. */
size_t cgctl_proc_snap_children(const struct cgctl_proc_snap *s, pid_t ppid, size_t *first);
void cgctl_proc_snap_free(struct cgctl_proc_snap *s);

/* ---- PID set (open addressing, linear probing, tombstones) ---- */
enum {
	PT_QUEUED = 1 << 0,	/* waiting in the work queue */
	PT_ATTACHED = 1 << 1,	/* we moved it (or found it in the destination) */
	PT_SETTLED = 1 << 2,	/* born in the destination (fork after its parent moved) */
	PT_FAILED = 1 << 3,	/* attach failed with something other than ESRCH */
	PT_GONE = 1 << 4,	/* exited */
};
struct cgctl_pident {
	pid_t pid;		/* 0 empty, -1 tombstone */
	uint8_t state;		/* PT_* */
	uint32_t mark;		/* complete event drains when it was attached */
	uint32_t seen;		/* the pass that last visited it */
	pid_t parent;		/* queued by a fork event: the parent, not yet resolved then */
	bool resettle;		/* queued by settling before: listed again, look closer */
};
struct cgctl_pidset {
	struct cgctl_pident *v;
	size_t cap, used, live;	/* used counts tombstones too */
};
/* Returns: the entry of @pid, or NULL. */
struct cgctl_pident *cgctl_pidset_get(struct cgctl_pidset *s, pid_t pid);
/* Returns: the entry of @pid, created zeroed if new (*@created), or NULL on ENOMEM. */
struct cgctl_pident *cgctl_pidset_add(struct cgctl_pidset *s, pid_t pid, bool *created);
void cgctl_pidset_del(struct cgctl_pidset *s, pid_t pid);
void cgctl_pidset_free(struct cgctl_pidset *s);

/* ---- the move lock and the kernel's permission checks (attach.c) ---- */
#define CGCTL_MOVE_LOCK_MAX	16	/* hierarchies a lock covers (fds[] size) */
#define CGCTL_MOVE_LOCK_WAIT_MS	30000	/* then -EBUSY */
/* cgctl_move_lock: flock(LOCK_EX) the root directory of each distinct hierarchy of
 * @ms, in the order of their mount paths, into @fds[CGCTL_MOVE_LOCK_MAX] (-1 unused).
 * Every cgctl move takes it around its writes, so two moves of one task cannot
 * interleave their hierarchies.  Returns: 0, -EBUSY (held for 30 s), -errno (nothing
 * held). */
int cgctl_move_lock(struct cgctl_ctx *ctx, const struct cgctl_mount *const *ms, size_t n,
		    int *fds);
/* Drop what cgctl_move_lock() took. */
void cgctl_move_unlock(int *fds);
/* cgctl_attach_permitted: would the kernel let this process write @pid, now in @from
 * (NULL: unknown), to cgroup.procs of @to in @m?  Returns: 0, -EACCES, -ESRCH, -errno. */
int cgctl_attach_permitted(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *to, const char *from, pid_t pid);

#endif
