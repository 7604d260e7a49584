/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Move charge at task migration (memory.move_charge_at_immigrate, cgroup v1).
 * mirrors mm/memcontrol.c:mem_cgroup_can_attach(), mem_cgroup_do_precharge(),
 * is_target_pte_for_mc()/get_mctgt_type(), mem_cgroup_move_charge(),
 * mem_cgroup_clear_mc() (v2.6.34, v2.6.35, v3.5, v6.12; removed in v6.13)
 */
#include <string.h>

#include "engine/memcg.h"
#include "engine/movecharge.h"

#define K(a, b, c) CGCTL_KVER(a, b, c)

/* Resident pages in @c (the large folios' heads are among thp_pte and file_large) */
static uint64_t counts_pages(const struct cgctl_move_counts *c)
{
	return c->anon_excl + c->anon_shared2 + c->anon_shared_more + c->file + c->shmem +
	       c->thp + c->thp_pte + c->file_large;
}

/* Resident pages that move: all but the large folios met through a PTE */
static uint64_t movable_pages(const struct cgctl_move_counts *c)
{
	return counts_pages(c) - c->thp_pte - c->file_large;
}

/* Resident pages that are precharged but never moved: pages of a large folio met
 * through a PTE.  mirrors mm/memcontrol.c:mem_cgroup_move_charge_pte_range() (v6.1:
 * "if (PageTransCompound(page)) goto put"; v6.12: folio_test_large()), while
 * mem_cgroup_count_precharge_pte_range() counted them through get_mctgt_type(): every
 * page from 6.6, the head pages only before (cgctl_memcg_era.move_pte_tails) */
static uint64_t pte_large_pages(const struct cgctl_memcg_tree *t,
				const struct cgctl_move_counts *c)
{
	if (t->era.move_pte_tails)
		return c->thp_pte + c->file_large;
	return MIN(c->thp_pte_counted, c->thp_pte) + MIN(c->file_large_counted, c->file_large);
}

static const char *no_move_reason(const struct cgctl_memcg_tree *t, const struct mg *to,
				  const struct cgctl_move_input *in)
{
	if (mg_is_v2(t))
		return "cgroup v2 never moves charges";
	if (!t->era.move_bits)
		return t->era.move_none;
	if (!(to->move_charge & t->era.move_bits))
		return "move_charge_at_immigrate of the destination is 0";
	if (in->not_mm_owner)
		return "the task is not its mm's owner";
	return NULL;
}

/*
 * Which entries qualify (kernel-memory-model.md 3.2): 2.6.34 moves anon pages mapped
 * once, 2.6.35-3.4 mapcount <= 2, 3.5+ any mapcount; bit 1 adds file and shmem pages
 * (2.6.35+); THP move whole with bit 0 from 3.5 (split first before); swap entries
 * only when swap_cgroup records them (memsw accounting).
 * mirrors mm/memcontrol.c:mc_handle_present_pte(), mc_handle_swap_pte(),
 * mc_handle_file_pte(), get_mctgt_type_thp() (v3.5, v6.12)
 */
static void qualify(const struct cgctl_memcg_tree *t, unsigned int flags,
		    const struct cgctl_move_counts *c, struct cgctl_move_counts *q)
{
	bool anon = flags & CGCTL_MOVE_CHARGE_ANON, file = flags & CGCTL_MOVE_CHARGE_FILE;
	uint32_t v = t->era.kver;

	memset(q, 0, sizeof(*q));
	if (anon) {
		q->anon_excl = c->anon_excl;
		q->anon_shared2 = v >= K(2, 6, 35) ? c->anon_shared2 : 0;
		q->anon_shared_more = v >= K(3, 5, 0) ? c->anon_shared_more : 0;
		/* a PMD-mapped THP qualifies whatever its mapcount
		 * (get_mctgt_type_thp(), v6.1: only MOVE_ANON and page_memcg are tested) */
		q->thp = c->thp;
		q->thp_pte = c->thp_pte;
		q->thp_pte_counted = c->thp_pte_counted;
		q->swap = mg_memsw(t) ? c->swap : 0;
	}
	if (file) {
		q->file = c->file;
		q->shmem = c->shmem;
		q->file_large = c->file_large;
		q->file_large_counted = c->file_large_counted;
		q->shmem_swap = mg_memsw(t) && t->era.move_shmem_swap ? c->shmem_swap : 0;
	}
}

/* Charge the counters (and stock) of @to without booking true pages. */
static int precharge_charge(struct cgctl_memcg_tree *t, struct mg *to, unsigned int cpu,
			    uint64_t n, const struct cgctl_memcg_charge_opts *o)
{
	int r = cgctl_memcg_charge(t, to->id, cpu, n, o, NULL);

	if (r == 0)
		to->charged -= n;
	return r;
}

/* 2.6.34-3.18: one res_counter charge of the whole count, no stock, no reclaim */
static bool bulk_rc(struct cgctl_memcg_tree *t, struct mg *to, uint64_t count)
{
	int over;

	return count > 1 && mg_try_charge_counters(t, to, count, &over);
}

