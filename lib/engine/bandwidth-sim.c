/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: the discrete-event loop and the scheduler side (see the model
 * notes in bandwidth.h).  Each CPU has one event slot holding the next instant at which
 * something happens on it: a tick at which a silo runs dry (ticks in between only
 * subtract, so they are folded into one charge), or a busy phase ending.  Threads,
 * group timers and configuration writes have their own slots.
 */
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

#define DONE_TOLERANCE_NS 4	/* rounding of processor sharing, per runnable thread */

/* the sleep path (a thread's dequeue and sleep) inline in the CPU event: no calls, no
 * saving of registers on the most frequent event but one */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

static uint32_t cap_of(const struct cgctl_bw_sim *s)
{
	return BW_CAP_ONE - s->cfg.other_load_ppm;
}

/* bw_cpu_progress() when time passed with threads runnable on @cpu. */
void bw_cpu_progress_run(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	struct bw_cpu *c = &s->cpu[cpu];
	uint64_t dt = now - c->last, eff, share, rem;

	if (s->fair) {
		bw_fair_progress(s, cpu, now);
		return;
	}
	c->last = now;
	eff = s->cfg.other_load_ppm ?
	      (uint64_t)((unsigned __int128)dt * cap_of(s) / BW_CAP_ONE) : dt;
	if (c->nrun == 1 && c->ngrp == 1) {	/* the loops below, for one thread */
		uint64_t *left = &s->left[c->run[0]];
		uint64_t d = eff * c->gcnt[0];

		if (*left != UINT64_MAX)
			*left -= MIN(eff, *left);
		s->g[c->grp[0]].rq[cpu].pending += d;
		s->g[c->grp[0]].usage += d;
		s->g[c->grp[0]].wait += dt - eff;	/* what other load took */
		c->pending_any = true;
		return;
	}
	if (c->nrun == 1) {
		share = eff;
		rem = 0;
	} else {
		share = eff / c->nrun;
		rem = eff % c->nrun;
	}
	for (int i = 0; c->nfinite && i < c->nrun; i++) {
		uint64_t *left = &s->left[c->run[i]];

		if (*left != UINT64_MAX)
			*left -= MIN(share + ((uint64_t)i < rem), *left);
	}
	/* the groups' share: whole shares plus the +1 ns of the first @rem threads */
	for (int k = 0; k < c->ngrp; k++) {
		int g = c->grp[k];
		uint64_t d = share * c->gcnt[k], extra = 0;

		if (c->ngrp == 1)
			extra = rem;
		else
			for (uint64_t i = 0; i < rem; i++)
				for (int l = s->t[c->run[i]].group; l >= 0; l = s->g[l].parent)
					extra += l == g;
		s->g[g].rq[cpu].pending += d + extra;
		s->g[g].usage += d + extra;
		/* processor sharing: each runnable thread waits while the others run */
		s->g[g].wait += dt * c->gcnt[k] - d - extra;
	}
	c->pending_any = true;
}

/*
 * @dt passed on @cpu with busy threads in a throttled hierarchy (parked at return to
 * user on 6.18, their group entity dequeued before): their run_delay grows all the
 * same, since a throttled task is never dequeued through dequeue_task(), which alone
 * stops sched_info's clock (sched_info_dequeue(), kernel/sched/stats.h, v6.1 to v6.18;
 * 6.18's throttle_cfs_rq_work() calls dequeue_task_fair() directly).  Charged to every
 * level above each parked thread, as its wait is.
 */
void bw_cpu_parked(struct cgctl_bw_sim *s, int cpu, uint64_t dt)
{
	const struct bw_cpu *c = &s->cpu[cpu];

	for (int i = 0; i < c->nbusy; i++) {
		int g = s->t[c->busy[i]].group;

		if (!s->g[g].rq[cpu].throttle_count)
			continue;
		for (; g >= 0; g = s->g[g].parent)
			s->g[g].parked += dt;
	}
}

/* update_curr() on level @g of @cpu: its pending run time charged. */
static inline void charge_rq(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now)
{
	struct bw_rq *rq = &s->g[g].rq[cpu];
	uint64_t d = rq->pending;

	rq->pending = 0;
	if (!d && !(BW_SIM_HAS(s, EXPIRE) && rq->nr_busy))
		return;
	/* bw_charge() when the silo covers @d (5.4+: nothing expires) */
	if (!BW_SIM_HAS(s, EXPIRE) && (!rq->enabled || rq->remaining - (int64_t)d > 0)) {
		if (rq->enabled)
			rq->remaining -= (int64_t)d;
		return;
	}
	bw_charge(s, g, cpu, d, now);
}

