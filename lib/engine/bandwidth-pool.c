/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth: the global pool, the per-CPU silos, throttling, refill and
 * distribution.  Each function mirrors one of kernel/sched/fair.c (v6.12, with the
 * eras of bandwidth.h); the scheduler side lives in bandwidth-sim.c.
 */
#include "internal.h"
#include "engine/bandwidth.h"

static struct bw_pool *pool_of(struct cgctl_bw_sim *s, int g)
{
	return &s->g[g].pool;
}

void bw_thr_integrate(struct bw_group *grp, uint64_t now)
{
	grp->thr_integral += (uint64_t)grp->nr_counting * (now - grp->thr_integral_at);
	grp->thr_integral_at = now;
}

/* The next expiry on the timer's phase grid strictly after @now. */
static uint64_t next_boundary(const struct bw_pool *p, uint64_t now)
{
	if (p->anchor > now)
		return p->anchor;
	return p->anchor + ((now - p->anchor) / p->period + 1) * p->period;
}

/* mirrors kernel/sched/fair.c:start_cfs_bandwidth() (v6.12; < 5.4 also bumps expiry) */
void bw_ensure_timer(struct cgctl_bw_sim *s, int g, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);

	if (p->period_active)
		return;
	p->period_active = true;
	p->expiry = next_boundary(p, now);
	if (BW_SIM_HAS(s, EXPIRE)) {
		p->expires = p->expiry + p->period;
		p->expires_seq++;
	}
	bw_heap_set(&s->heap, bw_slot_period(s, g), p->expiry);
}

/* mirrors kernel/sched/fair.c:__refill_cfs_bandwidth_runtime() (v6.12) */
void bw_refill(struct cgctl_bw_sim *s, int g, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);
	int64_t over;

	if (p->quota == BW_RUNTIME_INF)
		return;
	if (BW_SIM_HAS(s, EXPIRE)) {
		/* v5.3: runtime = quota; runtime_expires = now + period; expires_seq++ */
		p->runtime = p->quota;
		p->expires = now + p->period;
		p->expires_seq++;
		return;
	}
	p->runtime += p->quota;
	over = (int64_t)(p->runtime_snap - p->runtime);
	if (over > 0 && BW_SIM_HAS(s, BURST_STATS)) {
		p->burst_time += (uint64_t)over;
		p->nr_burst++;
	}
	p->runtime = MIN(p->runtime, p->quota + p->burst);
	p->runtime_snap = p->runtime;
}

/* mirrors kernel/sched/fair.c:__assign_cfs_rq_runtime() (v6.12; v5.3 for expiry) */
bool bw_grab(struct cgctl_bw_sim *s, int g, int cpu, uint64_t target, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);
	struct bw_rq *rq = &s->g[g].rq[cpu];
	uint64_t want = target - (uint64_t)rq->remaining, got = 0;

	if (p->quota == BW_RUNTIME_INF) {
		got = want;
	} else {
		bw_ensure_timer(s, g, now);
		if (p->runtime > 0) {
			got = MIN(p->runtime, want);
			p->runtime -= got;
			p->idle = false;
		}
	}
	rq->remaining += (int64_t)got;
	if (BW_SIM_HAS(s, EXPIRE) && (int64_t)(p->expires - rq->expires) > 0) {
		rq->expires = p->expires;
		rq->expires_seq = p->expires_seq;
	}
	return rq->remaining > 0;
}

/* mirrors kernel/sched/fair.c:expire_cfs_rq_runtime() (v5.3) */
static void expire_silo(struct cgctl_bw_sim *s, int g, struct bw_rq *rq, uint64_t now)
{
	if ((int64_t)(now - rq->expires) < 0 || rq->remaining < 0)
		return;
	if (rq->expires_seq == pool_of(s, g)->expires_seq)
		rq->expires += s->tick;	/* clock drift only: extend by a tick */
	else
		rq->remaining = 0;
}

