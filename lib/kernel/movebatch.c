/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgctl_move_pids(): many PIDs into one cgroup of several hierarchies, the path of
 * `cgctl move` without --tree.  The speed of 10,000 PIDs comes from one write(2) per
 * PID and hierarchy on a cgroup.procs kept open (cgctl_move_dest) and from reading the
 * "from" of most PIDs out of one thread list (movefrom.c); no thread.  The safety comes
 * from the move lock around the writes and from the check after them: the kernel
 * answers a write of a zombie with success and moves nothing (cgroup_migrate_add_task()
 * skips PF_EXITING tasks), and only a look afterwards finds a task outside a target.
 * With two hierarchies or more and many PIDs the writes run on two CPUs: the calling
 * thread writes each PID to the first target, and one thread this call starts and joins
 * writes it to the others once the first took it (a PID is never in a later target
 * without the first).  Why: HACKING.md, "Performance notes" (bench/move).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/proctree.h"
#include "kernel/movebatch.h"
#include "util/thread.h"

/* from this many PIDs the check reads each target's cgroup.procs once instead of
 * /proc/PID/cgroup per PID and target */
#define CHECK_LIST_MIN 32
/* from this many PIDs (and two targets, two CPUs) a second thread writes the later
 * targets; the first thread hands it the PIDs this many at a time */
#define FOLLOW_MIN 256
#define FOLLOW_STEP 16

struct batch {
	struct cgctl_ctx *ctx;
	const struct cgctl_move_target *t;
	size_t nt;
	uint32_t all;			/* the held bits of a whole move */
	char *paths[CGCTL_MOVE_PIDS_MAX_TARGETS];	/* normalized (strdup) */
	struct cgctl_move_dest *dest[CGCTL_MOVE_PIDS_MAX_TARGETS];
	struct cgctl_error *e;
};

static int batch_open(struct batch *b, bool dry)
{
	for (size_t j = 0; j < b->nt; j++) {
		const struct cgctl_move_target *t = &b->t[j];
		char norm[4096];
		int r;

		if (!t->m || !t->path)
			return cgctl_error_set(b->e, EINVAL, "move: target %zu is incomplete", j);
		r = cgctl_path_normalize(t->path, norm, sizeof(norm));
		if (r < 0)
			return cgctl_error_set(b->e, -r, "move: %s: invalid cgroup path", t->path);
		b->paths[j] = strdup(norm);
		if (!b->paths[j])
			return cgctl_error_set(b->e, ENOMEM, "move: out of memory");
		r = dry ? cgctl_cg_exists(b->ctx, t->m, b->paths[j])
			: cgctl_move_dest_open(b->ctx, t->m, b->paths[j], &b->dest[j]);
		if (dry && r == 0)
			r = -ENOENT;
		if (r < 0)
			return cgctl_error_set(b->e, -r, "move: %s%s: %s", t->m->path, b->paths[j],
					       r == -ENOENT ? "no such cgroup" : strerror(-r));
	}
	return 0;
}

static void batch_close(struct batch *b)
{
	for (size_t j = 0; j < b->nt; j++) {
		cgctl_move_dest_close(b->dest[j]);
		b->dest[j] = NULL;
		free(b->paths[j]);
		b->paths[j] = NULL;
	}
}

/* What the kernel's refusal (or silence) about @p means: a zombie, a kernel thread or a
 * task that is gone.  Returns: the kind (CGCTL_TASK_*). */
static int classify(struct batch *b, struct cgctl_move_pid *p)
{
	int k = cgctl_move_task_kind(b->ctx, p->pid);

	if (k < 0)
		return CGCTL_TASK_MOVABLE;	/* unknown: the error stays as it is */
	p->kind = k;
	if (k == CGCTL_TASK_GONE || k == CGCTL_TASK_ZOMBIE)
		p->err = -ESRCH;
	else if (k == CGCTL_TASK_KTHREAD)
		p->err = -EINVAL;
	return k;
}

/* Write @p to each of targets @j0 .. @j1 - 1 it is not held by yet, in order; stop at
 * the first error. */
