/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hierarchical resource counter: kernel/res_counter.c (2.6.32 - 3.18, bytes) and
 * mm/page_counter.c (3.19+, pages).  Both walk from the charged level to the root and
 * behave the same for everything the files show, so one model in pages serves both.
 */
#ifndef CGCTL_ENGINE_PAGECOUNTER_H
#define CGCTL_ENGINE_PAGECOUNTER_H

#include <stdbool.h>
#include <stdint.h>

struct cg_counter {
	uint64_t usage;
	uint64_t max;		/* UINT64_MAX: PAGE_COUNTER_MAX / RESOURCE_MAX */
	uint64_t watermark;	/* max_usage_in_bytes / memory.peak */
	uint64_t failcnt;
	struct cg_counter *parent;	/* NULL: top of the chain */
	bool track_failcnt;	/* leaf flag: does a failure here count (6.15+) */
};

void cg_counter_init(struct cg_counter *c, struct cg_counter *parent, bool track_failcnt);
bool cg_counter_try_charge(struct cg_counter *c, uint64_t n, struct cg_counter **fail);
void cg_counter_charge(struct cg_counter *c, uint64_t n);
void cg_counter_uncharge(struct cg_counter *c, uint64_t n);
int cg_counter_set_max(struct cg_counter *c, uint64_t max);
uint64_t cg_counter_margin(const struct cg_counter *c);

#endif
