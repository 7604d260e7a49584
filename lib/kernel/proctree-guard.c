// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What makes cgctl_move_tree() say "every child is in" only when it is: a probe that the
 * proc connector really delivers, stopping the trees on request (CGCTL_MOVE_TREE_FREEZE),
 * and a final pass over every live member in every target hierarchy.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/proctree-mover.h"

#define PROBE_TIMEOUT_MS 500
#define VERIFY_ROUNDS 8
#define STOP_ROUNDS 64
#define SETTLE_ROUNDS 64
#define VERIFY_SETTLE_NS (3ull * 1000 * 1000 * 1000)

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434	/* the same number on every architecture */
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static ssize_t add_from_sources(struct mover *mv, const pid_t *tg, size_t n,
				struct cgctl_proc_pair **v, size_t k);

/* ---- the connector probe ---- */

static void *probe_thread(void *arg)
{
	return arg;
}

int cgctl_mover_probe(struct mover *mv)
{
	struct pollfd p = { .fd = cgctl_procev_fd(mv->ev), .events = POLLIN };
	uint64_t deadline;
	pthread_t th;
	int r;

	mv->probe_seen = false;
	/* proc_fork_connector() queues the event inside clone(): it is in the socket when
	 * pthread_create() returns; the join only keeps the thread count as it was */
	r = pthread_create(&th, NULL, probe_thread, NULL);
	if (r)
		return -r;
	pthread_join(th, NULL);
	deadline = mono_ms() + PROBE_TIMEOUT_MS;
	for (;;) {
		uint64_t now;

		r = cgctl_mover_drain(mv);
		if (r < 0)
			return r;
		if (mv->probe_seen)
			return 1;
		now = mono_ms();
		if (now >= deadline)
			return 0;
		(void)poll(&p, 1, (int)(deadline - now));
	}
}

/* ---- stopping the trees ---- */

static int stopped_push(struct mover *mv, pid_t pid, int pidfd)
{
	if (mv->n_stopped == mv->cap_stopped) {
		size_t cap = mv->cap_stopped ? 2 * mv->cap_stopped : 64;
		struct stopped *v = reallocarray(mv->stopped, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		mv->stopped = v, mv->cap_stopped = cap;
	}
	mv->stopped[mv->n_stopped].pid = pid;
	mv->stopped[mv->n_stopped++].pidfd = pidfd;
	return 0;
}

/*
 * Stop @pid, a child of @ppid in the snapshot.  The pidfd is taken first and the parent
 * checked after: a PID reused between the snapshot and the open is not ours (wrong
 * parent), and the SIGCONT later goes to this very process.  Returns: 1 stopped by us,
 * 2 its parent changed since the snapshot (re-parented orphan or reused PID: look
 * again), 0 gone or already stopped, -errno.
 */
static int stop_one(struct mover *mv, pid_t pid, pid_t ppid)
{
	struct cgctl_proc_stat st;
	int fd, r;

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0 && errno == ESRCH)
		return 0;
	r = cgctl_proc_stat_read(mv->ctx, pid, &st);
	if (r < 0 || (ppid && st.ppid != ppid) || st.state == 'T' || st.state == 't' ||
	    cgctl_proc_stat_exiting(&st)) {
		if (fd >= 0)
			close(fd);
		if (r == 0 && ppid && st.ppid != ppid)
			return 2;
		return r == -ESRCH || r == 0 ? 0 : r;
	}
	r = fd >= 0 ? (int)syscall(SYS_pidfd_send_signal, fd, SIGSTOP, NULL, 0)
		    : kill(pid, SIGSTOP);
	if (r < 0) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return r == -ESRCH ? 0 : r;
	}
	r = stopped_push(mv, pid, fd);
	if (r < 0) {	/* cannot remember it: continue it now */
		if (fd >= 0)
			(void)syscall(SYS_pidfd_send_signal, fd, SIGCONT, NULL, 0), close(fd);
		else
			kill(pid, SIGCONT);
		return r;
	}
	return 1;
}

/* Members of the trees in the current snapshot, roots first (breadth first).
 * Returns: their count in *@ret (malloc'ed, pairs of pid and ppid), -ENOMEM. */
