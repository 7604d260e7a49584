/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The charge path of the memcg model: stock, batch, single page, reclaim, drain,
 * retries, OOM, force.
 * mirrors mm/memcontrol.c:try_charge_memcg() (v6.18) and
 * mm/memcontrol.c:__mem_cgroup_try_charge() (v2.6.33)
 */
#include "engine/memcg.h"
#include "engine/stock.h"

struct charge_ctx {
	struct cgctl_memcg_tree *t;
	struct mg *m;
	unsigned int cpu;
	uint64_t n;
	const struct cgctl_memcg_charge_opts *o;
	struct cgctl_memcg_charge_result *r;
};

enum step { STEP_RETRY, STEP_NOMEM, STEP_DONE };

/* One attempt: consume_stock, else charge @batch to the counters and stock the surplus. */
static bool attempt(struct charge_ctx *c, uint64_t batch)
{
	int over = -1;

	if (mg_consume_stock(c->t, c->cpu, c->m->id, c->n)) {
		c->r->from_stock = true;
		return true;
	}
	if (mg_try_charge_counters(c->t, c->m, batch, &over)) {
		c->r->counter_pages = batch;
		if (batch > c->n)
			mg_refill_stock(c->t, c->cpu, c->m->id, batch - c->n);
		return true;
	}
	c->r->failures++;
	c->r->over = over;
	return false;
}

/* mem_cgroup_oom(): the model frees opts->oom_frees pages of the over memcg's subtree. */
static uint64_t oom(struct charge_ctx *c, struct mg *over)
{
	uint64_t freed;

	c->r->ooms++;
	over->events_oom++;
	freed = mg_reclaim(c->t, over->id, c->o->oom_frees);
	c->r->reclaimed += freed;
	return freed;
}

static uint64_t reclaim_round(struct charge_ctx *c, struct mg *over)
{
	uint64_t got;

	over->events_max++;	/* memcg_memory_event(mem_over_limit, MEMCG_MAX) */
	c->r->reclaim_rounds++;
	got = mg_reclaim(c->t, over->id, c->o->reclaim_per_round);
	c->r->reclaimed += got;
	return got;
}

/* mirrors mm/memcontrol.c:try_charge_memcg() (v6.18) after the single-page attempt */
static enum step after_failure_pc(struct charge_ctx *c, struct mg *over, bool *drained,
				  unsigned int *retries, bool *passed_oom)
{
	unsigned int gfp = c->o->gfp;
	uint64_t got;

	if (gfp & CGCTL_MEMCG_GFP_NOWAIT)
		return STEP_NOMEM;
	got = reclaim_round(c, over);
	if (mg_margin(c->t, over) >= c->n)
		return STEP_RETRY;
	if (!*drained) {
		mg_drain_all_stock(c->t, over->id);
		c->r->drained = *drained = true;
		return STEP_RETRY;
	}
	if (gfp & CGCTL_MEMCG_GFP_NORETRY)
		return STEP_NOMEM;
	if (got && c->n <= 8)	/* 1 << PAGE_ALLOC_COSTLY_ORDER */
		return STEP_RETRY;
	if ((*retries)--)
		return STEP_RETRY;
	if ((gfp & CGCTL_MEMCG_GFP_NOOOM) || *passed_oom)
		return STEP_NOMEM;
	if (oom(c, over)) {
		*passed_oom = true;
		*retries = c->t->era.reclaim_retries;
		return STEP_RETRY;
	}
	return STEP_NOMEM;
}

/*
 * mirrors mm/memcontrol.c:__mem_cgroup_try_charge() (v2.6.33; res_counter kernels up
 * to 3.18 alike): retry at once while reclaim frees something or the limit has room;
 * MEM_CGROUP_RECLAIM_RETRIES futile rounds, then the OOM killer and -ENOMEM.  The
 * asynchronous drain of hierarchical reclaim is modelled after the first futile round.
 */
static enum step after_failure_rc(struct charge_ctx *c, struct mg *over, bool *drained,
				  unsigned int *retries)
{
	unsigned int gfp = c->o->gfp;

	if (gfp & CGCTL_MEMCG_GFP_NOWAIT)
		return STEP_NOMEM;
	if (reclaim_round(c, over))
		return STEP_RETRY;
	if (mg_margin(c->t, over) >= c->n)
		return STEP_RETRY;
	if (!*drained && c->t->era.stock_slots) {
		mg_drain_all_stock(c->t, over->id);
		c->r->drained = *drained = true;
	}
	if (gfp & CGCTL_MEMCG_GFP_NORETRY)
		return STEP_NOMEM;
	if (!(*retries)--) {
		if (!(gfp & CGCTL_MEMCG_GFP_NOOOM))
			oom(c, over);
		return STEP_NOMEM;
	}
	return STEP_RETRY;
}

