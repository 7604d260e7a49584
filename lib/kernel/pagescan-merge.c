/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page inventory, pure part: the two pagemap readers' runs, each sorted by its own
 * thread, merged into one PFN-sorted list; and, once PMD mappings are known, runs that
 * continue each other in PFN order joined whatever their virtual pages (the kpage*
 * windows need PFNs only).  A 4 KiB task's runs are a few pages long: joining them
 * cuts the per-run work of the kpage* phase several times.  No I/O here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pagescan.h"

/* The order of ps_runs_sort_dedupe(): by PFN, the longest first at equal PFNs. */
static bool run_before(const struct ps_run *x, const struct ps_run *y)
{
	return x->pfn < y->pfn || (x->pfn == y->pfn && x->len > y->len);
}

/*
 * From the back, so @a's array only grows (realloc() moves its mapped pages) and no
 * third array is touched: a fresh page costs a fault here.  The same order as a forward
 * merge that takes @a's run first at a tie.
 */
int ps_runs_merge(struct ps_runs *a, const struct ps_runs *b)
{
	size_t i = a->n, j = b->n, o = a->n + b->n;
	int r = ps_runs_reserve(a, a->n + b->n);

	if (r < 0)
		return r;
	while (j > 0) {
		if (i > 0 && run_before(&b->v[j - 1], &a->v[i - 1]))
			a->v[--o] = a->v[--i];
		else
			a->v[--o] = b->v[--j];
	}
	a->n += b->n;
	a->pages += b->pages;
	return 0;
}

/* @y follows @x in PFNs with the same flags, and may join it. */
static bool pfn_joins(const struct ps_run *x, const struct ps_run *y, uint32_t max)
{
	return x->pfn + x->len == y->pfn && !((x->flags ^ y->flags) & ~RUN_DESC) &&
	       !(x->flags & RUN_PMD) &&
	       (y->pfn & (max - 1)) && (uint64_t)x->len + y->len <= UINT32_MAX;
}

size_t ps_runs_join_pfn(struct ps_runs *r, uint32_t max)
{
	size_t o = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (o && pfn_joins(&r->v[o - 1], &r->v[i], max))
			r->v[o - 1].len += r->v[i].len;
		else if (o++ != i)
			r->v[o - 1] = r->v[i];
	}
	r->n = o;
	return o;
}