static ssize_t tree_members(struct mover *mv, const pid_t *tg, size_t n,
			    struct cgctl_proc_pair **ret)
{
	struct cgctl_proc_pair *v = calloc(mv->snap.n + n + 1, sizeof(*v));
	size_t have = 0, i, j, first, k;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (tg[i] > 0)
			v[have++] = (struct cgctl_proc_pair){ tg[i], 0 };
	/* a snapshot is a forest: each PID has one ppid, so no member is queued twice
	 * unless two roots nest (then the inner one is skipped below) */
	for (i = 0; i < have; i++) {
		k = cgctl_proc_snap_children(&mv->snap, v[i].pid, &first);
		for (j = first; j < first + k && have < mv->snap.n + n; j++) {
			size_t d;

			for (d = 0; d < n && tg[d] != mv->snap.v[j].pid; d++)
				;
			if (d == n)
				v[have++] = mv->snap.v[j];
		}
	}
	*ret = v;
	return (ssize_t)have;
}

int cgctl_mover_stop_tree(struct mover *mv, const pid_t *tg, size_t n)
{
	struct cgctl_proc_pair *v = NULL;
	unsigned int round;
	ssize_t k, i;
	int r, stopped;

	for (round = 0; round < STOP_ROUNDS; round++) {
		k = cgctl_proc_snap_take(mv->ctx, &mv->snap);
		if (k < 0)
			return cgctl_error_set(mv->e, -k, "move: reading /proc: %s", strerror(-k));
		k = tree_members(mv, tg, n, &v);
		/* members the snapshot hangs off no root fork on unless stopped too */
		if (k >= 0)
			k = add_from_sources(mv, tg, n, &v, (size_t)k);
		if (k < 0) {
			free(v);
			return (int)k;
		}
		stopped = 0;
		for (i = 0; i < k; i++) {
			bool known = false;

			for (size_t s = 0; s < mv->n_stopped && !known; s++)
				known = mv->stopped[s].pid == v[i].pid;
			if (known)
				continue;
			r = stop_one(mv, v[i].pid, v[i].ppid);
			if (r < 0) {
				free(v);
				return cgctl_error_set(mv->e, -r, "move: stopping %d: %s",
						       (int)v[i].pid, strerror(-r));
			}
			stopped += r;	/* 2: not stopped, but the tree changed */
		}
		free(v);
		v = NULL;
		/* a fork that was past its signal check when SIGSTOP came shows its child
		 * in the next snapshot: done when one stops nobody new and finds no parent
		 * changed */
		if (!stopped)
			break;
	}
	if (round == STOP_ROUNDS)
		return cgctl_error_set(mv->e, EAGAIN, "move: the tree kept changing while it "
				       "was being stopped (%u walks)", STOP_ROUNDS);
	mv->res->stopped = mv->n_stopped;
	dbg(mv->ctx, "move tree: stopped %zu processes in %u rounds\n", mv->n_stopped,
	    round + 1);
	return 0;
}

void cgctl_mover_cont_tree(struct mover *mv)
{
	size_t i;

	for (i = 0; i < mv->n_stopped; i++) {
		struct stopped *s = &mv->stopped[i];

		if (s->pidfd >= 0) {
			(void)syscall(SYS_pidfd_send_signal, s->pidfd, SIGCONT, NULL, 0);
			close(s->pidfd);
		} else {
			kill(s->pid, SIGCONT);
		}
	}
	free(mv->stopped);
	mv->stopped = NULL;
	mv->n_stopped = mv->cap_stopped = 0;
}

/* ---- the final pass ---- */

static bool is_exiting(struct mover *mv, pid_t pid)
{
	struct cgctl_proc_stat st;

	return cgctl_proc_stat_read(mv->ctx, pid, &st) == 0 && cgctl_proc_stat_exiting(&st);
}

/* How many targets must hold a member: with the caller's attach() its in_target()
 * answers for all of them at once. */
static int targets_wanted(const struct mover *mv)
{
	return mv->opts && mv->opts->attach ? 1 : (int)mv->n_targets;
}

/*
 * In how many targets is @pid?  *@at_root: every target it is not in reads the
 * hierarchy's root cgroup (what a child being forked reads until cgroup_post_fork()).
 * Returns: that count (targets_wanted(): all), -ESRCH (gone or exiting: migration skips
 * it), -errno.
 */
