/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Driver of the memory charge scenarios.  A workload faults in anonymous pages in a
 * fresh memory cgroup; the memcg model (lib/engine/memcg) is fed the same charges (the
 * pages the workload touched, the kernel pages the kernel charged meanwhile, the CPU it
 * was pinned to) and predicts the counters:
 *  - stock: usage grows in charge batches, the surplus sits in the per-cpu stock, a
 *    forced drain (limit written one page below usage) returns it;
 *  - hierarchy limit: a limited parent fails the charge, its failcnt counts, the child's
 *    watermark may pass the parent's limit by one speculative batch, OOM kills.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "internal.h"
#include "util/num.h"
#include "validate/validate.h"
#include "validate/scenarios.h"

#define PG 4096.0

/* Counters of one memory cgroup, in pages. */
struct mem_obs {
	double usage, kernel, anon, file, watermark, failcnt;
};

static int mem_applies(struct vrun *run, const struct vscenario *s, char *reason, size_t len)
{
	const struct cgctl_mount *m;

	if (cgctl_mount_find(run->ctx, "memory", &m) < 0) {
		snprintf(reason, len, "no cgroup hierarchy carries the memory controller");
		return 1;
	}
	return 0;
}

static int key(struct vrun *run, const struct cgctl_mount *m, const char *path,
	       const char *k, double *v, char *reason, size_t len)
{
	uint64_t u = 0;
	int err = vcg_read_key(run, m, path, "memory.stat", k, &u, reason, len);

	*v = (double)u / PG;
	return err;
}

static int num(struct vrun *run, const struct cgctl_mount *m, const char *path,
	       const char *file, double *v, char *reason, size_t len)
{
	uint64_t u = 0;
	int err = vcg_read_u64(run, m, path, file, &u, reason, len);

	*v = (double)u / PG;
	return err;
}

/*
 * memory.stat is flushed on read only above a threshold of pending updates.  6.1 counts
 * them machine-wide (mem_cgroup_flush_stats(): > 64 * ncpu, 6.1 mm/memcontrol.c), which
 * other activity keeps crossing; since 6.8 ("mm: memcg: make stats flushing threshold
 * per-memcg") it counts only the memcg's subtree (memcg_vmstats_needs_flush(), 6.12
 * mm/memcontrol.c), so a fresh cgroup whose workload made fewer than 128 updates reads
 * anon 0 and kernel 0 (6.12-v2: 0/0 read, 23/17 pages after a flush).  Reading cpu.stat
 * (cgroup_base_stat_cputime_show() -> cgroup_rstat_flush_hold(), 4.16+) flushes the
 * rstat of every controller of the subtree, memcg's included (css_rstat_flush).  v1:
 * cpu.stat is not in the memory hierarchy; there the kernel figure is the kmem page
 * counter, exact without a flush.
 */
static int stats_flush(struct vrun *run, const struct cgctl_mount *m, const char *path,
		       char *reason, size_t len)
{
	int r = cgctl_mem_stat_flush(run->ctx, m, path);

	if (r < 0)
		snprintf(reason, len, "%s/cpu.stat (flushes memory.stat): %s", path,
			 strerror(-r));
	return r;
}

/* v1: usage_in_bytes, kmem, rss/cache, max_usage, failcnt; v2: current, stat kernel,
 * anon/file, peak (5.19+; else 0), no failcnt.  The counters come from the reader
 * `cgctl stat`, `cgctl mem` and `cgctl move` use (the cgroup snapshot). */
static int mem_read(struct vrun *run, const struct cgctl_mount *m, const char *path,
		    struct mem_obs *o, char *reason, size_t len)
{
	static const char *const keys[] = { "memory.usage", "memory.peak", "memory.failcnt" };
	uint64_t c[3];
	unsigned int has;
	bool v2 = m->version == 2;
	int err;