/* update_curr() on every level with uncharged run time, deepest first. */
static inline void cpu_charge(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	struct bw_cpu *c = &s->cpu[cpu];

	c->charged_at = now;
	if (!c->pending_any && !BW_SIM_HAS(s, EXPIRE))
		return;		/* nothing to charge: bw_charge() would not be called */
	c->pending_any = false;
	if (s->ngroups == 1) {
		charge_rq(s, 0, cpu, now);
		return;
	}
	for (int g = s->ngroups - 1; g >= 0; g--)
		charge_rq(s, g, cpu, now);
}

/* put_prev_entity()/pick_task_fair(): throttle levels whose refill failed. */
static void cpu_throttle_resched(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	s->cpu[cpu].resched_any = false;
	for (int g = s->ngroups - 1; g >= 0; g--) {
		struct bw_rq *rq = &s->g[g].rq[cpu];

		if (rq->resched && !rq->throttled && rq->remaining <= 0)
			bw_throttle(s, g, cpu, now);
		rq->resched = false;
	}
}

static inline void cpu_throttle_pending(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	if (s->cpu[cpu].resched_any)	/* else no level of this CPU has resched set */
		cpu_throttle_resched(s, cpu, now);
}

static __always_inline void cpu_rebuild(struct cgctl_bw_sim *s, int cpu)
{
	struct bw_cpu *c = &s->cpu[cpu];

	/* one group: every busy thread has the same runqueue, no need to look it up */
	bool one_throttled = s->ngroups == 1 && s->g[0].rq[cpu].throttle_count;

	if (s->ngroups == 1 && c->nbusy <= 1 && !one_throttled) {	/* the below */
		c->nrun = c->nbusy;
		c->ngrp = c->nbusy;
		c->grp[0] = 0;
		c->gcnt[0] = c->nbusy;
		if (c->nbusy)
			c->run[0] = c->busy[0];
		c->nfinite = c->nbusy && s->left[c->busy[0]] != UINT64_MAX;
		return;
	}
	c->nrun = 0;
	c->ngrp = 0;
	c->nfinite = 0;
	for (int i = 0; i < c->nbusy && !one_throttled; i++) {
		int ti = c->busy[i];

		if (s->ngroups > 1 && s->g[s->t[ti].group].rq[cpu].throttle_count)
			continue;
		c->run[c->nrun++] = ti;
		c->nfinite += s->left[ti] != UINT64_MAX;
	}
	if (s->ngroups == 1) {	/* the loop below, for one group */
		c->grp[0] = 0;
		c->gcnt[0] = c->nrun;
		c->ngrp = c->nrun ? 1 : 0;
		return;
	}
	for (int g = s->ngroups - 1; g >= 0; g--) {
		uint32_t n = 0;

		for (int i = 0; i < c->nrun; i++)
			for (int l = s->t[c->run[i]].group; l >= g; l = s->g[l].parent)
				n += l == g;
		if (!n)
			continue;
		c->grp[c->ngrp] = g;
		c->gcnt[c->ngrp++] = n;
	}
}

/* The first charge instant at or after @t: on the tick grid, or on @c's own when a
 * runnable thread there reads its CPU clock (each read is an update_curr()) */
static uint64_t tick_ceil(const struct cgctl_bw_sim *s, const struct bw_cpu *c, uint64_t t)
{
	if (c->acct)
		return (t + c->acct - 1) / c->acct * c->acct;
	return bw_tick_div(s, t + s->tick - 1) * s->tick;
}

static uint64_t wall_for(const struct cgctl_bw_sim *s, uint64_t work, uint32_t num,
			 uint32_t den)
{
	unsigned __int128 w, q;

	if (!s->cfg.other_load_ppm && work < (1ULL << 40) && den < (1U << 20)) {
		if (num == den)		/* one group takes the whole CPU */
			return work;
		if (num == 1)
			return work * den;
		return (work * den + num - 1) / num;
	}
	w = (unsigned __int128)work * den * BW_CAP_ONE;
	q = (unsigned __int128)num * cap_of(s);
	w = (w + q - 1) / q;
	return w > UINT64_MAX / 2 ? UINT64_MAX / 2 : (uint64_t)w;
}

