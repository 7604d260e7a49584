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
 * The pipe-test pair as two threads of the leaf group, each busy once per round trip
 * (@in->ops) for its half of the measured task-clock, asleep for the rest of it.
 */
int bmodel_bandwidth(const struct bmodel_in *in, double *periods, double *refills)
{
	struct cgctl_bw_sim_config cfg = {
		.kver = in->kver, .ncpus = in->ncpu, .slice_ns = in->slice_ns,
		.duration_ns = in->wall_ns, .seed = 1,
	};
	struct cgctl_bw_settings bw = { .quota_us = in->quota_us, .period_us = in->period_us };
	uint64_t phases = in->ops ? in->ops : 1;
	struct cgctl_bw_sim *sim = NULL;
	struct cgctl_bw_stat st;
	int g = -1, err;

	*periods = *refills = 0;
	if (!in->period_us || !in->wall_ns)
		return 0;
	err = cgctl_bw_sim_new(&sim, &cfg);
	if (err < 0)
		return err;
	for (unsigned int d = 0; d < (in->depth ? in->depth : 1) && err >= 0; d++)
		err = g = cgctl_bw_sim_add_group(sim, g, &bw);
	for (int i = 0; i < 2 && err >= 0; i++) {
		uint64_t busy = in->task_ns / 2 / phases;
		struct cgctl_bw_thread th = {
			.group = g, .busy_ns = busy ? busy : 1,
			.idle_ns = in->wall_ns / phases > busy ? in->wall_ns / phases - busy : 1,
		};

		err = cgctl_bw_sim_add_thread(sim, &th);
	}
	if (err >= 0)
		err = (int)cgctl_bw_sim_run(sim);
	if (err >= 0)
		err = cgctl_bw_sim_stat(sim, g, false, &st);
	if (err >= 0) {
		*periods = st.nr_periods;
		/* each refill hands a CPU's silo at most one slice from the pool
		 * (kernel/sched/fair.c:assign_cfs_rq_runtime(), v6.1) */
		*refills = ceil((double)st.usage_ns / (double)(in->slice_ns ? in->slice_ns :
								  5000000));
	}
	cgctl_bw_sim_free(sim);
	return err < 0 ? err : 0;
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