	memset(o, 0, sizeof(*o));
	err = stats_flush(run, m, path, reason, len);
	if (err < 0)
		return err;
	err = vcg_mem_figures(run, path, CGCTL_CGSTAT_MEM_ALL, keys, 3, c, &has, reason, len);
	if (err < 0)
		return err;
	o->usage = (double)c[0] / PG;
	if (has & 2)
		o->watermark = (double)c[1] / PG;
	if (has & 4)
		o->failcnt = (double)c[2];	/* a count, not bytes */
	if (!v2 && (!(has & 2) || !(has & 4))) {
		snprintf(reason, len, "%s: no memory.max_usage_in_bytes or memory.failcnt",
			 path);
		return -ENOENT;
	}
	err = v2 ? key(run, m, path, "kernel", &o->kernel, reason, len) :
		   num(run, m, path, "memory.kmem.usage_in_bytes", &o->kernel, reason, len);
	if (err >= 0)
		err = key(run, m, path, v2 ? "anon" : "rss", &o->anon, reason, len);
	if (err >= 0)
		err = key(run, m, path, v2 ? "file" : "cache", &o->file, reason, len);
	return err;
}

static const char *limit_file(const struct cgctl_mount *m)
{
	return m->version == 2 ? "memory.max" : "memory.limit_in_bytes";
}

/*
 * Force drain_all_stock(): a limit one page below usage makes the first
 * page_counter_set_max() fail, the kernel drains the stock and retries (kernel-memory-
 * model.md 2.4, run 3).  The write may still fail (nothing to reclaim): that is fine.
 * On v2, memory.max below usage would OOM-kill the workload; memory.high drains the
 * same way and only reclaims.
 */
static int drain(struct vrun *run, const struct cgctl_mount *m, const char *path,
		 char *reason, size_t len)
{
	static const char *const keys[] = { "memory.usage" };
	const char *file;
	unsigned int has;
	uint64_t u;
	char v[32];
	int err;

	err = vcg_mem_figures(run, path, CGCTL_CGSTAT_MEM, keys, 1, &u, &has, reason, len);
	if (err < 0)
		return err;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)(u > 8192 ? u - 4096 : 4096));
	file = m->version == 2 ? "memory.high" : "memory.limit_in_bytes";
	vcg_set(run, m, path, file, v);
	err = vcg_write(run, m, path, file, m->version == 2 ? "max" : "-1", reason, len);
	if (err >= 0)
		err = vrun_sleep(run, 30);	/* remote CPUs drain from a work item */
	return err;
}

static int start_touch(struct vrun *run, const struct cgctl_mount *m, const char *path,
		       unsigned int pages, int cpu, struct vwork *w, char *reason, size_t len)
{
	struct vwork_spec ws = { .m = { m }, .path = { path }, .cpu = cpu };
	char n[16], line[128];
	int err;

	snprintf(n, sizeof(n), "%u", pages);
	ws.argv[0] = "touch";
	ws.argv[1] = n;
	err = vwork_start(run, &ws, w, reason, len);
	if (err >= 0)
		err = vwork_expect(run, w, "ready", line, sizeof(line), 10000, reason, len);
	return err;
}

static int model_new(struct vrun *run, const struct cgctl_mount *m,
		     struct cgctl_memcg_tree **t, char *reason, size_t len)
{
	int err = cgctl_memcg_tree_new(t, run->model_kver, run->ncpu,
				       m->version == 2 ? CGCTL_MEMCG_V2 : 0, run->seq);

	if (err < 0)
		snprintf(reason, len, "memcg model: %s", strerror(-err));
	return err;
}

/* Charge @n pages one fault at a time, as the page-fault path does. */
static int charge_pages(struct cgctl_memcg_tree *t, int id, unsigned int cpu, double n,
			const struct cgctl_memcg_charge_opts *o, struct cgctl_memcg_charge_result *res)
{
	uint64_t i, pages = n > 0 ? num_round_u64(n) : 0;
	int err = 0;

	for (i = 0; i < pages && err == 0; i++)
		err = cgctl_memcg_charge(t, id, cpu, 1, o, res);
	return err;
}

