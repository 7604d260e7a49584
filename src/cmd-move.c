/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl move [--tree] [--dry-run] [--force] [--no-plan] [-c LIST] PID...|- PATH
 * Moves whole thread groups (cgroup.procs) into PATH in every hierarchy where PATH
 * exists (or those of -c).  Before: the engine's plan of the memory charges
 * (move_charge_at_immigrate per kernel era); after: the kernel's counters of source and
 * destination, predicted vs observed, with a verdict.  --tree moves each PID with its
 * descendants through cgctl_move_tree() (fork events of the proc connector, re-walks
 * of /proc), and plans the union of the tree's pages.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mem-util.h"
#include "move-summary.h"
#include "move-throttle.h"
#include "columns.h"
#include "systemd-route.h"

static int opt_dry, opt_force, opt_noplan, opt_tree, opt_freeze;
static const char *opt_ctrls, *opt_sample;

static const struct poptOption options[] = {
	{ "tree", 't', POPT_ARG_NONE, &opt_tree, 0,
	  "move each PID with all its descendants, also those forked during the move", NULL },
	{ "freeze", '\0', POPT_ARG_NONE, &opt_freeze, 0,
	  "with --tree: stop the tree (SIGSTOP) while it moves, continue it after", NULL },
	{ "dry-run", '\0', POPT_ARG_NONE, &opt_dry, 0, "plan and print, move nothing", NULL },
	{ "force", '\0', POPT_ARG_NONE, &opt_force, 0,
	  "move even when the plan predicts the kernel will refuse", NULL },
	{ "no-plan", '\0', POPT_ARG_NONE, &opt_noplan, 0,
	  "skip the page inventory, the plan and the check", NULL },
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "only these hierarchies (default: every one where PATH exists)", "LIST" },
	{ "sample", '\0', POPT_ARG_STRING, &opt_sample, 0,
	  "record CPU demand this long to predict throttling (default 1s; 0: do not)",
	  "DUR" },
	CLI_TABLE_OPTIONS('\0'),	/* -n is --dry-run */
	POPT_TABLEEND
};

struct target {
	size_t n;
	const struct cgctl_mount *ms[CLI_MAX_MOUNTS];
	char paths[CLI_MAX_MOUNTS][PATH_MAX];
	int mem;		/* index of the memory hierarchy, -1 if none */
	const char *arg;
	/* the library's mover: the hierarchies in write order (order[0..k)) */
	struct cgctl_move *mv;
	size_t order[CLI_MAX_MOUNTS], k;
};

/* One task's record. */
struct task {
	pid_t pid;
	char *from;
	const struct cgctl_move_expect *e;	/* NULL until planned; the model's */
	bool moved, observed;
	int64_t from_delta, to_delta;
	const char *verdict;
	const char *why;
	const char *how;	/* systemd hosts: "systemd" or "direct" (systemd-attach.c) */
	/* --tree */
	pid_t *members;		/* the tree when planned: the root first */
	size_t n_members;
	size_t elsewhere;	/* members in another memory cgroup than the root */
	struct cgctl_move_tree_result *tr;	/* allocated by move_tree() */
	bool tree_done;
};

/* A figure of @t's plan (0 without one, or when the library has none such). */
static int64_t ev(const struct task *t, const char *key)
{
	int64_t v;

	return t->e && cgctl_move_expect_get(t->e, key, &v) == 0 ? v : 0;
}

/* Was a plan made for @t? */
static bool planned(const struct task *t)
{
	return ev(t, "planned") != 0;
}

/* ---- hierarchies ---- */

static int add_mount(struct cli *cli, struct target *tg, const struct cgctl_mount *m)
{
	int rc, r;

	if (tg->n == CLI_MAX_MOUNTS)
		return EXIT_OK;
	rc = cli_path(cli, m, tg->arg, tg->paths[tg->n], PATH_MAX);
	if (rc)
		return rc;
	r = cgctl_cg_exists(cli->ctx, m, tg->paths[tg->n]);
	if (r == 0)
		r = -ENOENT;
	if (r == -ENOENT)
		return opt_ctrls ? cli_error(cli, tg->arg, -ENOENT, "no such cgroup in %s",
					     m->path) : EXIT_OK;
	if (r < 0)
		return cli_error(cli, tg->arg, r, NULL);
	if (cgctl_mount_has(m, "memory"))
		tg->mem = (int)tg->n;
	tg->ms[tg->n++] = m;
	return EXIT_OK;
}

