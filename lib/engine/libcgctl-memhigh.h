/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memory.high engine's interface (lib/libcgctl-memhigh.la, not installed, not in
 * libcgctl.so): linked into cgctl for `mem predict` and validate, and into the tests
 * (issue 28: a model only cgctl and the tests run is not an export).  The engine is
 * pure: no I/O, no globals.  Conventions as in lib/libcgctl.h.
 */
#ifndef CGCTL_LIBCGCTL_MEMHIGH_H
#define CGCTL_LIBCGCTL_MEMHIGH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===== engine: memory.high ===== */
/* cgroup v2 memory.high throttling and low/min protection (lib/engine) */

/*
 * cgroup v2 memory.high, memory.low/min and swap.max: the over-high path of
 * try_charge_memcg() and mem_cgroup_handle_over_high(), the penalty curve of
 * calculate_high_delay(), effective protection through the tree, and a model run of a
 * workload (anon or file pages) under those settings.  Amounts are pages, times ns.
 * Pure: the era (kernel version) and HZ are parameters.
 */
#define CGCTL_MEMHIGH_DELAY_PRECISION_SHIFT 20	/* MEMCG_DELAY_PRECISION_SHIFT */
#define CGCTL_MEMHIGH_DELAY_SCALING_SHIFT 14	/* MEMCG_DELAY_SCALING_SHIFT */
#define CGCTL_MEMHIGH_SWAP_CLUSTER_MAX 32u	/* SWAP_CLUSTER_MAX */

/* What differs between the kernels this model covers. */
struct cgctl_memhigh_era {
	uint32_t kver;
	unsigned int batch;		/* MEMCG_CHARGE_BATCH: 64 */
	unsigned int retries;		/* MAX_RECLAIM_RETRIES: 16 */
	unsigned int stock_slots;	/* memcgs one CPU's stock holds: 1, 7 (6.16+) */
	bool dying_bail;		/* 6.12: handle_over_high bails for a dying task */
	bool prot_capped;		/* 6.12: effective_protection caps the unprotected
					 * ratio and divides in 128 bits; 6.1 in 64 */
	bool partial_walk;		/* 6.12: memcg reclaim stops walking the subtree
					 * once nr_to_reclaim is met; 6.1 walks it all */
	bool lru_gen;			/* the multi-gen LRU is on by default: Debian's
					 * CONFIG_LRU_GEN_ENABLED (6.12 y, 6.1 n) */
};
/* Fill @ret for @kver; versions between 6.1 and 6.12 take 6.1's rules (only 6.1 and
 * 6.12 were read).  Returns: 0, or -EINVAL for kernels before 6.1 (not modelled) or a
 * NULL @ret. */
int cgctl_memhigh_era_get(uint32_t kver, struct cgctl_memhigh_era *ret);

/* Settings of one v2 memory cgroup, pages (CGCTL_MEMCG_UNLIMITED: "max"). */
struct cgctl_memhigh_limits {
	uint64_t high, max, low, min, swap_max;
};
#define CGCTL_MEMHIGH_NO_LIMITS { CGCTL_MEMCG_UNLIMITED, CGCTL_MEMCG_UNLIMITED, 0, 0, \
				  CGCTL_MEMCG_UNLIMITED }

/* One group of a model run: a child of @parent (-1: a child of the root cgroup). */
struct cgctl_memhigh_group {
	int parent;
	struct cgctl_memhigh_limits lim;
	uint64_t file, anon;		/* pages already charged (clean file, anon) */
};

#define CGCTL_MEMHIGH_ANON 0		/* private anonymous pages, touched one fault each */
#define CGCTL_MEMHIGH_FILE 1		/* clean page cache, read() into a buffer */
/* A workload: @threads tasks in @group, each charging @size_pages pages. */
struct cgctl_memhigh_workload {
	int group;
	unsigned int kind;		/* CGCTL_MEMHIGH_ANON or CGCTL_MEMHIGH_FILE */
	unsigned int threads;
	uint64_t size_pages;		/* per thread */
	uint64_t rate_pages;		/* per thread per second, 0: as fast as the CPU */
	unsigned int chunk_pages;	/* pages between returns to user: 1 for anon faults,
					 * the read() size for file (0: those defaults, 32) */
	uint64_t start_ns;		/* when the tasks start */
	bool stay;			/* anon: the tasks keep their memory and sleep at the
					 * end (else they exit and free it) */
};

/* Which LRU reclaim the kernel runs (/sys/kernel/mm/lru_gen/enabled): the era's default
 * (its Debian config), the active/inactive lists, or the multi-gen LRU. */
#define CGCTL_MEMHIGH_LRU_DEFAULT 0
#define CGCTL_MEMHIGH_LRU_CLASSIC 1
#define CGCTL_MEMHIGH_LRU_GEN 2