/* The first tick at which @c can be charged next: after its last charge and progress. */
static uint64_t first_tick(const struct cgctl_bw_sim *s, const struct bw_cpu *c)
{
	uint64_t first = c->acct ? (c->charged_at / c->acct + 1) * c->acct :
				   (bw_tick_div(s, c->charged_at) + 1) * s->tick;

	/* charged at the last progress (the usual case): its next tick is past it */
	if (c->charged_at != c->last)
		first = MAX(first, tick_ceil(s, c, c->last));
	return first;
}

/* The shortest account_ns of @c's runnable threads (0: none, the tick charges). */
static uint64_t cpu_acct(const struct cgctl_bw_sim *s, const struct bw_cpu *c)
{
	uint64_t a = 0;

	for (int i = 0; i < c->nrun; i++) {
		uint64_t x = s->spec[c->run[i]].account_ns;

		if (x && (!a || x < a))
			a = x;
	}
	return a;
}

/* next_dry_tick() with CFS weights: each group's subtree runs at its share (5.4+) */
static __attribute__((noinline)) uint64_t fair_dry_tick(struct cgctl_bw_sim *s, int cpu,
							uint64_t first)
{
	struct bw_cpu *c = &s->cpu[cpu];
	uint64_t best = BW_NO_TIME;

	for (int i = 0; i < c->ngrp; i++) {
		struct bw_rq *rq = &s->g[c->grp[i]].rq[cpu];
		int64_t r = rq->remaining - (int64_t)rq->pending - c->nrun - 2;
		uint64_t t = first;

		if (!rq->enabled || rq->throttled)
			continue;
		if (r > 0)
			t = MAX(first, tick_ceil(s, c, c->last +
						bw_fair_group_wall(s, cpu, c->grp[i], r)));
		if (BW_SIM_HAS(s, EXPIRE))
			t = MIN(t, MAX(first, tick_ceil(s, c, rq->expires)));
		best = MIN(best, t);
	}
	return best;
}

/* The next tick at which a silo of @cpu runs dry (or, < 5.4, may expire): @first or
 * later. */
static uint64_t next_dry_tick(struct cgctl_bw_sim *s, int cpu, uint64_t first)
{
	struct bw_cpu *c = &s->cpu[cpu];
	uint64_t best = BW_NO_TIME;

	if (s->fair)
		return fair_dry_tick(s, cpu, first);

	for (int i = 0; i < c->ngrp; i++) {
		struct bw_rq *rq = &s->g[c->grp[i]].rq[cpu];
		int64_t r = rq->remaining - (int64_t)rq->pending - c->nrun - 2;
		uint64_t t = first;

		if (!rq->enabled || rq->throttled)
			continue;
		if (r > 0)
			t = MAX(first, tick_ceil(s, c, c->last + wall_for(s, r, c->gcnt[i], c->nrun)));
		if (BW_SIM_HAS(s, EXPIRE))
			t = MIN(t, MAX(first, tick_ceil(s, c, rq->expires)));
		best = MIN(best, t);
	}
	return best;
}

static __always_inline void cpu_plan(struct cgctl_bw_sim *s, int cpu)
{
	struct bw_cpu *c = &s->cpu[cpu];
	uint64_t minleft = UINT64_MAX, first, done = BW_NO_TIME, t;

	if (!c->nrun) {
		bw_heap_del(&s->heap, cpu);
		return;
	}
	if (c->nrun == 1)
		minleft = s->left[c->run[0]];	/* UINT64_MAX when not finite */
	else
		for (int i = 0; c->nfinite && i < c->nrun; i++)
			minleft = MIN(minleft, s->left[c->run[i]]);
	if (s->any_acct)
		c->acct = cpu_acct(s, c);
	first = first_tick(s, c);
	if (s->fair)
		done = bw_fair_next(s, cpu);
	else if (minleft != UINT64_MAX)
		done = c->last + wall_for(s, minleft, 1, c->nrun);
	/* a thread done by the first tick: no silo runs dry before (they do at ticks) */
	t = done <= first ? done : MIN(next_dry_tick(s, cpu, first), done);
	if (t == BW_NO_TIME)
		bw_heap_del(&s->heap, cpu);
	else
		bw_heap_set(&s->heap, cpu, t);
}

/*
 * The runnable set or a silo of @cpu changed at @now: progress up to now, and replan
 * once the current event is done (a distribution may touch every CPU several times).
 */
static void mark_dirty(struct cgctl_bw_sim *s, int cpu)
{
	if (s->cpu[cpu].dirty)
		return;
	s->cpu[cpu].dirty = true;
	s->dirty[s->ndirty++] = cpu;
}

void bw_cpu_changed(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	bw_cpu_progress(s, cpu, now);
	s->cpu[cpu].rebuild = true;
	mark_dirty(s, cpu);
}