static int resolve_targets(struct cli *cli, struct target *tg)
{
	const struct cgctl_mount *ms[CLI_MAX_MOUNTS];
	const struct cgctl_mount *all;
	size_t n = 0;
	int rc = EXIT_OK, r;

	tg->mem = -1;
	if (opt_ctrls) {
		rc = cli_hierarchies(cli, opt_ctrls, ms, &n);
	} else {
		r = cgctl_mounts(cli->ctx, &all);
		if (r < 0)
			return cli_error(cli, NULL, r, "cannot discover cgroup hierarchies: %s",
					 cli_strerror(r));
		for (int i = 0; i < r && n < CLI_MAX_MOUNTS; i++)
			ms[n++] = &all[i];
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = add_mount(cli, tg, ms[i]);
	if (!rc && !tg->n)
		rc = cli_error(cli, tg->arg, -ENOENT, "no such cgroup in any hierarchy");
	return rc;
}

/* The library's message without its "move: " (ours says it already). */
static const char *lib_msg(const struct cgctl_error *e, int r)
{
	if (!e->msg[0])
		return cli_strerror(r);
	return strncmp(e->msg, "move: ", 6) ? e->msg : e->msg + 6;
}

/* ---- tasks that cannot move ---- */

/* One clear line for a task that is not moved; returns its exit status. */
static int check_task(struct cli *cli, struct task *t)
{
	int r = cgctl_move_task_kind(cli->ctx, t->pid);

	if (r == CGCTL_TASK_GONE)
		return cli_error(cli, NULL, -ESRCH, "%d: no such process (it exited)",
				 (int)t->pid);
	if (r < 0)
		return cli_error(cli, NULL, r, "%d: %s", (int)t->pid, cli_strerror(r));
	if (r == CGCTL_TASK_KTHREAD)
		return cli_error(cli, NULL, -EINVAL, "%d: a kernel thread cannot be moved",
				 (int)t->pid);
	if (r == CGCTL_TASK_ZOMBIE)
		return cli_error(cli, NULL, -ESRCH, "%d: a zombie: nothing left to move",
				 (int)t->pid);
	return EXIT_OK;
}

/* ---- plan, attach, observe ---- */

static int attach_error(struct cli *cli, const struct task *t, const struct target *tg,
			size_t i, int r)
{
	if (r == -ESRCH)
		return cli_error(cli, NULL, r, "%d: no such process (it exited)", (int)t->pid);
	if (r == -EACCES || r == -EPERM)
		return cli_error(cli, NULL, r, "%d: permission denied moving it to %s%s",
				 (int)t->pid, tg->ms[i]->path, tg->paths[i]);
	if (r == -ENOMEM)
		return cli_error(cli, NULL, r, "%d: the kernel could not precharge %s (ENOMEM): "
				 "not moved", (int)t->pid, tg->paths[i]);
	return cli_error(cli, NULL, r, "%d: %s%s: %s", (int)t->pid, tg->ms[i]->path,
			 tg->paths[i], cli_strerror(r));
}

/* The hierarchies in write order, memory first: a refused precharge must leave the
 * task where it was.  Returns: their count. */
static size_t mem_first(const struct target *tg, size_t *order)
{
	size_t k = 0;

	if (tg->mem >= 0)
		order[k++] = (size_t)tg->mem;
	for (size_t i = 0; i < tg->n; i++)
		if ((int)i != tg->mem)
			order[k++] = i;
	return k;
}

/* The library's mover into the targets, memory first.  Returns: exit status. */
static int new_mover(struct cli *cli, struct target *tg)
{
	const struct cgctl_mount *ms[CLI_MAX_MOUNTS];
	const char *paths[CLI_MAX_MOUNTS];
	int r;

	tg->k = mem_first(tg, tg->order);
	for (size_t j = 0; j < tg->k; j++) {
		ms[j] = tg->ms[tg->order[j]];
		paths[j] = tg->paths[tg->order[j]];
	}
	r = cgctl_move_new(cli->ctx, ms, paths, tg->k, &tg->mv);
	return r < 0 ? cli_error(cli, tg->arg, r, NULL) : EXIT_OK;
}

/* "memory,cpu" of the targets whose @held bit is @set, into @buf. */
static const char *held_names(const struct target *tg, const size_t *order, size_t k,
			      uint32_t held, bool set, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t j = 0; j < k && o < size; j++) {
		if (!!(held & (1u << j)) != set)
			continue;
		o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? "," : "",
				      tg->ms[order[j]]->controllers);
	}
	return buf;
}

/*
 * One line for a PID the library did not move whole; returns its exit status.  A task
 * left in some hierarchies but not the others (split) is partial: exit 8.
 */
