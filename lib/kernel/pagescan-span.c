/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page inventory, pure part: which PFN spans of the sorted runs each kpage* file must
 * be read for (kpagecount for anon shared runs only; kpageflags for anon exclusive runs
 * sampled once per 2 MiB block when anon mTHP cannot exist, not at all when no anon THP
 * exists), and those conditions from the THP sysfs files.  No I/O here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pagescan.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* The next span run it->k needs, unmerged.  Returns: false when none is left. */
static bool span_raw(struct ps_span_iter *it, uint64_t *a, uint64_t *b)
{
	while (it->k < it->end) {
		const struct ps_run *run = &it->rv[it->k];

		if ((it->file == PS_KC && !ps_run_counts(run)) ||
		    (it->file == PS_KF && ((run->flags & RUN_PMD_THP) ||
					   ps_run_flagless(it->anon_small, run)))) {
			it->k++;
			continue;
		}
		if (it->file != PS_KF || !ps_run_sampled(it->mthp_off, run)) {
			*a = run->pfn;
			*b = ps_run_read_end(run);
			it->k++;
			return true;
		}
		*a = it->pos ? it->pos : run->pfn;
		it->pos = (*a | (PS_PMD_PAGES - 1)) + 1;
		if (it->pos >= run->pfn + run->len) {
			it->pos = 0;
			it->k++;
		}
		if (*a / PS_PMD_PAGES + 1 == it->sblock)
			continue;	/* the block has its sample */
		it->sblock = *a / PS_PMD_PAGES + 1;
		if (ps_mixed_is(it->mixed, *a))
			continue;	/* not one folio: no THP, no sample */
		*b = *a + 1;
		return true;
	}
	return false;
}

bool ps_span_next(struct ps_span_iter *it, uint64_t *a, uint64_t *b)
{
	uint64_t x, y;

	if (!it->have && !span_raw(it, &it->a, &it->b))
		return false;
	it->have = false;
	while (span_raw(it, &x, &y)) {
		if (x > it->b + it->gap) {
			*a = it->a;
			*b = it->b;
			it->a = x;
			it->b = y;
			it->have = true;
			return true;
		}
		if (y > it->b)
			it->b = y;
	}
	*a = it->a;
	*b = it->b;
	return true;
}

/*
 * Before the folio conversion of page_cgroup_ino() (v6.1: page_memcg_check(page), a tail
 * page's own memcg_data, which is 0; v6.12: folio_memcg_check(page_folio(page))),
 * /proc/kpagecgroup says 0 for every tail page of a large folio: its charge is on the
 * head.  A page that is mapped and not charged at all does not otherwise follow a
 * charged one in the same 2 MiB PFN block (anon pages are always charged, to the root
 * memcg at least; so is the page cache), so such a 0 takes the owner before it.  A
 * folio whose head is not read (not mapped here) keeps its zeros.
 */
void ps_kcg_fill_tails(uint64_t *v, uint64_t pfn, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!v[i] && v[i - 1] && (pfn + i) % PS_PMD_PAGES)
			v[i] = v[i - 1];
}

void ps_mixed_reset(struct ps_mixed *m, uint64_t base)
{
	m->blk0 = base / PS_PMD_PAGES;
	memset(m->state, 0, sizeof(m->state));
}

void ps_mixed_add(struct ps_mixed *m, const uint64_t *kcg, uint64_t base, uint64_t a,
		  uint64_t b)
{
	for (uint64_t p = a, e; p < b; p = e) {
		uint64_t i = p / PS_PMD_PAGES - m->blk0;
		const uint64_t *v = kcg + (p - base);

		e = MIN(b, (p | (PS_PMD_PAGES - 1)) + 1);
		if (i >= PS_MIX_BLOCKS)
			return;
		if (!m->state[i]) {
			m->first[i] = v[0];
			m->state[i] = 1;
		}
		if (m->state[i] == 1 && ps_leading_equal(v, e - p, m->first[i]) < e - p)
			m->state[i] = 2;
	}
}

/* The selected value of a sysfs choice ("always [never]"): is it @want? */
static bool selected_is(const char *s, const char *want)
{
	const char *sel = s ? strchr(s, '[') : NULL;
	size_t n = strlen(want);

	return sel && strncmp(sel + 1, want, n) == 0 && sel[1 + n] == ']';
}

void ps_thp_size_state(const char *enabled, const char *top, const char *nr_anon,
		       bool *none_now, bool *may_grow)
{
	*may_grow = !selected_is(enabled, "never") &&
		    !(selected_is(enabled, "inherit") && selected_is(top, "never"));
	*none_now = ps_nr_anon_zero(nr_anon);
}

bool ps_nr_anon_zero(const char *nr_anon)
{
	char *end;
	unsigned long long v;

	if (!nr_anon)
		return false;
	errno = 0;
	v = strtoull(nr_anon, &end, 10);
	return !errno && end != nr_anon && (*end == '\n' || !*end) && v == 0;
}

bool ps_mthp_size_off(const char *enabled, const char *top, const char *nr_anon)
{
	bool none_now, may_grow;

	ps_thp_size_state(enabled, top, nr_anon, &none_now, &may_grow);
	return none_now && !may_grow;
}