static void set(struct vsample *o, double obs, double pred, double bound)
{
	o->obs = obs;
	o->pred = pred;
	o->bound = bound;
}

/* ---- stock: batches and the per-cpu stock ---- */
struct stock_obs {
	struct mem_obs before, after, drained;
};

static double stock_of(const struct mem_obs *o)
{
	return o->usage - (o->anon + o->file + o->kernel);
}

static int stock_observe(struct vrun *run, const struct vmem_params *p,
			 struct stock_obs *so, char *reason, size_t len)
{
	const struct cgctl_mount *m;
	struct vwork w = { .pid = -1 };
	const char *path;
	char line[128];
	int err;

	err = vscratch_create(run, "memory", NULL, "stock", &m, &path, reason, len);
	if (err >= 0)
		err = start_touch(run, m, path, p->pages, p->cpu, &w, reason, len);
	if (err >= 0)
		err = drain(run, m, path, reason, len);
	if (err >= 0)
		err = mem_read(run, m, path, &so->before, reason, len);
	if (err >= 0)
		err = vwork_send(&w, "go\n");
	if (err >= 0)
		err = vwork_expect(run, &w, "done", line, sizeof(line), 20000, reason, len);
	if (err >= 0)
		err = mem_read(run, m, path, &so->after, reason, len);
	if (err >= 0)
		err = drain(run, m, path, reason, len);
	if (err >= 0)
		err = mem_read(run, m, path, &so->drained, reason, len);
	if (err >= 0)
		err = vwork_finish(run, &w, 5000, reason, len);
	vwork_kill(run, &w);
	return err;
}

static int stock_run(struct vrun *run, const struct vscenario *s, struct vsample *out,
		     char *reason, size_t len)
{
	const struct vmem_params *p = s->params;
	unsigned int cpu = p->cpu >= 0 ? (unsigned int)p->cpu : 0;
	struct cgctl_memcg_state st, dr;
	struct cgctl_memcg_tree *t = NULL;
	const struct cgctl_mount *m;
	struct stock_obs so;
	double bound = 0;
	int id, err;
	size_t i;

	err = stock_observe(run, p, &so, reason, len);
	if (err < 0)
		return err;
	cgctl_mount_find(run->ctx, "memory", &m);
	err = model_new(run, m, &t, reason, len);
	if (err < 0)
		return err;
	/* the workload's pages plus the kernel pages charged meanwhile (page tables, ...) */
	err = id = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	if (err >= 0)
		err = charge_pages(t, id, cpu, p->pages + so.after.kernel - so.before.kernel, NULL,
				   NULL);
	if (err >= 0)
		err = cgctl_memcg_get(t, id, &st);
	if (err >= 0)
		err = (int)MIN(cgctl_memcg_drain_all(t, id), 0);
	if (err >= 0)
		err = cgctl_memcg_get(t, id, &dr);
	cgctl_memcg_tree_free(t);
	if (err < 0) {
		snprintf(reason, len, "memcg model: %s", strerror(-err));
		return err;
	}
	/* unpinned, the faults may run on any CPU and strand a partial batch on each */
	if (p->cpu < 0)
		bound = (double)cgctl_memcg_stock_max_pages(run->model_kver, run->ncpu, 1);
	for (i = 0; i < vscenario_nq(s); i++) {
		const char *n = s->q[i].name;

		if (strcmp(n, "usage_delta") == 0)
			set(&out[i], so.after.usage - so.before.usage, (double)st.memory.usage, bound);
		else if (strcmp(n, "stock") == 0)
			set(&out[i], stock_of(&so.after), (double)st.stock, bound);
		else if (strcmp(n, "stock_after_drain") == 0)
			set(&out[i], stock_of(&so.drained), (double)dr.stock, 0);
	}
	return 0;
}