static int pid_result(struct cli *cli, const struct task *t, const struct target *tg,
		      size_t i)
{
	const size_t *order = tg->order;
	size_t k = tg->k, j;
	uint32_t all = (uint32_t)((1ull << k) - 1);
	char in[256], out[256];
	struct {
		int err, kind;
		uint32_t held;
	} pr, *p = &pr;

	if (cgctl_move_pid_get(tg->mv, i, &pr.err, &pr.kind, &pr.held, NULL) < 0)
		return cli_error(cli, NULL, -EINVAL, NULL);
	if (!p->err)
		return EXIT_OK;
	if (p->kind == CGCTL_TASK_GONE)
		return cli_error(cli, NULL, -ESRCH, "%d: no such process (it exited)",
				 (int)t->pid);
	if (p->kind == CGCTL_TASK_KTHREAD)
		return cli_error(cli, NULL, -EINVAL, "%d: a kernel thread cannot be moved",
				 (int)t->pid);
	if (p->kind == CGCTL_TASK_ZOMBIE)
		return cli_error(cli, NULL, -ESRCH, "%d: a zombie: nothing left to move",
				 (int)t->pid);
	if (p->held && p->held != all) {
		cli_error(cli, NULL, p->err, "%d: split: moved in %s but not in %s: %s",
			  (int)t->pid, held_names(tg, order, k, p->held, true, in, sizeof(in)),
			  held_names(tg, order, k, p->held, false, out, sizeof(out)),
			  p->err == -EBUSY ? "still outside after moving it again"
					   : cli_strerror(p->err));
		return EXIT_PARTIAL;
	}
	for (j = 0; j < k - 1 && (p->held & (1u << j)); j++)
		;
	return attach_error(cli, t, tg, order[j], p->err);
}

/* Move (or, @flags CGCTL_MOVE_PIDS_DRY_RUN, check) one task in every target. */
static int move_one(struct cli *cli, struct task *t, struct target *tg, unsigned int flags)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct sd_attach sa;
	ssize_t r = 0;
	int rc;

	if (!(flags & CGCTL_MOVE_PIDS_DRY_RUN) && tg->n == 1) {
		r = sd_attach(cli, tg->ms[0], tg->paths[0], t->pid, &sa);
		t->how = sa.how;
		if (sa.why[0] && cli->verbose)
			cli_warn(cli, "%d: %s", (int)t->pid, sa.why);
		if (r < 0)
			return cli_error(cli, tg->arg, (int)r, "systemd attached %d elsewhere",
					 (int)t->pid);
		if (r > 0) {
			t->moved = true;
			return EXIT_OK;
		}
	}
	r = cgctl_move_pids(tg->mv, &t->pid, 1, flags, &e);
	if (r < 0)
		return cli_error(cli, tg->arg, (int)r, "%s", lib_msg(&e, (int)r));
	rc = pid_result(cli, t, tg, 0);
	t->moved = !rc && !(flags & CGCTL_MOVE_PIDS_DRY_RUN);
	return rc;
}

static int attach_all(struct cli *cli, struct task *t, struct target *tg)
{
	return move_one(cli, t, tg, 0);
}

static void warn_headroom(struct cli *cli, const struct task *t, const struct target *tg)
{
	char a[32], b[32];

	if (!planned(t) || !ev(t, "oom_risk"))
		return;
	cgctl_format_size(a, sizeof(a), (uint64_t)ev(t, "resident") * CGCTL_PAGE_SIZE);
	cgctl_format_size(b, sizeof(b), (uint64_t)ev(t, "headroom") * CGCTL_PAGE_SIZE);
	cli_warn(cli, "%d: resident %s exceeds the %s headroom of %s; its charges stay with "
		 "%s, but it will reclaim or OOM there once it re-faults", (int)t->pid, a, b,
		 tg->paths[tg->mem], t->from);
}

static int plan_task(struct cli *cli, struct task *t, const struct target *tg,
		     struct cgctl_mem_model *mm, const pid_t *pids, size_t n)
{
	const struct cgctl_mount *m = tg->ms[tg->mem];
	struct cgctl_error err = CGCTL_ERROR_INIT;
	int r = cgctl_pid_cgroup(cli->ctx, t->pid, m, &t->from);

