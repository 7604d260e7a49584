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

#endif
