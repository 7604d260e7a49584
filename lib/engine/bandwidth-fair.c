/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: competition with other load by CFS weights.
 *
 * Off (the simulator's processor sharing, one equal share per runnable thread) until
 * the workload gives a group a weight with cgctl_bw_sim_set_weight(); then every CPU's
 * runnable threads share it as the kernel's fair class does in its fluid limit:
 *
 * - Hierarchically by weight.  Each group's runqueue on a CPU is one entity in its
 *   parent's runqueue (the top-level groups in the CPU's); a thread (nice 0) weighs
 *   NICE_0_LOAD (1024), a group's entity what calc_group_shares() gives it
 *   (kernel/sched/fair.c, v6.1 to v6.18 alike):
 *       load   = max(runnable weight queued on this CPU, this CPU's load_avg)
 *       shares = clamp(tg->shares * load / (tg->load_avg - this CPU's + load), 2, shares)
 *   so a group of two spinners on two CPUs weighs half its shares on each, and a group
 *   whose threads sleep a lot weighs more where one of them runs than a static split
 *   would give it.  The entities' shares are what update_curr() and pick_next_entity()
 *   (CFS, < 6.6) or pick_eevdf() (EEVDF, 6.6+) converge to over a few slices.
 * - load_avg per thread with PELT's geometric series (kernel/sched/pelt.c: decay_load()
 *   and runnable_avg_yN_inv[], 32 ms half-life, 1024 us periods), runnable while on the
 *   runqueue (not asleep), frozen while parked by a throttle; a new thread starts at its full
 *   weight (init_entity_runnable_average()); a CPU's load_avg is that of the threads
 *   last there (a migration carries its load: migrate_task_rq_fair()).  A nested
 *   group's load_avg is that of its threads (the kernel's is its child entities').
 *   Group weights are recomputed at every event of the simulation (the kernel: at each
 *   enqueue, dequeue and tick, update_cfs_group()), constant in between.
 * - Wake-up placement.  Before 6.6, place_entity() puts a waking entity at
 *   max(its vruntime, min_vruntime - sysctl_sched_latency / 2) (GENTLE_FAIR_SLEEPERS;
 *   latency 6 ms * (1 + ilog2(min(ncpus, 8)))): a group whose runqueue on that CPU was
 *   empty runs alone until its vruntime catches up, for at most latency / 2 of virtual
 *   time (its weight / 1024 of it in real time), and for no more than the others'
 *   min_vruntime advanced while it slept.  That is the credit that lets short-burst
 *   threads beside spinners take more than their share.  From 6.6 (EEVDF, 147f3efaa241)
 *   place_entity() keeps the entity's lag instead (PLACE_LAG): a sleeper that ran ahead
 *   of its share wakes behind by as much and is not eligible, one that ran behind is
 *   owed; in the fluid limit every lag is 0, and the shares above are the story (6.6 to
 *   6.11: reasoned from the code, no kernel of that era measured here).  From 6.12,
 *   delayed dequeue (152e11f6df29): an ineligible sleeper stays queued until its lag
 *   is paid and leaves with it clipped to 0 (DELAY_ZERO), so it wakes eligible, with a
 *   fresh request whose virtual deadline is earlier than the running entity's, and
 *   preempts it (check_preempt_wakeup_fair(), pick_eevdf()).  It runs until its
 *   group's entity has used its request (sysctl_sched_base_slice, 0.75 ms * the factor
 *   above) and update_curr() at a tick sees the deadline passed (update_deadline()):
 *   the woken group runs alone until the first tick one slice after the wake-up, the
 *   others then for a tick, then the shares.  A thread that reads its CPU clock calls
 *   update_curr() at each read, but only on its own group's runqueue: the top-level
 *   entities are compared at the tick.  Traced on 6.18 (perf sched_switch/sched_wakeup
 *   and the tick's hrtimer): 128 of 144 bursts of validate bw-bg-bursty that woke onto
 *   a spinner ran within 10 us; with a spinner of another group pinned beside it, 1,
 *   1.4, 3 and 4 ms bursts took 1.0, 1.4, 4.6 and 7.0 ms of wall time, preempted at
 *   ticks 1.41-1.69 ms into the burst, then waiting 4 ms.
 *
 * Kept out: nice values of threads (every thread weighs 1024; give a group the weight),
 * the slices' discreteness beyond that first one (a fluid model), the tick drift of PELT
 * between events, and load balancing (threads stay where they woke, or move where and
 * when the caller says the kernel moved them: cgctl_bw_sim_place()).
 */
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

#define FAIR_ONE (1ULL << 32)		/* a whole CPU, in rates */
#define LA_SHIFT 10			/* fixed-point bits of weights and load averages */
#define NICE_0 (1024ULL << LA_SHIFT)	/* NICE_0_LOAD, scaled */
#define MIN_SHARES (2ULL << LA_SHIFT)	/* MIN_SHARES */
#define PELT_PERIOD_SHIFT 20		/* a PELT period: 1024 us, as (ns >> 10) / 1024 */
#define LATENCY_NS 6000000ULL		/* normalized_sysctl_sched_latency */
#define BASE_SLICE_NS 750000ULL		/* normalized_sysctl_sched_base_slice (6.6+) */

/* kernel/sched/sched-pelt.h: runnable_avg_yN_inv[n] = y^n * 2^32, y^32 = 1/2 */
static const uint32_t yn_inv[32] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

struct bw_fair {
	uint64_t *la, *la_at;		/* per thread: load_avg (scaled), up to when */
	uint64_t *slept_at;		/* per thread: when it last slept */
	bool *slept;			/* per thread: it has slept (a wake-up, not its start) */
	bool *on;			/* per thread: on a runqueue (PELT "runnable") */
	bool *frozen;			/* per thread: parked by a throttle, its PELT clock
					 * stopped since la_at */
	uint64_t *rate;			/* per thread: its share of its CPU (FAIR_ONE) */
	uint64_t *grate;		/* [cpu * ngroups + g]: the group's subtree's share */
	uint64_t *w;			/* [cpu * ngroups + g]: weight queued in g's rq */
	uint64_t *sew;			/* [cpu * ngroups + g]: g's entity's weight */
	uint64_t *lacpu;		/* [cpu * ngroups + g]: Σ load_avg last there */
	uint64_t *latot;		/* [g]: tg->load_avg */
	uint64_t *frac;			/* [g]: scratch */
	uint64_t *credit_until;		/* per CPU: a placed sleeper runs alone until */
	int *credit_g;			/* per CPU: that sleeper's top-level group */
	uint64_t *credit_v;		/* per CPU: credit still to turn into real time */
	uint64_t *hold_until;		/* per CPU (6.12+): a preempted sleeper waits until */
	int *hold_g;			/* per CPU: that sleeper's top-level group */
	uint64_t slice;			/* sysctl_sched_base_slice (6.6+) */
	bool eevdf;
	bool delay_zero;		/* a sleeper wakes with no negative lag (6.12+) */
};

/* decay_load(): @val * y^@n */
static uint64_t decay_load(uint64_t val, uint64_t n)
{
	if (n > 32 * 63)
		return 0;
	val >>= n / 32;
	return (uint64_t)(((unsigned __int128)val * yn_inv[n % 32]) >> 32);
}

static int top_of(const struct cgctl_bw_sim *s, int g)
{
	while (s->g[g].parent >= 0)
		g = s->g[g].parent;
	return g;
}

static uint64_t shares_of(const struct cgctl_bw_sim *s, int g)
{
	return (uint64_t)(s->g[g].shares ? s->g[g].shares : 1024) << LA_SHIFT;
}

/* get_update_sysctl_factor() (SCHED_TUNABLESCALING_LOG): 1 + ilog2(min(ncpus, 8)) */
static unsigned int sysctl_factor(const struct cgctl_bw_sim *s)
{
	unsigned int n = MIN(s->cfg.ncpus, 8u), factor = 1;

	while (n >>= 1)
		factor++;
	return factor;
}

int bw_fair_init(struct cgctl_bw_sim *s)
{
	struct bw_fair *f;
	size_t nt = MAX(s->nthreads, 1), ng = s->ngroups, nc = s->cfg.ncpus;
	bool any = false;

	for (int g = 0; g < s->ngroups; g++)
		any |= s->g[g].shares != 0;
	if (!any)
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	s->fair = f;
	f->la = calloc(nt, sizeof(*f->la));
	f->la_at = calloc(nt, sizeof(*f->la_at));
	f->slept_at = calloc(nt, sizeof(*f->slept_at));
	f->slept = calloc(nt, sizeof(*f->slept));
	f->on = calloc(nt, sizeof(*f->on));
	f->frozen = calloc(nt, sizeof(*f->frozen));
	f->rate = calloc(nt, sizeof(*f->rate));
	f->grate = calloc(nc * ng, sizeof(*f->grate));
	f->w = calloc(nc * ng, sizeof(*f->w));
	f->sew = calloc(nc * ng, sizeof(*f->sew));
	f->lacpu = calloc(nc * ng, sizeof(*f->lacpu));
	f->latot = calloc(ng, sizeof(*f->latot));
	f->frac = calloc(ng, sizeof(*f->frac));
	f->credit_until = calloc(nc, sizeof(*f->credit_until));
	f->credit_g = calloc(nc, sizeof(*f->credit_g));
	f->credit_v = calloc(nc, sizeof(*f->credit_v));
	f->hold_until = calloc(nc, sizeof(*f->hold_until));
	f->hold_g = calloc(nc, sizeof(*f->hold_g));
	if (!f->la || !f->la_at || !f->slept_at || !f->slept || !f->on || !f->frozen ||
	    !f->rate || !f->grate || !f->w || !f->sew || !f->lacpu || !f->latot || !f->frac ||
	    !f->credit_until || !f->credit_g || !f->credit_v || !f->hold_until || !f->hold_g)
		return -ENOMEM;
	for (size_t c = 0; c < nc; c++)
		f->credit_g[c] = f->hold_g[c] = -1;
	/* init_entity_runnable_average(): a new task's load_avg is its weight */
	for (size_t t = 0; t < nt; t++)
		f->la[t] = NICE_0;
	f->eevdf = cgctl_bw_era_has(s->cfg.kver, CGCTL_BW_FEAT_EEVDF);
	f->delay_zero = cgctl_bw_era_has(s->cfg.kver, CGCTL_BW_FEAT_DELAY_DEQUEUE);
	f->slice = BASE_SLICE_NS * sysctl_factor(s);
	return 0;
}

void bw_fair_free(struct cgctl_bw_sim *s)
{
	struct bw_fair *f = s->fair;

	if (!f)
		return;
	free(f->la);
	free(f->la_at);
	free(f->slept_at);
	free(f->slept);
	free(f->on);
	free(f->frozen);
	free(f->rate);
	free(f->grate);
	free(f->w);
	free(f->sew);
	free(f->lacpu);
	free(f->latot);
	free(f->frac);
	free(f->credit_until);
	free(f->credit_g);
	free(f->credit_v);
	free(f->hold_until);
	free(f->hold_g);
	free(f);
	s->fair = NULL;
}

/* ___update_load_sum()/___update_load_avg() in whole periods: toward the weight while
 * on a runqueue, toward 0 otherwise. */
static void pelt_update(struct bw_fair *f, int ti, uint64_t now)
{
	uint64_t n, target = f->on[ti] ? NICE_0 : 0, la = f->la[ti];

	if (now <= f->la_at[ti])
		return;
	n = (now - f->la_at[ti]) >> PELT_PERIOD_SHIFT;
	if (!n)
		return;
	if (la >= target)
		f->la[ti] = target + decay_load(la - target, n);
	else
		f->la[ti] = target - decay_load(target - la, n);
	f->la_at[ti] += n << PELT_PERIOD_SHIFT;
}

/* sysctl_sched_latency / 2 (GENTLE_FAIR_SLEEPERS), scaled */
static uint64_t sleeper_thresh(const struct cgctl_bw_sim *s)
{
	return LATENCY_NS * sysctl_factor(s) / 2;
}

/*
 * A thread is about to be enqueued on @cpu at @now: when its top-level group has
 * nothing queued there and other groups have, the group's entity runs first.  Before
 * 6.6 place_entity() gives it up to latency / 2 of vruntime credit, turned into real
 * time by bw_fair_compute(), which knows the entity's weight.  From 6.12 it preempts
 * and runs alone until the first tick one base slice later (update_deadline() at the
 * tick); 6.6 to 6.11 share by weight.
 */
void bw_fair_wake(struct cgctl_bw_sim *s, int ti, int cpu, uint64_t now)
{
	struct bw_fair *f = s->fair;
	const struct bw_cpu *c = &s->cpu[cpu];
	int top = top_of(s, s->t[ti].group);
	uint64_t others = 0, slept, v;

	for (int i = 0; i < c->nrun; i++) {
		if (top_of(s, s->t[c->run[i]].group) == top)
			return;	/* the group's entity is queued already: no placement */
		others += NICE_0;
	}
	if (!others)
		return;
	if (f->eevdf) {
		/*
		 * A wake-up after a sleep (a thread's start is left to the shares: when
		 * the workload's threads started relative to each other is not told).
		 * The first tick after one slice: where the tick falls in the slice's
		 * last tick interval is not known (wake-ups come from timers, not from
		 * the tick), so drawn uniformly.
		 */
		if (!f->slept[ti] || !f->delay_zero)
			return;
		f->credit_g[cpu] = top;
		f->credit_v[cpu] = 0;
		f->credit_until[cpu] = now + f->slice + bw_rand(&s->rng) % s->tick;
		return;
	}
	/* min_vruntime moved at most by the sleep * NICE_0 / the others' weight; the
	 * others' weight is at least one thread's, so the sleep itself bounds it */
	slept = now - MIN(f->slept_at[ti], now);
	v = MIN(sleeper_thresh(s), slept);
	if (f->credit_g[cpu] == top && f->credit_until[cpu] > now)
		return;
	f->credit_g[cpu] = top;
	f->credit_v[cpu] = v;
	f->credit_until[cpu] = 0;
}

void bw_fair_sleep(struct cgctl_bw_sim *s, int ti, uint64_t now)
{
	s->fair->slept_at[ti] = now;
	s->fair->slept[ti] = true;
}

/* calc_group_shares() of @g on @cpu, its runnable weight there @w (scaled) */
static uint64_t group_shares(const struct cgctl_bw_sim *s, int g, int cpu, uint64_t w)
{
	const struct bw_fair *f = s->fair;
	size_t k = (size_t)cpu * s->ngroups + g;
	uint64_t tg = shares_of(s, g), load = MAX(w, f->lacpu[k]);
	uint64_t tgw = f->latot[g] - f->lacpu[k] + load, sh;

	sh = tgw ? (uint64_t)((unsigned __int128)tg * load / tgw) : tg;
	return MIN(MAX(sh, MIN_SHARES), tg);
}

/* Every CPU's rates at @now: the runnable sets (cpu_rebuild()) are current. */
static void cpu_rates(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	struct bw_fair *f = s->fair;
	struct bw_cpu *c = &s->cpu[cpu];
	size_t base = (size_t)cpu * s->ngroups;
	uint64_t *w = f->w + base, *sew = f->sew + base, *grate = f->grate + base;
	uint64_t cap = FAIR_ONE * (BW_CAP_ONE - s->cfg.other_load_ppm) / BW_CAP_ONE;
	uint64_t root = 0;
	int cg = f->credit_g[cpu], hg;

	memset(w, 0, s->ngroups * sizeof(*w));
	for (int i = 0; i < c->nrun; i++)
		w[s->t[c->run[i]].group] += NICE_0;
	for (int g = s->ngroups - 1; g >= 0; g--) {	/* children first */
		if (!w[g])
			continue;
		sew[g] = group_shares(s, g, cpu, w[g]);
		if (s->g[g].parent >= 0)
			w[s->g[g].parent] += sew[g];
		else
			root += sew[g];
	}
	/* a placed sleeper's credit becomes real time with its weight known */
	if (cg >= 0 && w[cg] && !f->credit_until[cpu] && f->credit_v[cpu]) {
		f->credit_until[cpu] = now + (uint64_t)((unsigned __int128)f->credit_v[cpu] *
							 sew[cg] / NICE_0);
		f->credit_v[cpu] = 0;
	}
	if (cg >= 0 && (!w[cg] || f->credit_until[cpu] <= now)) {
		/*
		 * 6.12+: the woken group's slice ended at a tick with its threads still
		 * busy.  Its lag is negative now (it ran alone), so pick_eevdf() takes
		 * the others, and they keep the CPU until the next tick finds their
		 * slice used: the woken group waits one tick, then shares again.
		 * Traced on 6.18: such a 2 ms burst took 5-6 ms of wall time.
		 */
		if (f->eevdf && w[cg] && root > sew[cg] && f->credit_until[cpu] <= now) {
			f->hold_g[cpu] = cg;
			f->hold_until[cpu] = f->credit_until[cpu] + s->tick;
		}
		f->credit_g[cpu] = -1;
		f->credit_until[cpu] = 0;
		f->credit_v[cpu] = 0;
		cg = -1;
	}
	hg = f->hold_g[cpu];
	if (hg >= 0 && (cg >= 0 || !w[hg] || root <= sew[hg] || f->hold_until[cpu] <= now)) {
		f->hold_g[cpu] = -1;
		f->hold_until[cpu] = 0;
		hg = -1;
	}
	for (int g = 0; g < s->ngroups; g++) {		/* parents first */
		int p = s->g[g].parent;

		if (!w[g])
			f->frac[g] = 0;
		else if (p >= 0)
			f->frac[g] = (uint64_t)((unsigned __int128)f->frac[p] * sew[g] / w[p]);
		else if (cg >= 0)
			f->frac[g] = g == cg ? cap : 0;
		else if (hg >= 0)
			f->frac[g] = g == hg ? 0 : (uint64_t)((unsigned __int128)cap * sew[g] /
							      (root - sew[hg]));
		else
			f->frac[g] = (uint64_t)((unsigned __int128)cap * sew[g] / root);
		grate[g] = f->frac[g];
	}
	for (int i = 0; i < c->nrun; i++) {
		int ti = c->run[i], g = s->t[ti].group;

		f->rate[ti] = MAX((uint64_t)((unsigned __int128)f->frac[g] * NICE_0 / w[g]), 1);
	}
}

/*
 * The shares of every CPU at @now, after the runnable sets changed (every CPU's
 * progress is at @now): load averages, group entity weights, rates.
 */
void bw_fair_compute(struct cgctl_bw_sim *s, uint64_t now)
{
	struct bw_fair *f = s->fair;
	size_t ng = s->ngroups;

	memset(f->lacpu, 0, s->cfg.ncpus * ng * sizeof(*f->lacpu));
	memset(f->latot, 0, ng * sizeof(*f->latot));
	for (int ti = 0; ti < s->nthreads; ti++) {
		const struct bw_thread *t = &s->t[ti];
		bool on, parked;

		if (t->state == BW_T_WAIT || t->state == BW_T_DONE) {
			f->la_at[ti] = now;	/* not started, or its load left with it */
			continue;
		}
		/*
		 * A thread parked by a throttle keeps its load as it was: the PELT clock
		 * of a throttled runqueue stops (cfs_rq_clock_pelt() subtracts
		 * throttled_clock_pelt_time, kernel/sched/fair.c, v3.8 "Maintain runnable
		 * averages across throttled periods" to v6.18), so its group's weight on
		 * the other CPUs does not grow while it waits for the refill.
		 */
		parked = t->state == BW_T_BUSY && s->g[t->group].rq[t->cpu].throttle_count;
		if (f->frozen[ti])
			f->la_at[ti] = now;
		else
			pelt_update(f, ti, now);
		f->frozen[ti] = parked;
		on = t->state == BW_T_BUSY && !parked;
		if (on != f->on[ti]) {
			f->on[ti] = on;
			f->la_at[ti] = now;
		}
		for (int l = t->group; l >= 0; l = s->g[l].parent) {
			f->lacpu[(size_t)t->cpu * ng + l] += f->la[ti];
			f->latot[l] += f->la[ti];
		}
	}
	for (unsigned int c = 0; c < s->cfg.ncpus; c++)
		cpu_rates(s, c, now);
}

/* bw_cpu_progress_run() by the rates */
void bw_fair_progress(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	const struct bw_fair *f = s->fair;
	struct bw_cpu *c = &s->cpu[cpu];
	uint64_t dt = now - c->last;

	c->last = now;
	for (int i = 0; i < c->nrun; i++) {
		int ti = c->run[i];
		uint64_t d = (uint64_t)(((unsigned __int128)dt * f->rate[ti]) >> 32);
		uint64_t *left = &s->left[ti];

		if (*left != UINT64_MAX)
			*left -= MIN(d, *left);
		for (int l = s->t[ti].group; l >= 0; l = s->g[l].parent) {
			s->g[l].rq[cpu].pending += d;
			s->g[l].usage += d;
			s->g[l].wait += dt - d;
		}
	}
	c->pending_any = true;
}

static uint64_t wall_at(uint64_t work, uint64_t rate)
{
	unsigned __int128 w = ((unsigned __int128)work << 32) + rate - 1;

	w /= rate ? rate : 1;
	return w > UINT64_MAX / 2 ? UINT64_MAX / 2 : (uint64_t)w;
}

/* Returns: the wall time in which @g's subtree on @cpu runs @work. */
uint64_t bw_fair_group_wall(const struct cgctl_bw_sim *s, int cpu, int g, uint64_t work)
{
	return wall_at(work, s->fair->grate[(size_t)cpu * s->ngroups + g]);
}

/* Returns: when the first runnable thread of @cpu ends its busy phase, or a placed
 * sleeper's credit ends (an event that changes the shares); BW_NO_TIME: neither. */
uint64_t bw_fair_next(const struct cgctl_bw_sim *s, int cpu)
{
	const struct bw_fair *f = s->fair;
	const struct bw_cpu *c = &s->cpu[cpu];
	uint64_t best = f->credit_g[cpu] >= 0 && f->credit_until[cpu] ?
			f->credit_until[cpu] : BW_NO_TIME;

	if (f->hold_g[cpu] >= 0)
		best = MIN(best, f->hold_until[cpu]);

	for (int i = 0; i < c->nrun; i++) {
		uint64_t left = s->left[c->run[i]];

		if (left != UINT64_MAX)
			best = MIN(best, c->last + wall_at(left, f->rate[c->run[i]]));
	}
	return best;
}