	if (r < 0)
		return cli_error(cli, NULL, r == -ENOENT ? -ESRCH : r,
				 "%d: no such process (it exited)", (int)t->pid);
	if (opt_noplan)
		return EXIT_OK;
	r = cgctl_move_expect_tasks(cli->ctx, mm, pids, n, t->from, tg->paths[tg->mem], &t->e,
				    &err);
	if (!planned(t) && err.err)
		cli_warn(cli, "%d: no plan: %s", (int)t->pid,
			 err.msg[0] ? err.msg : cli_strerror(-err.err));
	if (r == -ESRCH)
		return cli_error(cli, NULL, r, "%d: no such process (it exited)", (int)t->pid);
	if (r == -ENOMEM)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	if (planned(t) && ev(t, "err") == -ENOMEM && !opt_force)
		return cli_error(cli, NULL, -ENOMEM, "%d: the kernel would refuse: the "
				 "destination cannot hold the precharge of %llu pages (ENOMEM); "
				 "use --force to try anyway", (int)t->pid,
				 (unsigned long long)ev(t, "precharge"));
	warn_headroom(cli, t, tg);
	return EXIT_OK;
}

static int64_t usage_of(struct cli *cli, const struct cgctl_mount *m, const char *path)
{
	struct cgctl_cgroup_stat *st = NULL;
	struct cgctl_cgroup *cg;
	uint64_t usage;
	int r;

	/* the memory hierarchy's cgroup, as `stat` reads it (the v2 root has no usage) */
	(void)m;
	r = cgctl_cgroup_new(cli->ctx, "memory", path, &cg);
	if (r < 0)
		return -1;
	r = cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM, &st);
	if (r == 0)
		r = cgctl_cgroup_stat_get(st, "memory.usage", &usage);
	cgctl_cgroup_stat_free(st);
	cgctl_cgroup_unref(cg);
	return r < 0 ? -1 : (int64_t)usage;
}

/* Predicted memory-counter deltas (bytes) of from and to. */
static void predicted(const struct task *t, int64_t *from_d, int64_t *to_d)
{
	*from_d = ev(t, "from_delta") * (int64_t)CGCTL_PAGE_SIZE;
	*to_d = ev(t, "to_delta") * (int64_t)CGCTL_PAGE_SIZE;
}

static bool within(int64_t obs, int64_t pred, uint64_t tol)
{
	int64_t d = obs - pred;

	return (uint64_t)(d < 0 ? -d : d) <= tol;
}

static void judge(struct cli *cli, struct task *t, const struct target *tg,
		  const struct cgctl_mem_model *mm)
{
	uint64_t tol_from, tol_to;
	int64_t pf, pt;

	if (!planned(t)) {
		t->verdict = "n/a";
		t->why = opt_noplan ? "no plan (--no-plan)" : cgctl_move_expect_note(t->e);
		return;
	}
	if (!t->observed) {
		t->verdict = "n/a";
		t->why = opt_dry ? "dry run" : "counters could not be read";
		return;
	}
	if (opt_tree && t->tree_done &&
	    (t->tr->fork_events || t->tr->vanished || t->tr->already ||
	     t->tr->moved != t->n_members)) {
		t->verdict = "n/a";
		t->why = "the tree forked or lost processes during the move: the counters "
			 "include their allocations and frees";
		return;
	}
	predicted(t, &pf, &pt);
	tol_from = cgctl_move_tolerance_bytes(cli->ctx, mm, t->from);
	tol_to = cgctl_move_tolerance_bytes(cli->ctx, mm, tg->paths[tg->mem]);
	if (within(t->from_delta, pf, tol_from) && within(t->to_delta, pt, tol_to))
		t->verdict = "match";
	else
		t->verdict = "differs";
	t->why = NULL;
}

/* Run @mover between two reads of the source's and the destination's memory usage
 * (when there is a plan to check them against). */
static int observe_move(struct cli *cli, struct task *t, struct target *tg,
			int (*mover)(struct cli *, struct task *, struct target *))
{
	const struct cgctl_mount *m = tg->mem >= 0 ? tg->ms[tg->mem] : NULL;
	int64_t f0 = -1, t0 = -1;
	int rc;

	if (m && planned(t)) {
		f0 = usage_of(cli, m, t->from);
		t0 = usage_of(cli, m, tg->paths[tg->mem]);
	}
	rc = mover(cli, t, tg);
	if ((t->moved || t->tree_done) && f0 >= 0 && t0 >= 0) {
		int64_t f1 = usage_of(cli, m, t->from), t1 = usage_of(cli, m, tg->paths[tg->mem]);

		t->observed = f1 >= 0 && t1 >= 0;
		t->from_delta = f1 - f0;
		t->to_delta = t1 - t0;
	}
	return rc;
}

static int do_task(struct cli *cli, struct task *t, struct target *tg,
		   struct cgctl_mem_model *mm)
{
	const struct cgctl_mount *m = tg->mem >= 0 ? tg->ms[tg->mem] : NULL;
	int rc = check_task(cli, t);

