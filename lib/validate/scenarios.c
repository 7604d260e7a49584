/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The built-in scenarios: data only (settings, workload, quantities with their tolerance
 * rules); the drivers in drv-*.c run them.  Tolerances state what the kernel's own
 * granularity makes unpredictable (a tick, a charge batch, stat lag); anything the
 * engine models must come out inside them.  Kept short: the whole default run aims at
 * well under a minute on two CPUs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/num.h"
#include "validate/validate.h"
#include "validate/scenarios.h"

#define MS 1000000.0	/* ns */

/*
 * Tolerances of cpu.stat figures: a tick (4 ms) per CPU per period boundary, and other
 * load on the machine, which the model does not see: kernel-cpu-bandwidth-model.md 6.5
 * measured throttled_time 9-13 % below the idle-machine prediction on a quiet box
 * (150 ms quota, 2 spinners); the scratch groups get the largest cpu.shares to keep it
 * there on a busy one.
 */
#define Q_PERIODS { "nr_periods", "count", 2, 0 }
#define Q_NR_THR { "nr_throttled", "count", 2, 0 }
#define Q_THR { "throttled_time", "ns", 30 * MS, 0.15 }
#define Q_LOCAL { "local_throttled_time", "ns", 30 * MS, 0.15 }
#define Q_USAGE { "usage", "ns", 20 * MS, 0.05 }
#define Q_OTHER { "other_load", "ppm", 0, 0 }	/* measured, reported as n/a */
#define Q_WAIT { "cpu_wait", "ns", 0, 0 }	/* measured (run_delay), reported as n/a */
/* measured where the kernel ran each thread, reported as n/a (not told to the model) */
#define Q_PLACE { "placement", "cpus", 0, 0 }

static const struct vbw_params bw_50_1 = { 50000, 100000, 0, 0, 1, 0, 0, 800, 300 };
static const struct vbw_params bw_50_2 = { 50000, 100000, 0, 0, 2, 0, 0, 800, 300 };
static const struct vbw_params bw_150_2 = { 150000, 100000, 0, 0, 2, 0, 0, 800, 300 };
/* 2 threads x 30 ms of CPU every 500 ms: 12 % average use against a 20 % quota */
static const struct vbw_params bw_duty = { 20000, 100000, 0, 0, 2, 30, 470, 1000, 300 };
/*
 * Bursts of exactly quota + burst (40 ms of CPU, which the worker makes 40.2) every
 * 400 ms under 20 ms quota + 20 ms burst: the credit plus the 1 ms a warm silo keeps
 * covers them; from the silos of a fresh write (run 1) they are throttled unless a
 * refill falls inside the burst.
 */
static const struct vbw_params bw_burst = { 20000, 100000, 20000, 0, 1, 40, 360, 1200, 300 };
/*
 * One thread whose busy phases are a little longer than the quota, long idle between:
 * each burst takes 25 ms from a pool of 40, so burst statistics count what the refill
 * in or after it sees (__refill_cfs_bandwidth_runtime()).
 */
static const struct vbw_params bw_burst_idle = { 20000, 100000, 20000, 0, 1, 25, 563, 4800, 300 };
/* burst credit shared by 2 threads on 2 CPUs: 2 x 18 ms every 400 ms, 20 + 20 ms */
static const struct vbw_params bw_burst_2t = { 20000, 100000, 20000, 0, 2, 18, 382, 1200, 300 };
/* nested limits, the child tighter: the child throttles itself, the parent never */
static const struct vbw_params bw_nested = { 30000, 100000, 0, 50000, 2, 0, 0, 800, 300 };
/* quota below the 5 ms slice: one grab drains the pool, the rest is debt */
static const struct vbw_params bw_small = { 3000, 100000, 0, 0, 1, 0, 0, 800, 300 };
/*
 * many short bursts on more threads than CPUs: 4 x (2 ms per 20 ms) under 30/100 ms.
 * Throttled time over-predicted (issue 32, open).  An ftrace of sched_switch/wakeup on
 * 6.18 (12% other load, 359 ms throttled) has the kernel's threads run 60% of their CPU
 * time beside another runnable worker (bursts of a pair in step, 4 ms long, each refill
 * resuming every parked thread at once); the model's, 43%: they drift into two waves of
 * one thread per CPU after a throttle that leaves one CPU's silo full, so bursts are
 * shorter, the cycle 20 ms rather than 22, and the quota is spent sooner.  Replayed with
 * the trace's placement and refill phase the model still predicts 481 ms.
 */