/*
 * An event that changed only its own CPU (the usual one) leaves it in s->one instead of
 * the list: no flag to set and clear.  One call of cpu_plan() serves both.
 */
static void replan_fair(struct cgctl_bw_sim *s);

static void replan_dirty(struct cgctl_bw_sim *s)
{
	int cpu = s->one - 1;

	if (s->fair) {
		replan_fair(s);
		cpu = s->one - 1;
	}

	if (cpu < 0) {
		if (!s->ndirty)
			return;
		goto pop;
	}
	s->one = 0;
	for (;;) {
		if (s->cpu[cpu].rebuild)
			cpu_rebuild(s, cpu);
		s->cpu[cpu].rebuild = false;
		cpu_plan(s, cpu);
		if (!s->ndirty)
			return;
pop:
		cpu = s->dirty[--s->ndirty];
		s->cpu[cpu].dirty = false;
	}
}

/*
 * With CFS weights, a change of the runnable set on one CPU changes the group entities'
 * weights on the others (calc_group_shares() reads the group's load on every CPU): when
 * any CPU is to be rebuilt, bring every CPU to now, rebuild and replan them all.
 */
static __attribute__((noinline)) void replan_fair(struct cgctl_bw_sim *s)
{
	bool any = s->one && s->cpu[s->one - 1].rebuild;

	for (int i = 0; i < s->ndirty && !any; i++)
		any = s->cpu[s->dirty[i]].rebuild;
	if (!any)
		return;
	for (unsigned int c = 0; c < s->cfg.ncpus; c++) {
		bw_cpu_progress(s, c, s->now);
		cpu_rebuild(s, c);
		s->cpu[c].rebuild = false;
		s->cpu[c].dirty = false;
	}
	bw_fair_compute(s, s->now);
	for (unsigned int c = 0; c < s->cfg.ncpus; c++)
		cpu_plan(s, c);
	s->ndirty = 0;
	s->one = 0;
}

/* mark_dirty() of @cpu as the last change of its event: s->one when no CPU is marked */
static inline void mark_dirty_last(struct cgctl_bw_sim *s, int cpu)
{
	if (!s->ndirty)
		s->one = cpu + 1;
	else
		mark_dirty(s, cpu);
}

static void cpu_sync(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	bw_cpu_progress(s, cpu, now);
	cpu_charge(s, cpu, now);
	cpu_throttle_pending(s, cpu, now);
}

/* Does @level have a thread on @cpu that can run (not in a throttled hierarchy)? */
static bool level_runnable(const struct cgctl_bw_sim *s, int level, int cpu)
{
	const struct bw_cpu *c = &s->cpu[cpu];

	if (s->ngroups == 1)	/* the loop below, for one group */
		return c->nbusy && !s->g[0].rq[cpu].throttle_count;
	for (int i = 0; i < c->nbusy; i++) {
		int g = s->t[c->busy[i]].group;

		if (s->g[g].rq[cpu].throttle_count)
			continue;
		for (; g >= 0; g = s->g[g].parent)
			if (g == level)
				return true;
	}
	return false;
}

/*
 * @from and its ancestors on @cpu lost entities (a thread slept, or a throttled
 * child's entity left them): each level left with nothing queued returns its slack,
 * as dequeue_entity() -> return_cfs_rq_runtime() does.
 */
void bw_return_idle_slack(struct cgctl_bw_sim *s, int from, int cpu, uint64_t now)
{
	for (int l = from; l >= 0; l = s->g[l].parent)
		if (!level_runnable(s, l, cpu))
			bw_return_slack(s, l, cpu, now);
}

/*
 * The CPUs by load: for each load level a bitmap of the CPUs with that many busy threads
 * (lwords words) and a summary word of its non-zero words, plus the lowest level in use.
 * A CPU may get every thread (wake-ups onto a CPU whose threads are parked, placements
 * told: cgctl_bw_sim_place()): bw_load_init() allocates nthreads + 1 levels.
 */
static inline void load_move(struct cgctl_bw_sim *s, int cpu, int from, int to)
{
	unsigned int u = (unsigned int)cpu;	/* a CPU number is never negative */
	uint64_t bit = 1ULL << (u % 64), wbit = 1ULL << (u / 64);
	uint64_t *w = &s->lmap[(size_t)from * s->lwords + u / 64];

	*w &= ~bit;
	if (!*w)
		s->lsum[from] &= ~wbit;
	s->lmap[(size_t)to * s->lwords + u / 64] |= bit;
	s->lsum[to] |= wbit;
	if (to < s->lmin || (from == s->lmin && !s->lsum[from]))
		s->lmin = to;
	bw_parked_sync(s, cpu);
}

