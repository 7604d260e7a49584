/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The experiments of `cgctl bench` and their configurations (cgctl-bench(1) names the
 * kernel patch behind each).  A configuration is a chain of scratch cgroups (validate's,
 * lib/validate/env.c) of one controller, set up the way the patch's measurement varied
 * it; the workload (cgctl-workload bench-*, lib/validate/spawn.c) runs in the deepest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "validate/validate.h"
#include "bench/bench.h"

#define MEM_LIMIT "536870912"	/* 512 MiB at each level: far above what the loops map */

static const struct bconf fault_conf[] = {
	{ "own", "no memory limit: cgctl's own cgroup", NULL, 0, false, 0, NULL },
	{ "depth1", "a memcg at depth 1, no limit", "memory", 1, false, 0, NULL },
	{ "depth3-limited", "memcgs at depth 3, 512 MiB limit at each level", "memory", 3,
	  true, 0, NULL },
};

static const struct bconf pipe_conf[] = {
	{ "own", "outside any cpu limit: cgctl's own cgroup", NULL, 0, false, 0, NULL },
	{ "bw-off", "a cpu cgroup at depth 1, bandwidth off", "cpu", 1, false, 0, NULL },
	{ "bw-1ms", "bandwidth on, unreachable quota, period 1 ms, depth 1", "cpu", 1, false,
	  1000, NULL },
	{ "bw-10ms", "bandwidth on, unreachable quota, period 10 ms, depth 1", "cpu", 1, false,
	  10000, NULL },
	{ "bw-100ms", "bandwidth on, unreachable quota, period 100 ms, depth 1", "cpu", 1,
	  false, 100000, NULL },
	{ "bw-1s", "bandwidth on, unreachable quota, period 1 s, depth 1", "cpu", 1, false,
	  1000000, NULL },
	{ "bw-off-d3", "cpu cgroups at depth 3, bandwidth off", "cpu", 3, false, 0, NULL },
	{ "bw-100ms-d3", "bandwidth on at each of 3 levels, unreachable quota, 100 ms", "cpu",
	  3, false, 100000, NULL },
};

static const struct bconf procread_conf[] = {
	{ "stat+statm", "top's reads: /proc/PID/stat and statm", NULL, 0, false, 0, "both" },
	{ "stat", "/proc/PID/stat only", NULL, 0, false, 0, "stat" },
	{ "statm", "/proc/PID/statm only", NULL, 0, false, 0, "statm" },
};

static const struct bconf alloc_conf[] = {
	{ "own", "order-0 pages without a memcg of ours: cgctl's own cgroup", NULL, 0, false,
	  0, NULL },
	{ "memcg", "order-0 pages charged to a memcg at depth 1", "memory", 1, false, 0, NULL },
};

static const struct bexp experiments[] = {
	{ "fault", BK_FAULT, "map 1 MiB, touch each page, unmap, on N threads (memcg batching)",
	  "fault", fault_conf, ARRAY_SIZE(fault_conf) },
	{ "pipe", BK_PIPE, "pipe-test round trips under CFS bandwidth control", "round trip",
	  pipe_conf, ARRAY_SIZE(pipe_conf) },
	{ "procread", BK_PROCREAD, "read stat and statm of N sleepers, as top does",
	  "process read", procread_conf, ARRAY_SIZE(procread_conf) },
	{ "alloc", BK_ALLOC, "order-0 page alloc/free on N threads, with and without a memcg",
	  "page", alloc_conf, ARRAY_SIZE(alloc_conf) },
};

const struct bexp *bench_experiments(size_t *n)
{
	*n = ARRAY_SIZE(experiments);
	return experiments;
}

const struct bexp *bench_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(experiments); i++)
		if (strcmp(experiments[i].name, name) == 0)
			return &experiments[i];
	return NULL;
}

/* One run's figures, as the workload reported them. */
struct bsample {
	uint64_t ops, wall_ns, task_ns, cycles, insn, branches, hw;
	uint64_t colocated;	/* pipe: round trips with both ends on one CPU */
	uint64_t stretches;	/* pipe: runs of those on the same CPU */
	uint64_t colocated_ns;	/* pipe: their wall time */
	uint64_t colocated_self_ns;	/* pipe: the loop's own CPU time in them */
	bool rusage;
};

/* The cgroups of one configuration run. */
struct bplace {
	const struct cgctl_mount *m;
	const char *base, *leaf;
};