/* mirrors kernel/sched/fair.c:__account_cfs_rq_runtime() (v6.12) */
void bw_charge(struct cgctl_bw_sim *s, int g, int cpu, uint64_t delta, uint64_t now)
{
	struct bw_rq *rq = &s->g[g].rq[cpu];

	if (!rq->enabled)
		return;
	rq->remaining -= (int64_t)delta;
	if (BW_SIM_HAS(s, EXPIRE))
		expire_silo(s, g, rq, now);
	if (rq->remaining > 0 || rq->throttled)
		return;
	if (!bw_grab(s, g, cpu, s->cfg.slice_ns, now)) {
		rq->resched = true;
		s->cpu[cpu].resched_any = true;
	}
}

static void list_append(struct cgctl_bw_sim *s, int g, int cpu)
{
	struct bw_pool *p = pool_of(s, g);
	struct bw_rq *rq = &s->g[g].rq[cpu];

	rq->prev = p->thr_tail;
	rq->next = -1;
	if (p->thr_tail >= 0)
		s->g[g].rq[p->thr_tail].next = cpu;
	else
		p->thr_head = cpu;
	p->thr_tail = cpu;
}

static void list_del(struct cgctl_bw_sim *s, int g, int cpu)
{
	struct bw_pool *p = pool_of(s, g);
	struct bw_rq *rq = &s->g[g].rq[cpu];

	if (rq->prev >= 0)
		s->g[g].rq[rq->prev].next = rq->next;
	else
		p->thr_head = rq->next;
	if (rq->next >= 0)
		s->g[g].rq[rq->next].prev = rq->prev;
	else
		p->thr_tail = rq->prev;
	rq->prev = rq->next = -1;
}

static void start_own_clock(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now)
{
	struct bw_group *grp = &s->g[g];

	bw_thr_integrate(grp, now);
	grp->rq[cpu].throttled_clock = now;
	grp->nr_counting++;
}

/*
 * mirrors kernel/sched/fair.c:throttle_cfs_rq() and tg_throttle_down() (v6.12;
 * record_throttle_clock() of v6.18 starts the clocks at the same instants here, since
 * a user-space task is parked as soon as its runqueue is throttled)
 */
bool bw_throttle(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now)
{
	struct bw_group *grp = &s->g[g];
	struct bw_rq *rq = &grp->rq[cpu];

	rq->resched = false;
	/* last-moment check: 1 ns will do, and it arms the period timer */
	if (bw_grab(s, g, cpu, 1, now))
		return false;
	bw_cpu_progress(s, cpu, now);
	list_append(s, g, cpu);
	for (int i = 0; i < grp->ndesc; i++) {
		struct bw_rq *d = &s->g[grp->desc[i]].rq[cpu];

		if (d->throttle_count++ == 0 && BW_SIM_HAS(s, LOCAL_STAT) && d->nr_busy)
			d->clock_self = now;
	}
	bw_parked_sync(s, cpu);
	rq->throttled = true;
	if (!BW_SIM_HAS(s, EMPTY_RULE) || rq->nr_busy)
		start_own_clock(s, g, cpu, now);
	/* the group's entity (<= 6.17) or its parked tasks (6.18) leave the parents */
	if (grp->parent >= 0)
		bw_return_idle_slack(s, grp->parent, cpu, now);
	bw_cpu_changed(s, cpu, now);
	return true;
}

/* mirrors kernel/sched/fair.c:unthrottle_cfs_rq() and tg_unthrottle_up() (v6.18) */
void bw_unthrottle(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now)
{
	struct bw_group *grp = &s->g[g];
	struct bw_rq *rq = &grp->rq[cpu];

	if (BW_SIM_HAS(s, TASK_THROTTLE) && rq->enabled && rq->remaining <= 0)
		return;
	bw_cpu_progress(s, cpu, now);
	rq->throttled = false;
	if (rq->throttled_clock != BW_NO_TIME) {
		bw_thr_integrate(grp, now);
		grp->pool.throttled_time += now - rq->throttled_clock;
		rq->throttled_clock = BW_NO_TIME;
		grp->nr_counting--;
	}
	list_del(s, g, cpu);
	for (int i = grp->ndesc - 1; i >= 0; i--) {
		struct bw_rq *d = &s->g[grp->desc[i]].rq[cpu];

		if (--d->throttle_count == 0 && d->clock_self != BW_NO_TIME) {
			d->self_time += now - d->clock_self;
			d->clock_self = BW_NO_TIME;
		}
	}
	bw_parked_sync(s, cpu);
	bw_cpu_changed(s, cpu, now);
}