	if (!rc && m)
		rc = plan_task(cli, t, tg, mm, &t->pid, 1);
	if (rc)
		return rc;
	/* a dry run meets the kernel's checks too: what it predicts, the move does */
	if (opt_dry)
		return move_one(cli, t, tg, CGCTL_MOVE_PIDS_DRY_RUN);
	return observe_move(cli, t, tg, attach_all);
}

/* ---- --no-plan: every PID in one call ---- */

/* Move (or check, with --dry-run) all @n @pids at once.  Returns: EXIT_OK with the
 * per-PID results in the mover, or the printed status of a call that tried none. */
static int move_batch(struct cli *cli, const pid_t *pids, size_t n, struct target *tg)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	ssize_t r;

	r = cgctl_move_pids(tg->mv, pids, n, CGCTL_MOVE_PIDS_FROM |
			    (opt_dry ? CGCTL_MOVE_PIDS_DRY_RUN : 0), &e);
	if (r < 0)
		return cli_error(cli, tg->arg, (int)r, "%s", lib_msg(&e, (int)r));
	return EXIT_OK;
}

/* The result of task @t, number @i of the batch: its from (taken over), moved or one
 * line. */
static int batch_task(struct cli *cli, struct task *t, const struct target *tg, size_t i)
{
	int rc = pid_result(cli, t, tg, i);

	cgctl_move_pid_get(tg->mv, i, NULL, NULL, NULL, &t->from);
	t->moved = !rc && !opt_dry;
	return rc;
}

/* ---- --tree ---- */

static int tree_members(struct cli *cli, struct task *t)
{
	int r = cgctl_move_tree_members(cli->ctx, t->pid, &t->members, &t->n_members);

	if (r == -ESRCH)
		return cli_error(cli, NULL, r, "%d: no such process (it exited)", (int)t->pid);
	if (r < 0)
		return cli_error(cli, NULL, r, "%d: cannot walk its process tree: %s",
				 (int)t->pid, cli_strerror(r));
	return EXIT_OK;
}

static int move_tree(struct cli *cli, struct task *t, struct target *tg)
{
	struct cgctl_move_tree_opts o = { .size = sizeof(o),
					  .flags = opt_freeze ? CGCTL_MOVE_TREE_FREEZE : 0 };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	static bool warned;
	ssize_t r;

	t->tr = calloc(1, sizeof(*t->tr));
	if (!t->tr)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	t->tr->size = sizeof(*t->tr);
	r = cgctl_move_tree(tg->mv, &t->pid, 1, &o, t->tr, &e);
	/* nothing of the tree moved, every write refused (a user who may move none of
	 * it): that error, one line, not a partial move with its stragglers (issue 33) */
	if (r < 0 && r != -EAGAIN && !t->tr->moved && !t->tr->already &&
	    t->tr->first_error < 0 && t->tr->first_error != -ESRCH) {
		r = t->tr->first_error;
		return cli_error(cli, NULL, (int)r, "%d: %s: none of its tree was moved",
				 (int)t->pid, cli_strerror((int)r));
	}
	if (!t->tr->used_connector && t->tr->note[0] && !warned) {
		cli_warn(cli, "%s; following the trees by re-walking /proc only", t->tr->note);
		warned = true;
	}
	t->tree_done = r >= 0 || t->tr->moved || t->tr->already;
	if (r == -EAGAIN)
		return cli_error(cli, NULL, (int)r, "%d: the tree kept growing faster than it "
				 "could be moved (%zu moved in %zu passes); stop the forking "
				 "or run again", (int)t->pid, t->tr->moved, t->tr->passes);
	if (r == -EBUSY && t->tr->n_stragglers) {
		/* the moved part stays moved: partial, whatever the count */
		cli_error(cli, NULL, (int)r, "%d: %s", (int)t->pid, lib_msg(&e, (int)r));
		return EXIT_PARTIAL;
	}
	if (r == -ESRCH && !t->tr->moved)
		return cli_error(cli, NULL, (int)r, "%d: no such process (it exited)",
				 (int)t->pid);
	if (r < 0)
		return cli_error(cli, NULL, (int)r, "%d: %s (%zu of the tree moved, %zu failed)",
				 (int)t->pid, lib_msg(&e, (int)r),
				 t->tr->moved, t->tr->failed);
	t->moved = true;
	return EXIT_OK;
}

static int do_tree(struct cli *cli, struct task *t, struct target *tg,
		   struct cgctl_mem_model *mm)
{
	const struct cgctl_mount *m = tg->mem >= 0 ? tg->ms[tg->mem] : NULL;
	int rc = check_task(cli, t);