static int count_in(struct mover *mv, pid_t pid, bool *at_root)
{
	const struct cgctl_move_tree_opts *o = mv->opts;
	size_t i;
	int r, in = 0;

	*at_root = false;
	if (o && o->attach) {
		r = o->in_target(o->data, pid);
		if (r < 0)
			return r;
		return r ? 1 : is_exiting(mv, pid) ? -ESRCH : 0;
	}
	*at_root = true;
	for (i = 0; i < mv->n_targets; i++) {
		char *p = NULL;
		bool here;

		r = cgctl_pid_cgroup(mv->ctx, pid, mv->targets[i].m, &p);
		if (r < 0)
			return r == -ENOENT ? -ESRCH : r;
		here = strcmp(p, mv->tpaths[i]) == 0;
		in += here;
		if (!here && strcmp(p, "/") != 0)
			*at_root = false;
		free(p);
	}
	if ((size_t)in < mv->n_targets && is_exiting(mv, pid))
		return -ESRCH;
	return in;
}

static void straggler_add(struct mover *mv, pid_t pid)
{
	struct cgctl_move_tree_result *res = mv->res;

	if (res->n_stragglers < ARRAY_SIZE(res->stragglers))
		res->stragglers[res->n_stragglers] = pid;
	res->n_stragglers++;
}

int cgctl_mover_sources(struct mover *mv, const pid_t *tg, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < mv->n_targets && tg[i] > 0; j++) {
			struct src_cg *v;
			char *p = NULL;
			size_t k;

			if (cgctl_pid_cgroup(mv->ctx, tg[i], mv->targets[j].m, &p) < 0)
				continue;
			for (k = 0; k < mv->n_srcs; k++)
				if (mv->srcs[k].target == j && !strcmp(mv->srcs[k].path, p))
					break;
			if (k < mv->n_srcs || !strcmp(p, mv->tpaths[j])) {
				free(p);
				continue;
			}
			v = reallocarray(mv->srcs, mv->n_srcs + 1, sizeof(*v));
			if (!v) {
				free(p);
				return -ENOMEM;
			}
			mv->srcs = v;
			mv->srcs[mv->n_srcs++] = (struct src_cg){ j, p };
		}
	}
	return 0;
}

/* Is @pid a descendant of one of the roots, by its parents now?  Returns: true/false. */
static bool descends(struct mover *mv, pid_t pid, const pid_t *tg, size_t n)
{
	for (int depth = 0; depth < 256 && pid > 1; depth++) {
		struct cgctl_proc_stat st;

		for (size_t i = 0; i < n; i++)
			if (tg[i] == pid)
				return depth > 0;
		if (cgctl_proc_stat_read(mv->ctx, pid, &st) < 0)
			return false;
		pid = st.ppid;
	}
	return false;
}

/*
 * Members the snapshot missed: a /proc snapshot reads each process's ppid at another
 * moment, so a child whose parent died between the two reads hangs off no root there,
 * though it lives on in the source, re-parented to the roots' subreaper.  So each
 * source cgroup is read too, and each live process there whose parents lead to a root
 * (now) is added to @v.  Returns: the new count of @v, -errno.
 */
static ssize_t add_from_sources(struct mover *mv, const pid_t *tg, size_t n,
				struct cgctl_proc_pair **v, size_t k)
{
	for (size_t s = 0; s < mv->n_srcs; s++) {
		const struct src_cg *src = &mv->srcs[s];
		pid_t *pids = NULL;
		ssize_t np = cgctl_cg_pids(mv->ctx, mv->targets[src->target].m, src->path,
					   "cgroup.procs", &pids);

		if (np < 0)
			continue;	/* the source went away: nothing left there */
		for (ssize_t i = 0; i < np; i++) {
			struct cgctl_proc_pair *nv;
			size_t j;

			for (j = 0; j < k && (*v)[j].pid != pids[i]; j++)
				;
			if (j < k || !descends(mv, pids[i], tg, n))
				continue;
			nv = reallocarray(*v, k + 1, sizeof(**v));
			if (!nv) {
				free(pids);
				return -ENOMEM;
			}
			*v = nv;
			(*v)[k++] = (struct cgctl_proc_pair){ pids[i], 0 };
		}
		free(pids);
	}
	return (ssize_t)k;
}