/*
 * ---- stock across memcgs: one CPU charges @memcgs groups in turn ----
 * The workload, pinned, faults in @pages in the first group, is moved to the next (no
 * charge moves: 6.13+ has no move_charge, and it is off before), faults in @pages more,
 * and so on.  Each group's usage passes its pages by what the CPU's stock keeps of its
 * last batch: 6.16+ keeps up to NR_MEMCG_STOCK = 7 groups per CPU, so every group
 * keeps its remainder; before, one, so refilling the next group's stock drains the
 * previous one's (refill_stock() -> drain_stock()).
 */
#define SM_MAX 7

struct sm_obs {
	struct mem_obs before[SM_MAX], after[SM_MAX];
};

static int sm_step(struct vrun *run, const struct cgctl_mount *m, const char *path,
		   struct vwork *w, bool move, struct mem_obs *before, char *reason,
		   size_t len)
{
	char pid[16], line[128];
	int err = 0;

	snprintf(pid, sizeof(pid), "%d", (int)w->pid);
	if (move)
		err = vcg_write(run, m, path, "cgroup.procs", pid, reason, len);
	if (err >= 0)
		err = mem_read(run, m, path, before, reason, len);
	if (err >= 0)
		err = vwork_send(w, "go\n");
	if (err >= 0)
		err = vwork_expect(run, w, "done", line, sizeof(line), 20000, reason, len);
	return err;
}

static int sm_observe(struct vrun *run, const struct vmem_params *p, struct sm_obs *o,
		      char *reason, size_t len)
{
	struct vwork_spec ws = {.cpu = p->cpu};
	struct vwork w = {.pid = -1};
	const struct cgctl_mount *m = NULL;
	const char *path[SM_MAX];
	char n[16], k[16], line[128];
	int err = 0;

	for (unsigned int i = 0; i < p->memcgs && err >= 0; i++)
		err = vscratch_create(run, "memory", NULL, "stockmc", &m, &path[i], reason,
				      len);
	if (err < 0)
		return err;
	snprintf(n, sizeof(n), "%u", p->pages);
	snprintf(k, sizeof(k), "%u", p->memcgs);
	ws.m[0] = m;
	ws.path[0] = path[0];
	ws.argv[0] = "touch-steps";
	ws.argv[1] = n;
	ws.argv[2] = k;
	err = vwork_start(run, &ws, &w, reason, len);
	if (err >= 0)
		err = vwork_expect(run, &w, "ready", line, sizeof(line), 10000, reason, len);
	/* the first group's stock holds what is left of the workload's start: drain it */
	if (err >= 0)
		err = drain(run, m, path[0], reason, len);
	for (unsigned int i = 0; i < p->memcgs && err >= 0; i++)
		err = sm_step(run, m, path[i], &w, i > 0, &o->before[i], reason, len);
	for (unsigned int i = 0; i < p->memcgs && err >= 0; i++)
		err = mem_read(run, m, path[i], &o->after[i], reason, len);
	if (err >= 0)
		err = vwork_finish(run, &w, 5000, reason, len);
	vwork_kill(run, &w);
	return err;
}