static const struct vbw_params bw_many = { 30000, 100000, 0, 0, 4, 2, 18, 1000, 300 };
/* the same class with shorter bursts: 6 x (1 ms per 12 ms) under 35/100 ms */
static const struct vbw_params bw_many_6t = { 35000, 100000, 0, 0, 6, 1, 11, 1000, 300 };
/* the parent's quota throttles an unlimited child: child cpu.stat 0, cpu.stat.local not */
static const struct vbw_params bw_parent = { 0, 100000, 0, 50000, 2, 0, 0, 800, 300 };

/*
 * Beside background load: two spinners in a sibling group compete with the workload by
 * CFS weights, which the model simulates (the group's share of each CPU, not its quota,
 * decides how fast it reaches the quota).  Two spinners under 80 ms/100 ms at equal
 * weight: half of each CPU, throttled late in each period.
 */
static const struct vbw_params bw_bg_spin = { 80000, 100000, 0, 0, 2, 0, 0, 800, 300,
					      2, 1024, 1024 };
/* short bursts beside two spinners: 2 threads of 2 ms per 8 ms idle under 30/100 ms */
static const struct vbw_params bw_bg_bursty = { 30000, 100000, 0, 0, 2, 2, 8, 1000, 300,
						2, 1024, 1024 };
/* weights varied: the group at shares 2048 against spinners at 1024 gets 2/3 of each
 * CPU, 133 ms per period against a 120 ms quota */
static const struct vbw_params bw_bg_weight = { 120000, 100000, 0, 0, 2, 0, 0, 800, 300,
						2, 2048, 1024 };
/* the quota rewritten while the spinner runs: 50 ms per 100 ms, then 20 ms from 500 ms
 * on (tg_set_cfs_bandwidth(): refill, the silos reset, the throttled unthrottled) */
static const struct vbw_params bw_rewrite = { 50000, 100000, 0, 0, 1, 0, 0, 1000, 300,
					      0, 0, 0, 500, 20000 };
/* siblings under a binding parent: the parent's 100 ms per 100 ms is one CPU for four
 * spinners, two in the limited child (80 ms), two in an unlimited sibling at equal
 * shares; the parent throttles both every period, the child about half of its quota */
static const struct vbw_params bw_siblings = { 80000, 100000, 0, 100000, 2, 0, 0, 800, 300,
					       2, 1024, 1024 };
/* issue 32's second class, a burst shared by several threads with long idle gaps: 4
 * threads of 6 ms every 500 ms under 30 ms/100 ms (24 ms a burst, within the quota) */
static const struct vbw_params bw_shared_burst = { 30000, 100000, 0, 0, 4, 6, 494, 3000, 300 };

static const struct vmem_params mem_pinned = { VMEM_STOCK, 4096, 0, 0 };
static const struct vmem_params mem_unpinned = { VMEM_STOCK, 4096, -1, 0 };
/* 4 memcgs in turn from CPU 0, 100 pages each: two batches, 28 pages left in the stock */
static const struct vmem_params mem_memcgs = { VMEM_STOCK_MEMCGS, 100, 0, 0, 4 };
/* 24 MiB touched under a 16 MiB parent: anon, no swap -> the parent fails, OOM kills */
static const struct vmem_params mem_hier = { VMEM_HIER_LIMIT, 6144, 0, 4096 };