void bw_load_move(struct cgctl_bw_sim *s, int cpu, int from, int to)
{
	load_move(s, cpu, from, to);
}

/* Returns: the least loaded CPU, the lowest number among equals. */
int bw_load_pick(const struct cgctl_bw_sim *s)
{
	int w = __builtin_ctzll(s->lsum[s->lmin]);

	return w * 64 + __builtin_ctzll(s->lmap[(size_t)s->lmin * s->lwords + w]);
}

/* All CPUs idle. */
int bw_load_init(struct cgctl_bw_sim *s)
{
	int ncpus = s->cfg.ncpus;

	s->lwords = (ncpus + 63) / 64;
	/* every thread may end up on one CPU (see load_move()) */
	s->nlev = s->nthreads + 1;
	s->lmap = calloc((size_t)s->nlev * s->lwords, sizeof(*s->lmap));
	s->lsum = calloc(s->nlev, sizeof(*s->lsum));
	s->pmap = calloc(s->lwords, sizeof(*s->pmap));
	if (!s->lmap || !s->lsum || !s->pmap)
		return -ENOMEM;
	for (int c = 0; c < ncpus; c++) {
		s->lmap[c / 64] |= 1ULL << (c % 64);
		s->lsum[0] |= 1ULL << (c / 64);
	}
	s->lmin = 0;
	return 0;
}

/*
 * Is @cpu idle as the kernel's wake-up path sees it: no busy thread, or only threads
 * parked by throttling?  available_idle_cpu() -> idle_cpu() (kernel/sched/core.c, v6.1 to
 * v6.18) asks rq->curr == rq->idle and rq->nr_running == 0, and a throttled task is not
 * counted in nr_running: 6.18 parks it with dequeue_task_fair(DEQUEUE_THROTTLE) in
 * throttle_cfs_rq_work() (kernel/sched/fair.c, v6.18, "sched/fair: Switch to task based
 * throttle model"), whose dequeue_entities() calls sub_nr_running(); before 6.18
 * throttle_cfs_rq() dequeued the group's entity and called sub_nr_running() itself.
 */
static bool cpu_wake_idle(const struct cgctl_bw_sim *s, int cpu)
{
	const struct bw_cpu *c = &s->cpu[cpu];

	if (!c->nbusy)
		return true;
	if (s->ngroups == 1)
		return s->g[0].rq[cpu].throttle_count != 0;
	for (int i = 0; i < c->nbusy; i++)
		if (!s->g[s->t[c->busy[i]].group].rq[cpu].throttle_count)
			return false;
	return true;
}

/*
 * Where thread @ti wakes: the CPU told for it now (cgctl_bw_sim_place()); else its
 * previous CPU if that is idle, else a CPU with no busy thread, else one whose busy
 * threads are all parked (idle to the kernel, lowest number first), else the least
 * loaded one (lowest number first).  select_idle_sibling() (kernel/sched/fair.c, v6.1 to
 * v6.18) takes prev when available_idle_cpu(prev), else the first idle CPU it scans: a
 * CPU whose threads the group's throttling parked is one (cpu_wake_idle()), and the
 * wakee parks there in turn, leaving the other CPUs' silos to their own threads.  (Until
 * this rule, parked threads counted as load: the wakee ran on another CPU's silo and
 * throttled that CPU too.  Traced on 6.18 with sched_wakeup: a bw-many-bursts thread
 * whose CPU had only parked threads woke there 4 times in 4; one whose CPU ran another
 * task went to a CPU with only parked threads 2 times in 5.)
 */
int bw_pick_cpu(const struct cgctl_bw_sim *s, int ti)
{
	const struct bw_thread *t = &s->t[ti];
	int best;

	if (s->home && s->home[ti] >= 0)
		return s->home[ti];
	if (t->cpu >= 0 && cpu_wake_idle(s, t->cpu))
		return t->cpu;
	best = bw_load_pick(s);
	if (!s->cpu[best].nbusy)
		return best;
	if (s->ngroups == 1) {	/* every CPU has busy threads: the lowest all parked */
		for (int w = 0; w < s->lwords; w++)
			if (s->pmap[w])
				return w * 64 + __builtin_ctzll(s->pmap[w]);
		return best;
	}
	for (unsigned int c = 0; c < s->cfg.ncpus; c++)
		if (cpu_wake_idle(s, (int)c))
			return (int)c;
	return best;
}

