/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memcg model: a tree of memory cgroups, their counters and the charge path.
 * mirrors mm/memcontrol.c:try_charge_memcg() (v6.18), __mem_cgroup_try_charge()
 * (v2.6.33), mem_cgroup_css_alloc()/mem_cgroup_create() for the counter chain.
 */
#include <string.h>

#include "engine/memcg.h"
#include "engine/stock.h"

bool mg_is_descendant(const struct cgctl_memcg_tree *t, int id, int ancestor)
{
	for (const struct mg *m = mg_get(t, id); m; m = mg_get(t, m->parent))
		if (m->id == ancestor)
			return true;
	return false;
}

static void mg_free_all(struct cgctl_memcg_tree *t)
{
	for (unsigned int i = 0; i < t->n; i++)
		free(t->mg[i]);
	free(t->mg);
	free(t->stock);
	free(t);
}

void cgctl_memcg_tree_free(struct cgctl_memcg_tree *t)
{
	if (t)
		mg_free_all(t);
}

/* Where a new memcg's counters chain to: era A cuts the chain when the parent has
 * use_hierarchy=0 (mirrors mm/memcontrol.c:mem_cgroup_create() v2.6.33). */
static void mg_link(struct cgctl_memcg_tree *t, struct mg *m, struct mg *parent)
{
	bool leaf_track = !t->era.failcnt_leaf_only || (parent && !mg_is_v2(t));
	bool chain = parent && parent->use_hierarchy;

	cg_counter_init(&m->memory, chain ? &parent->memory : NULL, leaf_track);
	cg_counter_init(&m->memsw, chain ? &parent->memsw : NULL, !t->era.failcnt_leaf_only);
}