	if (!rc)
		rc = tree_members(cli, t);
	if (!rc && m) {
		rc = plan_task(cli, t, tg, mm, t->members, t->n_members);
		/* members in another memory cgroup than the root are not in the plan */
		if (!rc)
			t->elsewhere = cgctl_move_tree_elsewhere(cli->ctx, m, t->members,
								 t->n_members, t->from);
	}
	if (rc)
		return rc;
	if (opt_dry)	/* the root meets the kernel's checks (the rest may change) */
		return move_one(cli, t, tg, CGCTL_MOVE_PIDS_DRY_RUN);
	return observe_move(cli, t, tg, move_tree);
}

static void emit_tree(struct cli *cli, const struct task *t)
{
	out_obj_begin(cli->out, "tree");
	out_u64(cli->out, "processes", t->n_members);
	out_u64(cli->out, "in_other_memcg", t->elsewhere);
	if (t->tree_done) {
		out_u64(cli->out, "moved", t->tr->moved);
		out_u64(cli->out, "already", t->tr->already);
		out_u64(cli->out, "vanished", t->tr->vanished);
		out_u64(cli->out, "failed", t->tr->failed);
		out_u64(cli->out, "passes", t->tr->passes);
		out_u64(cli->out, "fork_events", t->tr->fork_events);
		out_u64(cli->out, "stopped", t->tr->stopped);
		out_bool(cli->out, "connector", t->tr->used_connector);
		out_usec(cli->out, "elapsed_usec", t->tr->elapsed_ns);
	}
	out_obj_end(cli->out);
}

/* ---- throttling at the destination ---- */

/*
 * Before anything moves: the destination's throttling with its current tasks and with
 * the moving ones (their trees with --tree), from a recording of all of them.  Only
 * where a cpu hierarchy is a target and a quota limits the destination (else nothing is
 * sampled and the object says limited: false).
 */
static int throttle_before(struct cli *cli, const struct target *tg, const pid_t *pids,
			   size_t n, struct cgctl_move_throttle **mt, bool *have)
{
	uint64_t sample_ns = 1000 * 1000000ULL;
	const struct cgctl_mount *m = NULL;
	const char *path = NULL;
	pid_t *all = NULL;
	size_t n_all = 0;
	int rc;

	if (opt_sample && (rc = cli_parse_duration(cli, "sample", opt_sample, 1000000,
						   &sample_ns)))
		return rc;
	if (opt_sample && sample_ns > 60 * 1000 * 1000000ULL)
		return cli_usage(cli, "--sample: '%s' is longer than 60 s", opt_sample);
	for (size_t i = 0; i < tg->n && !m; i++)
		if (cgctl_mount_has(tg->ms[i], "cpu"))
			m = tg->ms[i], path = tg->paths[i];
	if (!m || opt_noplan)
		return EXIT_OK;
	rc = move_throttle_limits(cli, m, path, mt);
	if (rc)
		return rc;
	*have = true;
	if (!move_throttle_limited(*mt) || !sample_ns)
		return EXIT_OK;	/* no quota: nothing to sample, no wait */
	if (opt_tree) {	/* the trees as they are now */
		for (size_t i = 0; i < n; i++) {
			pid_t *v = NULL, *nv;
			size_t k = 0;

			if (cgctl_move_tree_members(cli->ctx, pids[i], &v, &k) < 0)
				continue;	/* reported when it moves */
			nv = realloc(all, (n_all + k) * sizeof(*all));
			if (!nv) {
				free(v);
				free(all);
				return cli_error(cli, NULL, -ENOMEM, NULL);
			}
			all = nv;
			memcpy(all + n_all, v, k * sizeof(*all));
			n_all += k;
			free(v);
		}
	}
	rc = move_throttle_sample(cli, m, path, opt_tree ? all : pids, opt_tree ? n_all : n,
				  sample_ns, *mt);
	free(all);
	*have = rc == EXIT_OK;
	return rc;
}

/* ---- output ---- */