/* The world around the groups: what the model takes as given. */
struct cgctl_memhigh_config {
	size_t size;			/* sizeof(struct cgctl_memhigh_config) */
	uint32_t kver;
	unsigned int hz;		/* CONFIG_HZ (Debian: 250) */
	unsigned int ncpus;		/* a task stays on CPU task % ncpus (its stock) */
	bool recursive_prot;		/* memory_recursiveprot mount option */
	uint64_t swap_free;		/* system swap space free, pages (0: no swap) */
	uint64_t alloc_ns;		/* CPU time to fault/read one page (default 250) */
	uint64_t reclaim_file_ns;	/* per clean file page reclaimed (default 100) */
	uint64_t reclaim_anon_ns;	/* per anon page swapped out (default 2000) */
	uint64_t sample_ns;		/* timeline step (0: no timeline) */
	uint64_t limit_ns;		/* stop the run here (0: an hour after the last start) */
	unsigned int lru;		/* CGCTL_MEMHIGH_LRU_*: the reclaim the kernel runs */
	unsigned int ngroups, nworkloads;
	const struct cgctl_memhigh_group *groups;
	const struct cgctl_memhigh_workload *workloads;
};

/* What one group's files would read at the end of the run, and how its tasks fared. */
struct cgctl_memhigh_group_result {
	uint64_t current, peak;		/* memory.current (pages) at the end / memory.peak */
	uint64_t file, anon, swap;	/* pages resident (file, anon) and in swap */
	uint64_t ev_low, ev_high, ev_max, ev_oom, ev_oom_kill;	/* memory.events */
	uint64_t stall_ns;		/* sum of the throttling sleeps of its tasks */
	uint64_t reclaim_ns;		/* its tasks' time in reclaim */
	uint64_t sleeps;		/* throttling sleeps */
	uint64_t end_ns;		/* when its last task finished or was killed */
	unsigned int killed;		/* its tasks killed by the OOM killer */
};

/* One timeline sample of a group. */
struct cgctl_memhigh_sample {
	uint64_t t_ns, current, ev_high, stall_ns;
	unsigned int sleeping;		/* tasks in a throttling sleep at t */
};

struct cgctl_memhigh_run;
/* Run the model.  @e explains a refused configuration.  Returns: 0, -EINVAL (bad
 * configuration: parent after child, limits, sizes), -ENOMEM. */
int cgctl_memhigh_run(const struct cgctl_memhigh_config *cfg, struct cgctl_memhigh_run **ret,
		      struct cgctl_error *e);
void cgctl_memhigh_run_free(struct cgctl_memhigh_run *r);
/* Returns: 0, -EINVAL for a bad group index. */
int cgctl_memhigh_run_group(const struct cgctl_memhigh_run *r, int group,
			    struct cgctl_memhigh_group_result *ret);
/* @ret points at the run's samples of @group (valid until the run is freed).
 * Returns: the number of samples, -EINVAL. */
ssize_t cgctl_memhigh_run_samples(const struct cgctl_memhigh_run *r, int group,
				  const struct cgctl_memhigh_sample **ret);

/* The kernel's formulas, for the run and the tests. */
/* mirrors mm/memcontrol.c:calculate_overage() (v6.1, v6.12): (usage - high) << 20 / high,
 * 0 when usage <= high; high 0 acts as 1.  Returns: the overage in 2^-20 units. */
uint64_t cgctl_memhigh_overage(uint64_t usage, uint64_t high);
/* mirrors mm/memcontrol.c:calculate_high_delay() (v6.1, v6.12): overage^2 * HZ >> 34,
 * scaled by @nr_pages / @batch, in the kernel's wrapping 64-bit arithmetic (no clamp:
 * the caller adds the swap term and clamps).  Returns: jiffies. */
uint64_t cgctl_memhigh_delay_jiffies(uint64_t max_overage, unsigned int nr_pages,
				     unsigned int hz, unsigned int batch);
/* The sleep of one mem_cgroup_handle_over_high() once reclaim has given up: the memory
 * and swap delays summed, clamped to MEMCG_MAX_HIGH_DELAY_JIFFIES (2 * HZ), and 0 when
 * <= HZ / 100 (no sleep).  Returns: jiffies. */
uint64_t cgctl_memhigh_penalty_jiffies(uint64_t mem_overage, uint64_t swap_overage,
				       unsigned int nr_pages, unsigned int hz,
				       unsigned int batch);
/* mirrors mm/page_counter.c:effective_protection() (v6.12; mm/memcontrol.c in v6.1):
 * a child's effective min or low from its usage, its parent's usage, its setting, its
 * parent's effective value, the siblings' protected usage (children_*_usage) and the
 * memory_recursiveprot mount option.  Returns: pages. */
uint64_t cgctl_memhigh_effective_protection(const struct cgctl_memhigh_era *era,
					    uint64_t usage, uint64_t parent_usage,
					    uint64_t setting, uint64_t parent_effective,
					    uint64_t siblings_protected, bool recursive);

#ifdef __cplusplus
}
#endif

#endif
