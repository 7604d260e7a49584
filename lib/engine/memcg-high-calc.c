/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The arithmetic of cgroup v2 memory.high and memory.low/min: the overage, the
 * allocator-throttling penalty and effective protection.  Read from the Debian 6.1 and
 * 6.12 sources (mm/memcontrol.c, mm/page_counter.c); the functions are the same in both
 * except effective_protection(), whose 6.12 form caps the unprotected ratio and divides
 * in 128 bits (6.1 multiplies in 64 bits, which wraps for terabyte-sized groups).
 */
#include "engine/memcg-high.h"

#define K(a, b, c) CGCTL_KVER(a, b, c)

int cgctl_memhigh_era_get(uint32_t kver, struct cgctl_memhigh_era *ret)
{
	if (!ret || kver < K(6, 1, 0))
		return -EINVAL;
	*ret = (struct cgctl_memhigh_era){
	    .kver = kver,
	    .batch = 64,   /* include/linux/memcontrol.h (v6.1) */
	    .retries = 16, /* MAX_RECLAIM_RETRIES (v6.1) */
	    .stock_slots = kver >= K(6, 16, 0) ? 7 : 1, /* NR_MEMCG_STOCK */
	    .dying_bail = kver >= K(6, 12, 0),
	    .prot_capped = kver >= K(6, 12, 0),
	    /* mm/vmscan.c:shrink_node_memcgs(): 6.12 bails "once goal is reached"
	     * (partial walks), 6.1 shrinks every memcg of the subtree */
	    .partial_walk = kver >= K(6, 12, 0),
	    /* Debian's configs: 6.1 CONFIG_LRU_GEN=y but not _ENABLED, 6.12 both */
	    .lru_gen = kver >= K(6, 12, 0),
	};
	return 0;
}

/* mirrors mm/memcontrol.c:calculate_overage() (v6.1, v6.12) */
uint64_t cgctl_memhigh_overage(uint64_t usage, uint64_t high)
{
	uint64_t overage;

	if (usage <= high)
		return 0;
	/* "Prevent division by 0 ... acting as if it was a threshold of 1 page" */
	if (high < 1)
		high = 1;
	overage = usage - high;
	overage <<= CGCTL_MEMHIGH_DELAY_PRECISION_SHIFT;
	return overage / high;
}

/* mirrors mm/memcontrol.c:calculate_high_delay() (v6.1, v6.12); u64 wraps like the
 * kernel's unsigned long once the overage passes about 256 times the high */
uint64_t cgctl_memhigh_delay_jiffies(uint64_t max_overage,
				     unsigned int nr_pages, unsigned int hz,
				     unsigned int batch)
{
	uint64_t penalty;

	if (!max_overage || !batch)
		return 0;
	penalty = max_overage * max_overage * hz;
	penalty >>= CGCTL_MEMHIGH_DELAY_PRECISION_SHIFT;
	penalty >>= CGCTL_MEMHIGH_DELAY_SCALING_SHIFT;
	/* "four N-sized allocations are throttled approximately the same as one 4N" */
	return penalty * nr_pages / batch;
}

/* mirrors the penalty half of mm/memcontrol.c:mem_cgroup_handle_over_high() (v6.1,
 * v6.12): memory plus swap delay, min(.., MEMCG_MAX_HIGH_DELAY_JIFFIES), no sleep when
 * <= HZ / 100 */
uint64_t cgctl_memhigh_penalty_jiffies(uint64_t mem_overage,
				       uint64_t swap_overage,
				       unsigned int nr_pages,
				       unsigned int hz, unsigned int batch)
{
	uint64_t p;

	p = cgctl_memhigh_delay_jiffies(mem_overage, nr_pages, hz, batch);
	p += cgctl_memhigh_delay_jiffies(swap_overage, nr_pages, hz, batch);
	if (p > 2ULL * hz)
		p = 2ULL * hz;
	return p <= hz / 100 ? 0 : p;
}

static uint64_t muldiv(const struct cgctl_memhigh_era *era, uint64_t a, uint64_t b,
		       uint64_t c)
{
	if (!c)
		return 0;
	if (era->prot_capped) /* mul_u64_u64_div_u64() */
		return (uint64_t)((unsigned __int128)a * b / c);
	return a * b / c; /* v6.1: unsigned long, may wrap */
}

/* mirrors mm/page_counter.c:effective_protection() (v6.12) and
 * mm/memcontrol.c:effective_protection() (v6.1) */
uint64_t cgctl_memhigh_effective_protection(
					    const struct cgctl_memhigh_era *era, uint64_t usage, uint64_t parent_usage,
					    uint64_t setting, uint64_t parent_effective, uint64_t siblings_protected,
					    bool recursive)
{
	uint64_t protected = usage < setting ? usage : setting;
	uint64_t ep = protected, unclaimed, unprotected, parent_unprotected;

	/* overcommitted: shares in proportion to the protected usage */
	if (siblings_protected > parent_effective)
		return muldiv(era, protected, parent_effective, siblings_protected);
	if (!recursive)
		return ep;
	if (parent_effective > siblings_protected && parent_usage > siblings_protected &&
	    usage > protected) {
		unclaimed = parent_effective - siblings_protected;
		parent_unprotected = parent_usage - siblings_protected;
		unprotected = usage - protected;
		if (era->prot_capped && unprotected > parent_unprotected)
			unprotected = parent_unprotected;
		ep += muldiv(era, unclaimed, unprotected, parent_unprotected);
	}
	return ep;
}