/* The controller's file names differ between v1 and v2. */
static int set_bandwidth(struct vrun *run, const struct bconf *c, const struct bplace *p,
			 const char *path, char *reason, size_t len)
{
	/* unreachable: twice what all CPUs can run in a period */
	uint64_t quota = c->period_us * 2 * run->ncpu;
	char v[64];
	int err;

	if (!c->period_us)
		return 0;
	if (p->m->version == 2) {
		snprintf(v, sizeof(v), "%llu %llu", (unsigned long long)quota,
			 (unsigned long long)c->period_us);
		return vcg_write(run, p->m, path, "cpu.max", v, reason, len);
	}
	snprintf(v, sizeof(v), "%llu", (unsigned long long)c->period_us);
	err = vcg_write(run, p->m, path, "cpu.cfs_period_us", v, reason, len);
	if (err < 0)
		return err;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)quota);
	return vcg_write(run, p->m, path, "cpu.cfs_quota_us", v, reason, len);
}

/* A level's settings, written under its cgroup lock (cgctl_cgroup_lock(), as `bw set`
 * and `mem set` take it), so no other cgctl writer interleaves with ours. */
static int configure(struct vrun *run, const struct bconf *c, const struct bplace *p,
		     const char *path, char *reason, size_t len)
{
	bool cpu = strcmp(c->ctrl, "cpu") == 0;
	int err;

	if (cpu ? !c->period_us : !c->limit)
		return 0;
	err = cgctl_cgroup_lock(run->ctx, p->m, path);
	if (err < 0) {
		snprintf(reason, len, "lock %s: %s", path,
			 err == -EBUSY ? "held by another writer for 30 s" : strerror(-err));
		return err;
	}
	if (cpu)
		err = set_bandwidth(run, c, p, path, reason, len);
	else
		err = vcg_write(run, p->m, path, p->m->version == 2 ? "memory.max" :
				"memory.limit_in_bytes", MEM_LIMIT, reason, len);
	cgctl_cgroup_unlock(run->ctx, p->m, path);
	return err;
}

/* The chain base/l1/.../lN of @c (base: below PATH, or validate's own scratch base). */
static int make_chain(struct vrun *run, const struct bconf *c, const struct bopts *o,
		      struct bplace *p, char *reason, size_t len)
{
	char name[48];
	const char *path;
	int err;

	snprintf(name, sizeof(name), "cgctl-bench-%d", (int)getpid());
	err = vscratch_create(run, c->ctrl, o->parent, o->parent ? name : "bench", &p->m,
			      &p->base, reason, len);
	if (err < 0)
		return err;
	path = p->base;
	for (unsigned int d = 0; d < c->depth; d++) {
		snprintf(name, sizeof(name), "l%u", d + 1);
		err = vscratch_create(run, c->ctrl, path, name, &p->m, &path, reason, len);
		if (err == 0)
			err = configure(run, c, p, path, reason, len);
		if (err < 0)
			return err;
	}
	p->leaf = path;
	return 0;
}

/* Levels of @path below @base ("/a/b" below "/a": 1); -1 when not below it. */
static int depth_below(const char *base, const char *path)
{
	size_t n = strlen(base);
	int d = 0;

	if (strcmp(base, "/") == 0)
		n = 0;
	if (strncmp(path, base, n) != 0 || (path[n] && path[n] != '/'))
		return -1;
	for (path += n; *path; path++)
		d += *path == '/';
	return d;
}

/* The controller an experiment's configurations vary. */
static const char *exp_ctrl(const struct bexp *e)
{
	return e->kind == BK_PIPE ? "cpu" : "memory";
}

/* Where the workload is, read back from /proc/PID/cgroup. */
static int where(struct vrun *run, const struct bexp *e, const struct bconf *c,
		 const struct bplace *p, pid_t pid, struct bconf_result *cr, const char *own)
{
	const struct cgctl_mount *m = p->m;
	char *at = NULL;
	int d, err;

	if (!m && cgctl_mount_find(run->ctx, exp_ctrl(e), &m) < 0)
		return 0;	/* no hierarchy to read back: nothing to claim either */
	err = cgctl_pid_cgroup(run->ctx, pid, m, &at);
	if (err < 0)
		return err;
	snprintf(cr->cgroup, sizeof(cr->cgroup), "%s", at);
	d = c->ctrl ? depth_below(p->base, at) : (strcmp(at, own) == 0 ? 0 : -1);
	if (d != (int)c->depth || (c->ctrl && strcmp(at, p->leaf) != 0))
		cr->placed = false;
	cr->depth = d < 0 ? 0 : (unsigned int)d;
	free(at);
	return 0;
}

