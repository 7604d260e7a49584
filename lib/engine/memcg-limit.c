/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Limit writes of the memcg model.
 * mirrors mm/memcontrol-v1.c:mem_cgroup_resize_max() (v6.18),
 * mm/memcontrol.c:mem_cgroup_resize_limit() (v2.6.33) and memory_max_write() (v6.18)
 */
#include "engine/memcg.h"
#include "engine/stock.h"

static const struct cgctl_memcg_charge_opts no_opts;

/* v1: memory.limit <= memsw.limit must hold after the write, else -EINVAL */
static int check_memsw_order(const struct cgctl_memcg_tree *t, const struct mg *m,
			     enum cgctl_memcg_ctr which, uint64_t pages)
{
	if (!mg_memsw(t))
		return 0;
	if (which == CGCTL_MEMCG_MEMORY && pages > m->memsw.max)
		return -EINVAL;
	if (which == CGCTL_MEMCG_MEMSW && pages < m->memory.max)
		return -EINVAL;
	return 0;
}

/* v1: set_max fails -> drain_all_stock once -> reclaim rounds -> -EBUSY when a round
 * frees nothing */
static int resize_v1(struct cgctl_memcg_tree *t, struct mg *m, enum cgctl_memcg_ctr which,
		     uint64_t pages, const struct cgctl_memcg_charge_opts *o,
		     struct cgctl_memcg_charge_result *r)
{
	struct cg_counter *c = which == CGCTL_MEMCG_MEMSW ? &m->memsw : &m->memory;
	uint64_t got;

	for (;;) {
		int e = check_memsw_order(t, m, which, pages);

		if (e < 0)
			return e;
		if (cg_counter_set_max(c, pages) == 0)
			return 0;
		if (!r->drained && t->era.stock_slots) {
			mg_drain_all_stock(t, m->id);
			r->drained = true;
			continue;
		}
		r->reclaim_rounds++;
		got = mg_reclaim(t, m->id, o->reclaim_per_round);
		r->reclaimed += got;
		if (!got)
			return -EBUSY;
	}
}

/* v2 memory.max: the new max is set at once; then drain, up to 16 futile reclaim rounds,
 * then OOM kills until usage fits or nothing is killed.  The write itself succeeds. */
static int resize_v2(struct cgctl_memcg_tree *t, struct mg *m, uint64_t pages,
		     const struct cgctl_memcg_charge_opts *o, struct cgctl_memcg_charge_result *r)
{
	unsigned int nr_reclaims = t->era.reclaim_retries;
	uint64_t got;

	m->memory.max = pages;
	while (m->memory.usage > pages) {
		if (!r->drained) {
			mg_drain_all_stock(t, m->id);
			r->drained = true;
			continue;
		}
		if (nr_reclaims) {
			r->reclaim_rounds++;
			got = mg_reclaim(t, m->id, o->reclaim_per_round);
			r->reclaimed += got;
			nr_reclaims -= !got;
			continue;
		}
		m->events_oom++;
		r->ooms++;
		got = mg_reclaim(t, m->id, o->oom_frees);
		r->reclaimed += got;
		if (!got)
			break;
	}
	return 0;
}

int cgctl_memcg_set_limit(struct cgctl_memcg_tree *t, int id,
			  enum cgctl_memcg_ctr which, uint64_t pages,
			  const struct cgctl_memcg_charge_opts *opts,
			  struct cgctl_memcg_charge_result *res)
{
	struct cgctl_memcg_charge_result scratch = { 0 };
	struct mg *m = t ? mg_get(t, id) : NULL;

	if (!m || m->parent < 0)
		return -EINVAL;
	if (which == CGCTL_MEMCG_MEMSW && !mg_memsw(t))
		return -EINVAL;
	if (which != CGCTL_MEMCG_MEMORY && which != CGCTL_MEMCG_MEMSW)
		return -EINVAL;
	res = res ? res : &scratch;
	*res = (struct cgctl_memcg_charge_result){ .over = -1 };
	opts = opts ? opts : &no_opts;
	if (mg_is_v2(t))
		return resize_v2(t, m, pages, opts, res);
	return resize_v1(t, m, which, pages, opts, res);
}
