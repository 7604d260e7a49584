// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Model of the page allocator's per-cpu page lists (struct per_cpu_pages): the batch and
 * high of every CPU's pageset of a zone, how many pages a free flushes and from which
 * lists.  Eras (mm/page_alloc.c):
 *
 *   2.6.32   zone_batchsize() from present_pages, capped at 512 KiB; high = 6 * batch;
 *            vm.percpu_pagelist_fraction: high = pages / fraction, batch = high / 4
 *            capped at 8 * PAGE_SHIFT (setup_pagelist_highmark()).
 *   3.9      managed_pages instead of present_pages (Jiang Liu, "use zone->managed_pages
 *            instead of zone->present_pages where appropriate").
 *   4.19     cap 1 MiB ("mm, page_alloc: double zone's batchsize", Aaron Lu).
 *   5.14     high = max(low_wmark / CPUs of the node, 4 * batch) (zone_highsize());
 *            vm.percpu_pagelist_high_fraction replaces the old sysctl; frees flush
 *            batch << free_factor (nr_pcp_free()).
 *   5.18     free_pcppages_bulk() drains whole lists, the triggering list first.
 *   6.7      high auto-tuned in [high_min, high_max], high_max from managed / 8;
 *            nr_pcp_free() from the count of consecutive frees.
 *
 * Mirrors zone_batchsize(), zone_highsize(), zone_set_pageset_high_and_batch(),
 * nr_pcp_free() and free_pcppages_bulk() of v6.12.118 and v6.1.192, and
 * zone_batchsize(), setup_pageset(), setup_pagelist_highmark(), free_pcppages_bulk() of
 * v2.6.32.  Pure: no I/O.
 */
#include <errno.h>
#include <limits.h>

#include "internal.h"
#include "engine/pcplist.h"

unsigned long pcp_rounddown_pow2(unsigned long v)
{
	unsigned long p = 1;

	while (p <= v / 2)
		p <<= 1;
	return p;
}

static unsigned int page_shift(const struct cgctl_pcp_zone *z)
{
	return z->page_shift ? z->page_shift : 12;
}

/* present_pages until 3.9, managed_pages since */
static uint64_t sizing_pages(uint32_t kver, const struct cgctl_pcp_zone *z)
{
	return kver < CGCTL_KVER(3, 9, 0) ? z->present_pages : z->managed_pages;
}

/* mirrors mm/page_alloc.c:zone_batchsize() (v6.12; v2.6.32 with its 512 KiB cap) */
int pcp_zone_batchsize(uint32_t kver, const struct cgctl_pcp_zone *z)
{
	uint64_t cap_bytes = kver < CGCTL_KVER(4, 19, 0) ? 512 * 1024 : 1024 * 1024;
	uint64_t b = MIN(sizing_pages(kver, z) >> 10, cap_bytes >> page_shift(z));

	b /= 4;		/* "we effectively *= 4 below" */
	if (b < 1)
		b = 1;
	/* 2^n - 1: a power of two aliased badly in page colouring */
	return (int)pcp_rounddown_pow2(b + b / 2) - 1;
}

/* mirrors mm/page_alloc.c:zone_highsize() (v6.12; v5.14-6.6 without the fraction arg) */
static int zone_highsize(const struct cgctl_pcp_zone *z, unsigned int ncpu, int batch,
			 unsigned int fraction)
{
	uint64_t total = fraction ? z->managed_pages / fraction : z->low_wmark;
	/* memoryless nodes split over all online CPUs */
	unsigned int split = z->node_ncpu ? z->node_ncpu : ncpu;
	uint64_t high = total / split;

	/* pcp->high is an int: a zone cannot be big enough to overflow it */
	return (int)MIN(MAX(high, (uint64_t)batch << 2), (uint64_t)INT_MAX);
}

/* < 5.14: setup_pageset() / pageset_set_batch(), or the fraction sysctl's
 * setup_pagelist_highmark() / pageset_set_high() */
static void predict_fixed_ratio(uint32_t kver, const struct cgctl_pcp_zone *z,
				struct cgctl_pcp_pred *p)
{
	int zb = pcp_zone_batchsize(kver, z);
	uint64_t high;

	if (z->high_fraction) {
		high = MIN(sizing_pages(kver, z) / z->high_fraction, (uint64_t)INT_MAX);
		p->batch = (int)MAX((uint64_t)1, high / 4);
		if (high / 4 > PCP_FRACTION_BATCH_CAP(page_shift(z)))
			p->batch = (int)PCP_FRACTION_BATCH_CAP(page_shift(z));
		p->high_min = p->high_max = (int)high;
		return;
	}
	p->batch = MAX(1, zb);
	p->high_min = p->high_max = 6 * zb;
}

/* mirrors mm/page_alloc.c:zone_set_pageset_high_and_batch() (v6.12 and v6.1) */
static void predict_watermark(uint32_t kver, unsigned int ncpu,
			      const struct cgctl_pcp_zone *z, struct cgctl_pcp_pred *p)
{
	unsigned int f = z->high_fraction;

	p->batch = MAX(1, pcp_zone_batchsize(kver, z));
	p->high_min = zone_highsize(z, ncpu, p->batch, f);
	p->high_max = p->high_min;
	if (kver >= CGCTL_KVER(6, 7, 0) && !f) {
		p->high_max = zone_highsize(z, ncpu, p->batch, PCP_HIGH_MAX_FRACTION);
		p->autotune = true;
	}
}

/* NR_PCP_LISTS: one list per migratetype until high-order pcp lists (5.13) added
 * orders 0..PAGE_ALLOC_COSTLY_ORDER per migratetype plus THP lists (x86-64, THP on). */
static int nr_pcp_lists(uint32_t kver)
{
	if (kver < CGCTL_KVER(2, 6, 32))
		return 1;
	if (kver < CGCTL_KVER(5, 13, 0))
		return 3;
	if (kver < CGCTL_KVER(6, 0, 0))
		return 3 * (4 + 1);	/* one THP list per migratetype */
	if (kver < CGCTL_KVER(6, 1, 0))
		return 3 * 4 + 1;	/* a single THP list */
	return 3 * 4 + 2;	/* movable and unmovable/reclaimable THP lists */
}

int cgctl_pcp_predict(uint32_t kver, unsigned int ncpu,
				   const struct cgctl_pcp_zone *z, struct cgctl_pcp_pred *ret)
{
	if (kver == 0 || ncpu == 0 || !z || !ret)
		return -EINVAL;
	if (z->page_shift && (z->page_shift < 10 || z->page_shift > 20))
		return -EINVAL;
	*ret = (struct cgctl_pcp_pred){ .nr_lists = nr_pcp_lists(kver) };
	if (kver < CGCTL_KVER(5, 14, 0))
		predict_fixed_ratio(kver, z, ret);
	else
		predict_watermark(kver, ncpu, z, ret);
	return 0;
}

/* the kernel's clamp(): min(max(v, lo), hi), so hi wins when hi < lo */
static int clamp_int(int v, int lo, int hi)
{
	return MIN(MAX(v, lo), hi);
}

/* mirrors mm/page_alloc.c:nr_pcp_free() (v6.12; v6.1 for 5.14-6.6); free_high ignored */
int cgctl_pcp_nr_free(uint32_t kver, int count, int high, int batch,
		      int free_count)
{
	int n;

	if (batch < 1 || high < 0 || count < 0 || free_count < 0)
		return 0;
	if (kver < CGCTL_KVER(5, 14, 0))
		return MIN(batch, count);	/* free_pcppages_bulk(zone, pcp->batch, pcp) */
	if (high < batch)
		return MIN(1, count);	/* pcp disabled or boot pageset */
	if (kver < CGCTL_KVER(6, 7, 0))
		/* @free_count is pcp->free_factor here: batch doubles per free in a row */
		n = clamp_int(free_count >= 30 ? high : batch << free_count, batch, high - batch);
	else
		n = clamp_int(free_count, batch, high - batch);
	/* free_pcppages_bulk() takes min(pcp->count, count) */
	return MIN(n, count);
}

static int sum_pages(const int *lists, int nlists)
{
	int i, s = 0;

	for (i = 0; i < nlists; i++)
		s += lists[i];
	return s;
}

/* mirrors mm/page_alloc.c:free_pcppages_bulk() (v2.6.32; the single-list shortcut from
 * "mm: batch-free pcp list if possible", Feb 2011, taken as 2.6.39) */
static void bulk_round_robin(uint32_t kver, int count, int *left, int nlists, int *taken)
{
	int mt = 0, batch_free = 0;

	while (count) {
		do {	/* starts at list 1: the index is pre-incremented */
			batch_free++;
			if (++mt == nlists)
				mt = 0;
		} while (left[mt] == 0);
		/* only non-empty list: free from it in one go */
		if (kver >= CGCTL_KVER(2, 6, 39) && batch_free == nlists)
			batch_free = count;
		do {
			left[mt]--;
			taken[mt]++;
		} while (--count && --batch_free && left[mt]);
	}
}

/* mirrors mm/page_alloc.c:free_pcppages_bulk() (v6.12): whole lists, the list of the
 * triggering free first, then round-robin */
static void bulk_whole_lists(int count, int *left, int nlists, int start, int *taken)
{
	int p = start - 1;

	while (count > 0) {
		do {
			if (++p > nlists - 1)
				p = 0;
		} while (left[p] == 0);
		do {
			left[p]--;
			taken[p]++;
			count--;
		} while (count > 0 && left[p]);
	}
}

int cgctl_pcp_bulk_split(uint32_t kver, int nr, const int *lists, int nlists,
			 int start, int *taken)
{
	int left[64];
	int i, count;

	if (!lists || !taken || nlists < 1 || nlists > (int)ARRAY_SIZE(left) || nr < 0 ||
	    start < 0 || start >= nlists)
		return -EINVAL;
	for (i = 0; i < nlists; i++) {
		if (lists[i] < 0)
			return -EINVAL;
		left[i] = lists[i];
		taken[i] = 0;
	}
	/* count = min(pcp->count, count): never spin over empty lists */
	count = MIN(nr, sum_pages(lists, nlists));
	/* "mm/page_alloc: simplify how many pages are selected per pcp list during bulk
	 * free" (Mel Gorman, mm tree Mar 2022: 5.18) dropped batch_free */
	if (kver < CGCTL_KVER(5, 18, 0))
		bulk_round_robin(kver, count, left, nlists, taken);
	else
		bulk_whole_lists(count, left, nlists, start, taken);
	return count;
}

static bool high_ok(const struct cgctl_pcp_pred *p, const struct cgctl_zone_pageset *ps)
{
	/* pcp->high starts at 0 and is first clamped into range by the first free or
	 * refill (nr_pcp_high(), nr_pcp_alloc(), 6.7+); and: */
	/*
	 * mirrors mm/page_alloc.c:pageset_update() (v6.7+): a new watermark (khugepaged
	 * raising min_free_kbytes, a sysctl) rewrites pcp->high_min and high_max only;
	 * pcp->high keeps the value clamped under the old limits until this CPU's next free
	 * or refill in the zone clamps it (nr_pcp_high(), nr_pcp_alloc()).  An empty list
	 * of a zone this CPU has not used since shows it (6.18: DMA32 cpu0 high 252 below
	 * high_min 2905, the other CPU clamped to 2905).  A list that holds pages was used,
	 * so it was clamped.
	 */
	if (p->autotune && ps->count == 0)
		return true;
	/* clamp(high, high_min, high_max) lets high_max win when a low watermark above
	 * managed / 8 (big watermark_scale_factor, tiny zone) puts high_min above it */
	return ps->high >= MIN(p->high_min, p->high_max) && ps->high <= p->high_max;
}

static bool limits_ok(const struct cgctl_pcp_pred *p, const struct cgctl_zone_pageset *ps)
{
	if (ps->high_min >= 0 && ps->high_min != p->high_min)
		return false;
	return ps->high_max < 0 || ps->high_max == p->high_max;
}

int cgctl_pcp_check(const struct cgctl_pcp_pred *p,
				 const struct cgctl_zone_pageset *ps)
{
	int ok = 0;

	if (!p || !ps)
		return 0;
	if (ps->batch == p->batch)
		ok |= CGCTL_PCP_BATCH_OK;
	if (high_ok(p, ps))
		ok |= CGCTL_PCP_HIGH_OK;
	if (limits_ok(p, ps))
		ok |= CGCTL_PCP_LIMITS_OK;
	return ok;
}