/*
 * cpu_rebuild() after @ti joined the busy threads of @cpu, when that is an append: one
 * group, not throttled, the runnable set the busy one up to now and no rebuild pending.
 * Returns: false when a rebuild is needed.
 */
static bool run_append(struct cgctl_bw_sim *s, int cpu, int ti)
{
	struct bw_cpu *c = &s->cpu[cpu];

	if (s->ngroups != 1 || c->rebuild || c->nrun != c->nbusy - 1 ||
	    s->g[0].rq[cpu].throttle_count)
		return false;
	c->run[c->nrun++] = ti;
	c->nfinite += s->left[ti] != UINT64_MAX;
	c->grp[0] = 0;
	c->gcnt[0] = c->nrun;
	c->ngrp = 1;
	return true;
}

/*
 * bw_enqueue_check() of one group when it would only count the thread: the runqueue
 * had busy threads already, or it is unthrottled with runtime left (5.4+) or unlimited.
 * Returns: true when done, false when bw_enqueue_check() is needed.
 */
static bool enqueue_nothing_to_check(struct cgctl_bw_sim *s, int cpu)
{
	struct bw_rq *rq = &s->g[0].rq[cpu];

	if (s->ngroups != 1)
		return false;
	if (!rq->nr_busy && (rq->throttle_count || rq->throttled ||
			     (rq->enabled && (BW_SIM_HAS(s, EXPIRE) || rq->remaining <= 0))))
		return false;
	rq->nr_busy++;
	return true;
}

static void thread_wake(struct cgctl_bw_sim *s, int ti, uint64_t now)
{
	struct bw_thread *t = &s->t[ti];
	uint64_t busy;
	int cpu;

	if (!bw_thread_next_busy(s, t, &busy)) {
		t->state = BW_T_DONE;
		return;
	}
	cpu = bw_pick_cpu(s, ti);
	cpu_sync(s, cpu, now);
	if (s->fair)
		bw_fair_wake(s, ti, cpu, now);
	t->state = BW_T_BUSY;
	t->cpu = cpu;
	s->left[ti] = busy;
	s->bidx[ti] = s->cpu[cpu].nbusy;
	s->cpu[cpu].busy[s->cpu[cpu].nbusy++] = ti;
	load_move(s, cpu, s->cpu[cpu].nbusy - 1, s->cpu[cpu].nbusy);
	if (!enqueue_nothing_to_check(s, cpu))
		bw_enqueue_check(s, t->group, cpu, now);
	if (s->fair || !run_append(s, cpu, ti))
		bw_cpu_changed(s, cpu, now);
	else
		mark_dirty_last(s, cpu);
}

/* dequeue_entity() of a thread that stops being busy, with return_cfs_rq_runtime().
 * @cpu is its CPU (the caller's: no wait for the thread's line to find it). */
static __always_inline void thread_dequeue(struct cgctl_bw_sim *s, int ti, int cpu,
					   uint64_t now)
{
	struct bw_cpu *c = &s->cpu[cpu];
	int b = s->bidx[ti];

	/* the last busy thread takes its place */
	c->busy[b] = c->busy[--c->nbusy];
	s->bidx[c->busy[b]] = b;
	load_move(s, cpu, c->nbusy + 1, c->nbusy);
	if (s->ngroups == 1) {	/* the loop and bw_return_idle_slack(), for one group */
		struct bw_rq *rq = &s->g[0].rq[cpu];

		rq->nr_busy--;
		if (!c->nbusy || rq->throttle_count)
			bw_return_slack(s, 0, cpu, now);
		return;
	}
	for (int l = s->t[ti].group; l >= 0; l = s->g[l].parent)
		s->g[l].rq[cpu].nr_busy--;
	bw_return_idle_slack(s, s->t[ti].group, cpu, now);
}

/*
 * A busy thread moves to @to at @now, as the kernel's load balancer moved it
 * (detach_task()/attach_task(): dequeued on one CPU, enqueued on the other, its busy
 * phase going on).  A thread not busy just wakes up there next time (bw_pick_cpu()).
 */