static void attach_range(struct batch *b, struct cgctl_move_pid *p, size_t j0, size_t j1)
{
	for (size_t j = j0; j < j1; j++) {
		int r;

		if (p->held & (1u << j))
			continue;
		r = cgctl_move_dest_attach(b->dest[j], p->pid);
		if (r < 0) {
			p->err = r;
			if (r == -ESRCH || r == -EINVAL)
				classify(b, p);
			return;
		}
		p->held |= 1u << j;
	}
	p->err = 0;
}

/* Write @p to every target it is not held by yet, in order; stop at the first error. */
static void attach_missing(struct batch *b, struct cgctl_move_pid *p)
{
	attach_range(b, p, 0, b->nt);
}

/* ---- the check ---- */

/* Which targets hold @pid by /proc/PID/cgroup.  Returns: the bits, -ESRCH, -errno. */
static int64_t held_by(struct batch *b, pid_t pid)
{
	uint32_t held = 0;

	for (size_t j = 0; j < b->nt; j++) {
		char *cg = NULL;
		int r = cgctl_pid_cgroup(b->ctx, pid, b->t[j].m, &cg);

		if (r < 0)
			return r == -ENOENT ? -ESRCH : r;
		if (!strcmp(cg, b->paths[j]))
			held |= 1u << j;
		free(cg);
	}
	return held;
}

/*
 * @p is not seen in every target: look at it alone.  Gone: nothing of it is outside
 * (it was moved or was a zombie; either way no task is left behind).  Exiting or a
 * zombie: the kernel skipped it, it did not move.  Alive: move it again where it is
 * missing (a write that raced a fork, another tool) and look once more.
 */
