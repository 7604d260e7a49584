/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the engine says about a bench configuration: the count of the mechanism the
 * experiment's patch changed, for the run as measured.  Everything comes from libcgctl's
 * models (lib/engine), driven through its API:
 *   - stock: the memcg tree (mm/memcontrol.c:try_charge_memcg(), consume_stock());
 *   - bandwidth: the CFS bandwidth simulator (kernel/sched/fair.c's pool and timer);
 *   - percpu_counter sums: cgctl_rss_read_cost() (mm RSS counters, 6.2+).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "libcgctl.h"
#include "bench/bench.h"

#define SIM_FAULTS 40		/* unmaps simulated per thread */

int bmodel_charges(const struct bmodel_in *in, double *per1000)
{
	unsigned int threads = in->threads ? in->threads : in->ncpu, t, ncpu = in->ncpu;
	struct cgctl_memcg_tree *tree;
	uint64_t misses = 0, charges = 0;
	int id = CGCTL_MEMCG_ROOT, err;

	*per1000 = 0;
	if (in->depth == 0 || in->unmap_pages == 0)
		return 0;	/* the root memcg is never charged */
	err = cgctl_memcg_tree_new(&tree, in->kver, ncpu ? ncpu : 1, in->v2 ? CGCTL_MEMCG_V2 : 0,
				   1);
	if (err < 0)
		return err;
	for (unsigned int d = 0; d < in->depth && id >= 0; d++)
		id = cgctl_memcg_create(tree, id);
	if (id < 0) {
		cgctl_memcg_tree_free(tree);
		return id;
	}
	/* each thread on its own CPU (threads beyond the CPUs share them in turn), one
	 * page a fault, the pages uncharged together at the unmap (or MADV_DONTNEED) */
	for (unsigned int f = 0; f < SIM_FAULTS * in->unmap_pages; f++) {
		for (t = 0; t < threads; t++) {
			struct cgctl_memcg_charge_result res;
			unsigned int cpu = t % ncpu;

			if (cgctl_memcg_charge(tree, id, cpu, 1, NULL, &res) < 0)
				continue;
			charges++;
			misses += !res.from_stock;
			if ((f + 1) % in->unmap_pages == 0)
				cgctl_memcg_uncharge(tree, id, cpu, in->unmap_pages, 0);
		}
	}
	cgctl_memcg_tree_free(tree);
	*per1000 = charges ? 1000.0 * (double)misses / (double)charges : 0;
	return 0;
}

/*
 * The pipe-test pair in the leaf group, placed as the workload saw it run.
 *
 * Apart (@in->pair_one_cpu false): two threads, each busy once per round trip (@in->ops)
 * for its half of the measured task-clock, asleep for the rest of it; each CPU's
 * runqueue of the group empties at every round trip and returns its runtime above
 * min_cfs_rq_runtime to the pool (dequeue_entity() -> return_cfs_rq_runtime()), so a CPU
 * asks the pool again after every 1 ms it runs.
 *
 * On one CPU (as the workload saw in nearly every run on 6.18: the wake-up is a sync
 * one and wake_affine() keeps the wakee on the waker's CPU): one of the two is always
 * runnable there, since each wakes the other before it blocks, so the group's runqueue
 * never empties and never returns runtime.  One thread always runnable, drawing the
 * task-clock over the wall time (the rest taken by other load), is that runqueue: it
 * asks the pool once per slice it spends (__assign_cfs_rq_runtime(), at most the pool's
 * quota), and the period timer goes idle in the periods between those requests
 * (do_sched_cfs_period_timer() returning idle with cfs_b->idle still set and nothing
 * throttled, sched_cfs_period_timer() clearing period_active, start_cfs_bandwidth()
 * restarting it from the next request; kernel/sched/fair.c, v6.1 to v6.18).  At a 1 ms
 * period and a 4 ms quota that is two firings per 4 ms of CPU: about half the periods
 * of a run at one CPU's worth of task-clock (6.18, 2026-12-06: 110 and 111 observed for
 * 439 and 213 ms runs of 30,000 round trips).
 *
 * Mostly on one CPU but not always (@in->stretches runs of round trips on one CPU, the
 * workload's count): between two stretches the pair ran apart or moved to another CPU,
 * so the runqueue it left emptied once and returned its runtime above
 * min_cfs_rq_runtime (dequeue_entity() -> return_cfs_rq_runtime(), v6.1 to v6.18); the
 * next stretch then asks the pool after 1 ms of CPU rather than after the slice it was
 * granted.  The runqueue is one thread busy for the task-clock shared out over the
 * stretches, asleep between them for the wall time of the round trips run apart (at
 * least 1 us: the empty moment), so the simulator returns the slack at each gap.
 */
static int sim_part(const struct bmodel_in *in, double *periods, double *refills)
{
	struct cgctl_bw_settings lv[CGCTL_BW_REPLAY_LEVELS];
	struct cgctl_bw_thread th[2] = { { 0 } };
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .kver = in->kver,
		.ncpus = in->ncpu, .slice_ns = in->slice_ns, .duration_ns = in->wall_ns,
		.seed = 1, .levels = lv, .list = th,
	};
	uint64_t phases = in->ops ? in->ops : 1, stretches = in->stretches, apart = 0;
	const struct cgctl_bw_stat *st = &res.st;
	int err;

	*periods = *refills = 0;
	if (!in->period_us || !in->wall_ns)
		return 0;
	if (in->pair_one_cpu) {
		uint64_t runs = in->wall_ns;

		sp.ncpus = 1;	/* the other CPUs see nothing of the group */
		if (stretches > 1) {
			apart = in->ops > in->colocated ?
				(uint64_t)((double)in->wall_ns * (double)(in->ops - in->colocated) /
					   (double)in->ops) : 0;
			if (apart < stretches * 1000)
				apart = stretches * 1000;
			runs = apart < in->wall_ns ? in->wall_ns - apart : 1;
		}
		/* the share of the CPU the group had while it was runnable there */
		if (in->task_ns < runs)
			sp.other_load_ppm = (uint32_t)(1000000 - 1000000 * in->task_ns / runs);
		if (sp.other_load_ppm >= 1000000)
			sp.other_load_ppm = 999999;
	}
	/* the leaf and its ancestors, each with the same limit (depth 0: one level) */
	for (sp.nlevels = 0; sp.nlevels < (in->depth ? in->depth : 1) &&
	     sp.nlevels < CGCTL_BW_REPLAY_LEVELS; sp.nlevels++)
		lv[sp.nlevels] = CGCTL_BW_SETTINGS(in->quota_us, in->period_us, 0);
	if (in->pair_one_cpu) {
		sp.nlist = 1;	/* always runnable */
		if (stretches > 1) {	/* runnable in stretches, empty between them */
			th[0].busy_ns = in->task_ns / stretches ? in->task_ns / stretches : 1;
			th[0].idle_ns = apart / (stretches - 1) ? apart / (stretches - 1) : 1;
		}
	}
	for (int i = 0; i < 2 && !in->pair_one_cpu; i++) {
		uint64_t busy = in->task_ns / 2 / phases;

		sp.nlist = 2;
		th[i] = (struct cgctl_bw_thread){
			.busy_ns = busy ? busy : 1,
			.idle_ns = in->wall_ns / phases > busy ? in->wall_ns / phases - busy : 1,
		};

		/* the two silos drain at the same pace but not in step: each keeps
		 * min_cfs_rq_runtime from its own first return, and the parent's pays
		 * for the fork before the child's first enqueue asks the pool
		 * (check_enqueue_throttle()); their phases are unrelated, half an
		 * interval between requests apart on average: the second end starts
		 * after the wall time in which the first one runs 0.5 ms */
		if (i == 1 && in->task_ns)
			th[i].start_ns = (uint64_t)fmin(500000.0 * (double)in->wall_ns /
							((double)in->task_ns / 2),
							(double)in->wall_ns / 2);
	}
	/* the one door into the simulation (cgctl_bw_replay()); what the workload's end
	 * reads is not changed by the settle time the replay runs after it */
	err = cgctl_bw_replay(&sp, &res, NULL);
	if (err >= 0) {
		uint64_t slice = in->slice_ns ? in->slice_ns : 5000000, grant = slice;

		*periods = st->nr_periods;
		/* each refill hands a CPU's silo at most one slice from the pool, at most
		 * what the pool holds, the quota (kernel/sched/fair.c:
		 * __assign_cfs_rq_runtime(), v6.1 to v6.18); apart, each runqueue keeps
		 * min_cfs_rq_runtime (1 ms) of it when it empties and asks again after
		 * that much (__return_cfs_rq_runtime()) */
		if (in->quota_us * 1000 < grant)
			grant = in->quota_us * 1000;
		if (!in->pair_one_cpu && grant > 1000000)
			grant = 1000000;
		*refills = ceil((double)st->usage_ns / (double)grant);
	}
	cgctl_bw_replay_result_free(&res);
	return err < 0 ? err : 0;
}