ssize_t cgctl_mover_in_sources(struct mover *mv, const pid_t *tg, size_t n,
			       struct cgctl_proc_pair **ret)
{
	struct cgctl_proc_pair *v = NULL;
	ssize_t k = add_from_sources(mv, tg, n, &v, 0);

	if (k < 0) {
		free(v);
		return k;
	}
	*ret = v;
	return k;
}

/* ---- settling: the source cgroups read until they hold no live member ---- */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * Queue the live members of the tree that @src lists.  A PID the set knows (and has not
 * seen exit) is a member; another one is one if its parents lead to a root now.  An
 * exiting task is skipped: the kernel skips it too (cgroup_migrate_add_task()), so it
 * would be listed again and again.  Returns: the count queued, -ENOMEM.
 */
static ssize_t settle_queue(struct mover *mv, const struct src_cg *src, const pid_t *tg,
			    size_t n)
{
	pid_t *pids = NULL;
	ssize_t np = cgctl_cg_pids(mv->ctx, mv->targets[src->target].m, src->path,
				   "cgroup.procs", &pids);
	ssize_t queued = 0;

	if (np < 0)
		return 0;	/* the source went away: nothing left there */
	/* youngest first (highest PID, but for a wrap): the oldest are likelier to exit
	 * before their turn, and need no move then */
	for (ssize_t i = np - 1; i >= 0; i--) {
		struct cgctl_pident *pe = cgctl_pidset_get(&mv->set, pids[i]);
		bool created;

		if (pe && (pe->state & (PT_QUEUED | PT_FAILED)))
			continue;
		if ((!pe || (pe->state & PT_GONE) || !mv->ev) && !descends(mv, pids[i], tg, n))
			continue;
		/* only a PID listed again after our write costs a read: under a storm the
		 * read of every PID let many die before their turn */
		if (pe && pe->resettle && is_exiting(mv, pids[i]))
			continue;
		pe = cgctl_pidset_add(&mv->set, pids[i], &created);
		if (!pe || cgctl_mover_push(mv, pids[i], MODE_ATTACH) < 0) {
			free(pids);
			return -ENOMEM;
		}
		pe->state = (pe->state & ~PT_GONE) | PT_QUEUED;
		pe->resettle = true;
		queued++;
	}
	free(pids);
	return queued;
}

/*
 * Why reading the sources converges where whole passes did not: a member can only be
 * born outside the destination to a parent outside it, and all of those are listed in
 * the sources (or are being forked: then the parent's move waits for the fork, whose
 * event is in our socket when the write returns, cgroup_threadgroup_rwsem).  One read
 * of the sources costs a file per hierarchy, a pass a /proc snapshot and a /proc read
 * per member: under a storm the pass took long enough for every parent it had not
 * reached yet to fork again.
 */
int cgctl_mover_settle(struct mover *mv, const pid_t *tg, size_t n)
{
	int r = 0;

	if (!mv->n_srcs)
		return 1;
	mv->no_walk = true;
	for (unsigned int round = 0; round < SETTLE_ROUNDS; round++) {
		ssize_t queued = 0;

		r = cgctl_mover_drain(mv);
		for (size_t s = 0; s < mv->n_srcs && r >= 0; s++) {
			ssize_t k = settle_queue(mv, &mv->srcs[s], tg, n);

			if (k < 0)
				r = (int)k;
			queued += k;
		}
		dbg(mv->ctx, "move tree: settle round %u: %zd members in the sources\n", round,
		    queued);
		if (r >= 0 && !queued && mv->q_head == mv->q_len) {
			r = 1;
			break;
		}
		if (r >= 0)
			r = cgctl_mover_run_queue(mv);
		mv->res->rewalk_moved += (size_t)queued;
		if (r < 0 || mono_ns() >= mv->deadline_ns)
			break;
		r = 0;
	}
	mv->no_walk = false;
	return r;
}

/* One round: check every member; move again what is outside unless @last.
 * Returns: the number outside, -errno. */
