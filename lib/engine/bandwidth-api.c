/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: building a simulation (groups, threads, writes), running it and
 * reading its results.
 */
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"


#define BW_MAX_CPUS 4096
#define BW_MAX_GROUPS 1024

int cgctl_bw_sim_new(struct cgctl_bw_sim **ret, const struct cgctl_bw_sim_config *cfg)
{
	struct cgctl_bw_sim *s;

	if (ret)
		*ret = NULL;	/* callers may free it on failure */
	if (!ret || !cfg || cfg->ncpus > BW_MAX_CPUS || cfg->other_load_ppm >= BW_CAP_ONE ||
	    cfg->hz > 100000 || cfg->duration_ns > UINT64_MAX / 4 ||
	    cfg->settle_ns > UINT64_MAX / 4)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cfg = *cfg;
	if (!s->cfg.kver)
		s->cfg.kver = CGCTL_KVER(6, 18, 0);
	if (!s->cfg.ncpus)
		s->cfg.ncpus = 1;
	if (!s->cfg.hz)
		s->cfg.hz = 250;
	if (!s->cfg.slice_ns)
		s->cfg.slice_ns = 5000000;
	s->tick = 1000000000ULL / s->cfg.hz;
	for (int f = 0; f < CGCTL_BW_FEAT_COUNT && f < 32; f++)
		if (cgctl_bw_era_has(s->cfg.kver, (enum cgctl_bw_feature)f))
			s->era |= 1U << f;
	bw_tick_div_init(s);
	s->rng = cfg->seed;
	*ret = s;
	return 0;
}

void cgctl_bw_sim_free(struct cgctl_bw_sim *s)
{
	if (!s)
		return;
	for (int g = 0; g < s->ngroups; g++) {
		free(s->g[g].rq);
		free(s->g[g].desc);
		free(s->g[g].periods);
		free(s->g[g].prior);
	}
	free(s->g);
	if (s->cpu) {
		for (unsigned int c = 0; c < s->cfg.ncpus; c++) {
			free(s->cpu[c].busy);
			free(s->cpu[c].run);
			free(s->cpu[c].grp);
			free(s->cpu[c].gcnt);
		}
	}
	free(s->cpu);
	free(s->spec);
	free(s->t);
	free(s->left);
	free(s->bidx);
	free(s->w);
	free(s->pl);
	free(s->home);
	free(s->dirty);
	free(s->lmap);
	free(s->lsum);
	free(s->pmap);
	bw_fair_free(s);
	bw_heap_free(&s->heap);
	bw_cal_free(&s->cal);
	free(s);
}

/* The ranges the model needs (the kernel's full rules are cgctl_bw_check()). */
static bool settings_ok(const struct cgctl_bw_settings *bw)
{
	if (bw->period_us < 1000 || bw->period_us > 1000000)
		return false;
	if (bw->quota_us == CGCTL_BW_INF)
		return bw->burst_us <= CGCTL_BW_MAX_US;
	return bw->quota_us >= 1000 && bw->quota_us <= CGCTL_BW_MAX_US &&
	       bw->burst_us <= bw->quota_us && bw->quota_us + bw->burst_us <= CGCTL_BW_MAX_US;
}