static int charge_loop(struct charge_ctx *c)
{
	struct cgctl_memcg_tree *t = c->t;
	uint64_t batch = MAX((uint64_t)t->era.batch, c->n);
	unsigned int retries = t->era.reclaim_retries;
	bool drained = false, passed_oom = false;
	enum step s;

	for (;;) {
		if (attempt(c, batch))
			return 0;
		if (batch > c->n) {	/* no reclaim for the speculative batch */
			batch = c->n;
			continue;
		}
		if (t->era.page_counter)
			s = after_failure_pc(c, t->mg[c->r->over], &drained, &retries,
					     &passed_oom);
		else
			s = after_failure_rc(c, t->mg[c->r->over], &drained, &retries);
		if (s == STEP_NOMEM)
			break;
	}
	if (!(c->o->gfp & CGCTL_MEMCG_GFP_NOFAIL))
		return -ENOMEM;
	mg_force_charge_counters(t, c->m, c->n);	/* force: */
	c->r->forced = true;
	c->r->counter_pages = c->n;
	return 0;
}

static __attribute__((noinline)) int
charge_slow(struct cgctl_memcg_tree *t, struct mg *m, unsigned int cpu, uint64_t n,
		       const struct cgctl_memcg_charge_opts *opts,
		       struct cgctl_memcg_charge_result *res)
{
	static const struct cgctl_memcg_charge_opts no_opts;
	struct cgctl_memcg_charge_result scratch;
	struct charge_ctx c = { t, m, cpu, n, opts ? opts : &no_opts, res ? res : &scratch };
	int r;

	*c.r = (struct cgctl_memcg_charge_result){ .over = -1 };
	/* mirrors mm/memcontrol.c:try_charge(): the root is never charged */
	if (m->parent < 0) {
		m->charged += n;
		return 0;
	}
	r = charge_loop(&c);
	if (r == 0)
		m->charged += n;
	return r;
}

int cgctl_memcg_charge(struct cgctl_memcg_tree *t, int id, unsigned int cpu,
		       uint64_t n, const struct cgctl_memcg_charge_opts *opts,
		       struct cgctl_memcg_charge_result *res)
{
	struct mg *m;

	if (unlikely(!t || id < 0 || (unsigned int)id >= t->n || cpu >= t->ncpu || !n))
		return -EINVAL;
	m = t->mg[id];
	/* the root never has a slot, so it always takes the slow path */
	if (likely(mg_consume_stock(t, cpu, id, n))) {
		m->charged += n;
		if (res)
			*res = (struct cgctl_memcg_charge_result){ .over = -1, .from_stock = true };
		return 0;
	}
	return charge_slow(t, m, cpu, n, opts, res);
}

int cgctl_memcg_uncharge(struct cgctl_memcg_tree *t, int id, unsigned int cpu,
			 uint64_t n, unsigned int flags)
{
	struct mg *m = t ? mg_get(t, id) : NULL;

	if (!m || cpu >= t->ncpu)
		return -EINVAL;
	n = MIN(n, m->charged);
	m->charged -= n;
	if (m->parent < 0 || !n)
		return 0;
	/* user pages go straight to the counters (mirrors uncharge_batch() v6.18); kmem
	 * and socket pages go through the stock since 4.15 (obj_cgroup_uncharge_pages) */
	if ((flags & CGCTL_MEMCG_UNCHARGE_STOCK) && t->era.stock_cap)
		mg_refill_stock(t, cpu, id, n);
	else
		mg_uncharge_counters(t, m, n);
	return 0;
}

/* mirrors mm/memcontrol-v1.c:memcg1_swapout() (v6.18) and the v2 swap counter */
int cgctl_memcg_swapout(struct cgctl_memcg_tree *t, int id, uint64_t n)
{
	struct mg *m = t ? mg_get(t, id) : NULL;

	if (!m || n > m->charged)
		return -EINVAL;
	m->charged -= n;
	m->swap += n;
	if (m->parent < 0)
		return 0;
	cg_counter_uncharge(&m->memory, n);
	if (mg_is_v2(t))
		cg_counter_charge(&m->memsw, n);
	return 0;
}

int64_t cgctl_memcg_drain_all(struct cgctl_memcg_tree *t, int id)
{
	if (!t || !mg_get(t, id))
		return -EINVAL;
	return (int64_t)mg_drain_all_stock(t, id);
}

int64_t cgctl_memcg_stock_pages(const struct cgctl_memcg_tree *t, int id,
				unsigned int cpu)
{
	if (!t || !mg_get(t, id) || cpu >= t->ncpu)
		return -EINVAL;
	return (int64_t)mg_stock_of(t, id, (int)cpu);
}
