/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Constants of the memcg model per kernel version (kernel-memory-model.md, quick
 * reference table).  Eras: 2.6.32 (no stock), 2.6.33-3.18 (res_counter, batch 32),
 * 3.19-6.0 (page_counter, memsw first), 6.1-6.12 (batch 64), 6.13-6.15 (no move
 * charge), 6.16+ (7 stock slots; failcnt tracked by the v1 memory counter only since 6.15).
 */
#include "engine/memcg-internal.h"

#define K(a, b, c) CGCTL_KVER(a, b, c)
#define LLONG_MAX_U 9223372036854775807ULL
/* PAGE_COUNTER_MAX * PAGE_SIZE = (LONG_MAX / PAGE_SIZE) * PAGE_SIZE on 64-bit */
#define PC_MAX_BYTES ((LLONG_MAX_U / CGCTL_PAGE_SIZE) * CGCTL_PAGE_SIZE)

/* mirrors include/linux/memcontrol.h:MEMCG_CHARGE_BATCH (v6.1: 64; 2.6.39: CHARGE_BATCH
 * 32; 2.6.33: CHARGE_SIZE 32 pages) */
static unsigned int era_batch(uint32_t kver)
{
	if (kver < K(2, 6, 33))
		return 1;
	return kver < K(6, 1, 0) ? 32 : 64;
}

/* move_charge_at_immigrate: 2.6.34 bit 0, 2.6.35 bit 1 too, removed in 6.13 */
static unsigned int era_move_bits(uint32_t kver)
{
	if (kver < K(2, 6, 34) || kver >= K(6, 13, 0))
		return 0;
	return kver < K(2, 6, 35) ? CGCTL_MOVE_CHARGE_ANON
				  : CGCTL_MOVE_CHARGE_ANON | CGCTL_MOVE_CHARGE_FILE;
}

int mg_era_get(uint32_t kver, struct cgctl_memcg_era *ret)
{
	struct cgctl_memcg_era e = { .kver = kver };

	if (kver < K(2, 6, 32) || !ret)
		return -EINVAL;
	e.batch = era_batch(kver);
	e.stock_slots = kver < K(2, 6, 33) ? 0 : kver < K(6, 16, 0) ? 1 : 7;
	e.stock_cap = kver >= K(4, 15, 0);
	/* without the cap a refill only happens when consume failed: < n + (batch - n) */
	e.stock_max = e.stock_slots ? (e.stock_cap ? e.batch : e.batch - 1) : 0;
	e.reclaim_retries = kver < K(5, 9, 0) ? 5 : 16;
	e.page_counter = kver >= K(3, 19, 0);
	e.failcnt_leaf_only = kver >= K(6, 15, 0);
	e.always_hierarchical = kver >= K(5, 11, 0);
	e.limit_round_up = !e.page_counter;
	e.move_bits = era_move_bits(kver);
	if (kver < K(2, 6, 34))
		e.move_none = "move_charge_at_immigrate appeared in 2.6.34";
	else if (!e.move_bits)
		e.move_none = "this kernel no longer moves charges; removed in 6.13";
	/* mirrors mm/memcontrol.c:mc_handle_file_pte(): up to 5.9 it returned the swap
	 * entry of a swapped-out shmem page (MC_TARGET_SWAP); since v5.10 ("mm: use
	 * find_get_incore_page in memcontrol") only a page in the swap cache, so neither
	 * the page nor its swap charge moves (still so in v6.1, v6.12) */
	e.move_shmem_swap = (e.move_bits & CGCTL_MOVE_CHARGE_FILE) && kver < K(5, 10, 0);
	e.unlimited_v1 = e.page_counter ? PC_MAX_BYTES : LLONG_MAX_U;
	/* mirrors mm/memcontrol.c:mc_handle_present_pte(): up to 6.5 it took
	 * get_page_unless_zero(page), which fails on a tail page of a large folio (its own
	 * refcount is 0), so mem_cgroup_count_precharge_pte_range() counted one page per
	 * PTE-mapped folio, its head.  v6.6 ("mm/memcg: minor cleanup for
	 * mc_handle_present_pte()", 58f341f772bb) takes get_page(), which pins the folio:
	 * every PTE of it counts.  Neither era moves those pages. */
	e.move_pte_tails = kver >= K(6, 6, 0);
	*ret = e;
	return 0;
}

/* mirrors kernel/res_counter.c:res_counter_memparse_write_strategy() (v2.6.33, PAGE_ALIGN)
 * and mm/page_counter.c:page_counter_memparse() (v6.18, rounds down) */
uint64_t cgctl_memcg_limit_pages(uint32_t kver, uint64_t bytes)
{
	if (bytes == CGCTL_SIZE_MAX || bytes >= LLONG_MAX_U - CGCTL_PAGE_SIZE)
		return CGCTL_MEMCG_UNLIMITED;
	if (kver < K(3, 19, 0))
		return (bytes + CGCTL_PAGE_SIZE - 1) / CGCTL_PAGE_SIZE;
	return bytes / CGCTL_PAGE_SIZE;
}
