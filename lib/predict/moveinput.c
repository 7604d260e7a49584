/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The move plan's pure half: a page inventory becomes the move-charge classes of the
 * engine's planner (lib/engine/movecharge.c) by one rule, and the plan adds the
 * destination's headroom and the OOM risk.  No I/O: built with the memcg engine
 * (lib/libcgctl-memcg.la), so validate's move driver plans through the same code as
 * `cgctl move` (lib/predict/moveplan.c, which reads the inventory).
 */
#include <string.h>

#include "internal.h"
#include "kernel/pagescan.h"	/* PS_PMD_PAGES */

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

int cgctl_move_input_from_inventory(const struct cgctl_inventory *inv,
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

int cgctl_move_expect_input(struct cgctl_memcg_tree *t, int from, int to,
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
