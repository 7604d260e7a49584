/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: internal state shared by the bandwidth*.c files.
 *
 * Pinned to kernel/sched/fair.c and kernel/sched/core.c of v6.12 with the eras a
 * simulation takes as a parameter (kver):
 *   < 5.4      local silos expire at every refill (expire_cfs_rq_runtime())
 *   < 6.4      period timers of all groups expire on the same grid (k * period);
 *              from 6.4 each group gets a random offset in [0, 100 ms) at creation
 *              (41abdba93747 "sched: Interleave cfs bandwidth timers ...", queued
 *              in March 2023, after 6.3-rc1)
 *   5.4-5.13   no expiration, no burst
 *   5.14-5.15  burst, without nr_bursts/burst_time
 *   6.6-6.17   empty groups do not accrue throttled time; cpu.stat.local exists
 *   6.18+      task-based throttle; silo reset to 1 ns on writes; unthrottle needs
 *              runtime_remaining > 0
 *
 * Scheduler model (the part that is not the kernel's; with group weights given, the
 * sharing below is bandwidth-fair.c's CFS weights instead): a busy thread is placed when it
 * wakes (its previous CPU if that is idle to the kernel, no busy thread or only threads
 * parked by throttling, else such a CPU, else the least loaded CPU, lowest index first:
 * bw_pick_cpu()) and stays there until it sleeps; or, when the caller tells the placement
 * the kernel chose (cgctl_bw_sim_place(), bandwidth-place.c), on the CPU told for that
 * time, migrating at the times told.  Runnable threads on one CPU share it
 * equally (processor sharing, the fluid limit of CFS round-robin); a CPU's group
 * runqueues are charged at every tick (HZ grid, aligned on all CPUs) and at every
 * enqueue/dequeue on that CPU, as update_curr() is.  Kernel-mode work of throttled tasks
 * (6.18) and IPI latency of remote unthrottles are taken as zero.  Each group's
 * run_delay (schedstat) is predicted as the kernel counts it: per thread, waiting for a
 * CPU and parked by throttling alike (bw_cpu_parked()).
 */
#ifndef CGCTL_ENGINE_BANDWIDTH_H
#define CGCTL_ENGINE_BANDWIDTH_H

#include <stdbool.h>
#include <stdint.h>

#include "util/num.h"
#include <sys/types.h>

#include "libcgctl.h"

#define BW_RUNTIME_INF UINT64_MAX
#define BW_MIN_RQ_RUNTIME 1000000ULL	/* min_cfs_rq_runtime */
#define BW_MIN_EXPIRATION 2000000ULL	/* min_bandwidth_expiration */
#define BW_SLACK_PERIOD 5000000ULL	/* cfs_bandwidth_slack_period */
#define BW_MAX_PERIOD_NS 1000000000ULL	/* max_cfs_quota_period */
#define BW_DEFAULT_PERIOD_NS 100000000ULL	/* default_cfs_period() */
#define BW_NO_TIME UINT64_MAX
#define BW_CAP_ONE 1000000u		/* full CPU capacity, in ppm */

/* Kernel eras: the table in bandwidth-era.c answers, these name its questions. */
#define BW_ERA_EXPIRE(k) cgctl_bw_era_has(k, CGCTL_BW_FEAT_EXPIRE)
#define BW_ERA_BURST_STATS(k) cgctl_bw_era_has(k, CGCTL_BW_FEAT_BURST_STATS)
#define BW_ERA_RANDOM_PHASE(k) cgctl_bw_era_has(k, CGCTL_BW_FEAT_RANDOM_PHASE)
#define BW_ERA_EMPTY_RULE(k) cgctl_bw_era_has(k, CGCTL_BW_FEAT_EMPTY_RULE)
#define BW_ERA_LOCAL_STAT(k) cgctl_bw_era_has(k, CGCTL_BW_FEAT_LOCAL_STAT)
#define BW_ERA_TASK_THROTTLE(k) cgctl_bw_era_has(k, CGCTL_BW_FEAT_TASK_THROTTLE)
/* The same question of the simulation's own era, answered once at cgctl_bw_sim_new()
 * (s->era: bit f set when the era has feature f): the hot paths ask it per event, and
 * cgctl_bw_era_has() is an exported call through the PLT (issue 30's callgrind of the
 * bursty hour: 4.6% of the instructions in it and its calls). */
#define BW_SIM_HAS(s, f) (((s)->era >> CGCTL_BW_FEAT_##f) & 1)

/* Per (group, CPU): struct cfs_rq's bandwidth part. */
struct bw_rq {
	int64_t remaining;		/* runtime_remaining; negative = debt */
	uint64_t pending;		/* run time not yet charged (no update_curr yet) */
	uint32_t throttle_count;	/* throttled levels at or above, on this CPU */
	uint32_t nr_busy;		/* busy threads of the subtree placed on this CPU */
	bool enabled;			/* runtime_enabled */
	bool throttled;
	bool resched;			/* a refill failed; throttle at put_prev */
	uint64_t throttled_clock;	/* BW_NO_TIME = not counting */
	uint64_t clock_self;
	uint64_t self_time;
	uint64_t expires;		/* < 5.4: runtime_expires */
	uint64_t expires_seq;
	int prev, next;			/* links in the pool's throttled list (CPU numbers) */
};

/* Per group: struct cfs_bandwidth plus statistics. */
struct bw_pool {
	uint64_t period, quota, burst;	/* ns; quota BW_RUNTIME_INF = unlimited */
	uint64_t runtime, runtime_snap;
	bool idle, period_active, slack_started;
	uint64_t anchor;		/* a past (or the first) timer expiry: the phase */
	uint64_t expiry;		/* next period timer expiry while active */
	int thr_head, thr_tail;		/* throttled_cfs_rq FIFO */
	uint32_t nr_periods, nr_throttled, nr_burst;
	uint64_t throttled_time, burst_time;
	uint64_t expires, expires_seq;	/* < 5.4 */
};

struct bw_group {
	int parent;
	uint32_t shares;		/* cpu.shares; 0: none given (1024) */
	struct bw_pool pool;
	struct bw_rq *rq;		/* [ncpus] */
	int *desc;			/* subtree incl. self, pre-order */
	int ndesc;
	uint64_t usage;
	uint64_t wait;			/* Σ threads: runnable, not throttled, not running */
	uint64_t parked;		/* Σ threads: runnable in a throttled hierarchy */
	uint32_t nr_counting;		/* rqs with throttled_clock running */
	uint64_t thr_integral, thr_integral_at;
	struct cgctl_bw_stat run_stat;
	struct cgctl_bw_period *periods;
	size_t nperiods, periods_cap;
	uint64_t rec_usage, rec_thr;
	uint32_t rec_np, rec_nt;
	int64_t *prior;			/* [ncpus] silos at time 0; NULL: a write's reset */
};

enum bw_tstate { BW_T_WAIT, BW_T_BUSY, BW_T_IDLE, BW_T_DONE };

struct bw_trace_thread {
	uint64_t *busy, *idle;		/* pairs; idle may be 0 */
	size_t n, cap;
	uint64_t wait_ns;		/* runnable, held by the limit (lib/predict/record-trace.c) */
	uint64_t ready_ns;		/* runnable, others held the CPU (replayed as idle) */
};

/* Parsed by lib/predict/record-trace.c (format v1 with metadata, or v0 busy/idle). */
struct cgctl_bw_trace {
	struct bw_trace_thread *thr;
	unsigned int nthr;
	unsigned int version, ncpus;	/* ncpus 0: not stated */
	uint64_t lost, duration_ns;	/* records lost while recording; stated length */
};

/* Division by an invariant by multiplication (libdivide's unsigned 64-bit scheme). */
struct bw_divu64 {
	uint64_t magic;			/* 0: a power of 2, shift only */
	unsigned int shift;
	bool add;			/* the 65-bit multiplier: add-and-halve step */
};

/* What a wake-up or sleep reads, in one cache line (64 bytes, the array aligned on
 * them; the busy phase's progress is s->left, the rest of the thread's spec s->spec). */
struct bw_thread {
	uint64_t busy_ns, idle_ns;	/* spec's */
	const struct bw_trace_thread *tr;	/* spec's trace thread, NULL: none */
	size_t trace_pos;
	struct bw_divu64 jdiv;		/* 2 * ppm + 1, for bw_jitter() */
	uint32_t ppm;			/* spec's jitter_ppm, at most BW_CAP_ONE */
	int group;			/* spec's */
	int cpu;			/* placed CPU while busy, last CPU otherwise */
	enum bw_tstate state;
};

struct bw_cpu {
	uint64_t last;			/* progress computed up to here */
	uint64_t charged_at;		/* last update_curr (tick or sched event) */
	int *busy;			/* busy threads placed here */
	int nbusy;
	int *run;			/* runnable subset (not in a throttled hierarchy) */
	int nrun;
	int nfinite;			/* runnable threads with a finite busy phase */
	bool pending_any;		/* some level may have pending run time */
	bool resched_any;		/* some level may have resched set */
	bool dirty;			/* replan after this event */
	bool rebuild;			/* ... recomputing the runnable set first */
	uint64_t acct;			/* charge interval of its runnable threads, 0: tick */
	int *grp;			/* groups with runnable threads, deepest first */
	uint32_t *gcnt;			/* runnable threads per group in grp (subtree) */
	int ngrp;
};

struct bw_write_ev {
	uint64_t at;
	int group;
	struct cgctl_bw_settings bw;
};

/* the misc event slots, from slot_misc on */
enum { MISC_WRITE, MISC_END, MISC_SETTLE, MISC_PLACE, MISC_NR };

/* cgctl_bw_sim_place(): from @at, thread @thread is on @cpu (bandwidth-place.c) */
struct bw_place_ev {
	uint64_t at;
	int thread, cpu;
};

/* (time - base, clamped) << 32 | slot: one comparison orders by time, then slot */
typedef uint64_t bw_heap_ent;

struct bw_heap {
	int *pos;			/* per slot, -1 = not queued */
	uint64_t *key;			/* per slot: its time while queued */
	bw_heap_ent *h;			/* n entries, then sentinels */
	bw_heap_ent *mem;		/* h's allocation */
	int n;
	bool hole;			/* h[0] is a removed root (counted in n) */
	uint64_t base;			/* at or below every queued time */
};

#define BW_HEAP_LIM 0xffffffffULL	/* the largest time - base an entry holds */

#define BW_CAL_SHIFT 13			/* calendar bucket: 8.2 us */
#define BW_CAL_NB 4096			/* calendar window: 33.6 ms */

/* Wake-up times of sleeping threads (bandwidth-heap.c), entries 0..n-1 = slots base.. */
struct bw_cal {
	uint64_t *key;			/* per entry; BW_NO_TIME = not queued here */
	int *next, *prev;		/* bucket lists */
	int head[BW_CAL_NB];
	uint64_t bits[BW_CAL_NB / 64];	/* non-empty buckets */
	uint64_t lo;			/* the window's first bucket (the clock's) */
	int base, n;
	int min;			/* the least entry, -1 = not known */
};

struct cgctl_bw_sim {
	struct cgctl_bw_sim_config cfg;
	uint64_t tick;
	uint32_t era;			/* BW_SIM_HAS(): cgctl_bw_era_has() of cfg.kver */
	uint64_t tick_mul;		/* bw_tick_div(): 0 = divide */
	unsigned int tick_shift;
	uint64_t rng;
	uint64_t boot_ns;		/* CLOCK_MONOTONIC at time 0 (< 6.4 timer grid) */
	int ngroups, gcap;
	struct bw_group *g;
	int nthreads, tcap;
	struct cgctl_bw_thread *spec;	/* the threads as added */
	bool any_acct;			/* some thread has an account_ns */
	struct bw_thread *t;		/* their run state (bw_sim_setup()) */
	uint64_t *left;			/* per thread: CPU time left in the busy phase (apart
					 * from the threads: the hot loops read only these) */
	int *bidx;			/* per busy thread: its index in its CPU's busy[] */
	struct bw_cpu *cpu;
	struct bw_write_ev *w;
	int nw, wcap, wnext;
	struct bw_place_ev *pl;		/* placements told, by time */
	int npl, plcap, plnext;
	int *home;			/* per thread: its told CPU, -1: none */
	struct bw_heap heap;
	struct bw_cal cal;		/* thread slots due within its window */
	int slot_thread, slot_group, slot_misc;
	bool ran, ended;
	uint64_t now;
	int64_t events;
	uint64_t *lmap;			/* [nlev][lwords]: CPUs by busy threads */
	uint64_t *lsum;			/* [nlev]: non-zero words of each level */
	int lwords, nlev, lmin;		/* lmin: the lowest level with a CPU */
	uint64_t *pmap;			/* [lwords], one group only: CPUs with busy
					 * threads, all parked (bw_parked_sync()) */
	int *dirty;			/* CPUs to replan after this event */
	int ndirty;
	int one;			/* 1 + the only CPU to replan, 0: none */
	struct bw_fair *fair;		/* CFS weights (bandwidth-fair.c); NULL: off */
};

/* bandwidth-pool.c: the kernel's pool and silo functions */
bool bw_grab(struct cgctl_bw_sim *s, int g, int cpu, uint64_t target, uint64_t now);
void bw_charge(struct cgctl_bw_sim *s, int g, int cpu, uint64_t delta, uint64_t now);
bool bw_throttle(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now);
void bw_unthrottle(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now);
void bw_ensure_timer(struct cgctl_bw_sim *s, int g, uint64_t now);
void bw_refill(struct cgctl_bw_sim *s, int g, uint64_t now);
void bw_return_slack(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now);
void bw_period_timer(struct cgctl_bw_sim *s, int g, uint64_t now);
void bw_slack_timer(struct cgctl_bw_sim *s, int g, uint64_t now);
void bw_set_bandwidth(struct cgctl_bw_sim *s, int g, const struct cgctl_bw_settings *bw,
		      uint64_t now);
void bw_enqueue_check(struct cgctl_bw_sim *s, int g, int cpu, uint64_t now);
void bw_thr_integrate(struct bw_group *grp, uint64_t now);

/* bandwidth-sim.c: the scheduler side, called back by the pool functions */
void bw_cpu_progress_run(struct cgctl_bw_sim *s, int cpu, uint64_t now);
void bw_cpu_parked(struct cgctl_bw_sim *s, int cpu, uint64_t dt);
void bw_cpu_changed(struct cgctl_bw_sim *s, int cpu, uint64_t now);
void bw_return_idle_slack(struct cgctl_bw_sim *s, int from, int cpu, uint64_t now);
int bw_load_init(struct cgctl_bw_sim *s);
/*
 * With one group, keep @cpu's bit in s->pmap: set when it has busy threads and its
 * runqueue is throttled (they are all parked: idle to the kernel's wake-up path, see
 * bw_pick_cpu()), so a wake-up finds the lowest such CPU in a word instead of scanning
 * every CPU.  Called wherever nbusy (load_move()) or throttle_count changes.
 */
static inline void bw_parked_sync(struct cgctl_bw_sim *s, int cpu)
{
	unsigned int u = (unsigned int)cpu;
	uint64_t bit = 1ULL << (u % 64);

	if (s->ngroups != 1)
		return;
	if (s->cpu[u].nbusy && s->g[0].rq[u].throttle_count)
		s->pmap[u / 64] |= bit;
	else
		s->pmap[u / 64] &= ~bit;
}
int bw_load_pick(const struct cgctl_bw_sim *s);
int bw_pick_cpu(const struct cgctl_bw_sim *s, int ti);
void bw_load_move(struct cgctl_bw_sim *s, int cpu, int from, int to);
void bw_tick_div_init(struct cgctl_bw_sim *s);
void bw_thread_queue(struct cgctl_bw_sim *s, int ti, uint64_t at);
void bw_thread_unqueue(struct cgctl_bw_sim *s, int ti);
int bw_next_event(struct cgctl_bw_sim *s, uint64_t *now);

/* bandwidth-fair.c: competition by CFS weights */
int bw_fair_init(struct cgctl_bw_sim *s);
void bw_fair_free(struct cgctl_bw_sim *s);
void bw_fair_wake(struct cgctl_bw_sim *s, int ti, int cpu, uint64_t now);
void bw_fair_sleep(struct cgctl_bw_sim *s, int ti, uint64_t now);
void bw_fair_compute(struct cgctl_bw_sim *s, uint64_t now);
void bw_fair_progress(struct cgctl_bw_sim *s, int cpu, uint64_t now);
uint64_t bw_fair_group_wall(const struct cgctl_bw_sim *s, int cpu, int g, uint64_t work);
uint64_t bw_fair_next(const struct cgctl_bw_sim *s, int cpu);

/* bandwidth-place.c: the placement the kernel chose, when the caller tells it */
int bw_place_setup(struct cgctl_bw_sim *s);
void bw_place_next(struct cgctl_bw_sim *s, uint64_t now);
void bw_thread_migrate(struct cgctl_bw_sim *s, int ti, int cpu, uint64_t now);

/* bandwidth-api.c */
void bw_stat_now(const struct cgctl_bw_sim *s, int g, struct cgctl_bw_stat *st);
int bw_sim_loop(struct cgctl_bw_sim *s);
int bw_sim_setup(struct cgctl_bw_sim *s);

/* bandwidth-heap.c: indexed binary heap of event slots */
int bw_heap_init(struct bw_heap *hp, int nslots);
void bw_heap_free(struct bw_heap *hp);
void bw_heap_set(struct bw_heap *hp, int slot, uint64_t key);
void bw_heap_del(struct bw_heap *hp, int slot);
void bw_heap_fill(struct bw_heap *hp);
void bw_heap_rebase(struct bw_heap *hp);
uint64_t bw_heap_key(const struct bw_heap *hp, int slot);

/* bandwidth-heap.c: calendar queue of thread wake-ups */
int bw_cal_init(struct bw_cal *c, int base, int n);
void bw_cal_free(struct bw_cal *c);

/* bandwidth-workload.c */
uint64_t bw_jitter(uint64_t *state, uint64_t v, uint32_t ppm);
void bw_divu64_init(struct bw_divu64 *d, uint64_t div);
void bw_thread_jitter_init(struct bw_thread *t);

/*
 * @x / tick by a multiplication (Granlund and Montgomery, "Division by invariant
 * integers using multiplication", 1994, theorem 4.2 with N = 63): exact for x < 2^63,
 * which covers every time of a run (durations are below 2^62); larger ones divide.
 */
static inline uint64_t bw_tick_div(const struct cgctl_bw_sim *s, uint64_t x)
{
	if ((x >> 63) || !s->tick_mul)
		return x / s->tick;
	return (uint64_t)(((unsigned __int128)x * s->tick_mul) >> s->tick_shift);
}

/* Advance the threads runnable on @cpu to @now; their run time becomes pending charge. */
static inline void bw_cpu_progress(struct cgctl_bw_sim *s, int cpu, uint64_t now)
{
	struct bw_cpu *c = &s->cpu[cpu];

	if (c->nbusy != c->nrun && now > c->last)	/* some threads are parked */
		bw_cpu_parked(s, cpu, now - c->last);
	if (!c->nrun || now == c->last) {	/* (an idle CPU: the usual wake-up) */
		c->last = now;
	} else if (c->nrun == 1 && c->ngrp == 1 && !s->cfg.other_load_ppm) {
		/* bw_cpu_progress_run() of one thread of one group on a whole CPU */
		uint64_t dt = now - c->last, *left = &s->left[c->run[0]];
		struct bw_group *g = &s->g[c->grp[0]];

		c->last = now;
		if (*left != UINT64_MAX)
			*left -= dt < *left ? dt : *left;
		g->rq[cpu].pending += dt * c->gcnt[0];
		g->usage += dt * c->gcnt[0];
		c->pending_any = true;
	} else {
		bw_cpu_progress_run(s, cpu, now);
	}
}

/* @x / the divisor of @d (exact for every @x) */
static inline uint64_t bw_divu64(const struct bw_divu64 *d, uint64_t x)
{
	uint64_t q;

	if (!d->magic)
		return x >> d->shift;
	q = (uint64_t)(((unsigned __int128)x * d->magic) >> 64);
	if (d->add)
		return (((x - q) >> 1) + q) >> d->shift;
	return q >> d->shift;
}

/* bandwidth-workload.c's per-phase part, inline on the event loop's path */

/* phases and jitter */
static inline uint64_t bw_rand(uint64_t *state)
{
	return cgctl_splitmix64(state);
}

static inline uint64_t bw_jitter_scale(uint64_t v, int64_t r)
{
	if (v < (1ULL << 43))	/* the product fits: no __udivti3() */
		return v * (uint64_t)(BW_CAP_ONE + r) / BW_CAP_ONE;
	return (uint64_t)((unsigned __int128)v * (uint64_t)(BW_CAP_ONE + r) / BW_CAP_ONE);
}

/* bw_jitter() with the thread's divider instead of a division. */
static inline uint64_t bw_thread_jitter(struct cgctl_bw_sim *s, const struct bw_thread *t,
					uint64_t v)
{
	uint32_t ppm = t->ppm;
	uint64_t x;

	if (!ppm || !v)
		return v;
	x = bw_rand(&s->rng);
	x -= bw_divu64(&t->jdiv, x) * (2 * (uint64_t)ppm + 1);
	return bw_jitter_scale(v, (int64_t)x - ppm);
}

/* Trace entries alternate busy, idle, busy, ...; index 0 may be a leading idle
 * (busy 0). */
static inline const struct bw_trace_thread *bw_trace_of(const struct bw_thread *t)
{
	return t->tr;
}

/* Returns: false when the thread has no more work (it exits). */
static inline bool bw_thread_next_busy(struct cgctl_bw_sim *s, struct bw_thread *t,
				       uint64_t *busy)
{
	const struct bw_trace_thread *tr = bw_trace_of(t);

	if (!tr) {
		*busy = t->busy_ns ? bw_thread_jitter(s, t, t->busy_ns) :
					  UINT64_MAX;
		if (!*busy)
			*busy = 1;
		return true;
	}
	if (t->trace_pos >= tr->n)
		return false;
	*busy = tr->busy[t->trace_pos] > 1 ? tr->busy[t->trace_pos] : 1;
	return true;
}

static inline bool bw_thread_next_idle(struct cgctl_bw_sim *s, struct bw_thread *t,
				       uint64_t *idle)
{
	const struct bw_trace_thread *tr = bw_trace_of(t);

	if (!tr) {
		*idle = bw_thread_jitter(s, t, t->idle_ns);
		return true;
	}
	*idle = tr->idle[t->trace_pos++];
	return t->trace_pos < tr->n;
}

static inline int bw_slot_period(const struct cgctl_bw_sim *s, int g)
{
	return s->slot_group + 3 * g;
}

static inline int bw_slot_slack(const struct cgctl_bw_sim *s, int g)
{
	return s->slot_group + 3 * g + 1;
}

static inline int bw_slot_record(const struct cgctl_bw_sim *s, int g)
{
	return s->slot_group + 3 * g + 2;
}

/* Returns: the earliest slot of the heap (its time in *key), or -1 when empty (*key
 * BW_NO_TIME). */
static inline int bw_heap_top(struct bw_heap *hp, uint64_t *key)
{
	if (hp->hole)
		bw_heap_fill(hp);
	if (!hp->n) {
		*key = BW_NO_TIME;
		return -1;
	}
	if (hp->h[0] >> 32 == BW_HEAP_LIM)	/* every time is past base + lim */
		bw_heap_rebase(hp);
	*key = (hp->h[0] >> 32) + hp->base;
	return (int)(uint32_t)hp->h[0];
}

/* the calendar's operations, inline on the event loop's path */
static inline bool bw_cal_before(uint64_t ka, int a, uint64_t kb, int b)
{
	return ka < kb || (ka == kb && a < b);
}

/* Returns: true when @i is queued for @key, false when @key is past the window. */
static inline bool bw_cal_add(struct bw_cal *c, int i, uint64_t key)
{
	uint64_t b = key >> BW_CAL_SHIFT;
	int k;

	if (b < c->lo || b - c->lo >= BW_CAL_NB)
		return false;
	k = (int)(b & (BW_CAL_NB - 1));
	c->key[i] = key;
	c->prev[i] = -1;
	c->next[i] = c->head[k];
	if (c->head[k] >= 0)
		c->prev[c->head[k]] = i;
	c->head[k] = i;
	c->bits[k / 64] |= 1ULL << (k % 64);
	if (c->n++ == 0 || (c->min >= 0 && bw_cal_before(key, i, c->key[c->min], c->min)))
		c->min = i;
	return true;
}

static inline void bw_cal_del(struct bw_cal *c, int i)
{
	int k;

	if (c->key[i] == BW_NO_TIME)
		return;
	k = (int)((c->key[i] >> BW_CAL_SHIFT) & (BW_CAL_NB - 1));
	if (c->prev[i] >= 0)
		c->next[c->prev[i]] = c->next[i];
	else
		c->head[k] = c->next[i];
	if (c->next[i] >= 0)
		c->prev[c->next[i]] = c->prev[i];
	if (c->head[k] < 0)
		c->bits[k / 64] &= ~(1ULL << (k % 64));
	c->key[i] = BW_NO_TIME;
	c->n--;
	if (c->min == i)
		c->min = -1;
}

/* The first non-empty bucket from lo (there is one: n > 0). */
static inline int bw_cal_first(const struct bw_cal *c)
{
	int p = (int)(c->lo & (BW_CAL_NB - 1)), w = p / 64;
	uint64_t m = c->bits[w] & (~0ULL << (p % 64));

	for (int j = 0; !m && j < BW_CAL_NB / 64; j++) {
		w = (w + 1) % (BW_CAL_NB / 64);
		m = c->bits[w];
	}
	return w * 64 + __builtin_ctzll(m);
}

/* Returns: the entry with the least (time, base + entry), its time in *key; -1: empty. */
static inline int bw_cal_top(struct bw_cal *c, uint64_t *key)
{
	if (!c->n)
		return -1;
	if (c->min < 0) {
		int i = c->head[bw_cal_first(c)];

		c->min = i;
		for (i = c->next[i]; i >= 0; i = c->next[i])
			if (bw_cal_before(c->key[i], i, c->key[c->min], c->min))
				c->min = i;
	}
	*key = c->key[c->min];
	return c->min;
}

#endif
