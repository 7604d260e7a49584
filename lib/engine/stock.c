/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-cpu charge stock: pages charged to the counters in advance and handed out to
 * later charges of the same memcg on the same CPU.
 * mirrors mm/memcontrol.c:memcg_stock_pcp, consume_stock(), refill_stock(),
 * drain_stock(), drain_all_stock() (v2.6.33: 1 slot, CHARGE_SIZE 32 pages; v6.1: 1 slot,
 * 64 pages, >64 drains; v6.16: NR_MEMCG_STOCK = 7 slots, random eviction)
 */
#include "engine/memcg-internal.h"
#include "util/num.h"
#include "engine/stock.h"

/* the seeded stand-in for get_random_u32_below() */
static uint64_t rng_next(uint64_t *s)
{
	return cgctl_splitmix64(s);
}

static void drain_slot(struct cgctl_memcg_tree *t, struct mg_slot *s)
{
	struct mg *m = mg_get(t, s->memcg);

	if (m && s->nr)
		mg_uncharge_counters(t, m, s->nr);
	s->memcg = -1;
	s->nr = 0;
}

static struct mg_slot *find_slot(struct cgctl_memcg_tree *t, unsigned int cpu, int id)
{
	struct mg_stock *st = &t->stock[cpu];

	for (unsigned int i = 0; i < t->era.stock_slots; i++)
		if (st->slot[i].memcg == id)
			return &st->slot[i];
	return NULL;
}

/* The slot to cache a memcg that has none on this CPU: single-slot eras reuse slot 0
 * (draining the old memcg); 6.16+ takes an empty slot or evicts a random one. */
static struct mg_slot *claim_slot(struct cgctl_memcg_tree *t, unsigned int cpu)
{
	struct mg_stock *st = &t->stock[cpu];
	struct mg_slot *s = NULL;

	for (unsigned int i = 0; i < t->era.stock_slots && !s; i++)
		if (st->slot[i].memcg < 0)
			s = &st->slot[i];
	if (!s) {
		s = &st->slot[rng_next(&t->rng) % t->era.stock_slots];
		drain_slot(t, s);
	}
	return s;
}

/*
 * mirrors mm/memcontrol.c:refill_stock() (v6.18; v6.1; v2.6.33): add @n pages of @id
 * to this CPU's stock.  6.16+ uncharges amounts above the batch directly; 4.15+ drains
 * a slot that grows above the batch (before, nothing capped it).
 */
void mg_refill_stock(struct cgctl_memcg_tree *t, unsigned int cpu, int id, uint64_t n)
{
	struct mg_slot *s;

	if (!t->era.stock_slots || (t->era.stock_slots > 1 && n > t->era.batch)) {
		mg_uncharge_counters(t, mg_get(t, id), n);
		return;
	}
	s = find_slot(t, cpu, id);
	if (!s) {
		s = claim_slot(t, cpu);
		s->memcg = id;
		s->nr = 0;
	}
	s->nr += (uint32_t)n;
	if (t->era.stock_cap && s->nr > t->era.batch)
		drain_slot(t, s);
}

/*
 * mirrors mm/memcontrol.c:drain_all_stock() (v6.18): every CPU's slots that hold
 * @root or a descendant.  The kernel drains remote CPUs asynchronously; the model
 * drains them at once (the work runs before the charge's next retry in practice).
 */
uint64_t mg_drain_all_stock(struct cgctl_memcg_tree *t, int root)
{
	uint64_t total = 0;

	for (unsigned int c = 0; c < t->ncpu; c++) {
		for (unsigned int i = 0; i < t->era.stock_slots; i++) {
			struct mg_slot *s = &t->stock[c].slot[i];

			if (s->memcg < 0 || !mg_is_descendant(t, s->memcg, root))
				continue;
			total += s->nr;
			drain_slot(t, s);
		}
	}
	return total;
}

/* Stock pages of @id on @cpu (all CPUs when @cpu < 0). */
uint64_t mg_stock_of(const struct cgctl_memcg_tree *t, int id, int cpu)
{
	uint64_t total = 0;
	unsigned int c0 = cpu < 0 ? 0 : (unsigned int)cpu;
	unsigned int c1 = cpu < 0 ? t->ncpu : c0 + 1;

	for (unsigned int c = c0; c < c1; c++)
		for (unsigned int i = 0; i < t->era.stock_slots; i++)
			if (t->stock[c].slot[i].memcg == id)
				total += t->stock[c].slot[i].nr;
	return total;
}

/* The bound of kernel-memory-model.md 2.5: per slot, per CPU, per cached memcg. */
uint64_t mg_stock_max_pages(uint32_t kver, unsigned int ncpu, unsigned int nsubtree)
{
	struct cgctl_memcg_era e;
	unsigned int slots;

	if (mg_era_get(kver, &e) < 0)
		return 0;
	slots = nsubtree < e.stock_slots ? nsubtree : e.stock_slots;
	return (uint64_t)e.stock_max * ncpu * slots;
}

int mg_usage_interval(uint32_t kver, unsigned int ncpu, unsigned int nsubtree,
		      uint64_t usage_pages, uint64_t *lo, uint64_t *hi)
{
	uint64_t bound;

	if (!ncpu || !nsubtree || !lo || !hi)
		return -EINVAL;
	bound = mg_stock_max_pages(kver, ncpu, nsubtree);
	*lo = usage_pages > bound ? usage_pages - bound : 0;
	*hi = usage_pages;
	return 0;
}