static const struct vmove_params mv_anon = { VMOVE_ANON, 4096, 1 };
static const struct vmove_params mv_shared = { VMOVE_SHARED, 4096, 1 };
static const struct vmove_params mv_file = { VMOVE_FILE, 2048, 3 };
/* 8 MiB written, every other page mapped: the cached ones between move too (v6.1) */
static const struct vmove_params mv_file_sparse = { VMOVE_FILE, 2048, 2, 0, 2 };
/* ... every 1024th page mapped: only the 2 MiB ranges with a page table are walked */
static const struct vmove_params mv_file_tables = { VMOVE_FILE, 2048, 2, 0, 1024 };
static const struct vmove_params mv_refused = { VMOVE_REFUSED, 4096, 1 };
static const struct vmove_params mv_removed = { VMOVE_REMOVED, 4096, 1 };
/* 8 THPs (16 MiB): PMD-mapped ones move whole, PTE-mapped ones stay (v6.1) */
static const struct vmove_params mv_thp = { VMOVE_THP, 4096, 1, 0 };
static const struct vmove_params mv_thp_split = { VMOVE_THP, 4096, 1, 4 };
/* 16 MiB of anon, then A's limit lowered to 8 MiB: what reclaim swapped out moves its
 * swap charge (memsw) with bit 0, the resident rest moves whole (v6.1 mc_handle_swap_pte) */
static const struct vmove_params mv_anon_swap = { VMOVE_ANON, 4096, 1, 0, 0, 2048 };
/* 8 MiB of shmem (tmpfs), then A's limit lowered to 4 MiB: the swapped-out part moves
 * neither page nor swap charge since 5.10 (mc_handle_file_pte: find_get_incore_page()
 * finds only swap-cache pages) */
static const struct vmove_params mv_shmem_swap = { VMOVE_FILE, 2048, 3, 0, 0, 1024 };
/* usage of A and B also moves by the kernel pages of the attach and the stock: a batch */
#define Q_FROM { "from_usage_change", "pages", 64, 0.02 }
#define Q_TO { "to_usage_change", "pages", 64, 0.02 }
#define Q_FROM_SW { "from_memsw_change", "pages", 64, 0.02 }
#define Q_TO_SW { "to_memsw_change", "pages", 64, 0.02 }

static const struct vrss_params rss = { 4103, 2 };

/* ---- memhigh: cgroup v2 memory.high scenarios (drv-memhigh.c) ---- */
/* 48 MiB of clean file read 128K at a time under a 16 MiB high */
static const struct vmemhigh_params mh_file = { VMH_FILE, 4096, 0, 0, 12288, 0, 32 };
/* 10 MiB of anon under an 8 MiB high, no swap: throttled, never reclaimed */
static const struct vmemhigh_params mh_anon = { VMH_ANON, 2048, 0, 0, 2560, 0, 0 };
/* 24 MiB of anon under an 8 MiB high with swap: swapped out down to the high */
static const struct vmemhigh_params mh_swap = { VMH_SWAP, 2048, 0, 0, 6144, 0, 0 };
/* A (low 16 MiB) reads 15 MiB, then B reads 48 MiB under the parent's 32 MiB max */
static const struct vmemhigh_params mh_prot = { VMH_PROTECT, 0, 8192, 4096, 12288, 3840, 32 };
/* a charge batch (64 pages) is the granularity of memory.current above high; a throttled
 * return counts 17 high events; the sleep is whole jiffies (4 ms) */
#define Q_MH_PEAK { "peak_over_high", "pages", 64, 0 }
#define Q_MH_END { "end_over_high", "pages", 64, 0 }
/* ---- end memhigh ---- */

