/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The move plan: a page inventory (lib/kernel/pagescan) becomes the move-charge classes
 * of the engine's planner (lib/engine/movecharge.c) by one rule, and the plan adds the
 * destination's headroom and the OOM risk.  `cgctl move`, its --dry-run and validate's
 * move driver all come through here.
 */
#include <string.h>

#include "internal.h"
#include "kernel/pagescan.h"
#include "predict/moveplan.h"

static uint64_t take(uint64_t *from, uint64_t n)
{
	uint64_t k = MIN(*from, n);

	*from -= k;
	return k;
}

/*
 * Each page in one class.  The inventory counts a large-folio page in its mapping class
 * (anon_exclusive/anon_shared/file/shmem) and again in thp (thp_pmd: anon pages of
 * PMD-mapped folios), so those come out of the mapping classes here.  A PMD-mapped THP
 * moves as a unit whatever its mapcount (mm/memcontrol.c:get_mctgt_type_thp(), v6.1);
 * a PTE-mapped large folio is counted by mem_cgroup_count_precharge_pte_range() but
 * skipped by mem_cgroup_move_charge_pte_range() (PageTransCompound, v6.1).  The
 * inventory does not say whether a large folio that is not PMD-mapped is anon or file:
 * it is taken as anon first (before 6.8 every anon large folio is a PMD THP split or
 * partly unmapped; file large folios need a filesystem that makes them).
 */
static void move_counts_add(struct cgctl_move_counts *c, const struct cgctl_inv_group *g)
{
	uint64_t excl = g->anon_exclusive, mc2 = MIN(g->anon_shared_mc2, g->anon_shared);
	uint64_t more = g->anon_shared - mc2, file = g->file, shmem = g->shmem;
	uint64_t pmd = MIN(g->thp_pmd, excl + more + mc2), large, anon_large, file_large, heads;
	uint64_t rest = pmd;

	rest -= take(&excl, rest);
	rest -= take(&more, rest);
	take(&mc2, rest);
	large = g->thp > g->thp_pmd ? g->thp - g->thp_pmd : 0;
	rest = large;
	rest -= take(&excl, rest);
	rest -= take(&more, rest);
	rest -= take(&mc2, rest);
	c->thp_pte += large - rest;
	anon_large = large - rest;
	large = rest;
	rest -= take(&shmem, rest);
	take(&file, rest);
	c->file_large += large - rest;
	/* the heads of PTE-mapped folios, split between the two classes as their pages */
	heads = g->thp_heads > g->thp_pmd / PS_PMD_PAGES ?
		g->thp_heads - g->thp_pmd / PS_PMD_PAGES : 0;
	file_large = large - rest;
	if (anon_large + file_large) {
		uint64_t h = MIN(heads * anon_large / (anon_large + file_large), anon_large);

		c->thp_pte_counted += h;
		c->file_large_counted += MIN(heads - h, file_large);
	}
	c->anon_excl += excl;
	c->anon_shared2 += mc2;
	c->anon_shared_more += more;
	c->thp += pmd;
	c->file += file;
	c->shmem += shmem;
}

void cgctl_move_counts_add(struct cgctl_move_counts *c,
			   const struct cgctl_inv_group *g)
{
	if (!c || !g)
		return;
	move_counts_add(c, g);
}

CGCTL_EXPORT int cgctl_move_input_from_inventory(const struct cgctl_inventory *inv,
						 uint64_t from_ino,
						 struct cgctl_move_input *in)
{
	bool unknown;

	if (!inv || !in)
		return -EINVAL;
	memset(in, 0, sizeof(*in));
	unknown = (inv->unknown & CGCTL_INV_UNKNOWN_OWNER) || !inv->pfn_visible;
	if (!from_ino)
		from_ino = inv->task_ino;
	for (size_t i = 0; i < inv->n_groups; i++) {
		const struct cgctl_inv_group *g = &inv->groups[i];

		if (unknown)
			cgctl_move_counts_add(&in->from, g);
		else if (g->ino)	/* ino 0: not charged at all (zero page, ...) */
			cgctl_move_counts_add(g->ino == from_ino ? &in->from : &in->elsewhere,
					      g);
	}
	/* swap_cgroup is not visible from /proc: the entries are taken as the task's */
	in->from.swap = inv->swap_pages;
	return unknown ? 0 : 1;
}