/*
 * mirrors mm/memcontrol.c:try_charge_memcg() with nr_pages 0 (v6.1, v6.12; try_charge()
 * from 3.19), which mem_cgroup_do_precharge() calls even when nothing qualifies: a CPU
 * whose stock does not cache @to (consume_stock(memcg, 0) succeeds only on the cached
 * memcg) charges a whole batch and puts all of it in the stock (done_restock:
 * refill_stock(memcg, batch - 0)); a batch over the limit retries with 0 pages, which
 * charges nothing.  Before 3.19 the res_counter precharge charged nothing for 0.
 */
static void precharge_none(struct cgctl_memcg_tree *t, struct mg *to, unsigned int cpu)
{
	int over;

	if (!t->era.page_counter || mg_consume_stock(t, cpu, to->id, 0))
		return;
	if (mg_try_charge_counters(t, to, t->era.batch, &over))
		mg_refill_stock(t, cpu, to->id, t->era.batch);
}

/*
 * mirrors mm/memcontrol.c:mem_cgroup_do_precharge() (v6.12: bulk try_charge without
 * direct reclaim, then one page at a time with __GFP_NORETRY; v2.6.34: bulk
 * res_counter charge, then __mem_cgroup_try_charge() one by one without OOM).
 * Returns: 0 or -ENOMEM; *done = pages precharged (to be cancelled on failure).
 */
static int do_precharge(struct cgctl_memcg_tree *t, struct mg *to, unsigned int cpu,
			uint64_t count, const struct cgctl_memcg_charge_opts *o,
			struct cgctl_move_plan *p, uint64_t *done)
{
	struct cgctl_memcg_charge_opts one = *o;
	struct cgctl_memcg_charge_opts bulk = { .gfp = CGCTL_MEMCG_GFP_NOWAIT };

	*done = 0;
	if (to->parent < 0) {	/* root: nothing is charged */
		*done = count;
		return 0;
	}
	if (!count) {
		precharge_none(t, to, cpu);
		return 0;
	}
	if (t->era.page_counter ? precharge_charge(t, to, cpu, count, &bulk) == 0
				: bulk_rc(t, to, count)) {
		*done = count;
		return 0;
	}
	p->bulk_failed = count > 1 || t->era.page_counter;
	one.oom_frees = 0;
	one.gfp = (o->gfp & ~CGCTL_MEMCG_GFP_NOFAIL) | CGCTL_MEMCG_GFP_NOOOM;
	if (t->era.page_counter)
		one.gfp |= CGCTL_MEMCG_GFP_NORETRY;
	for (; *done < count; (*done)++)
		if (precharge_charge(t, to, cpu, 1, &one) < 0)
			return -ENOMEM;
	return 0;
}

/* mirrors mm/memcontrol.c:mem_cgroup_clear_mc() (v6.12): settle the counters; the root
 * is never charged nor uncharged */
static void clear_mc(struct cgctl_memcg_tree *t, struct mg *from, struct mg *to,
		     uint64_t leftover, uint64_t moved, uint64_t moved_swap)
{
	if (to->parent >= 0 && leftover)
		mg_uncharge_counters(t, to, leftover);
	if (from->parent >= 0 && moved)
		mg_uncharge_counters(t, from, moved);
	if (!moved_swap)
		return;
	if (from->parent >= 0)
		cg_counter_uncharge(&from->memsw, moved_swap);
	if (to->parent >= 0)
		cg_counter_uncharge(&to->memory, moved_swap);
}

static void move_pages(struct mg *from, struct mg *to, uint64_t moved, uint64_t swap)
{
	from->charged -= MIN(from->charged, moved);
	to->charged += moved;
	from->swap -= MIN(from->swap, swap);
	to->swap += swap;
}

static int common_ancestor(const struct cgctl_memcg_tree *t, int a, int b)
{
	for (const struct mg *m = mg_get(t, b); m; m = mg_get(t, m->parent))
		if (mg_is_descendant(t, a, m->id))
			return m->id;
	return CGCTL_MEMCG_ROOT;
}

static int add_level(struct cgctl_move_plan *p, const struct mg *m, bool common)
{
	struct cgctl_move_level *l;

	for (unsigned int i = 0; i < p->nlevels; i++)
		if (p->levels[i].id == m->id)
			return 0;
	if (p->nlevels == CGCTL_MOVE_MAX_LEVELS)
		return -EINVAL;
	l = &p->levels[p->nlevels++];
	l->id = m->id;
	l->common = common;
	l->before = (struct cgctl_memcg_counter){ m->memory.usage, m->memory.max,
						  m->memory.watermark, m->memory.failcnt };
	l->memsw_before = (struct cgctl_memcg_counter){ m->memsw.usage, m->memsw.max,
							m->memsw.watermark, m->memsw.failcnt };
	return 0;
}

/* from .. common and to .. common, common last */
static int collect_levels(const struct cgctl_memcg_tree *t, struct cgctl_move_plan *p,
			  int from, int to)
{
	int ends[2] = { from, to };

	for (int k = 0; k < 2; k++)
		for (const struct mg *m = mg_get(t, ends[k]); m && m->id != p->common;
		     m = mg_get(t, m->parent))
			if (add_level(p, m, false) < 0)
				return -EINVAL;
	return add_level(p, mg_get(t, p->common), true);
}