static void workload_argv(const struct bexp *e, const struct bconf *c, const struct bopts *o,
			  char nums[3][24], struct vwork_spec *s)
{
	snprintf(nums[0], 24, "%u", o->threads);
	snprintf(nums[1], 24, "%u", o->duration_ms);
	snprintf(nums[2], 24, "%u", o->rounds);
	switch (e->kind) {
	case BK_FAULT:
	case BK_ALLOC:
		s->argv[0] = e->kind == BK_FAULT ? "bench-fault" : "bench-alloc";
		s->argv[1] = nums[0];
		s->argv[2] = nums[1];
		break;
	case BK_PIPE:
		s->argv[0] = "bench-pipe";
		s->argv[1] = nums[2];
		break;
	case BK_PROCREAD:
		snprintf(nums[0], 24, "%u", o->procs);
		s->argv[0] = "bench-procread";
		s->argv[1] = nums[0];
		s->argv[2] = nums[2];
		s->argv[3] = c->files;
		break;
	}
}

static int parse_done(const char *line, struct bsample *s)
{
	if (vline_u64(line, "ops", &s->ops) < 0 || vline_u64(line, "wall_ns", &s->wall_ns) < 0 ||
	    vline_u64(line, "task_ns", &s->task_ns) < 0 || vline_u64(line, "hw", &s->hw) < 0 ||
	    vline_u64(line, "cycles", &s->cycles) < 0 ||
	    vline_u64(line, "instructions", &s->insn) < 0 ||
	    vline_u64(line, "branches", &s->branches) < 0 || s->ops == 0)
		return -EPROTO;
	s->rusage = strstr(line, "task_src=rusage") != NULL;
	if (vline_u64(line, "colocated", &s->colocated) < 0)
		s->colocated = 0;	/* fault, alloc, procread: no pair */
	if (vline_u64(line, "stretches", &s->stretches) < 0)
		s->stretches = 0;	/* (an older workload: one stretch) */
	if (vline_u64(line, "colocated_ns", &s->colocated_ns) < 0)
		s->colocated_ns = 0;	/* (an older workload: the majority reading) */
	if (vline_u64(line, "colocated_self_ns", &s->colocated_self_ns) < 0)
		s->colocated_self_ns = 0;
	return 0;
}

/* The kernel's count of the mechanism in the leaf (0 without one). */
static int kernel_count(struct vrun *run, const struct bexp *e, const struct bconf *c,
			const struct bplace *p, uint64_t *v, char *reason, size_t len)
{
	*v = 0;
	if (!c->ctrl)
		return 0;
	if (e->kind == BK_PIPE)
		return vcg_read_key(run, p->m, p->leaf, "cpu.stat", "nr_periods", v, reason, len);
	return vcg_read_key(run, p->m, p->leaf, "memory.stat", "pgfault", v, reason, len);
}

static void record(struct bconf_result *cr, const struct bsample *s)
{
	double ops = (double)s->ops;

	cr->v[BM_WALL][cr->n] = (double)s->wall_ns / ops;
	cr->v[BM_TASK][cr->n] = (double)s->task_ns / ops;
	cr->v[BM_CYCLES][cr->n] = (double)s->cycles / ops;
	cr->v[BM_INSN][cr->n] = (double)s->insn / ops;
	cr->v[BM_BRANCH][cr->n] = (double)s->branches / ops;
	cr->n++;
}

/* The engine's counts for this run, and the kernel's count checked against them. */
static void model(struct vrun *run, const struct bexp *e, const struct bconf *c,
		  const struct bopts *o, const struct bsample *s, uint64_t kdelta,
		  struct bconf_result *cr, unsigned int own_depth, bool v2)
{
	struct bmodel_in in = {
		.kver = run->kver, .ncpu = run->ncpu, .threads = o->threads,
		.depth = c->ctrl ? c->depth : own_depth, .ops = s->ops, .wall_ns = s->wall_ns,
		.task_ns = s->task_ns, .period_us = c->period_us,
		.quota_us = c->period_us * 2 * run->ncpu, .slice_ns = run->slice_ns,
		.files = c->files, .v2 = v2, .unmap_pages = e->kind == BK_FAULT ? 256 : 16,
		.pair_one_cpu = s->colocated * 2 > s->ops, .colocated = s->colocated,
		.stretches = s->stretches, .colocated_ns = s->colocated_ns,
		/* each end writes once and reads once a round trip: the pair's CPU time
		 * on one CPU is twice the loop's own */
		.colocated_task_ns = 2 * s->colocated_self_ns,
	};
	double a = 0, b = 0, k = (double)cr->n;
	struct bcheck *ck = &cr->check;