static int sm_run(struct vrun *run, const struct vscenario *s, struct vsample *out,
		  char *reason, size_t len)
{
	const struct vmem_params *p = s->params;
	unsigned int cpu = p->cpu >= 0 ? (unsigned int)p->cpu : 0;
	struct cgctl_memcg_state st[SM_MAX];
	struct cgctl_memcg_tree *t = NULL;
	const struct cgctl_mount *m;
	double usage_obs = 0, usage_pred = 0;
	struct sm_obs o;
	int id[SM_MAX], err;

	if (p->memcgs < 2 || p->memcgs > SM_MAX || p->cpu < 0) {
		snprintf(reason, len, "scenario: 2..%d memcgs, pinned", SM_MAX);
		return -EINVAL;
	}
	memset(&o, 0, sizeof(o));
	err = sm_observe(run, p, &o, reason, len);
	if (err < 0)
		return err;
	cgctl_mount_find(run->ctx, "memory", &m);
	err = model_new(run, m, &t, reason, len);
	for (unsigned int i = 0; i < p->memcgs && err >= 0; i++)
		err = id[i] = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	/* in turn, each group's pages and the kernel pages charged to it meanwhile */
	for (unsigned int i = 0; i < p->memcgs && err >= 0; i++)
		err = charge_pages(t, id[i], cpu,
				   p->pages + o.after[i].kernel - o.before[i].kernel, NULL,
				   NULL);
	for (unsigned int i = 0; i < p->memcgs && err >= 0; i++)
		err = cgctl_memcg_get(t, id[i], &st[i]);
	cgctl_memcg_tree_free(t);
	if (err < 0) {
		snprintf(reason, len, "memcg model: %s", strerror(-err));
		return err;
	}
	for (unsigned int i = 0; i < p->memcgs; i++) {
		usage_obs += o.after[i].usage - o.before[i].usage;
		usage_pred += (double)st[i].memory.usage;
	}
	for (size_t i = 0; i < vscenario_nq(s); i++) {
		const char *q = s->q[i].name;
		unsigned int last = p->memcgs - 1;

		if (strcmp(q, "usage_delta") == 0)
			set(&out[i], usage_obs, usage_pred, 0);
		else if (strcmp(q, "stock_first") == 0)
			set(&out[i], stock_of(&o.after[0]), (double)st[0].stock, 0);
		else if (strcmp(q, "stock_last") == 0)
			set(&out[i], stock_of(&o.after[last]), (double)st[last].stock, 0);
	}
	return 0;
}

/* ---- hierarchy limit: which level fails, watermarks, OOM ---- */
struct hier_obs {
	struct mem_obs parent, child;
	double baseline;	/* child usage before the touch, pages */
	bool killed;
};

static int hier_setup(struct vrun *run, const struct vmem_params *p,
		      const struct cgctl_mount **m, const char **pp, const char **cp,
		      char *reason, size_t len)
{
	char v[32];
	int err;

	err = vscratch_create(run, "memory", NULL, "limit", m, pp, reason, len);
	if (err < 0)
		return err;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)p->parent_limit_pages * 4096ULL);
	err = vcg_write(run, *m, *pp, limit_file(*m), v, reason, len);
	if (err < 0)
		return err;
	return vscratch_create(run, "memory", *pp, "leaf", m, cp, reason, len);
}

static int hier_observe(struct vrun *run, const struct vmem_params *p, struct hier_obs *h,
			char *reason, size_t len)
{
	const struct cgctl_mount *m;
	struct vwork w = { .pid = -1 };
	const char *pp, *cp;
	struct mem_obs o;
	char line[128];
	int err;

	err = hier_setup(run, p, &m, &pp, &cp, reason, len);
	if (err >= 0)
		err = start_touch(run, m, cp, p->pages, p->cpu, &w, reason, len);
	if (err >= 0)
		err = mem_read(run, m, cp, &o, reason, len);
	h->baseline = o.usage;
	if (err >= 0)
		err = vwork_send(&w, "go\n");
	if (err >= 0) {
		err = vwork_expect(run, &w, "done", line, sizeof(line), 30000, reason, len);
		h->killed = err == -ECHILD && WIFSIGNALED(w.status) &&
			    WTERMSIG(w.status) == SIGKILL;
		if (h->killed)
			err = 0;
	}
	vwork_kill(run, &w);
	if (err >= 0)
		err = mem_read(run, m, pp, &h->parent, reason, len);
	if (err >= 0)
		err = mem_read(run, m, cp, &h->child, reason, len);
	return err;
}