static void emit_expected(struct cli *cli, const struct task *t)
{
	bool mv = ev(t, "moves");
	uint64_t swap = (uint64_t)ev(t, "moved_swap");

	out_obj_begin(cli->out, "expected");
	out_bytes(cli->out, "anon_bytes", mv ? (uint64_t)ev(t, "anon") * CGCTL_PAGE_SIZE : 0);
	out_bytes(cli->out, "file_bytes", mv ? (uint64_t)ev(t, "file") * CGCTL_PAGE_SIZE : 0);
	out_bytes(cli->out, "shmem_bytes", mv ? (uint64_t)ev(t, "shmem") * CGCTL_PAGE_SIZE : 0);
	out_bytes(cli->out, "swap_bytes", mv ? swap * CGCTL_PAGE_SIZE : 0);
	out_bytes(cli->out, "total_bytes",
		  mv ? ((uint64_t)ev(t, "moved") + swap) * CGCTL_PAGE_SIZE : 0);
	out_bytes(cli->out, "stays_bytes", (uint64_t)ev(t, "stays") * CGCTL_PAGE_SIZE);
	out_obj_end(cli->out);
}

/* The hierarchy whose paths a row shows: memory's (where from is read), else the first. */
static size_t shown_mount(const struct target *tg)
{
	return tg->mem >= 0 ? (size_t)tg->mem : 0;
}

static void emit_task(struct cli *cli, const struct task *t, const struct target *tg)
{
	const struct cgctl_mount *m = tg->ms[shown_mount(tg)];
	char shown[PATH_MAX];

	out_obj_begin(cli->out, NULL);
	out_i64(cli->out, "pid", t->pid);
	/* the "/a/b" form of every command: with --self, below our own cgroup */
	out_str(cli->out, "from", t->from ? cli_path_shown(cli, m, t->from, shown,
							   sizeof(shown)) : NULL);
	out_str(cli->out, "to", cli_path_shown(cli, m, tg->paths[shown_mount(tg)], shown,
					       sizeof(shown)));
	if (t->how)
		out_str(cli->out, "attached", t->how);
	if (opt_tree)
		emit_tree(cli, t);
	if (planned(t))
		out_bool(cli->out, "kernel_moves_charge", ev(t, "moves"));
	else
		out_null(cli->out, "kernel_moves_charge");
	if (planned(t))
		emit_expected(cli, t);
	else
		out_null(cli->out, "expected");
	if (t->observed) {
		out_obj_begin(cli->out, "observed");
		out_sbytes(cli->out, "from_delta_bytes", t->from_delta);
		out_sbytes(cli->out, "to_delta_bytes", t->to_delta);
		out_obj_end(cli->out);
	} else if (!opt_dry) {
		out_null(cli->out, "observed");
	}
	out_str(cli->out, "verdict", t->verdict);
	if (t->why || (planned(t) && !ev(t, "moves")))
		out_str(cli->out, "note", t->why ? t->why : cgctl_move_expect_note(t->e));
	else if (t->elsewhere)
		out_str(cli->out, "note", "processes of the tree in other memory cgroups: their "
			"charges are not in the plan");
	out_obj_end(cli->out);
}

/* Add @t to the totals of @s. */
static void sum_task(struct move_summary *s, const struct task *t)
{
	s->tasks++;
	if (planned(t)) {
		s->expected_n++;
		s->expected_bytes += ev(t, "moves") ? (uint64_t)(ev(t, "moved") +
								ev(t, "moved_swap")) *
							CGCTL_PAGE_SIZE : 0;
	}
	if (t->observed) {
		s->observed_n++;
		s->observed_bytes += t->to_delta;
	}
}

/* The "moves" list: every row, or (@s) the first screenful and the totals. */
static void emit_moves(struct cli *cli, const struct task *tasks, size_t n,
		       const struct target *tg, struct move_summary *s, size_t failed)
{
	size_t shown = 0, rows = 0;

	out_list_begin(cli->out, "moves");
	for (size_t i = 0; i < n; i++) {
		if (!tasks[i].verdict)
			continue;
		rows++;
		if (s)
			sum_task(s, &tasks[i]);
		if (s && shown == MOVE_SUMMARY_ROWS)
			continue;
		emit_task(cli, &tasks[i], tg);
		shown++;
	}
	out_list_end(cli->out);
	if (s) {
		s->failed = failed;
		move_summary_emit(cli, s, shown, rows);
	}
}

/* ---- run ---- */

