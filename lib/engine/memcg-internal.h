/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal state of the memcg model, shared by memcg*.c, stock.c and movecharge.c. */
#ifndef CGCTL_ENGINE_MEMCG_INTERNAL_H
#define CGCTL_ENGINE_MEMCG_INTERNAL_H

#include "internal.h"
#include "engine/pagecounter.h"

#define MG_MAX_CPUS 4096

struct mg {
	int id;
	int parent;		/* -1 for the root */
	unsigned int nchildren;
	struct cg_counter memory;
	struct cg_counter memsw;	/* v1 memsw; v2 swap (not charged with pages) */
	uint64_t charged;	/* true pages charged to this memcg itself */
	uint64_t swap;		/* swap entries charged (memsw) */
	uint64_t soft_limit;
	uint64_t events_max, events_oom;
	unsigned int move_charge;
	bool use_hierarchy;
};

struct mg_slot {
	int memcg;		/* -1: empty */
	uint32_t nr;		/* pages */
};

struct mg_stock {
	struct mg_slot slot[CGCTL_MEMCG_STOCK_SLOTS_MAX];
};

struct cgctl_memcg_tree {
	struct cgctl_memcg_era era;
	unsigned int ncpu;
	unsigned int flags;
	uint64_t rng;
	unsigned int n, cap;
	struct mg **mg;
	struct mg_stock *stock;	/* [ncpu] */
};

static inline struct mg *mg_get(const struct cgctl_memcg_tree *t, int id)
{
	return id >= 0 && (unsigned int)id < t->n ? t->mg[id] : NULL;
}

static inline bool mg_is_v2(const struct cgctl_memcg_tree *t)
{
	return t->flags & CGCTL_MEMCG_V2;
}

/* mirrors mm/memcontrol-v1.h:do_memsw_account() (v6.18): v1 with swap accounting */
static inline bool mg_memsw(const struct cgctl_memcg_tree *t)
{
	return !mg_is_v2(t) && (t->flags & CGCTL_MEMCG_SWAP_ACCOUNT);
}

bool mg_is_descendant(const struct cgctl_memcg_tree *t, int id, int ancestor);
/* Return @n pages to the counters of @m (memory, and memsw when accounted). */
void mg_uncharge_counters(struct cgctl_memcg_tree *t, struct mg *m, uint64_t n);
/* Charge the counters of @m: try (memsw/memory in era order).  false + *over on failure. */
bool mg_try_charge_counters(struct cgctl_memcg_tree *t, struct mg *m, uint64_t n, int *over);
void mg_force_charge_counters(struct cgctl_memcg_tree *t, struct mg *m, uint64_t n);
uint64_t mg_margin(const struct cgctl_memcg_tree *t, const struct mg *m);

/*
 * mirrors mm/memcontrol.c:consume_stock() (v6.18; v6.1, v2.6.33 alike): only a slot
 * caching @id with at least @n pages serves the charge; no partial use, and a slot of
 * another memcg is left alone.  Charges above the batch (THP) never use the stock.
 * Inline: this is the fast path of every modelled charge.
 */
static inline bool mg_consume_stock(struct cgctl_memcg_tree *t, unsigned int cpu, int id,
				    uint64_t n)
{
	struct mg_slot *s = t->stock[cpu].slot;
	unsigned int k = t->era.stock_slots;

	if (n > t->era.batch)
		return false;
	for (unsigned int i = 0; i < k; i++) {
		if (s[i].memcg != id)
			continue;
		if (s[i].nr < n)
			return false;
		s[i].nr -= (uint32_t)n;
		return true;
	}
	return false;
}

/* stock.c */
void mg_refill_stock(struct cgctl_memcg_tree *t, unsigned int cpu, int id, uint64_t n);
uint64_t mg_drain_all_stock(struct cgctl_memcg_tree *t, int root);
uint64_t mg_stock_of(const struct cgctl_memcg_tree *t, int id, int cpu);
/* The engine's halves of cgctl_memcg_stock_max_pages() and cgctl_memcg_usage_interval()
 * (their exported wrappers are in memcg-api.c, outside this library: cgctl links this
 * library after libcgctl.so and must not carry copies of libcgctl's exports). */
uint64_t mg_stock_max_pages(uint32_t kver, unsigned int ncpu, unsigned int nsubtree);
int mg_usage_interval(uint32_t kver, unsigned int ncpu, unsigned int nsubtree,
		      uint64_t usage_pages, uint64_t *lo, uint64_t *hi);

/* memcg-era.c: the half of cgctl_memcg_era_get() (see above) */
int mg_era_get(uint32_t kver, struct cgctl_memcg_era *ret);

#endif