static int mg_add(struct cgctl_memcg_tree *t, int parent)
{
	struct mg *p = mg_get(t, parent), *m;

	if (t->n == t->cap) {
		unsigned int cap = t->cap ? t->cap * 2 : 8;
		struct mg **v = realloc(t->mg, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->mg = v;
		t->cap = cap;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->id = (int)t->n;
	m->parent = p ? p->id : -1;
	m->use_hierarchy = p ? p->use_hierarchy : t->era.always_hierarchical || mg_is_v2(t);
	m->soft_limit = CGCTL_MEMCG_UNLIMITED;
	mg_link(t, m, p);
	if (p)
		p->nchildren++;
	t->mg[t->n++] = m;
	return m->id;
}

int cgctl_memcg_tree_new(struct cgctl_memcg_tree **ret, uint32_t kver,
			 unsigned int ncpu, unsigned int flags, uint64_t seed)
{
	struct cgctl_memcg_tree *t;
	int r;

	if (!ret || !ncpu || ncpu > MG_MAX_CPUS)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	r = mg_era_get(kver, &t->era);
	if (r < 0) {
		free(t);
		return r;
	}
	t->ncpu = ncpu;
	t->flags = flags;
	t->rng = seed;
	t->stock = malloc(ncpu * sizeof(*t->stock));
	if (!t->stock || mg_add(t, -1) < 0) {
		mg_free_all(t);
		return -ENOMEM;
	}
	for (unsigned int c = 0; c < ncpu; c++)
		for (unsigned int i = 0; i < CGCTL_MEMCG_STOCK_SLOTS_MAX; i++)
			t->stock[c].slot[i] = (struct mg_slot){ .memcg = -1 };
	*ret = t;
	return 0;
}

int cgctl_memcg_tree_clone(const struct cgctl_memcg_tree *t,
			   struct cgctl_memcg_tree **ret)
{
	struct cgctl_memcg_tree *c;

	if (!t || !ret)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*c = *t;
	c->n = 0;
	c->mg = calloc(t->cap, sizeof(*c->mg));
	c->stock = malloc(t->ncpu * sizeof(*c->stock));
	if (!c->mg || !c->stock)
		goto oom;
	memcpy(c->stock, t->stock, t->ncpu * sizeof(*c->stock));
	for (; c->n < t->n; c->n++) {
		struct mg *m = malloc(sizeof(*m));

		if (!m)
			goto oom;
		*m = *t->mg[c->n];
		c->mg[c->n] = m;
	}
	/* re-point the counter chains into the copy */
	for (unsigned int i = 0; i < c->n; i++) {
		struct mg *m = c->mg[i], *p = mg_get(c, m->parent);

		m->memory.parent = m->memory.parent && p ? &p->memory : NULL;
		m->memsw.parent = m->memsw.parent && p ? &p->memsw : NULL;
	}
	*ret = c;
	return 0;
oom:
	mg_free_all(c);
	return -ENOMEM;
}

const struct cgctl_memcg_era *cgctl_memcg_tree_era(const struct cgctl_memcg_tree *t)
{
	return t ? &t->era : NULL;
}

int cgctl_memcg_create(struct cgctl_memcg_tree *t, int parent)
{
	if (!t || !mg_get(t, parent))
		return -EINVAL;
	return mg_add(t, parent);
}

int cgctl_memcg_parent(const struct cgctl_memcg_tree *t, int id)
{
	const struct mg *m = t ? mg_get(t, id) : NULL;

	return m ? m->parent : -EINVAL;
}

int cgctl_memcg_subtree_size(const struct cgctl_memcg_tree *t, int id)
{
	int n = 0;

	if (!t || !mg_get(t, id))
		return -EINVAL;
	for (unsigned int i = 0; i < t->n; i++)
		n += mg_is_descendant(t, (int)i, id);
	return n;
}

/* mirrors mm/memcontrol.c:mem_cgroup_hierarchy_write() (v2.6.33; v5.11 refuses 0) */
int cgctl_memcg_set_use_hierarchy(struct cgctl_memcg_tree *t, int id, bool on)
{
	struct mg *m = t ? mg_get(t, id) : NULL, *p;

	if (!m || mg_is_v2(t))
		return -EINVAL;
	if (t->era.always_hierarchical)
		return on ? 0 : -EINVAL;
	p = mg_get(t, m->parent);
	if (m->use_hierarchy == on)
		return 0;
	if (p && p->use_hierarchy)
		return -EINVAL;
	if (m->nchildren)
		return -EBUSY;
	m->use_hierarchy = on;
	return 0;
}

/* mirrors mm/memcontrol-v1.c:mem_cgroup_move_charge_write() (v6.12, v6.13) */
int cgctl_memcg_set_move_charge(struct cgctl_memcg_tree *t, int id,
				unsigned int val)
{
	struct mg *m = t ? mg_get(t, id) : NULL;

	if (!m)
		return -EINVAL;
	if (mg_is_v2(t) || t->era.kver < CGCTL_KVER(2, 6, 34))
		return -ENOENT;
	if (t->era.kver >= CGCTL_KVER(6, 13, 0))
		return val ? -EINVAL : 0;
	if (val & ~t->era.move_bits)
		return -EINVAL;
	m->move_charge = val;
	return 0;
}

/* ---- counters of one memcg ---- */

void mg_uncharge_counters(struct cgctl_memcg_tree *t, struct mg *m, uint64_t n)
{
	cg_counter_uncharge(&m->memory, n);
	if (mg_memsw(t))
		cg_counter_uncharge(&m->memsw, n);
}

static int over_id(const struct cgctl_memcg_tree *t, const struct cg_counter *fail,
		   bool memsw)
{
	for (unsigned int i = 0; i < t->n; i++)
		if ((memsw ? &t->mg[i]->memsw : &t->mg[i]->memory) == fail)
			return (int)i;
	return -1;
}

/*
 * Order of the two v1 counters: res then memsw before 3.19 (mirrors
 * mm/memcontrol.c:__mem_cgroup_try_charge() v2.6.33), memsw then memory since
 * (try_charge_memcg() v6.18).  A failure in the first leaves the second untouched.
 */
bool mg_try_charge_counters(struct cgctl_memcg_tree *t, struct mg *m, uint64_t n, int *over)
{
	struct cg_counter *fail;

	if (!mg_memsw(t)) {
		if (cg_counter_try_charge(&m->memory, n, &fail))
			return true;
		*over = over_id(t, fail, false);
		return false;
	}
	if (!t->era.page_counter) {
		if (!cg_counter_try_charge(&m->memory, n, &fail)) {
			*over = over_id(t, fail, false);
			return false;
		}
		if (cg_counter_try_charge(&m->memsw, n, &fail))
			return true;
		cg_counter_uncharge(&m->memory, n);
		*over = over_id(t, fail, true);
		return false;
	}
	if (!cg_counter_try_charge(&m->memsw, n, &fail)) {
		*over = over_id(t, fail, true);
		return false;
	}
	if (cg_counter_try_charge(&m->memory, n, &fail))
		return true;
	cg_counter_uncharge(&m->memsw, n);
	*over = over_id(t, fail, false);
	return false;
}

void mg_force_charge_counters(struct cgctl_memcg_tree *t, struct mg *m, uint64_t n)
{
	cg_counter_charge(&m->memory, n);
	if (mg_memsw(t))
		cg_counter_charge(&m->memsw, n);
}

/* mirrors mm/memcontrol.c:mem_cgroup_margin() (v6.18) */
uint64_t mg_margin(const struct cgctl_memcg_tree *t, const struct mg *m)
{
	uint64_t margin = cg_counter_margin(&m->memory);

	if (mg_memsw(t))
		margin = MIN(margin, cg_counter_margin(&m->memsw));
	return margin;
}

/*
 * Reclaim model: try_to_free_mem_cgroup_pages() frees what the caller's world allows
 * (@amount pages), taken from the true charges in @over's subtree in id order; the
 * freed pages leave both counters (dropped clean cache, or swapped without memsw).
 */
uint64_t mg_reclaim(struct cgctl_memcg_tree *t, int over, uint64_t amount)
{
	uint64_t done = 0;

	for (unsigned int i = 0; i < t->n && done < amount; i++) {
		struct mg *m = t->mg[i];
		uint64_t take;

		if (!m->charged || !mg_is_descendant(t, m->id, over))
			continue;
		take = MIN(m->charged, amount - done);
		m->charged -= take;
		if (m->parent >= 0)
			mg_uncharge_counters(t, m, take);
		done += take;
	}
	return done;
}