static const struct vscenario scenarios[] = {
	{ "mem-stock-pinned", "16 MiB charged from one CPU: batches, per-cpu stock, drain",
	  &vdriver_mem, &mem_pinned,
	  { { "usage_delta", "pages", 4, 0 }, { "stock", "pages", 4, 0 },
	    { "stock_after_drain", "pages", 2, 0 } } },
	{ "mem-stock-unpinned", "16 MiB charged from any CPU: stock within its bound, drain",
	  &vdriver_mem, &mem_unpinned,
	  { { "usage_delta", "pages", 4, 0 }, { "stock", "pages", 4, 0 },
	    { "stock_after_drain", "pages", 2, 0 } } },
	{ "mem-stock-memcgs", "400 KiB charged from one CPU to each of 4 memcgs in turn: "
	  "stock slots", &vdriver_mem, &mem_memcgs,
	  { { "usage_delta", "pages", 4, 0 }, { "stock_first", "pages", 4, 0 },
	    { "stock_last", "pages", 4, 0 } } },
	{ "mem-hier-limit", "24 MiB under a 16 MiB parent: failcnt on the parent, watermarks, OOM",
	  &vdriver_mem, &mem_hier,
	  { { "parent_failcnt_positive", "bool", 0, 0 }, { "child_failcnt", "count", 0, 0 },
	    { "parent_watermark", "pages", 1, 0 },
	    { "child_watermark_over_limit", "pages", 4, 0 }, { "oom_killed", "bool", 0, 0 } } },
	{ "move-anon", "move charge (bit 0) of 16 MiB of anon pages only the task maps",
	  &vdriver_move, &mv_anon, { Q_FROM, Q_TO, { "attach_refused", "bool", 0, 0 } } },
	{ "move-shared", "move charge of 16 MiB of anon pages shared (COW) with a child",
	  &vdriver_move, &mv_shared, { Q_FROM, Q_TO } },
	{ "move-file", "move charge (bit 1) of 8 MiB of mapped file pages", &vdriver_move,
	  &mv_file, { Q_FROM, Q_TO } },
	{ "move-file-sparse", "move charge (bit 1) of an 8 MiB cached file, every other page "
	  "mapped: all move", &vdriver_move, &mv_file_sparse, { Q_FROM, Q_TO } },
	{ "move-file-tables", "move charge (bit 1) of an 8 MiB cached file, 2 pages mapped: "
	  "the 2 MiB ranges with a page table move", &vdriver_move, &mv_file_tables,
	  { Q_FROM, Q_TO } },
	{ "move-thp", "move charge (bit 0) of 8 PMD-mapped THPs (16 MiB): each moves whole",
	  &vdriver_move, &mv_thp, { Q_FROM, Q_TO } },
	{ "move-thp-split", "move charge of 8 THPs, 4 of them PTE-mapped after mprotect: "
	  "those stay", &vdriver_move, &mv_thp_split, { Q_FROM, Q_TO } },
	{ "move-anon-swap", "move charge (bit 0) of 16 MiB of anon pages, half swapped out: "
	  "the swap charges move too", &vdriver_move, &mv_anon_swap,
	  { Q_FROM, Q_TO, Q_FROM_SW, Q_TO_SW } },
	{ "move-shmem-swap", "move charge (bit 1) of 8 MiB of shmem, half swapped out: "
	  "the swapped part stays", &vdriver_move, &mv_shmem_swap,
	  { Q_FROM, Q_TO, Q_FROM_SW, Q_TO_SW } },
	{ "move-refused", "move charge refused: destination limit below the charge to move",
	  &vdriver_move, &mv_refused,
	  { { "attach_refused", "bool", 0, 0 }, Q_FROM, Q_TO } },
	{ "move-removed", "no charge moving (6.13+): flags refused, charges stay behind",
	  &vdriver_move, &mv_removed,
	  { { "flags_refused", "bool", 0, 0 }, { "attach_refused", "bool", 0, 0 },
	    { "from_usage_change", "pages", 8, 0 }, { "to_usage_change", "pages", 8, 0 } } },
	{ "rss-bound", "/proc RSS figures of a 2-thread process within the counter error bound",
	  &vdriver_rss, &rss,
	  { { "status_vmrss_error", "pages", 0, 0 }, { "stat_rss_error", "pages", 0, 0 } } },
	{ "pcp-lists", "per-cpu page list batch and high limits of every zone", &vdriver_pcp,
	  NULL,
	  { { "batch", "pages", 0, 0 }, { "high_min", "pages", 0, 0 },
	    { "high_max", "pages", 0, 0 }, { "batch_mismatches", "count", 0, 0 },
	    { "high_outside_range", "count", 0, 0 }, { "limit_mismatches", "count", 0, 0 } } },
	{ "bw-quota-50-1t", "CPU quota 50ms/100ms, 1 spinning thread", &vdriver_bw, &bw_50_1,
	  { Q_PERIODS, Q_NR_THR, Q_THR, Q_LOCAL, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-quota-50-2t", "CPU quota 50ms/100ms, 2 spinning threads", &vdriver_bw, &bw_50_2,
	  { Q_PERIODS, Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-quota-150-2t", "CPU quota 150ms/100ms, 2 spinning threads", &vdriver_bw,
	  &bw_150_2, { Q_PERIODS, Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-duty", "2 duty-cycle threads (30ms per 500ms) throttled under 20ms/100ms",
	  &vdriver_bw, &bw_duty,
	  { Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-burst", "burst credit: 40ms bursts under 20ms/100ms quota + 20ms burst",
	  &vdriver_bw, &bw_burst,
	  { Q_NR_THR, { "nr_bursts", "count", 1, 0 }, { "burst_time", "ns", 5 * MS, 0.10 },
	    Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-burst-idle", "25ms busy phases, 575ms idle, under 20ms/100ms quota + 20ms burst",
	  &vdriver_bw, &bw_burst_idle,
	  { Q_NR_THR, { "nr_bursts", "count", 1, 0 }, { "burst_time", "ns", 5 * MS, 0.10 },
	    Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-burst-2t", "burst credit shared by 2 threads: 18ms each every 400ms, 20+20ms",
	  &vdriver_bw, &bw_burst_2t,
	  { Q_NR_THR, { "nr_bursts", "count", 1, 0 }, { "burst_time", "ns", 5 * MS, 0.10 },
	    Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-nested", "child 30ms/100ms under parent 50ms/100ms, 2 spinning threads",
	  &vdriver_bw, &bw_nested,
	  { { "parent.nr_throttled", "count", 2, 0 }, Q_NR_THR, Q_THR, Q_LOCAL, Q_USAGE,
	    Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-small-quota", "CPU quota 3ms/100ms, below the 5ms slice, 1 spinning thread",
	  &vdriver_bw, &bw_small, { Q_PERIODS, Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-many-bursts", "4 threads on 2 CPUs, 2ms busy per 20ms, under 30ms/100ms",
	  &vdriver_bw, &bw_many, { Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-many-bursts-6t", "6 threads on 2 CPUs, 1ms busy per 12ms, under 35ms/100ms",
	  &vdriver_bw, &bw_many_6t, { Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-parent", "parent quota 50ms/100ms throttles an unlimited child (2 threads)",
	  &vdriver_bw, &bw_parent,
	  { { "parent.nr_throttled", "count", 2, 0 }, { "parent.throttled_time", "ns", 30 * MS, 0.15 },
	    { "throttled_time", "ns", 1 * MS, 0 }, Q_LOCAL, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-bg-spin", "2 spinners under 80ms/100ms beside 2 spinners of a sibling, equal weight",
	  &vdriver_bw, &bw_bg_spin, { Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-bg-bursty", "2 threads of 2ms bursts under 30ms/100ms beside 2 spinners",
	  &vdriver_bw, &bw_bg_bursty, { Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-bg-weight", "2 spinners at cpu.shares 2048 under 120ms/100ms beside 2 at 1024",
	  &vdriver_bw, &bw_bg_weight, { Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-shared-burst", "4 threads of 6ms every 500ms under 30ms/100ms",
	  &vdriver_bw, &bw_shared_burst, { Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-rewrite", "1 spinner, quota 50ms/100ms rewritten to 20ms/100ms after 500ms",
	  &vdriver_bw, &bw_rewrite, { Q_PERIODS, Q_NR_THR, Q_THR, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	{ "bw-siblings", "2 spinners under 80ms/100ms beside 2 sibling spinners, parent 100ms/100ms",
	  &vdriver_bw, &bw_siblings,
	  { { "parent.nr_throttled", "count", 2, 0 }, { "parent.throttled_time", "ns", 30 * MS, 0.15 },
	    Q_THR, Q_LOCAL, Q_USAGE, Q_OTHER, Q_WAIT, Q_PLACE } },
	/* ---- memhigh: cgroup v2 memory.high (drv-memhigh.c) ---- */
	{ "memhigh-file", "48 MiB of page cache read under a 16 MiB memory.high", &vdriver_memhigh,
	  &mh_file,
	  { Q_MH_PEAK, Q_MH_END, { "events_high", "count", 4, 0.25 },
	    { "stall", "ns", 20 * MS, 0 } } },
	{ "memhigh-anon", "10 MiB of anon under an 8 MiB memory.high, no swap: throttled",
	  &vdriver_memhigh, &mh_anon,
	  { Q_MH_PEAK, { "events_high", "count", 17, 0 }, { "stall", "ns", 40 * MS, 0.10 },
	    { "wall", "ns", 100 * MS, 0.15 } } },
	{ "memhigh-swap", "24 MiB of anon under an 8 MiB memory.high with swap", &vdriver_memhigh,
	  &mh_swap,
	  { Q_MH_END, { "swap", "pages", 128, 0.05 }, { "events_high", "count", 4, 0.25 } } },
	{ "memhigh-protect", "memory.low of A against B's page cache under the parent's max",
	  &vdriver_memhigh, &mh_prot,
	  { { "a_current", "pages", 64, 0 }, { "b_current", "pages", 64, 0 },
	    { "a_events_low", "count", 2, 0 } } },
	/* ---- end memhigh ---- */
};

static struct cgctl_vscenario_info infos[ARRAY_SIZE(scenarios)];

size_t cgctl_validate_scenarios(const struct cgctl_vscenario_info **ret)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		infos[i].name = scenarios[i].name;
		infos[i].summary = scenarios[i].summary;
	}
	if (ret)
		*ret = infos;
	return ARRAY_SIZE(scenarios);
}

static const struct vscenario *find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++)
		if (strcmp(scenarios[i].name, name) == 0)
			return &scenarios[i];
	return NULL;
}

static int one(struct vrun *run, const struct vscenario *s, const struct vrun_opts *ro,
	       struct cgctl_vreport *r)
{
	struct cgctl_vscenario_result *res;
	int err;

	res = cgctl_vreport_add(r, s->name, s->summary, vscenario_nq(s));
	if (!res)
		return -ENOMEM;
	run->state = calloc(1, s->driver->state_size ? s->driver->state_size : 1);
	if (!run->state)
		return -ENOMEM;
	err = vrunner_run(run, s, ro, res);
	if (s->driver->cleanup)
		s->driver->cleanup(run, s);
	vrun_cleanup(run);
	free(run->state);
	run->state = NULL;
	return err;
}

static int select_all(const char *const *names, size_t n, const struct vscenario **sel,
		      size_t *nsel, struct cgctl_error *e)
{
	size_t i;

	*nsel = 0;
	if (!names || n == 0) {
		for (i = 0; i < ARRAY_SIZE(scenarios); i++)
			sel[(*nsel)++] = &scenarios[i];
		return 0;
	}
	for (i = 0; i < n; i++) {
		sel[*nsel] = find(names[i]);
		if (!sel[*nsel])
			return cgctl_error_set(e, ENOENT, "no scenario '%s' (see --list)",
					       names[i]);
		(*nsel)++;
	}
	return 0;
}

/* ---- --sweep: random configurations from documented ranges (cgctl-validate(1)) ---- */

/* One generated case: the scenario and the storage it points into. */
struct sweep_case {
	struct vscenario s;
	union {
		struct vbw_params bw;
		struct vmem_params mem;
		struct vmove_params mv;
	} p;
	char name[48], summary[128];
};

/* uniform in [lo, hi]; a case is a function of its seed alone, so it replays */
static unsigned int pick(uint64_t *x, unsigned int lo, unsigned int hi)
{
	return lo + (unsigned int)(cgctl_splitmix64(x) % ((uint64_t)hi - lo + 1));
}

/* period 20-200 ms; 1 to CPUs+1 threads, spinning (40%) or 2-40 ms busy / 5-200 ms idle;
 * quota from a tenth of the period to 1.2 periods per runnable CPU (1 ms steps); a burst
 * up to the quota in 30%; two nice-0 spinners in a sibling group in 25% */
static void draw_bw(struct sweep_case *c, uint64_t *x, unsigned int ncpu)
{
	struct vbw_params *b = &c->p.bw;
	unsigned int period_ms = pick(x, 20, 200), busy;
	unsigned int lo, hi;

	memset(b, 0, sizeof(*b));
	b->period_us = period_ms * 1000ull;
	b->threads = pick(x, 1, ncpu + 1);
	lo = period_ms / 10 ? period_ms / 10 : 1;
	hi = period_ms * (b->threads < ncpu ? b->threads : ncpu) * 6 / 5;
	b->quota_us = pick(x, lo, hi) * 1000ull;
	if (pick(x, 1, 10) <= 3)
		b->burst_us = pick(x, 0, (unsigned int)(b->quota_us / 1000)) * 1000ull;
	busy = pick(x, 1, 10) <= 4 ? 0 : pick(x, 2, 40);
	b->busy_ms = busy;
	b->idle_ms = busy ? pick(x, 5, 200) : 0;
	b->dur_ms = 1000;
	b->settle_ms = 300;
	if (pick(x, 1, 4) == 1) {
		b->bg_threads = 2;
		b->shares = 1024;
		b->bg_shares = 1024;
	}
	snprintf(c->summary, sizeof(c->summary),
		 "bw: quota %llums/%ums, burst %llums, %u threads %s%u/%ums, bg %u",
		 (unsigned long long)(b->quota_us / 1000), period_ms,
		 (unsigned long long)(b->burst_us / 1000), b->threads, busy ? "" : "spin ",
		 busy, b->idle_ms, b->bg_threads);
	c->s.driver = &vdriver_bw;
	c->s.params = b;
	c->s.q[0] = (struct vq_def)Q_PERIODS;
	c->s.q[1] = (struct vq_def)Q_NR_THR;
	c->s.q[2] = (struct vq_def)Q_THR;
	c->s.q[3] = (struct vq_def)Q_USAGE;
}

/* 256-8192 pages (1 MiB steps), pinned to a random CPU or not */
static void draw_mem(struct sweep_case *c, uint64_t *x, unsigned int ncpu)
{
	struct vmem_params *m = &c->p.mem;

	memset(m, 0, sizeof(*m));
	m->kind = VMEM_STOCK;
	m->pages = pick(x, 1, 32) * 256;
	m->cpu = pick(x, 0, 1) ? (int)pick(x, 0, ncpu - 1) : -1;
	snprintf(c->summary, sizeof(c->summary), "mem: %u pages charged, cpu %d", m->pages,
		 m->cpu);
	c->s.driver = &vdriver_mem;
	c->s.params = m;
	c->s.q[0] = (struct vq_def){ "usage_delta", "pages", 4, 0 };
	c->s.q[1] = (struct vq_def){ "stock", "pages", 4, 0 };
	c->s.q[2] = (struct vq_def){ "stock_after_drain", "pages", 2, 0 };
}

/* anon, shared with a child, a tmpfs file (all mapped, or every 2nd-7th page), THPs
 * (some PMDs split); 256-4096 pages; move bits 1-3; half to swap in a third of the
 * cases (n/a without swap) */
static void draw_move(struct sweep_case *c, uint64_t *x)
{
	static const char *const kn[] = { "anon", "shared", "file", "thp" };
	static const enum vmove_kind kk[] = { VMOVE_ANON, VMOVE_SHARED, VMOVE_FILE,
					      VMOVE_THP };
	struct vmove_params *m = &c->p.mv;
	unsigned int k = pick(x, 0, 3);

	memset(m, 0, sizeof(*m));
	m->kind = kk[k];
	m->pages = pick(x, 1, 16) * 256;
	m->flags = pick(x, 1, 3);
	if (m->kind == VMOVE_FILE && pick(x, 0, 1))
		m->stride = pick(x, 2, 7);
	if (m->kind == VMOVE_THP) {
		m->pages = pick(x, 1, 8) * 512;
		m->split = pick(x, 0, m->pages / 512);
	}
	if (m->kind != VMOVE_SHARED && m->kind != VMOVE_THP && pick(x, 1, 3) == 1)
		m->squeeze = m->pages / 2;
	snprintf(c->summary, sizeof(c->summary),
		 "move: %s, %u pages, bits %u, stride %u, split %u, squeeze %u", kn[k],
		 m->pages, m->flags, m->stride, m->split, m->squeeze);
	c->s.driver = &vdriver_move;
	c->s.params = m;
	c->s.q[0] = (struct vq_def)Q_FROM;
	c->s.q[1] = (struct vq_def)Q_TO;
	if (m->squeeze) {
		c->s.q[2] = (struct vq_def)Q_FROM_SW;
		c->s.q[3] = (struct vq_def)Q_TO_SW;
	}
}

static void draw_case(struct sweep_case *c, uint64_t seed, unsigned int kinds,
		      unsigned int ncpu)
{
	static const char *const names[] = { "bw", "mem", "move" };
	unsigned int avail[3], n = 0, k;
	uint64_t x = seed;

	for (k = 0; k < 3; k++)
		if (kinds & (1u << k))
			avail[n++] = k;
	k = avail[cgctl_splitmix64(&x) % n];
	memset(&c->s, 0, sizeof(c->s));
	if (k == 0)
		draw_bw(c, &x, ncpu);
	else if (k == 1)
		draw_mem(c, &x, ncpu);
	else
		draw_move(c, &x);
	snprintf(c->name, sizeof(c->name), "sweep-%s-%llu", names[k],
		 (unsigned long long)seed);
	c->s.name = c->name;
	c->s.summary = c->summary;
}

static int sweep(struct vrun *run, const struct cgctl_validate_opts *o,
		 const struct vrun_opts *ro, struct cgctl_vreport *r)
{
	unsigned int kinds = o->sweep_kinds ? o->sweep_kinds : CGCTL_VSWEEP_ALL;
	struct sweep_case *c = malloc(sizeof(*c));
	int err = 0;

	if (!c)
		return -ENOMEM;
	for (unsigned int i = 0; err >= 0 && i < o->sweep; i++) {
		draw_case(c, o->seed + i, kinds, run->ncpu);
		err = one(run, &c->s, ro, r);
		if (err >= 0 && o->done)
			o->done(o->progress_data, r);
	}
	free(c);
	return err;
}

int cgctl_validate_run(struct cgctl_ctx *ctx, const struct cgctl_validate_opts *o,
		       const char *const *names, size_t n_names,
		       struct cgctl_vreport **ret, struct cgctl_error *e)
{
	const struct vscenario **sel;
	struct cgctl_vreport *r = NULL;
	struct vrun_opts ro;
	struct vrun run;
	size_t i, nsel;
	int err;

	if (!ctx || !o || !ret || o->runs == 0 || o->runs > 1000)
		return cgctl_error_set(e, EINVAL, "runs must be 1..1000");
	if (o->sweep && n_names)
		return cgctl_error_set(e, EINVAL, "a sweep draws its own scenarios: no names");
	if (o->sweep > 10000 || (o->sweep_kinds & ~CGCTL_VSWEEP_ALL))
		return cgctl_error_set(e, EINVAL, "sweep: 1..10000 cases of bw, mem, move");
	sel = calloc(n_names + ARRAY_SIZE(scenarios), sizeof(*sel));
	if (!sel)
		return -ENOMEM;
	err = select_all(names, n_names, sel, &nsel, e);
	if (err >= 0)
		err = vrun_init(&run, ctx, o, e);
	if (err >= 0)
		err = cgctl_vreport_new(&r, run.release, "host", o->runs);
	ro = (struct vrun_opts){ o->runs, o->cancel, o->progress, o->progress_data };
	for (i = 0; err >= 0 && !o->sweep && i < nsel; i++) {
		err = one(&run, sel[i], &ro, r);
		if (err >= 0 && o->done)
			o->done(o->progress_data, r);
	}
	if (err >= 0 && o->sweep) {
		r->sweep = o->sweep;
		r->seed = o->seed;
		r->cpus = run.ncpu;
		err = sweep(&run, o, &ro, r);
	}
	free(sel);
	if (err < 0) {
		if (err == -EINTR)
			cgctl_error_set(e, EINTR, "interrupted; scratch cgroups removed");
		cgctl_vreport_free(r);
		return err;
	}
	r->verdict = vreport_verdict(r);
	*ret = r;
	return 0;
}