void bw_thread_migrate(struct cgctl_bw_sim *s, int ti, int to, uint64_t now)
{
	struct bw_thread *t = &s->t[ti];
	int from = t->cpu;

	if (t->state != BW_T_BUSY || from == to) {
		if (t->state != BW_T_BUSY)
			t->cpu = to;
		return;
	}
	cpu_sync(s, from, now);
	thread_dequeue(s, ti, from, now);
	bw_cpu_changed(s, from, now);
	cpu_sync(s, to, now);
	t->cpu = to;
	s->bidx[ti] = s->cpu[to].nbusy;
	s->cpu[to].busy[s->cpu[to].nbusy++] = ti;
	load_move(s, to, s->cpu[to].nbusy - 1, s->cpu[to].nbusy);
	if (!enqueue_nothing_to_check(s, to))
		bw_enqueue_check(s, t->group, to, now);
	bw_cpu_changed(s, to, now);
}

/* A thread's wake-up (it is not queued): in the calendar when within its window, else in
 * the heap. */
static inline void thread_queue(struct cgctl_bw_sim *s, int ti, uint64_t at)
{
	if (!bw_cal_add(&s->cal, ti, at))
		bw_heap_set(&s->heap, s->slot_thread + ti, at);
}

static __always_inline void thread_sleep(struct cgctl_bw_sim *s, int ti, int cpu,
					 uint64_t now)
{
	struct bw_thread *t = &s->t[ti];
	uint64_t idle;

	thread_dequeue(s, ti, cpu, now);
	if (s->fair)
		bw_fair_sleep(s, ti, now);
	if (!bw_thread_next_idle(s, t, &idle)) {
		t->state = BW_T_DONE;
		return;
	}
	t->state = BW_T_IDLE;
	thread_queue(s, ti, now + idle);
}

static void cpu_event(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	struct bw_cpu *c = &s->cpu[cpu];

	bool slept = false;

	bw_cpu_progress(s, cpu, now);
	cpu_charge(s, cpu, now);
	/* the runnable set stays as it is until replan_dirty() (sleeps only mark it) */
	if (c->nrun == 1) {	/* the loop below, for one thread: no trip count to predict */
		if (s->left[c->run[0]] <= DONE_TOLERANCE_NS) {
			thread_sleep(s, c->run[0], cpu, now);
			slept = true;
		}
	} else if (c->nfinite) {
		const int *run = c->run, nrun = c->nrun;
		const uint64_t tol = (uint64_t)DONE_TOLERANCE_NS * nrun;

		for (int i = 0; i < nrun; i++) {
			if (s->left[run[i]] <= tol) {
				thread_sleep(s, run[i], cpu, now);
				slept = true;
			}
		}
	}
	cpu_throttle_pending(s, cpu, now);
	if (slept || s->fair)	/* (weights: load averages moved) */
		c->rebuild = true;
	/* a tick charge alone leaves the runnable set as it is */
	mark_dirty_last(s, cpu);
}

static void progress_all(struct cgctl_bw_sim *s, uint64_t now)
{
	for (unsigned int c = 0; c < s->cfg.ncpus; c++)
		bw_cpu_progress(s, c, now);
}

/* End of the workload: read the statistics, then kill every thread. */
static void workload_end(struct cgctl_bw_sim *s, uint64_t now)
{
	progress_all(s, now);
	for (int g = 0; g < s->ngroups; g++)
		bw_stat_now(s, g, &s->g[g].run_stat);
	for (unsigned int c = 0; c < s->cfg.ncpus; c++) {
		if (!s->cpu[c].nbusy)
			continue;
		cpu_sync(s, c, now);
		while (s->cpu[c].nbusy) {
			int ti = s->cpu[c].busy[0];

			thread_dequeue(s, ti, c, now);
			s->t[ti].state = BW_T_DONE;
		}
		cpu_throttle_pending(s, c, now);
		bw_cpu_changed(s, c, now);
	}
	for (int ti = 0; ti < s->nthreads; ti++) {
		bw_thread_unqueue(s, ti);
		s->t[ti].state = BW_T_DONE;
	}
	s->ended = true;
}