static int finish(size_t n, size_t failed, int first_rc, bool differs)
{
	if (failed == n && n)
		return first_rc;
	if (failed)
		return EXIT_PARTIAL;
	return differs ? EXIT_DIFFERS : EXIT_OK;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	/* not zeroed: paths[] alone is 64 KiB of stack, and only the first n are read */
	struct target tg;
	struct cgctl_mem_model *mm = NULL;
	struct cgctl_move_throttle *mt = NULL;
	bool have_mt = false;
	struct task *tasks = NULL;
	bool batch = false;
	pid_t *pids = NULL;
	size_t n = 0, failed = 0;
	int rc, first_rc = EXIT_OK;
	bool differs = false, model = false, partial = false, summary = false;
	struct move_summary sum;

	if (opt_freeze && !opt_tree)
		return cli_usage(cli, "--freeze stops a tree: it needs --tree");
	/* the throttling block: key/value lines (src/kv.c) beside the tables */
	rc = opt_tree ? cli_kv(cli, move_tree_tables, N_TABLES(move_tree_tables)) :
			cli_kv(cli, move_tables, N_TABLES(move_tables));
	if (rc)
		return rc;
	rc = cli_collect_pids(cli, argc - 1, argv, &pids, &n);
	if (rc)
		return rc;
	if (!n && !cli_args_have_stdin(argc - 1, argv)) {
		free(pids);
		return cli_usage(cli, "no PID given");
	}
	tg.n = 0;
	tg.mem = -1;
	tg.mv = NULL;
	tg.arg = argv[argc - 1];
	rc = resolve_targets(cli, &tg);
	if (!rc && !n) {
		/* "-" and an empty stdin (a pipeline whose source found nothing): the
		 * destination is checked, nothing is moved, and that is success */
		if (!cli_tsv_skip(cli, "moves")) {
			out_list_begin(cli->out, "moves");
			out_list_end(cli->out);
		}
		free(pids);
		return EXIT_OK;
	}
	if (!rc && tg.mem >= 0 && !opt_noplan) {
		int r = cgctl_mem_model_new(cli->ctx, tg.ms[tg.mem], mem_kver(cli),
					     mem_ncpu(cli), &mm);

		if (r < 0)
			rc = cli_error(cli, tg.arg, r, "cannot model the memory cgroups: %s",
				       cli_strerror(r));
		model = r == 0;
	}
	if (!rc)
		rc = new_mover(cli, &tg);
	tasks = rc ? NULL : calloc(n, sizeof(*tasks));
	if (!rc && !tasks)
		rc = cli_error(cli, NULL, -ENOMEM, NULL);
	if (!rc)
		rc = throttle_before(cli, &tg, pids, n, &mt, &have_mt);
	if (rc)
		goto out;
	for (size_t i = 0; i < n; i++)
		tasks[i].pid = pids[i];
	summary = move_summary_wanted(cli, n);
	if (summary)
		move_summary_begin(cli, &sum, tg.ms[shown_mount(&tg)],
				   tg.paths[shown_mount(&tg)]);
	if (opt_noplan && !opt_tree) {
		rc = move_batch(cli, pids, n, &tg);
		if (rc)
			goto out;
		batch = true;
	}
	for (size_t i = 0; i < n; i++) {
		struct task *t = &tasks[i];
		int r;

		if (batch)
			r = batch_task(cli, t, &tg, i);
		else
			r = opt_tree ? do_tree(cli, t, &tg, mm) : do_task(cli, t, &tg, mm);
		if (r) {
			failed++;
			first_rc = first_rc ? first_rc : r;
			if (!t->tree_done)
				continue;
			partial = true;	/* part of the tree moved: report it */
		}
		if (tg.mem >= 0)
			judge(cli, t, &tg, mm);
		else
			t->verdict = "n/a", t->why = "no memory hierarchy";
		differs |= !strcmp(t->verdict, "differs");
	}
	if (failed < n || partial) {	/* nothing on stdout when every task failed */
		if (!cli_tsv_skip(cli, "moves"))
			emit_moves(cli, tasks, n, &tg, summary ? &sum : NULL, failed);
		/* --tsv=throttle: this object alone, a one-row table of fixed columns */
		if (!cli_tsv_skip(cli, "throttle"))
			move_throttle_emit(cli, have_mt ? mt : NULL);
	}
	rc = partial ? EXIT_PARTIAL : finish(n, failed, first_rc, differs);
out:
	cgctl_move_free(tg.mv);
	cgctl_move_throttle_free(mt);
	for (size_t i = 0; tasks && i < n; i++) {
		free(tasks[i].from);
		free(tasks[i].members);
		free(tasks[i].tr);
	}
	free(tasks);
	free(pids);
	if (model)
		cgctl_mem_model_free(mm);
	return rc;
}

const struct cgctl_cmd cmd_move = {
	.name = "move",
	.args = "PID...|- PATH",
	.summary = "move processes, with the memory charges the kernel will move and a check",
	.options = options,
	.run = run,
	.min_args = 2,
	.max_args = -1,
	.tsv_tables = "moves,throttle",
	.columns = move_tree_tables,
	.n_columns = N_TABLES(move_tree_tables),
};