/*
 * A busy thread was placed on @cpu: the enqueue side of each level of its group.
 * mirrors kernel/sched/fair.c:check_enqueue_throttle() (v6.12), and the 6.6+ start of
 * the throttled clocks at the first enqueue into an empty throttled runqueue.
 */
void bw_enqueue_check(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now)
{
	for (int l = g; l >= 0; l = s->g[l].parent) {
		struct bw_rq *rq = &s->g[l].rq[cpu];

		if (rq->nr_busy++ != 0)
			continue;
		if (rq->throttle_count && rq->clock_self == BW_NO_TIME &&
		    BW_SIM_HAS(s, LOCAL_STAT))
			rq->clock_self = now;
		if (rq->throttled) {
			if (rq->throttled_clock == BW_NO_TIME)
				start_own_clock(s, l, cpu, now);
			continue;
		}
		/* 5.4+: a silo with runtime left is what bw_charge(0) leaves as it is */
		if (!rq->enabled || (!BW_SIM_HAS(s, EXPIRE) && rq->remaining > 0))
			continue;
		bw_charge(s, l, cpu, 0, now);
		if (rq->remaining <= 0)
			bw_throttle(s, l, cpu, now);
	}
}

/* mirrors kernel/sched/fair.c:start_cfs_slack_bandwidth() and runtime_refresh_within() */
static bool refresh_within(const struct bw_pool *p, uint64_t now, uint64_t min_expire)
{
	if (!p->period_active)
		return true;	/* stale expiry: "remaining" is negative */
	return p->expiry - now < min_expire;
}

static void start_slack_timer(struct cgctl_bw_sim *s, int g, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);

	if (refresh_within(p, now, BW_SLACK_PERIOD + BW_MIN_EXPIRATION))
		return;
	if (p->slack_started)
		return;
	p->slack_started = true;
	bw_heap_set(&s->heap, bw_slot_slack(s, g), now + BW_SLACK_PERIOD);
}

/* mirrors kernel/sched/fair.c:__return_cfs_rq_runtime() (v6.12; v5.3 expiry check) */
void bw_return_slack(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);
	struct bw_rq *rq = &s->g[g].rq[cpu];
	int64_t excess = rq->remaining - (int64_t)BW_MIN_RQ_RUNTIME;

	if (!rq->enabled || excess <= 0)
		return;
	if (p->quota != BW_RUNTIME_INF &&
	    (!BW_SIM_HAS(s, EXPIRE) || rq->expires == p->expires)) {
		p->runtime += (uint64_t)excess;
		if (p->runtime > s->cfg.slice_ns && p->thr_head >= 0)
			start_slack_timer(s, g, now);
	}
	rq->remaining -= excess;
}

/*
 * mirrors kernel/sched/fair.c:distribute_cfs_runtime() (v6.12): FIFO, each throttled
 * runqueue gets just its debt + 1 ns.  Returns: some runqueue is still throttled.
 */
static bool distribute(struct cgctl_bw_sim *s, int g, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);
	bool still = false;
	int cpu = p->thr_head;

	while (cpu >= 0) {
		struct bw_rq *rq = &s->g[g].rq[cpu];
		int next = rq->next;
		uint64_t give;

		if (p->runtime == 0)
			return true;
		give = MIN((uint64_t)(-rq->remaining) + 1, p->runtime);
		p->runtime -= give;
		rq->remaining += (int64_t)give;
		if (BW_SIM_HAS(s, EXPIRE)) {
			rq->expires = p->expires;
			rq->expires_seq = p->expires_seq;
		}
		if (rq->remaining > 0)
			bw_unthrottle(s, g, cpu, now);
		else
			still = true;
		cpu = next;
	}
	return still;
}