static int record_period(struct cgctl_bw_sim *s, int g, uint64_t now)
{
	struct bw_group *grp = &s->g[g];
	const struct bw_pool *p = &grp->pool;
	struct cgctl_bw_period *r;

	if (grp->nperiods == grp->periods_cap) {
		size_t cap = grp->periods_cap ? 2 * grp->periods_cap : 64;

		r = realloc(grp->periods, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		grp->periods = r;
		grp->periods_cap = cap;
	}
	progress_all(s, now);
	bw_thr_integrate(grp, now);
	r = &grp->periods[grp->nperiods++];
	r->size = sizeof(*r);
	r->end_ns = now;
	r->used_ns = grp->usage - grp->rec_usage;
	r->throttled_ns = grp->thr_integral - grp->rec_thr;
	r->credit_ns = p->quota != BW_RUNTIME_INF && p->runtime > p->quota ?
		       p->runtime - p->quota : 0;
	r->counted = p->nr_periods != grp->rec_np;
	r->throttled = p->nr_throttled != grp->rec_nt;
	grp->rec_np = p->nr_periods;
	grp->rec_nt = p->nr_throttled;
	grp->rec_usage = grp->usage;
	grp->rec_thr = grp->thr_integral;
	bw_heap_set(&s->heap, bw_slot_record(s, g), now + p->period);
	return 0;
}

static void next_write(struct cgctl_bw_sim *s)
{
	if (s->wnext < s->nw)
		bw_heap_set(&s->heap, s->slot_misc + MISC_WRITE, s->w[s->wnext].at);
	else
		bw_heap_del(&s->heap, s->slot_misc + MISC_WRITE);
}

static int dispatch(struct cgctl_bw_sim *s, int slot, uint64_t now)
{
	int g;

	if (slot < (int)s->cfg.ncpus) {
		cpu_event(s, slot, now);
		return 0;
	}
	if (slot < s->slot_group) {
		if (s->cal.key[slot - s->slot_thread] != BW_NO_TIME)
			bw_cal_del(&s->cal, slot - s->slot_thread);
		else
			bw_heap_del(&s->heap, slot);
		thread_wake(s, slot - s->slot_thread, now);
		return 0;
	}
	if (slot < s->slot_misc) {
		g = (slot - s->slot_group) / 3;
		switch ((slot - s->slot_group) % 3) {
		case 0: bw_period_timer(s, g, now); break;
		case 1: bw_slack_timer(s, g, now); break;
		default: return record_period(s, g, now);
		}
		return 0;
	}
	switch (slot - s->slot_misc) {
	case MISC_WRITE:
		bw_set_bandwidth(s, s->w[s->wnext].group, &s->w[s->wnext].bw, now);
		s->wnext++;
		next_write(s);
		break;
	case MISC_END:
		bw_heap_del(&s->heap, slot);
		workload_end(s, now);
		break;
	case MISC_PLACE:
		bw_place_next(s, now);
		break;
	default:
		return 1;
	}
	return 0;
}

void bw_thread_queue(struct cgctl_bw_sim *s, int ti, uint64_t at)
{
	thread_queue(s, ti, at);
}

void bw_thread_unqueue(struct cgctl_bw_sim *s, int ti)
{
	bw_cal_del(&s->cal, ti);
	bw_heap_del(&s->heap, s->slot_thread + ti);
}

/*
 * Returns: the next event's slot (its time in *now), the least (time, slot) of the
 * heap and the calendar, or -1 when both are empty.  The calendar's window then starts
 * at the bucket of *now: nothing is queued before it.
 */
static __always_inline int next_event(struct cgctl_bw_sim *s, uint64_t *now)
{
	uint64_t hk, ck;
	int hs = bw_heap_top(&s->heap, &hk), cs = bw_cal_top(&s->cal, &ck);

	if (cs >= 0) {
		cs += s->cal.base;
		if (hs < 0 || ck < hk || (ck == hk && cs < hs)) {
			hs = cs;
			hk = ck;
		}
	}
	if (hs >= 0) {
		*now = hk;
		s->cal.lo = hk >> BW_CAL_SHIFT;
	}
	return hs;
}

int bw_next_event(struct cgctl_bw_sim *s, uint64_t *now)
{
	return next_event(s, now);
}

/* the next event's choice inline in the loop (no call and register saves per event) */
int bw_sim_loop(struct cgctl_bw_sim *s)
{
	uint64_t now;
	int slot, r;

	while ((slot = next_event(s, &now)) >= 0) {
		s->now = now;
		s->events++;
		r = dispatch(s, slot, now);
		replan_dirty(s);
		if (r < 0)
			return r;
		if (r > 0)
			break;
	}
	progress_all(s, s->now);
	return 0;
}

/* The multiplier of bw_tick_div(): m = ceil(2^(63 + l) / tick), 2^l >= tick. */
void bw_tick_div_init(struct cgctl_bw_sim *s)
{
	unsigned int l = 0;
	unsigned __int128 m;

	s->tick_mul = 0;
	while (l < 63 && (1ULL << l) < s->tick)
		l++;
	if (!s->tick || (1ULL << l) < s->tick)
		return;
	m = (((unsigned __int128)1 << (63 + l)) + s->tick - 1) / s->tick;
	if (m >> 64)
		return;
	s->tick_mul = (uint64_t)m;
	s->tick_shift = 63 + l;
}
