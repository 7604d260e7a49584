/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Settings of the built-in scenarios, one struct per driver (see scenarios.c). */
#ifndef CGCTL_VALIDATE_SCENARIOS_H
#define CGCTL_VALIDATE_SCENARIOS_H

#include <stdint.h>

#include "validate/validate.h"

/* CPU bandwidth: quota in the workload's group, optionally a limited parent above it. */
struct vbw_params {
	uint64_t quota_us;		/* 0: unlimited */
	uint64_t period_us;
	uint64_t burst_us;
	uint64_t parent_quota_us;	/* 0: no limited parent */
	unsigned int threads;
	unsigned int busy_ms, idle_ms;	/* duty cycle; busy 0: spin */
	unsigned int dur_ms;		/* wall time of the workload */
	unsigned int settle_ms;		/* wait after it for trailing periods */
	/* background load: spinners in a sibling group that compete with the workload by
	 * CFS weights (the model simulates them: cgctl_bw_sim_set_weight()) */
	unsigned int bg_threads;	/* 0: none */
	uint32_t shares, bg_shares;	/* cpu.shares of the group and of the spinners' */
	/* a configuration write while the workload runs: the group's quota becomes
	 * rewrite_quota_us this long after the start (each run starts from quota_us) */
	unsigned int rewrite_ms;	/* 0: none */
	uint64_t rewrite_quota_us;
};

/* Memory charge: a workload touching anonymous pages in a fresh memory cgroup. */
enum vmem_kind {
	VMEM_STOCK,		/* charge batches and the per-cpu stock */
	VMEM_HIER_LIMIT,	/* limited parent, unlimited child: who fails, watermarks */
	VMEM_STOCK_MEMCGS,	/* one CPU charges several memcgs in turn: stock slots */
};
struct vmem_params {
	enum vmem_kind kind;
	unsigned int pages;		/* pages the workload touches */
	int cpu;			/* pin the workload; -1: not pinned */
	unsigned int parent_limit_pages;	/* VMEM_HIER_LIMIT */
	unsigned int memcgs;		/* VMEM_STOCK_MEMCGS: memcgs charged in turn */
};

/* Move charge at immigrate (v1 memory, 2.6.34 - 6.12) and its removal (6.13+). */
enum vmove_kind {
	VMOVE_ANON,		/* anon pages only mapped by the task */
	VMOVE_SHARED,		/* anon pages shared (COW) with a child that stays */
	VMOVE_FILE,		/* mapped file pages, bit 1 */
	VMOVE_REFUSED,		/* destination limit too small: the attach fails */
	VMOVE_REMOVED,		/* 6.13+: only 0 accepted, nothing moves */
	VMOVE_THP,		/* anon THPs, @split of them PTE-mapped (mprotect) */
};
struct vmove_params {
	enum vmove_kind kind;
	unsigned int pages;
	unsigned int flags;		/* move_charge_at_immigrate value written */
	unsigned int split;		/* VMOVE_THP: THPs whose PMD is split into PTEs */
	unsigned int stride;		/* VMOVE_FILE: the file is written first and only
					 * every stride-th page mapped (0: all, no write) */
	unsigned int squeeze;		/* VMOVE_ANON, VMOVE_FILE on tmpfs: once touched,
					 * A's limit is lowered to this many pages, which
					 * swaps the rest out (needs swap and memsw) */
};

/* RSS counter error bound and pcp lists need no settings beyond the kind. */
struct vrss_params {
	unsigned int pages;
	unsigned int threads;
};

/* The move driver's prediction for a workload holding @in (lib/validate/drv-move.c), on a
 * kernel with v1 swap accounting (@memsw) or without.  Returns: 0 or -errno. */
int vmove_predict(uint32_t kver, unsigned int ncpu, uint64_t seed, bool memsw,
		  const struct vmove_params *p, const struct cgctl_move_input *in,
		  struct cgctl_move_expect *e, int *write_err, int64_t memsw_delta[2]);

extern const struct vdriver vdriver_bw, vdriver_mem, vdriver_move, vdriver_rss, vdriver_pcp;

/* ---- memhigh: cgroup v2 memory.high, low and max (drv-memhigh.c) ---- */
enum vmemhigh_kind {
	VMH_FILE,		/* read a clean file above memory.high */
	VMH_ANON,		/* fault in anon above memory.high, no swap */
	VMH_SWAP,		/* the same with swap */
	VMH_PROTECT,		/* A (memory.low) and B under a parent's memory.max */
};
struct vmemhigh_params {
	enum vmemhigh_kind kind;
	unsigned int high_pages;	/* memory.high of the workload's group */
	unsigned int max_pages;		/* VMH_PROTECT: the parent's memory.max */
	unsigned int low_pages;		/* VMH_PROTECT: A's memory.low */
	unsigned int pages;		/* pages the workload (B) charges */
	unsigned int pages_a;		/* VMH_PROTECT: pages A reads first */
	unsigned int chunk;		/* read() size in pages */
};
extern const struct vdriver vdriver_memhigh;
/* ---- end memhigh ---- */

#endif
