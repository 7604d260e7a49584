/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers of the per-cpu page list model (lib/engine/pcplist.c). */
#ifndef CGCTL_ENGINE_PCPLIST_H
#define CGCTL_ENGINE_PCPLIST_H

#include "libcgctl.h"

/* MIN_PERCPU_PAGELIST_HIGH_FRACTION (mm/page_alloc.c, 5.14+): high_max divisor */
#define PCP_HIGH_MAX_FRACTION 8
/* pageset_set_high() (< 5.14): batch cap when high is set by the fraction sysctl */
#define PCP_FRACTION_BATCH_CAP(shift) ((shift) * 8)

/* zone_batchsize() of @kver before the max(1, ...) its callers apply. */
int pcp_zone_batchsize(uint32_t kver, const struct cgctl_pcp_zone *z);
/* rounddown_pow_of_two() for v >= 1. */
unsigned long pcp_rounddown_pow2(unsigned long v);

/* Not exported (no caller outside the library but tests). */
/* nr_pcp_free(): pages one free_pcppages_bulk() hands back when count >= high;
 * @free_count is pcp->free_count (consecutive frees, 6.x).  Returns: pages (>= 0). */
int cgctl_pcp_nr_free(uint32_t kver, int count, int high, int batch, int free_count);
/* Split @nr pages to free over the pcp lists @lists[0..nlists) (pages on each list, all
 * order 0) as free_pcppages_bulk() of @kver does: before 5.18 round-robin from list 1
 * with batch_free growing on empty lists; 5.18+ whole lists, starting with @start (the
 * list the triggering page was freed to).  @taken[i] receives what list i gives.
 * Returns: pages freed (min(nr, total)), -EINVAL. */
int cgctl_pcp_bulk_split(uint32_t kver, int nr, const int *lists, int nlists, int start,
			 int *taken);

#endif