static void check_one(struct batch *b, struct cgctl_move_pid *p)
{
	struct cgctl_proc_stat st;
	int64_t h;
	int r = cgctl_proc_stat_read(b->ctx, p->pid, &st);

	if (r == -ESRCH || r == -ENOENT)
		return;
	if (r == 0 && cgctl_proc_stat_exiting(&st)) {
		p->err = -ESRCH;
		p->kind = CGCTL_TASK_ZOMBIE;
		p->held = 0;
		return;
	}
	h = held_by(b, p->pid);
	if (h == -ESRCH)
		return;
	if (h < 0) {
		p->err = (int)h;
		return;
	}
	p->held = (uint32_t)h;
	if (p->held == b->all)
		return;
	p->repaired = true;
	attach_missing(b, p);
	if (p->err)
		return;
	h = held_by(b, p->pid);
	if (h == -ESRCH)
		return;
	p->held = h < 0 ? 0 : (uint32_t)h;
	if (p->held != b->all)
		p->err = h < 0 ? (int)h : -EBUSY;
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The PIDs of target @j's cgroup.procs, sorted.  Returns: their count, -errno. */
static ssize_t read_procs(struct batch *b, size_t j, pid_t **ret)
{
	_cleanup_(freep) char *buf = NULL;
	size_t len, n = 0, cap = 64;
	pid_t *v;
	char *p, *end;
	int r;

	r = cgctl_cg_read(b->ctx, b->t[j].m, b->paths[j], "cgroup.procs", &buf, &len);
	if (r < 0)
		return r;
	v = malloc(cap * sizeof(*v));
	for (p = buf; v && *p; p = end) {
		long x = strtol(p, &end, 10);

		if (end == p) {
			end = p + 1;
			continue;
		}
		if (n == cap) {
			pid_t *nv = reallocarray(v, cap *= 2, sizeof(*v));

			if (!nv)
				free(v);
			v = nv;
			if (!v)
				break;
		}
		v[n++] = (pid_t)x;
	}
	if (!v)
		return -ENOMEM;
	qsort(v, n, sizeof(*v), pid_cmp);
	*ret = v;
	return (ssize_t)n;
}

static void check_all(struct batch *b, struct cgctl_move_pid *v, size_t n)
{
	bool lists = n >= CHECK_LIST_MIN;

	for (size_t j = 0; j < b->nt && lists; j++) {
		pid_t *procs = NULL;
		ssize_t k = read_procs(b, j, &procs);

		if (k < 0) {
			lists = false;	/* look at each PID alone */
			break;
		}
		for (size_t i = 0; i < n; i++)
			if (!v[i].err && !bsearch(&v[i].pid, procs, (size_t)k, sizeof(*procs),
						   pid_cmp))
				v[i].held &= ~(1u << j);
		free(procs);
	}
	for (size_t i = 0; i < n; i++)
		if (!v[i].err && (!lists || v[i].held != b->all))
			check_one(b, &v[i]);
}

/* ---- a dry run ---- */

static void dry_one(struct batch *b, struct cgctl_move_pid *p)
{
	int k = cgctl_move_task_kind(b->ctx, p->pid);

	if (k < 0) {
		p->err = k;
		return;
	}
	if (k != CGCTL_TASK_MOVABLE) {
		classify(b, p);
		return;
	}
	for (size_t j = 0; j < b->nt; j++) {
		char *from = NULL;
		int r = 0;

		if (b->t[j].m->version == 2)
			r = cgctl_pid_cgroup(b->ctx, p->pid, b->t[j].m, &from);
		if (r == 0)
			r = cgctl_attach_permitted(b->ctx, b->t[j].m, b->paths[j], from, p->pid);
		free(from);
		if (r < 0) {
			/* nothing is held by a dry run: no split to report, the refusal */
			p->err = r == -ENOENT ? -ESRCH : r;
			p->held = 0;
			return;
		}
		p->held |= 1u << j;
	}
}

/* ---- the writes on two CPUs ---- */

/* The PIDs the first target has taken (or refused), handed to the follower. */
struct relay {
	struct batch *b;
	struct cgctl_move_pid *v;
	size_t n;
	pthread_mutex_t lock;
	pthread_cond_t more;
	size_t done;		/* v[0 .. done) are through the first target */
	bool waiting;		/* the follower sleeps on @more */
};

static void relay_publish(struct relay *r, size_t done)
{
	pthread_mutex_lock(&r->lock);
	r->done = done;
	if (r->waiting)
		pthread_cond_signal(&r->more);
	pthread_mutex_unlock(&r->lock);
}

/* The follower: each PID the first target took, to the other targets in order. */
static void *relay_follow(void *arg)
{
	struct relay *r = arg;
	size_t ready = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (i == ready) {
			pthread_mutex_lock(&r->lock);
			while (r->done <= i) {
				r->waiting = true;
				pthread_cond_wait(&r->more, &r->lock);
				r->waiting = false;
			}
			ready = r->done;
			pthread_mutex_unlock(&r->lock);
		}
		if (!r->v[i].err && r->v[i].held)
			attach_range(r->b, &r->v[i], 1, r->b->nt);
	}
	return NULL;
}

/* Start the follower for @v.  Returns: true if it runs (then every PID must be
 * published, and the follower joined). */
static bool relay_start(struct relay *r, pthread_t *th, struct batch *b,
			struct cgctl_move_pid *v, size_t n)
{
	if (b->nt < 2 || n < FOLLOW_MIN || !util_two_cpus())
		return false;
	*r = (struct relay){ .b = b, .v = v, .n = n };
	if (pthread_mutex_init(&r->lock, NULL))
		return false;
	if (pthread_cond_init(&r->more, NULL)) {
		pthread_mutex_destroy(&r->lock);
		return false;
	}
	if (util_thread_start(th, relay_follow, r) < 0) {
		pthread_cond_destroy(&r->more);
		pthread_mutex_destroy(&r->lock);
		return false;
	}
	return true;
}

static void relay_end(struct relay *r, pthread_t th)
{
	relay_publish(r, r->n);
	pthread_join(th, NULL);
	pthread_cond_destroy(&r->more);
	pthread_mutex_destroy(&r->lock);
}

/* ---- the call ---- */

