/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reclaim of the memory.high model: which group reclaim takes pages from, and how many.
 *
 * This is a model of reclaim's outcome, not a VM simulator.  Its assumptions:
 * - a group's LRU holds its clean file pages and its anon pages; clean file pages are
 *   always reclaimable, anon pages only into swap (room in swap.max of the group and its
 *   ancestors and in the system's free swap);
 * - file is taken before anon (get_scan_count()'s cache_trim_mode with a large inactive
 *   file list and no refaults); no workingset refaults, no writeback, no dirty pages;
 * - the scan of each priority level is lruvec_size >> priority, reduced by protection as
 *   apply_proportional_protection() does, and every scanned page is reclaimed; the
 *   priority loop stops once nr_to_reclaim pages are reclaimed (do_try_to_free_pages());
 *   how much one priority level takes of one group follows the LRU the kernel runs
 *   (shrink_lruvec() below: the active/inactive lists of 6.1, the multi-gen LRU of
 *   Debian's 6.12).
 */
#include "engine/memcg-high.h"

#define DEF_PRIORITY 12
#define MH_MIN_LRU_BATCH 64 /* include/linux/mmzone.h: MIN_LRU_BATCH = BITS_PER_LONG */
#define MH_SWAPPINESS 60    /* vm_swappiness, a memcg's default */

bool mh_in_subtree(const struct cgctl_memhigh_run *r, int g, int top)
{
	for (; g >= 0; g = r->g[g].parent)
		if (g == top)
			return true;
	return false;
}

/* page_counter_charge()/uncharge() of @g and its ancestors (the root is not a group) */
void mh_counter_add(struct cgctl_memhigh_run *r, int g, int64_t n)
{
	for (; g >= 0; g = r->g[g].parent) {
		r->g[g].usage += (uint64_t)n;
		if (r->g[g].usage > r->g[g].res.peak)
			r->g[g].res.peak = r->g[g].usage;
	}
}

static uint64_t *ev_field(struct mh_group *grp, int ev)
{
	switch (ev) {
	case MH_EV_LOW:
		return &grp->res.ev_low;
	case MH_EV_HIGH:
		return &grp->res.ev_high;
	case MH_EV_MAX:
		return &grp->res.ev_max;
	case MH_EV_OOM:
		return &grp->res.ev_oom;
	default:
		return &grp->res.ev_oom_kill;
	}
}

/* mirrors include/linux/memcontrol.h:memcg_memory_event() (v6.12): memory.events counts
 * on the group and every ancestor below the root (no memory_localevents) */
void mh_event(struct cgctl_memhigh_run *r, int g, int ev)
{
	for (; g >= 0; g = r->g[g].parent)
		(*ev_field(&r->g[g], ev))++;
}

static uint64_t children_protected(const struct cgctl_memhigh_run *r, int parent,
				   bool low)
{
	uint64_t sum = 0;

	/* propagate_protected_usage(): children_{min,low}_usage = sum min(usage, setting)
	 */
	for (unsigned int i = 0; i < r->ngroups; i++) {
		const struct mh_group *c = &r->g[i];
		uint64_t s = low ? c->lim.low : c->lim.min;

		if (c->parent == parent)
			sum += c->usage < s ? c->usage : s;
	}
	return sum;
}

/* mirrors mm/memcontrol.c:mem_cgroup_calculate_protection() (v6.1) and
 * mm/page_counter.c:page_counter_calculate_protection() (v6.12), top-down over the
 * subtree of @target (groups are stored parents first) */
static void calculate_protection(struct cgctl_memhigh_run *r, int target)
{
	for (unsigned int i = 0; i < r->ngroups; i++) {
		struct mh_group *c = &r->g[i];
		const struct mh_group *p;

		if ((int)i == target || !mh_in_subtree(r, (int)i, target) || !c->usage)
			continue;
		/* a top-level group under the real root, or a child of the target */
		if (c->parent == target || c->parent < 0) {
			c->emin = c->lim.min;
			c->elow = c->lim.low;
			continue;
		}
		p = &r->g[c->parent];
		c->emin = cgctl_memhigh_effective_protection(
		    &r->era, c->usage, p->usage, c->lim.min, p->emin,
		    children_protected(r, c->parent, false), r->cfg.recursive_prot);
		c->elow = cgctl_memhigh_effective_protection(
		    &r->era, c->usage, p->usage, c->lim.low, p->elow,
		    children_protected(r, c->parent, true), r->cfg.recursive_prot);
	}
}

/* pages of @g reclaim could take: clean file, and anon while swap has room */
static uint64_t swap_room(const struct cgctl_memhigh_run *r, int g)
{
	uint64_t room = r->swap_free;

	for (; g >= 0; g = r->g[g].parent) {
		const struct mh_group *a = &r->g[g];
		uint64_t left = a->swap_usage >= a->lim.swap_max
				    ? 0
				    : a->lim.swap_max - a->swap_usage;

		room = left < room ? left : room;
	}
	return room;
}

static void swap_out_task_pages(struct cgctl_memhigh_run *r, int g, uint64_t n)
{
	for (unsigned int i = 0; i < r->ntasks && n; i++) {
		struct mh_task *tk = &r->tasks[i];
		uint64_t k = tk->group == g ? (tk->anon < n ? tk->anon : n) : 0;

		tk->anon -= k;
		tk->swap += k;
		n -= k;
	}
}

enum { MH_LRU_ANY, MH_LRU_FILE, MH_LRU_ANON };

/* take up to @want pages from @g's @lists: file first, then anon into swap */
static void shrink_group(struct cgctl_memhigh_run *r, int g, int lists, uint64_t want,
			 uint64_t *fp, uint64_t *ap)
{
	struct mh_group *grp = &r->g[g];
	uint64_t f = lists == MH_LRU_ANON ? 0 : grp->file < want ? grp->file : want;
	uint64_t a = lists == MH_LRU_FILE ? 0 : want - f, room;

	room = swap_room(r, g);
	a = a < grp->anon ? a : grp->anon;
	a = a < room ? a : room;
	grp->file -= f;
	grp->anon -= a;
	grp->swap += a;
	swap_out_task_pages(r, g, a);
	r->swap_free -= a;
	for (int p = g; p >= 0; p = r->g[p].parent)
		r->g[p].swap_usage += a;
	mh_counter_add(r, g, -(int64_t)(f + a));
	*fp = f;
	*ap = a;
}

/* pages reclaim can evict from @g: its clean file pages, and its anon pages while swap
 * has room (get_scan_count()'s SCAN_FILE without swap, try_to_shrink_lruvec()'s
 * !can_swap) */
static uint64_t evictable(const struct cgctl_memhigh_run *r, int g)
{
	const struct mh_group *c = &r->g[g];

	return c->file + (c->anon && swap_room(r, g) ? c->anon : 0);
}

/* mirrors mm/vmscan.c:get_scan_count()'s apply_proportional_protection (v6.12) to
 * @size pages of @g's LRU lists */
static uint64_t scan_target(const struct cgctl_memhigh_run *r, int g, int target,
			    bool low_reclaim, int prio, uint64_t size)
{
	const struct mh_group *c = &r->g[g];
	uint64_t scan = size, prot, cgsize;

	if (g != target && (c->emin || c->elow)) {
		prot = !low_reclaim && c->elow > c->emin ? c->elow : c->emin;
		cgsize = c->usage > prot ? c->usage : prot;
		scan = size - (uint64_t)((unsigned __int128)size * prot / (cgsize + 1));
		if (scan < CGCTL_MEMHIGH_SWAP_CLUSTER_MAX)
			scan = CGCTL_MEMHIGH_SWAP_CLUSTER_MAX;
	}
	return scan >> prio;
}

/* @g's subtree's pages on the LRU lists: lruvec_page_state() of a memcg's lruvec
 * counts its descendants' too */
static void subtree_lru(const struct cgctl_memhigh_run *r, int g, uint64_t *file,
			uint64_t *anon)
{
	*file = *anon = 0;
	for (unsigned int i = 0; i < r->ngroups; i++)
		if (mh_in_subtree(r, (int)i, g)) {
			*file += r->g[i].file;
			*anon += r->g[i].anon;
		}
}

/* mirrors mm/swap.c:lru_note_cost() (v6.1): anon pages written to swap are reclaim
 * cost of the anon lists of @g and its ancestors (clean file pages cost nothing: no
 * pageout); a cost above a quarter of the group's LRU pages (its subtree's: a memcg
 * lruvec's counters are hierarchical) halves both */
static void note_cost(struct cgctl_memhigh_run *r, int g, uint64_t anon_out)
{
	uint64_t f, a;

	for (; g >= 0 && anon_out; g = r->g[g].parent) {
		struct mh_group *c = &r->g[g];

		c->anon_cost += anon_out;
		subtree_lru(r, g, &f, &a);
		if (c->file_cost + c->anon_cost > (f + a) / 4) {
			c->file_cost /= 2;
			c->anon_cost /= 2;
		}
	}
}

/* reclaim up to @n pages of @g's @lists, its time on @tk's clock; Returns: pages
 * reclaimed */
static uint64_t take(struct cgctl_memhigh_run *r, int g, int lists, uint64_t n,
		     struct mh_task *tk)
{
	uint64_t f, a;

	shrink_group(r, g, lists, n, &f, &a);
	if (!r->lru_gen)
		note_cost(r, g, a);
	if (tk) {
		uint64_t ns = f * r->cfg.reclaim_file_ns + a * r->cfg.reclaim_anon_ns;

		tk->t += ns;
		r->g[tk->group].res.reclaim_ns += ns;
	}
	return f + a;
}

/*
 * mirrors mm/vmscan.c:get_scan_count() (v6.1) for memcg reclaim of @target: the scan
 * of @g's file and anon lists at @prio.  Without swap room only file (SCAN_FILE); when
 * the target's inactive file pages >> priority is not 0 only file (prepare_scan_count()'s
 * cache_trim_mode); at priority 0 both in full (SCAN_EQUAL); else SCAN_FRACT with the
 * target's costs A (anon) and F (file): a = 2A + F, f = A + 2F, T = a + f,
 * ap = 60 (T + 1) / (a + 1), fp = 140 (T + 1) / (f + 1) (swappiness 60), each list's
 * scan times its share of ap + fp.  Every file page counts as inactive (read once).
 */
static void scan_count(const struct cgctl_memhigh_run *r, int g, int target,
		       bool low_reclaim, int prio, uint64_t *nf, uint64_t *na)
{
	const struct mh_group *c = &r->g[g], *t = &r->g[target];
	uint64_t total, ac, fc, ap, fp, tf, ta;

	*nf = scan_target(r, g, target, low_reclaim, prio, c->file);
	*na = 0;
	subtree_lru(r, target, &tf, &ta);
	if (!c->anon || !swap_room(r, g) || tf >> prio)
		return;
	*na = scan_target(r, g, target, low_reclaim, prio, c->anon);
	if (!prio)
		return;
	total = t->anon_cost + t->file_cost;
	ac = total + t->anon_cost;
	fc = total + t->file_cost;
	total = ac + fc;
	ap = MH_SWAPPINESS * (total + 1) / (ac + 1);
	fp = (200 - MH_SWAPPINESS) * (total + 1) / (fc + 1);
	/* mem_cgroup_online(): div64_u64(scan * fraction[file], denominator) */
	*na = *na * ap / (ap + fp);
	*nf = *nf * fp / (ap + fp);
}

/*
 * One shrink_lruvec() of group @g at priority @prio in a reclaim that wants @want pages
 * and has @sc_got.  Returns: pages reclaimed.
 *
 * The active/inactive LRU (mm/vmscan.c:shrink_lruvec(), v6.1; the same in v6.12 with
 * the multi-gen LRU off): the scan targets of get_scan_count() are taken
 * SWAP_CLUSTER_MAX pages of each list at a time, and the call stops early only once
 * *its own* reclaimed pages reach sc->nr_to_reclaim ("if (nr_reclaimed < nr_to_reclaim
 * ...) continue;", then the break of a scan with one LRU type left; with both types
 * left the kernel instead trims the smaller one's scan proportionally, which the model
 * takes as the same stop).  What earlier priorities of the same reclaim took does not
 * count: a 64-page memory.high reclaim of a 4096-page file LRU takes 1 + 2 + 4 + 8 +
 * 16 + 32 = 63 pages at priorities 12 to 7, still short of 64, and then all 64 of
 * priority 6: 127 pages.
 *
 * The multi-gen LRU (mm/vmscan.c:try_to_shrink_lruvec(), v6.12): evict_folios() until
 * it has scanned get_nr_to_scan() (size >> priority) or should_abort_scan() sees the
 * reclaim's goal met; each evict_folios() isolates up to MIN_LRU_BATCH (64) folios
 * (scan_folios()), so a 64-page reclaim takes one batch of 64.
 */
static uint64_t shrink_lruvec(struct cgctl_memhigh_run *r, int g, int target,
			      bool low_reclaim, int prio, uint64_t want, uint64_t sc_got,
			      struct mh_task *tk)
{
	uint64_t own = 0, got, nf, na, c;

	if (r->lru_gen) {
		uint64_t scan = scan_target(r, g, target, low_reclaim, prio,
					    evictable(r, g));

		for (uint64_t scanned = 0; scanned < scan; scanned += got) {
			got = take(r, g, MH_LRU_ANY, MH_MIN_LRU_BATCH, tk);
			if (!got)
				break;
			own += got;
			if (sc_got + own >= want)
				break;
		}
		return own;
	}
	scan_count(r, g, target, low_reclaim, prio, &nf, &na);
	while (nf || na) {
		/* for_each_evictable_lru(): anon before file */
		c = MIN(na, CGCTL_MEMHIGH_SWAP_CLUSTER_MAX);
		na -= c;
		own += c ? take(r, g, MH_LRU_ANON, c, tk) : 0;
		c = MIN(nf, CGCTL_MEMHIGH_SWAP_CLUSTER_MAX);
		nf -= c;
		own += c ? take(r, g, MH_LRU_FILE, c, tk) : 0;
		if (own >= want)
			break;
	}
	return own;
}

/* mirrors mm/vmscan.c:shrink_node_memcgs() (v6.1, v6.12): skip groups below min, and
 * below low unless this is the low_reclaim retry (then count a low event); 6.12 stops
 * at the first group after which the goal is met, 6.1 shrinks them all */
static uint64_t shrink_pass(struct cgctl_memhigh_run *r, int target, bool low_reclaim,
			    int prio, uint64_t want, uint64_t sc_got, bool *skipped,
			    struct mh_task *tk)
{
	uint64_t got = 0;

	for (unsigned int i = 0; i < r->ngroups; i++) {
		struct mh_group *c = &r->g[i];
		bool unprot = (int)i == target;

		if (r->era.partial_walk && sc_got + got >= want)
			break;
		if (!mh_in_subtree(r, (int)i, target) || !(c->file + c->anon))
			continue;
		if (!unprot && c->emin >= c->usage)
			continue;
		if (!unprot && c->elow >= c->usage) {
			if (!low_reclaim) {
				*skipped = true;
				continue;
			}
			mh_event(r, (int)i, MH_EV_LOW);
		}
		got += shrink_lruvec(r, (int)i, target, low_reclaim, prio, want,
				     sc_got + got, tk);
	}
	return got;
}

/* mirrors mm/vmscan.c:try_to_free_mem_cgroup_pages() and do_try_to_free_pages()
 * (v6.1, v6.12): nr_to_reclaim = max(nr, SWAP_CLUSTER_MAX), priority 12 down to 0 until
 * it is met, then the memcg_low_reclaim retry when groups were skipped for their low.
 * Time spent reclaiming goes on @tk's clock.  Returns: pages reclaimed (may exceed
 * nr_to_reclaim: see shrink_lruvec()). */
uint64_t mh_try_to_free(struct cgctl_memhigh_run *r, int target, uint64_t nr,
			struct mh_task *tk)
{
	uint64_t want =
	    nr > CGCTL_MEMHIGH_SWAP_CLUSTER_MAX ? nr : CGCTL_MEMHIGH_SWAP_CLUSTER_MAX;
	uint64_t got = 0;
	bool skipped = false;

	for (int pass = 0; pass < 2; pass++) {
		calculate_protection(r, target);
		for (int prio = DEF_PRIORITY; prio >= 0 && got < want; prio--)
			got += shrink_pass(r, target, pass, prio, want, got, &skipped,
					   tk);
		if (got || !skipped)
			break;
	}
	return got;
}