/* mirrors kernel/sched/fair.c:do_sched_cfs_period_timer() (v6.12).  Returns: deactivate */
static bool period_tick(struct cgctl_bw_sim *s, int g, uint32_t overrun, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);
	bool throttled;
	int guard = 0;

	if (p->quota == BW_RUNTIME_INF)
		return true;
	throttled = p->thr_head >= 0;
	p->nr_periods += overrun;
	bw_refill(s, g, now);
	if (p->idle && !throttled)
		return true;
	if (!throttled) {
		p->idle = true;
		return false;
	}
	p->nr_throttled += overrun;
	while (throttled && p->runtime > 0 && guard++ < 64)
		throttled = distribute(s, g, now);
	p->idle = false;
	return false;
}

/* hrtimer_forward(): move the expiry past @now by whole periods.  Returns: overrun */
static uint32_t forward(struct bw_pool *p, uint64_t now)
{
	uint64_t n;

	if (p->expiry > now)
		return 0;
	n = (now - p->expiry) / p->period + 1;
	p->expiry += n * p->period;
	p->anchor = p->expiry;
	return (uint32_t)MIN(n, UINT32_MAX);
}

/* mirrors kernel/sched/fair.c:sched_cfs_period_timer() (v6.12), overload guard included */
void bw_period_timer(struct cgctl_bw_sim *s, int g, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);
	bool deactivate = false;
	uint64_t t = now;
	int count = 0;
	uint32_t overrun;

	/* the loop count bound only stops a callback cost above 1 s from spinning forever */
	for (int loops = 0; loops < 64 && (overrun = forward(p, t)) != 0; loops++) {
		deactivate = period_tick(s, g, overrun, t);
		t += s->cfg.timer_cost_ns;
		if (++count > 3) {
			if (p->period * 2 < BW_MAX_PERIOD_NS) {
				/* "cfs_period_timer: period too short, scaling up" */
				p->period *= 2;
				p->quota *= 2;
				p->burst *= 2;
			}
			count = 0;
		}
	}
	if (deactivate) {
		p->period_active = false;
		bw_heap_del(&s->heap, bw_slot_period(s, g));
	} else {
		bw_heap_set(&s->heap, bw_slot_period(s, g), p->expiry);
	}
}

/* mirrors kernel/sched/fair.c:do_sched_cfs_slack_timer() (v6.12) */
void bw_slack_timer(struct cgctl_bw_sim *s, int g, uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);

	p->slack_started = false;
	bw_heap_del(&s->heap, bw_slot_slack(s, g));
	if (refresh_within(p, now, BW_MIN_EXPIRATION))
		return;
	if (p->quota != BW_RUNTIME_INF && p->runtime > s->cfg.slice_ns)
		distribute(s, g, now);
}

/* mirrors kernel/sched/core.c:tg_set_cfs_bandwidth() (v6.12; 6.18-rc5 silo reset to 1) */
void bw_set_bandwidth(struct cgctl_bw_sim *s, int g, const struct cgctl_bw_settings *bw,
		      uint64_t now)
{
	struct bw_pool *p = pool_of(s, g);
	bool enabled = bw->quota_us != CGCTL_BW_INF;

	p->period = bw->period_us * 1000;
	p->quota = enabled ? bw->quota_us * 1000 : BW_RUNTIME_INF;
	p->burst = bw->burst_us * 1000;
	bw_refill(s, g, now);
	if (enabled)
		bw_ensure_timer(s, g, now);
	for (int cpu = 0; cpu < (int)s->cfg.ncpus; cpu++) {
		struct bw_rq *rq = &s->g[g].rq[cpu];

		rq->enabled = enabled;
		rq->remaining = BW_SIM_HAS(s, TASK_THROTTLE) ? 1 : 0;
		rq->resched = false;
		if (rq->throttled)
			bw_unthrottle(s, g, cpu, now);
		bw_cpu_changed(s, cpu, now);
	}
}