static int hier_model(struct vrun *run, const struct vmem_params *p, const struct hier_obs *h,
		      struct cgctl_memcg_state *ps, struct cgctl_memcg_state *cs, bool *killed,
		      char *reason, size_t len)
{
	struct cgctl_memcg_charge_opts o = { 0 };	/* anon, no swap: nothing to reclaim */
	struct cgctl_memcg_charge_result res = { .over = -1 };
	unsigned int cpu = p->cpu >= 0 ? (unsigned int)p->cpu : 0;
	struct cgctl_memcg_tree *t = NULL;
	const struct cgctl_mount *m;
	int pid = -1, cid = -1, err;

	cgctl_mount_find(run->ctx, "memory", &m);
	err = model_new(run, m, &t, reason, len);
	if (err < 0)
		return err;
	err = pid = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	if (err >= 0)
		err = cgctl_memcg_set_limit(t, pid, CGCTL_MEMCG_MEMORY, p->parent_limit_pages,
					    NULL, NULL);
	if (err >= 0)
		err = cid = cgctl_memcg_create(t, pid);
	if (err >= 0)
		err = charge_pages(t, cid, cpu, h->baseline, &o, &res);
	if (err >= 0)
		err = charge_pages(t, cid, cpu, p->pages, &o, &res);
	*killed = err == -ENOMEM || res.ooms > 0;
	if (err == -ENOMEM)
		err = 0;
	if (err >= 0)
		err = cgctl_memcg_get(t, pid, ps);
	if (err >= 0)
		err = cgctl_memcg_get(t, cid, cs);
	cgctl_memcg_tree_free(t);
	if (err < 0)
		snprintf(reason, len, "memcg model: %s", strerror(-err));
	return err;
}

static int hier_run(struct vrun *run, const struct vscenario *s, struct vsample *out,
		    char *reason, size_t len)
{
	const struct vmem_params *p = s->params;
	const struct cgctl_mount *m;
	struct cgctl_memcg_state ps, cs;
	double lim = p->parent_limit_pages;
	struct hier_obs h = { 0 };
	bool killed;
	size_t i;
	int err;

	err = hier_observe(run, p, &h, reason, len);
	if (err >= 0)
		err = hier_model(run, p, &h, &ps, &cs, &killed, reason, len);
	if (err < 0)
		return err;
	cgctl_mount_find(run->ctx, "memory", &m);
	for (i = 0; i < vscenario_nq(s); i++) {
		const char *n = s->q[i].name;

		if (m->version == 2 && strstr(n, "failcnt")) {
			out[i].na = true;
			snprintf(out[i].reason, sizeof(out[i].reason), "cgroup v2 has no failcnt");
		} else if (strcmp(n, "parent_failcnt_positive") == 0) {
			set(&out[i], h.parent.failcnt > 0, ps.memory.failcnt > 0, 0);
		} else if (strcmp(n, "child_failcnt") == 0) {
			set(&out[i], h.child.failcnt, (double)cs.memory.failcnt, 0);
		} else if (strcmp(n, "parent_watermark") == 0) {
			set(&out[i], h.parent.watermark, (double)ps.memory.watermark, 0);
		} else if (strcmp(n, "child_watermark_over_limit") == 0) {
			set(&out[i], h.child.watermark - lim, (double)cs.memory.watermark - lim, 0);
		} else if (strcmp(n, "oom_killed") == 0) {
			set(&out[i], h.killed, killed, 0);
		}
	}
	return 0;
}

static int mem_run_once(struct vrun *run, const struct vscenario *s, struct vsample *out,
			char *reason, size_t len)
{
	const struct vmem_params *p = s->params;

	if (p->kind == VMEM_HIER_LIMIT)
		return hier_run(run, s, out, reason, len);
	if (p->kind == VMEM_STOCK_MEMCGS)
		return sm_run(run, s, out, reason, len);
	return stock_run(run, s, out, reason, len);
}

const struct vdriver vdriver_mem = {
	.applies = mem_applies,
	.run_once = mem_run_once,
};