static ssize_t verify_round(struct mover *mv, const pid_t *tg, size_t n, bool last)
{
	struct cgctl_proc_pair *v = NULL;
	size_t outside = 0, ok = 0;
	bool at_root;
	ssize_t k, i;
	int r;

	k = cgctl_proc_snap_take(mv->ctx, &mv->snap);
	if (k < 0)
		return cgctl_error_set(mv->e, -k, "move: reading /proc: %s", strerror(-k));
	k = tree_members(mv, tg, n, &v);
	if (k >= 0)
		k = add_from_sources(mv, tg, n, &v, (size_t)k);
	if (k < 0) {
		free(v);
		return k;
	}
	mv->res->n_stragglers = 0;
	for (i = 0; i < k; i++) {
		pid_t pid = v[i].pid;

		r = count_in(mv, pid, &at_root);
		if (r >= 0 && r < targets_wanted(mv) && last && at_root) {
			/* A child being forked reads the root cgroup from attach_pid() to
			 * cgroup_post_fork() (6.12 kernel/fork.c: copy_process()), which a
			 * preempted parent can make last.  Writing it to cgroup.procs takes
			 * cgroup_threadgroup_rwsem for write, so the fork is done when the write
			 * returns (and the child is in, either way): then look again. */
			if (cgctl_mover_attach(mv, pid) == 0)
				r = count_in(mv, pid, &at_root);
		}
		if (r == -ESRCH)
			continue;
		if (r == targets_wanted(mv)) {
			ok++;
			continue;
		}
		outside++;
		if (r > 0)
			mv->res->splits++;
		if (r >= 0 && !last) {
			r = cgctl_mover_attach(mv, pid);
			if (r == -ESRCH)
				continue;
			if (r == 0)
				mv->res->repaired++;
			else if (!mv->verify_err)
				mv->verify_err = r;	/* why a straggler stays: named */
		}
		straggler_add(mv, pid);
	}
	free(v);
	mv->res->verified = ok;
	return (ssize_t)outside;
}

static void name_stragglers(struct mover *mv)
{
	const struct cgctl_move_tree_result *res = mv->res;
	char list[160];
	size_t i, o = 0;

	list[0] = '\0';
	for (i = 0; i < MIN(res->n_stragglers, ARRAY_SIZE(res->stragglers)); i++) {
		int w = snprintf(list + o, sizeof(list) - o, "%s%d", i ? " " : "",
				 (int)res->stragglers[i]);

		if (w < 0 || (size_t)w >= sizeof(list) - o)
			break;
		o += (size_t)w;
	}
	cgctl_error_set(mv->e, EBUSY, "move: %zu live member%s of the tree still outside the "
			"destination after %d checks: %s%s%s%s", res->n_stragglers,
			res->n_stragglers == 1 ? "" : "s", VERIFY_ROUNDS, list,
			res->n_stragglers > ARRAY_SIZE(res->stragglers) ? " ..." : "",
			mv->verify_err ? "; moving again failed: " : "",
			mv->verify_err ? strerror(-mv->verify_err) : "");
}

int cgctl_mover_verify(struct mover *mv, const pid_t *tg, size_t n)
{
	const struct cgctl_move_tree_opts *o = mv->opts;
	ssize_t out;
	int round, r;

	if (o && o->attach && !o->in_target)
		return 0;	/* nothing to check with: documented */
	/* the walks may have used up the time: settling between the checks gets 3 s more
	 * (a storm on a loaded machine needs seconds to empty its source) */
	if (mv->deadline_ns < mono_ns() + VERIFY_SETTLE_NS)
		mv->deadline_ns = mono_ns() + VERIFY_SETTLE_NS;
	for (round = 1; round <= VERIFY_ROUNDS; round++) {
		out = verify_round(mv, tg, n, round == VERIFY_ROUNDS);
		if (out < 0)
			return (int)out;
		if (out == 0) {
			mv->res->n_stragglers = 0;
			return 0;
		}
		dbg(mv->ctx, "move tree: final pass %d: %zd outside, moved again\n", round, out);
		/* what the stragglers forked before they moved is in the sources: settle
		 * again, so that the next round does not find their children outside */
		r = cgctl_mover_settle(mv, tg, n);
		if (r < 0)
			return r;
	}
	name_stragglers(mv);
	return -EBUSY;
}