	switch (e->kind) {
	case BK_FAULT:
	case BK_ALLOC:
		cr->model_what = "charges to the page counter per 1,000 pages";
		bmodel_charges(&in, &a);
		ck->what = "memory.stat pgfault";
		/* each page the loop touches is one fault charged to the leaf */
		ck->pred += c->ctrl ? (double)s->ops : 0;
		/* the memcg statistics flush threshold (64 updates per CPU) and the
		 * workload's own start-up faults */
		ck->tol += c->ctrl ? 64.0 * run->ncpu + 0.02 * (double)s->ops + 500 : 0;
		break;
	case BK_PIPE:
		cr->model_what = "period-timer firings per second";
		cr->model2_what = "runtime refills from the global pool per second";
		bmodel_bandwidth(&in, &a, &b);
		ck->what = "cpu.stat nr_periods";
		ck->pred += c->ctrl ? a : 0;
		/* a period may start on either side of each end of the run */
		ck->tol += c->period_us ? 2 + 0.05 * a : 0;
		a = a * 1e9 / (double)s->wall_ns;
		b = b * 1e9 / (double)s->wall_ns;
		break;
	case BK_PROCREAD:
		cr->model_what = "per-CPU counter cells summed per process read";
		a = bmodel_read_cells(&in);
		ck->na = true;
		snprintf(ck->reason, sizeof(ck->reason),
			 "the kernel reports no count of counter reads");
		break;
	}
	ck->obs += (double)kdelta;
	cr->model += (a - cr->model) / k;	/* running mean over the runs */
	cr->model2 += (b - cr->model2) / k;
}

static int run_one(struct vrun *run, const struct bexp *e, const struct bconf *c,
		   const struct bopts *o, struct bconf_result *cr, struct bsample *s,
		   const char *own, unsigned int own_depth, char *reason, size_t len)
{
	struct bplace p = { NULL, NULL, NULL };
	struct vwork_spec spec = { .cpu = -1 };
	const struct cgctl_mount *hm = NULL;
	char nums[3][24], line[512];
	uint64_t k0 = 0, k1 = 0;
	struct vwork w;
	int err;

	if (c->ctrl) {
		err = make_chain(run, c, o, &p, reason, len);
		if (err < 0)
			return err;
		spec.m[0] = p.m;
		spec.path[0] = p.leaf;
	}
	workload_argv(e, c, o, nums, &spec);
	err = vwork_start(run, &spec, &w, reason, len);
	if (err < 0)
		return err;
	err = vwork_expect(run, &w, "ready", line, sizeof(line), 120000, reason, len);
	if (err == 0)
		err = where(run, e, c, &p, w.pid, cr, own);
	if (err == 0)
		err = kernel_count(run, e, c, &p, &k0, reason, len);
	if (err == 0)
		err = vwork_send(&w, "go\n");
	if (err == 0)
		err = vwork_expect(run, &w, "done", line, sizeof(line),
				   o->duration_ms + 120000, reason, len);
	if (err == 0 && parse_done(line, s) < 0) {
		snprintf(reason, len, "workload said '%s'", line);
		err = -EPROTO;
	}
	if (err == 0)
		err = kernel_count(run, e, c, &p, &k1, reason, len);
	if (err < 0) {
		vwork_kill(run, &w);
		return err;
	}
	err = vwork_finish(run, &w, 10000, reason, len);
	if (err < 0)
		return err;
	record(cr, s);
	cgctl_mount_find(run->ctx, exp_ctrl(e), &hm);
	model(run, e, c, o, s, k1 - k0, cr, own_depth, hm && hm->version == 2);
	return 0;
}

static void finish(struct bresult *r, const struct bexp *e)
{
	for (size_t i = 0; i < r->n; i++) {
		struct bcheck *ck = &r->c[i].check;

		if (!e->conf[i].ctrl && !ck->na) {
			ck->na = true;
			snprintf(ck->reason, sizeof(ck->reason),
				 "not in a cgroup of ours: no count to read");
		}
		ck->ok = !ck->na && (ck->obs >= ck->pred - ck->tol && ck->obs <= ck->pred + ck->tol);
	}
}