/* Room below the limits of @to and its ancestors (up to, not including, the root). */
static void headroom(struct cgctl_memcg_tree *t, int to, struct cgctl_move_expect *e)
{
	uint64_t room = UINT64_MAX;

	for (int id = to; id > 0; id = cgctl_memcg_parent(t, id)) {
		struct cgctl_memcg_state s;

		if (cgctl_memcg_get(t, id, &s) < 0)
			break;
		if (s.memory.max != CGCTL_MEMCG_UNLIMITED)
			room = MIN(room, s.memory.max > s.memory.usage ?
					 s.memory.max - s.memory.usage : 0);
	}
	e->headroom_known = room != UINT64_MAX;
	e->headroom_pages = room;
}

/*
 * The change of @id's memory usage as the kernel reports it: its page counter's, which
 * the plan follows up to the common ancestor (the precharge charges `to` and its
 * ancestors, mem_cgroup_clear_mc() uncharges the moved pages from `from` and its
 * ancestors, so an ancestor of both keeps its usage), except the root's: v1 reports the
 * root's usage from the statistics of its whole tree (mm/memcontrol.c:mem_cgroup_usage(),
 * v6.1), which a move inside the tree does not change.
 */
static int64_t reported_delta(const struct cgctl_move_plan *p, int id)
{
	if (id == CGCTL_MEMCG_ROOT)
		return 0;
	for (unsigned int i = 0; i < p->nlevels; i++)
		if (p->levels[i].id == id)
			return (int64_t)p->levels[i].after.usage -
			       (int64_t)p->levels[i].before.usage;
	return 0;
}

CGCTL_EXPORT int cgctl_move_expect_input(struct cgctl_memcg_tree *t, int from, int to,
					 const struct cgctl_move_input *in,
					 uint64_t resident_pages, struct cgctl_move_expect *e)
{
	int r;

	if (!e)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	if (!t || !in || from < 0 || to < 0)
		return -EINVAL;
	if (from == to) {
		e->why_none = "already in the destination";
		return 0;
	}
	e->resident_pages = resident_pages;
	headroom(t, to, e);
	r = cgctl_move_plan(t, from, to, 0, in, NULL, &e->plan);
	if (r < 0) {
		e->why_none = "the model cannot plan this move";
		return r;
	}
	e->have = true;
	e->oom_risk = !e->plan.moves && e->headroom_known &&
		      e->resident_pages > e->headroom_pages;
	e->from_delta_pages = reported_delta(&e->plan, from);
	e->to_delta_pages = reported_delta(&e->plan, to);
	return 0;
}

int cgctl_move_expect_inventory(struct cgctl_memcg_tree *t, int from, int to,
				const struct cgctl_inventory *inv,
				uint64_t from_ino, struct cgctl_move_expect *e)
{
	struct cgctl_move_input in;
	uint64_t resident;
	int r = cgctl_move_input_from_inventory(inv, from_ino, &in);

	if (r < 0) {
		if (e)
			memset(e, 0, sizeof(*e));
		return r;
	}
	resident = inv->present_pages - MIN(inv->zero_pages, inv->present_pages);
	return cgctl_move_expect_input(t, from, to, &in, resident, e);
}

/*
 * With bit 1 (MOVE_FILE) the kernel also moves page cache the tasks' file mappings
 * cover without mapping it (mc_handle_file_pte(), v6.1: lib/kernel/pagecache.c): add
 * what is charged to the source, as file pages (large folios: precharged, not moved).
 * Unknown (not root, ...) adds nothing.
 */
void cgctl_move_input_add_unmapped(struct cgctl_move_input *in,
				   const struct cgctl_unmapped_cache *c)
{
	uint64_t large_file = c->large - MIN(c->large_shmem, c->large);

	in->from.file += c->file - MIN(large_file, c->file);
	in->from.shmem += c->shmem - MIN(c->large_shmem, c->shmem);
	in->from.file_large += c->large;
	in->from.file_large_counted += c->large;
}