static void snapshot_after(const struct cgctl_memcg_tree *t, struct cgctl_move_plan *p)
{
	for (unsigned int i = 0; i < p->nlevels; i++) {
		const struct mg *m = mg_get(t, p->levels[i].id);
		struct cgctl_move_level *l = &p->levels[i];

		l->after = (struct cgctl_memcg_counter){ m->memory.usage, m->memory.max,
							 m->memory.watermark,
							 m->memory.failcnt };
		l->memsw_after = (struct cgctl_memcg_counter){ m->memsw.usage, m->memsw.max,
							       m->memsw.watermark,
							       m->memsw.failcnt };
	}
}

/*
 * The walk goes on after the precharge is used up.  mirrors mm/memcontrol.c:
 * mem_cgroup_move_charge_pte_range() (v2.6.34 to v6.12): at each PTE "if
 * (!mc.precharge) break;", and a range left before its end ("if (addr != end)") gets
 * "mem_cgroup_do_precharge(1)" and is walked again.  When every counted entry moved
 * (no PTE-mapped large folio held some back), the next PTE or range the walk meets
 * takes that one-page precharge, and there always is one: the walk covers the whole
 * address space, and the vdso lies above the stack.  Nothing is left to move, so
 * clear_mc cancels the page; but try_charge() charged a batch for it and stocked the
 * rest on this CPU (or took it from a stock already holding @to).  Measured on 6.1
 * (validate --sweep 20 --kind move --target vm:6.1-v1, 2026-12-04): the destination
 * ended 63 pages above what moved in every case that used up its precharge, 63 in all
 * where less than a batch was precharged.
 * Returns: the pages to cancel (0 or 1).
 */
static uint64_t walk_on(struct cgctl_memcg_tree *t, struct mg *to, unsigned int cpu,
			const struct cgctl_memcg_charge_opts *o, struct cgctl_move_plan *p)
{
	bool bulk_failed = p->bulk_failed;
	uint64_t done = 0;

	if (pte_large_pages(t, &p->qualify) || to->parent < 0)
		return 0;	/* precharge left over, or the root: nothing charged */
	do_precharge(t, to, cpu, 1, o, p, &done);
	p->bulk_failed = bulk_failed;	/* the attach's own precharge says that */
	return done;
}

/* can_attach (count + precharge) and, when it succeeded, attach (move) and clear_mc */
static void run_move(struct cgctl_memcg_tree *t, struct mg *from, struct mg *to,
		     unsigned int cpu, const struct cgctl_memcg_charge_opts *o,
		     struct cgctl_move_plan *p)
{
	uint64_t done, held = pte_large_pages(t, &p->qualify), swap;

	swap = p->qualify.swap + p->qualify.shmem_swap;
	p->moved = movable_pages(&p->qualify);
	p->precharge = p->moved + held + swap;
	p->err = do_precharge(t, to, cpu, p->precharge, o, p, &done);
	if (p->err < 0) {	/* cancel_attach: the cgroup.procs write fails */
		p->moved = 0;
		clear_mc(t, from, to, done, 0, 0);
		return;
	}
	/* the precharge of PTE-mapped large-folio pages is left over: clear_mc cancels it */
	p->moved_swap = swap;
	move_pages(from, to, p->moved, p->moved_swap);
	clear_mc(t, from, to, held + walk_on(t, to, cpu, o, p), p->moved, p->moved_swap);
}

int cgctl_move_plan(struct cgctl_memcg_tree *t, int from, int to,
		    unsigned int cpu, const struct cgctl_move_input *in,
		    const struct cgctl_memcg_charge_opts *opts,
		    struct cgctl_move_plan *p)
{
	static const struct cgctl_memcg_charge_opts no_opts;
	struct mg *mf = t ? mg_get(t, from) : NULL, *mt = t ? mg_get(t, to) : NULL;

	if (!mf || !mt || from == to || !in || !p || cpu >= t->ncpu)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->common = common_ancestor(t, from, to);
	if (collect_levels(t, p, from, to) < 0)
		return -EINVAL;
	p->elsewhere = counts_pages(&in->elsewhere) + in->elsewhere.swap +
		       in->elsewhere.shmem_swap;
	p->reason = no_move_reason(t, mt, in);
	p->moves = !p->reason;
	p->flags = mt->move_charge & t->era.move_bits;
	if (p->moves) {
		qualify(t, p->flags, &in->from, &p->qualify);
		run_move(t, mf, mt, cpu, opts ? opts : &no_opts, p);
		p->moves = p->err == 0;
		if (p->err)
			p->reason = "the precharge of the destination failed: the attach fails";
	}
	p->stays = counts_pages(&in->from) - p->moved;
	p->stays_swap = in->from.swap + in->from.shmem_swap - p->moved_swap;
	snapshot_after(t, p);
	return 0;
}