static int own_cgroup(struct vrun *run, const struct bexp *e, char *own, size_t len,
		      unsigned int *depth)
{
	const char *ctrl = exp_ctrl(e);
	const struct cgctl_mount *m;
	char *at;

	*depth = 0;
	own[0] = '\0';
	if (cgctl_mount_find(run->ctx, ctrl, &m) < 0)
		return 0;
	if (cgctl_pid_cgroup(run->ctx, 0, m, &at) < 0)
		return 0;
	snprintf(own, len, "%s", at);
	*depth = (unsigned int)depth_below("/", at);
	free(at);
	return m->version;
}

int bench_run(struct cgctl_ctx *ctx, const struct bexp *e, const struct bopts *o,
	      struct bresult *r, char *reason, size_t len)
{
	struct cgctl_validate_opts vo = { .runs = 1, .workload_exe = o->workload_exe,
					  .cancel = o->cancel, .notice = o->notice,
					  .notice_data = o->notice_data };
	struct cgctl_error ce = CGCTL_ERROR_INIT;
	unsigned int *order, own_depth, i, n = (unsigned int)e->nconf * o->reps;
	char own[256];
	struct vrun run;
	int err;

	if (o->reps > BENCH_MAX_RUNS || e->nconf > BENCH_MAX_CONF)
		return -EINVAL;
	err = vrun_init(&run, ctx, &vo, &ce);
	if (err < 0) {
		snprintf(reason, len, "%s", ce.msg);
		return err;
	}
	if (o->parent) {
		/* the scratch of bench runs below PATH that were killed (issue 33); below
		 * our own cgroup, validate's scratch base reaps them */
		for (i = 0; i < e->nconf; i++) {
			const struct cgctl_mount *m;
			unsigned int j;

			if (!e->conf[i].ctrl)	/* the baseline: no scratch */
				continue;
			for (j = 0; j < i && (!e->conf[j].ctrl ||
					      strcmp(e->conf[j].ctrl, e->conf[i].ctrl)); j++)
				;
			if (j == i && cgctl_mount_find(ctx, e->conf[i].ctrl, &m) == 0)
				vscratch_reap(&run, m, o->parent, "cgctl-bench-");
		}
	}
	memset(r, 0, sizeof(*r));
	snprintf(r->experiment, sizeof(r->experiment), "%s", e->name);
	snprintf(r->op, sizeof(r->op), "%s", e->op);
	snprintf(r->kernel, sizeof(r->kernel), "%s", run.release);
	r->reps = o->reps;
	r->seed = o->seed;
	r->ncpu = run.ncpu;
	r->hw = true;
	snprintf(r->task_src, sizeof(r->task_src), "perf");
	r->n = e->nconf;
	r->cgver = own_cgroup(&run, e, own, sizeof(own), &own_depth);
	for (i = 0; i < e->nconf; i++) {
		snprintf(r->c[i].name, sizeof(r->c[i].name), "%s", e->conf[i].name);
		snprintf(r->c[i].summary, sizeof(r->c[i].summary), "%s", e->conf[i].summary);
		r->c[i].placed = true;
	}
	err = bstats_order((unsigned int)e->nconf, o->reps, o->seed, &order);
	if (err < 0)
		return err;
	for (i = 0; i < n && err == 0; i++) {
		const struct bconf *c = &e->conf[order[i]];
		struct bsample s = { 0 };

		if (o->progress)
			o->progress(o->progress_data, c->name, i + 1, n);
		err = run_one(&run, e, c, o, &r->c[order[i]], &s, own, own_depth, reason, len);
		if (err == 0) {
			r->hw &= s.hw != 0;
			if (s.rusage)
				snprintf(r->task_src, sizeof(r->task_src), "rusage");
		} else {
			/* prefix which configuration failed */
			char tmp[256];

			snprintf(tmp, sizeof(tmp), "%s: %s", c->name, reason);
			snprintf(reason, len, "%s", tmp);
		}
		vrun_cleanup(&run);	/* fresh cgroups (and counts) for the next run */
		if (err == 0 && vrun_cancelled(&run))
			err = -EINTR;
	}
	free(order);
	vrun_cleanup(&run);
	if (err < 0)
		return err;
	finish(r, e);
	return 0;
}