CGCTL_EXPORT int cgctl_move_input_add_cache(struct cgctl_ctx *ctx, const pid_t *pids,
					   size_t n, uint64_t from_ino,
					   struct cgctl_move_input *in)
{
	struct cgctl_unmapped_cache c;
	int r;

	if (!ctx || !in || (n && !pids))
		return -EINVAL;
	r = cgctl_unmapped_cache_scan(ctx, pids, n, from_ino, &c);
	if (r < 0)
		return r;
	cgctl_move_input_add_unmapped(in, &c);
	return 0;
}

static int expect_tasks_inventory(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm, int f,
				  int t, const pid_t *pids, size_t n,
				  const struct cgctl_inventory *inv, struct cgctl_move_expect *e)
{
	struct cgctl_memcg_state to;
	struct cgctl_move_input in;
	struct cgctl_unmapped_cache c;
	uint64_t resident;
	int r = cgctl_move_input_from_inventory(inv, 0, &in);

	if (r < 0) {
		memset(e, 0, sizeof(*e));
		return r;
	}
	if (cgctl_memcg_moves_charges(mm->kver) && cgctl_memcg_get(mm->tree, t, &to) == 0 &&
	    (to.move_charge & CGCTL_MOVE_CHARGE_FILE) && inv->task_ino &&
	    cgctl_unmapped_cache_scan(ctx, pids, n, inv->task_ino, &c) == 0)
		cgctl_move_input_add_unmapped(&in, &c);
	resident = inv->present_pages - MIN(inv->zero_pages, inv->present_pages);
	return cgctl_move_expect_input(mm->tree, f, t, &in, resident, e);
}

CGCTL_EXPORT int cgctl_move_expect_tasks(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm,
					 const pid_t *pids, size_t n, const char *from,
					 const char *to, struct cgctl_move_expect *e,
					 struct cgctl_error *err)
{
	struct cgctl_inventory *inv = NULL;
	int f, t, r;

	if (!e)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	if (!ctx || !mm || !mm->tree || !pids || !n || !from || !to)
		return -EINVAL;
	f = cgctl_mem_model_node(ctx, mm, from);
	t = cgctl_mem_model_node(ctx, mm, to);
	if (f < 0 || t < 0) {
		e->why_none = "cannot read the memory counters";
		return 0;
	}
	if (f == t) {
		e->why_none = "already in the destination";
		return 0;
	}
	r = cgctl_inventory_scan_tasks(ctx, pids, n, CGCTL_INV_NO_PATHS, &inv, err);
	if (r == -ESRCH)
		return r;
	if (r < 0) {
		e->why_none = "cannot inventory the task's pages";
		return 0;
	}
	r = expect_tasks_inventory(ctx, mm, f, t, pids, n, inv, e);
	cgctl_inventory_free(inv);
	return r == -EINVAL ? 0 : r;
}

CGCTL_EXPORT uint64_t cgctl_move_tolerance_bytes(struct cgctl_ctx *ctx,
						 const struct cgctl_mem_model *mm,
						 const char *path)
{
	struct cgctl_memcg_era era;
	unsigned int n;

	if (!ctx || !mm || !mm->m || !path)
		return 0;
	/* the stock holds at most stock_slots cgroups a CPU: counting the subtree past
	 * that changes nothing (a move beside 2,000 sibling cgroups walked them all) */
	if (cgctl_memcg_era_get(mm->kver, &era) < 0)
		return 0;
	n = cgctl_mem_subtree_size_upto(ctx, mm->m, path, era.stock_slots);
	return cgctl_memcg_stock_max_pages(mm->kver, mm->ncpu, n) * CGCTL_PAGE_SIZE;
}

bool cgctl_memcg_moves_charges(uint32_t kver)
{
	struct cgctl_memcg_era era;

	return kver && cgctl_memcg_era_get(kver, &era) == 0 && era.move_bits != 0;
}