static void run(struct batch *b, struct cgctl_move_pid *v, size_t n, unsigned int flags)
{
	bool dry = flags & CGCTL_MOVE_PIDS_DRY_RUN;
	/* a fixture has no kernel behind its files to refuse a kernel thread or skip a
	 * zombie: its /proc says what they are before the write, and nothing is checked
	 * after it */
	bool fixture = cgctl_get_root(b->ctx)[0];
	/* a caller that is not root may be refused in the second hierarchy after the first
	 * moved it: the kernel's checks are made for every target before any write */
	bool precheck = !dry && geteuid() != 0;
	struct move_from f;
	struct relay relay;
	pthread_t follower;
	bool follow = !dry && !fixture && !precheck && relay_start(&relay, &follower, b, v, n);

	from_start(&f, b->ctx, b->t[0].m, v, (flags & CGCTL_MOVE_PIDS_FROM) ? n : 0);
	for (size_t i = 0; i < n; i++) {
		struct cgctl_move_pid *p = &v[i];

		if (follow && i % FOLLOW_STEP == 0)
			relay_publish(&relay, i);
		if (flags & CGCTL_MOVE_PIDS_FROM) {
			int r = from_get(&f, i);

			if (r < 0) {
				p->err = r;
				if (r == -ESRCH)
					p->kind = CGCTL_TASK_GONE;
				continue;
			}
		}
		if (dry || precheck) {
			dry_one(b, p);
			if (dry || p->err)
				continue;	/* refused before any write: nothing split */
			p->held = 0;	/* permitted: now the writes */
		}
		if (follow)	/* this thread: the first target; the follower the rest */
			attach_range(b, p, 0, 1);
		else if (!fixture || classify(b, p) == CGCTL_TASK_MOVABLE)
			attach_missing(b, p);
	}
	from_end(&f);
	if (follow)
		relay_end(&relay, follower);
	if (!dry && !fixture)
		check_all(b, v, n);
}

ssize_t cgctl_move_pids_v(struct cgctl_ctx *ctx, const struct cgctl_move_target *targets,
			  size_t n_targets, struct cgctl_move_pid *v, size_t n,
			  unsigned int flags, struct cgctl_error *e)
{
	const struct cgctl_mount *ms[CGCTL_MOVE_PIDS_MAX_TARGETS];
	int locks[CGCTL_MOVE_LOCK_MAX];
	struct batch *b;
	bool dry = flags & CGCTL_MOVE_PIDS_DRY_RUN;
	ssize_t moved = 0;
	int r;

	if (!ctx || !targets || !n_targets || n_targets > CGCTL_MOVE_PIDS_MAX_TARGETS ||
	    (!v && n))
		return cgctl_error_set(e, EINVAL, "move: no destination, or more than %d",
				       CGCTL_MOVE_PIDS_MAX_TARGETS);
	for (size_t i = 0; i < n; i++) {
		if (v[i].pid <= 0)
			return cgctl_error_set(e, EINVAL, "move: %d: not a PID", (int)v[i].pid);
		v[i].err = 0;
		v[i].kind = CGCTL_TASK_MOVABLE;
		v[i].held = 0;
		v[i].repaired = false;
		v[i].from = NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return cgctl_error_set(e, ENOMEM, "move: out of memory");
	b->ctx = ctx;
	b->t = targets;
	b->nt = n_targets;
	b->e = e;
	b->all = (uint32_t)((1ull << n_targets) - 1);
	r = batch_open(b, dry);
	for (size_t j = 0; j < n_targets; j++)
		ms[j] = targets[j].m;
	if (r == 0 && !dry) {
		r = cgctl_move_lock(ctx, ms, n_targets, locks);
		if (r < 0)
			cgctl_error_set(e, -r, "move: %s", r == -EBUSY ?
					"another move has held the move lock for 30 s" :
					strerror(-r));
	}
	if (r == 0) {
		run(b, v, n, flags);
		if (!dry)
			cgctl_move_unlock(locks);
		for (size_t i = 0; i < n; i++)
			moved += !v[i].err;
	}
	batch_close(b);
	free(b);
	return r < 0 ? r : moved;
}

void cgctl_move_pids_free(struct cgctl_move_pid *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].from);
		v[i].from = NULL;
	}
}