/*
 * The run as the workload saw it placed, round trip by round trip: its round trips on one
 * CPU (@in->colocated, in @in->stretches runs, @in->colocated_ns of wall time) read as
 * the one-CPU pair, the others as the pair apart, each simulated for its own share of
 * the wall time, and the periods of both added (the timer counts a period whichever
 * silo asked the pool in it).  The task-clock is shared by round trips, at most the
 * wall time of the one-CPU share to it.  Without the split (an older workload, or all
 * round trips one way) the majority reading (@in->pair_one_cpu) takes the whole run.
 */
int bmodel_bandwidth(const struct bmodel_in *in, double *periods, double *refills)
{
	struct bmodel_in c = *in, a = *in;
	double pc, rc, pa, ra, tc;
	int err;

	*periods = *refills = 0;
	if (!in->colocated_ns || !in->colocated || in->colocated >= in->ops ||
	    in->colocated_ns >= in->wall_ns)
		return sim_part(in, periods, refills);
	tc = in->colocated_task_ns ? (double)in->colocated_task_ns :
		(double)in->task_ns * (double)in->colocated / (double)in->ops;
	tc = fmin(fmin(tc, (double)in->colocated_ns), (double)in->task_ns);
	c.pair_one_cpu = true;
	c.ops = c.colocated = in->colocated;
	c.wall_ns = in->colocated_ns;
	c.task_ns = (uint64_t)tc;
	a.pair_one_cpu = false;
	a.ops = in->ops - in->colocated;
	a.colocated = a.stretches = 0;
	a.wall_ns = in->wall_ns - in->colocated_ns;
	a.task_ns = in->task_ns - c.task_ns;
	err = sim_part(&c, &pc, &rc);
	if (err >= 0)
		err = sim_part(&a, &pa, &ra);
	if (err < 0)
		return err;
	*periods = pc + pa;
	*refills = rc + ra;
	return 0;
}

double bmodel_read_cells(const struct bmodel_in *in)
{
	uint64_t cells = 0;

	if (strcmp(in->files, "statm") != 0)
		cells += cgctl_rss_read_cost(in->kver, in->ncpu, CGCTL_RSS_FILE_STAT, 1);
	if (strcmp(in->files, "stat") != 0)
		cells += cgctl_rss_read_cost(in->kver, in->ncpu, CGCTL_RSS_FILE_STATM, 1);
	return (double)cells;
}