int cgctl_bw_sim_add_group(struct cgctl_bw_sim *s, int parent,
			   const struct cgctl_bw_settings *bw)
{
	struct bw_group *grp;

	if (!s || !bw || s->ran || parent < -1 || parent >= s->ngroups || !settings_ok(bw) ||
	    s->ngroups >= BW_MAX_GROUPS)
		return -EINVAL;
	if (s->ngroups == s->gcap) {
		int cap = s->gcap ? 2 * s->gcap : 4;
		struct bw_group *n = realloc(s->g, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->g = n;
		s->gcap = cap;
	}
	grp = &s->g[s->ngroups];
	memset(grp, 0, sizeof(*grp));
	grp->parent = parent;
	grp->rq = calloc(s->cfg.ncpus, sizeof(*grp->rq));
	if (!grp->rq)
		return -ENOMEM;
	grp->pool.period = bw->period_us * 1000;
	grp->pool.quota = bw->quota_us == CGCTL_BW_INF ? BW_RUNTIME_INF : bw->quota_us * 1000;
	grp->pool.burst = bw->burst_us * 1000;
	return s->ngroups++;
}

/*
 * A group that ran before keeps, on each CPU its tasks left, what
 * return_cfs_rq_runtime() left in the silo: at most min_cfs_rq_runtime (1 ms), and
 * nothing takes it away across idle time (no expiration since 5.4).  Only a
 * configuration write resets it (tg_set_cfs_bandwidth(): 1 ns on 6.18, 0 before).
 */
int cgctl_bw_sim_set_silos(struct cgctl_bw_sim *s, int group,
			   const int64_t *silo_ns, unsigned int n)
{
	struct bw_group *grp;

	if (!s || s->ran || group < 0 || group >= s->ngroups || !silo_ns ||
	    n != s->cfg.ncpus)
		return -EINVAL;
	for (unsigned int c = 0; c < n; c++)
		if (silo_ns[c] < 0 || silo_ns[c] > (int64_t)BW_MIN_RQ_RUNTIME)
			return -EINVAL;
	grp = &s->g[group];
	if (!grp->prior) {
		grp->prior = malloc(n * sizeof(*grp->prior));
		if (!grp->prior)
			return -ENOMEM;
	}
	memcpy(grp->prior, silo_ns, n * sizeof(*grp->prior));
	return 0;
}

/*
 * The group's cpu.shares (v1; cgroup v2's cpu.weight w is shares w * 1024 / 100).
 * Giving any group a weight makes the whole simulation share CPUs by CFS weights
 * (bandwidth-fair.c): other load is then simulated as groups of threads of its own.
 */
int cgctl_bw_sim_set_weight(struct cgctl_bw_sim *s, int group,
			    uint32_t shares)
{
	/* sched_group_set_shares(): MIN_SHARES 2 .. MAX_SHARES 1 << 18 */
	if (!s || s->ran || group < 0 || group >= s->ngroups || shares < 2 ||
	    shares > (1u << 18))
		return -EINVAL;
	s->g[group].shares = shares;
	return 0;
}

int cgctl_bw_sim_silos(const struct cgctl_bw_sim *s, int group,
		       int64_t *silo_ns, unsigned int n)
{
	if (!s || !s->ran || group < 0 || group >= s->ngroups || !silo_ns ||
	    n != s->cfg.ncpus)
		return -EINVAL;
	for (unsigned int c = 0; c < n; c++) {
		int64_t r = s->g[group].rq[c].remaining;

		/* what is left once the next refill has paid a debt (distribute: +1 ns) */
		silo_ns[c] = MIN(MAX(r, 1), (int64_t)BW_MIN_RQ_RUNTIME);
	}
	return 0;
}

int cgctl_bw_sim_add_thread(struct cgctl_bw_sim *s, const struct cgctl_bw_thread *t)
{
	struct cgctl_bw_thread *n;

	if (!s || !t || s->ran || t->group < 0 || t->group >= s->ngroups ||
	    (t->trace && t->trace_thread >= t->trace->nthr) || s->nthreads >= 1 << 20)
		return -EINVAL;
	if (s->nthreads == s->tcap) {
		int cap = s->tcap ? 2 * s->tcap : 16;

		n = realloc(s->spec, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->spec = n;
		s->tcap = cap;
	}
	s->spec[s->nthreads++] = *t;
	s->any_acct |= t->account_ns != 0;
	return 0;
}

int cgctl_bw_sim_write(struct cgctl_bw_sim *s, int group, uint64_t at_ns,
		       const struct cgctl_bw_settings *bw)
{
	int i;

	if (!s || !bw || s->ran || group < 0 || group >= s->ngroups || !settings_ok(bw))
		return -EINVAL;
	if (s->nw == s->wcap) {
		int cap = s->wcap ? 2 * s->wcap : 8;
		struct bw_write_ev *n = realloc(s->w, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->w = n;
		s->wcap = cap;
	}
	/* keep the list sorted by time; equal times stay in call order */
	for (i = s->nw; i > 0 && s->w[i - 1].at > at_ns; i--)
		s->w[i] = s->w[i - 1];
	s->w[i] = (struct bw_write_ev){ .at = at_ns, .group = group, .bw = *bw };
	s->nw++;
	return 0;
}

static int setup_cpus(struct cgctl_bw_sim *s)
{
	int n = MAX(s->nthreads, 1);

	s->cpu = calloc(s->cfg.ncpus, sizeof(*s->cpu));
	s->dirty = calloc(s->cfg.ncpus, sizeof(*s->dirty));
	s->left = calloc(n, sizeof(*s->left));
	s->bidx = calloc(n, sizeof(*s->bidx));
	if (!s->cpu || !s->dirty || !s->left || !s->bidx || bw_load_init(s) < 0)
		return -ENOMEM;
	for (unsigned int c = 0; c < s->cfg.ncpus; c++) {
		struct bw_cpu *cpu = &s->cpu[c];

		cpu->busy = malloc(n * sizeof(int));
		cpu->run = malloc(n * sizeof(int));
		cpu->grp = malloc(s->ngroups * sizeof(int));
		cpu->gcnt = malloc(s->ngroups * sizeof(uint32_t));
		if (!cpu->busy || !cpu->run || !cpu->grp || !cpu->gcnt)
			return -ENOMEM;
	}
	return 0;
}

static bool is_under(const struct cgctl_bw_sim *s, int d, int g)
{
	for (; d >= 0; d = s->g[d].parent)
		if (d == g)
			return true;
	return false;
}

/* A group configured long ago and quiet since: pool full, timer off, idle set. */
static int setup_group(struct cgctl_bw_sim *s, int g)
{
	struct bw_group *grp = &s->g[g];
	struct bw_pool *p = &grp->pool;

	grp->desc = malloc(s->ngroups * sizeof(int));
	if (!grp->desc)
		return -ENOMEM;
	for (int d = g; d < s->ngroups; d++)
		if (is_under(s, d, g))
			grp->desc[grp->ndesc++] = d;
	/*
	 * mirrors kernel/sched/fair.c:init_cfs_bandwidth() (v6.12): the expiry starts at a
	 * random CLOCK_MONOTONIC time below the default period (6.4+), or at 0, both long
	 * past; start_cfs_bandwidth()'s hrtimer_forward_now() then steps it by whole
	 * periods, so the grid's phase at time 0 (CLOCK_MONOTONIC boot_ns) is that time
	 * minus boot_ns modulo the period: the anchor is below one period (a random 100 ms
	 * anchor under a 17 ms period made the first refill come 98 ms late)
	 */
	if (BW_ERA_RANDOM_PHASE(s->cfg.kver)) {
		uint64_t r = bw_rand(&s->rng) % BW_DEFAULT_PERIOD_NS;

		p->anchor = (r % p->period + p->period - s->boot_ns % p->period) % p->period;
	} else {
		p->anchor = (p->period - s->boot_ns % p->period) % p->period;
	}
	p->idle = true;
	p->thr_head = p->thr_tail = -1;
	if (p->quota != BW_RUNTIME_INF)
		p->runtime = p->runtime_snap = p->quota + p->burst;
	for (unsigned int c = 0; c < s->cfg.ncpus; c++) {
		struct bw_rq *rq = &grp->rq[c];

		rq->enabled = p->quota != BW_RUNTIME_INF;
		/* as the last write left it (tg_set_cfs_bandwidth()), or as the last run did */
		rq->remaining = BW_ERA_TASK_THROTTLE(s->cfg.kver) ? 1 : 0;
		if (grp->prior)
			rq->remaining = grp->prior[c];
		rq->throttled_clock = rq->clock_self = BW_NO_TIME;
		rq->prev = rq->next = -1;
	}
	if (s->cfg.record_periods)
		bw_heap_set(&s->heap, bw_slot_record(s, g),
			    p->anchor ? p->anchor : p->period);
	return 0;
}

static void setup_thread(struct cgctl_bw_sim *s, int ti)
{
	const struct cgctl_bw_thread *spec = &s->spec[ti];
	struct bw_thread *t = &s->t[ti];
	uint64_t start = spec->start_ns;

	memset(t, 0, sizeof(*t));
	t->busy_ns = spec->busy_ns;
	t->idle_ns = spec->idle_ns;
	t->ppm = MIN(spec->jitter_ppm, BW_CAP_ONE);
	t->group = spec->group;
	t->state = BW_T_WAIT;
	bw_thread_jitter_init(t);
	t->cpu = ti % (int)s->cfg.ncpus;	/* threads start out spread over the CPUs */
	if (spec->trace) {
		const struct bw_trace_thread *tr = &spec->trace->thr[spec->trace_thread];

		t->tr = tr;
		if (tr->n && !tr->busy[0]) {	/* a leading idle line */
			start += tr->idle[0];
			t->trace_pos = 1;
		}
	}
	bw_thread_queue(s, ti, start);
}

/* Build the run state (also used by unit tests that drive the pool directly). */
int bw_sim_setup(struct cgctl_bw_sim *s)
{
	int r;

	if (!s->ngroups)
		return -EINVAL;
	s->boot_ns = bw_rand(&s->rng) >> 24;
	s->slot_thread = s->cfg.ncpus;
	s->slot_group = s->slot_thread + s->nthreads;
	s->slot_misc = s->slot_group + 3 * s->ngroups;
	r = bw_heap_init(&s->heap, s->slot_misc + MISC_NR);
	if (r < 0)
		return r;
	r = bw_cal_init(&s->cal, s->slot_thread, s->nthreads);
	if (r < 0)
		return r;
	r = setup_cpus(s);
	if (r < 0)
		return r;
	s->t = aligned_alloc(64, ((size_t)MAX(s->nthreads, 1) * sizeof(*s->t) + 63) / 64 * 64);
	if (!s->t)
		return -ENOMEM;
	for (int g = 0; g < s->ngroups; g++) {
		r = setup_group(s, g);
		if (r < 0)
			return r;
	}
	for (int ti = 0; ti < s->nthreads; ti++)
		setup_thread(s, ti);
	r = bw_fair_init(s);
	if (r < 0)
		return r;
	r = bw_place_setup(s);
	if (r < 0)
		return r;
	if (s->nw)
		bw_heap_set(&s->heap, s->slot_misc + 0, s->w[0].at);
	bw_heap_set(&s->heap, s->slot_misc + 1, s->cfg.duration_ns);
	bw_heap_set(&s->heap, s->slot_misc + 2, s->cfg.duration_ns + s->cfg.settle_ns);
	return 0;
}

int64_t cgctl_bw_sim_run(struct cgctl_bw_sim *s)
{
	int r;

	if (!s)
		return -EINVAL;
	if (s->ran)
		return -EALREADY;
	s->ran = true;
	r = bw_sim_setup(s);
	if (r < 0)
		return r;
	r = bw_sim_loop(s);
	if (r < 0)
		return r;
	return s->events;
}

void bw_stat_now(const struct cgctl_bw_sim *s, int g, struct cgctl_bw_stat *st)
{
	const struct bw_group *grp = &s->g[g];
	const struct bw_pool *p = &grp->pool;

	*st = (struct cgctl_bw_stat){ .size = sizeof(*st) };
	st->nr_periods = (int32_t)p->nr_periods;
	st->nr_throttled = (int32_t)p->nr_throttled;
	st->nr_bursts = (int32_t)p->nr_burst;
	st->throttled_ns = p->throttled_time;
	st->burst_ns = p->burst_time;
	st->usage_ns = grp->usage;
	st->wait_ns = grp->wait;
	st->delay_ns = grp->wait + grp->parked;
	if (BW_ERA_LOCAL_STAT(s->cfg.kver))
		for (unsigned int c = 0; c < s->cfg.ncpus; c++)
			st->throttled_local_ns += grp->rq[c].self_time;
}

int cgctl_bw_sim_stat(const struct cgctl_bw_sim *s, int group, bool settled,
		      struct cgctl_bw_stat *ret)
{
	if (!s || !ret || group < 0 || group >= s->ngroups || !s->ran)
		return -EINVAL;
	if (!settled && s->ended)
		*ret = s->g[group].run_stat;
	else
		bw_stat_now(s, group, ret);
	return 0;
}

ssize_t cgctl_bw_sim_periods(const struct cgctl_bw_sim *s, int group,
			     const struct cgctl_bw_period **ret)
{
	if (!s || !ret || group < 0 || group >= s->ngroups)
		return -EINVAL;
	*ret = s->g[group].periods;
	return (ssize_t)s->g[group].nperiods;
}

int cgctl_bw_sim_settings(const struct cgctl_bw_sim *s, int group,
			  struct cgctl_bw_settings *ret)
{
	const struct bw_pool *p;

	if (!s || !ret || group < 0 || group >= s->ngroups)
		return -EINVAL;
	p = &s->g[group].pool;
	ret->period_us = p->period / 1000;
	ret->quota_us = p->quota == BW_RUNTIME_INF ? CGCTL_BW_INF : p->quota / 1000;
	ret->burst_us = p->burst / 1000;
	return 0;
}
