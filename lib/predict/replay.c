/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one set-up of the bandwidth simulation (lib/engine/bandwidth-sim.c): the limited
 * levels from the top down, the demand, the prior state and the neighbours, run once.
 * `cgctl move`'s throttling (move-throttle*.c), `bw predict`, `bw recommend`
 * (recommend.c) and validate's bandwidth driver (lib/validate/drv-bw.c) each describe
 * what to replay and call cgctl_bw_replay(); none builds a simulator of its own, so the
 * same demand under the same settings gives the same cpu.stat through every door, and
 * the threads are placed by the model's own rule (bw_pick_cpu()) for everyone.  Only a
 * caller that observed where a kernel ran them may say so (spec->place): validate does,
 * to tell the wait that placement caused from other load's, never for its verdict.
 *
 * A recording replayed over a longer run repeats back to back: each thread's copy
 * starts once its previous copy is done, as the recorded thread goes on doing the same
 * work.  (Copies started every recording length whatever the throttling stretched
 * them to overlapped: one busy thread under 0.2 CPU became five runnable ones and
 * `move` predicted 120 ms throttled per period where the kernel reports 73-78 ms.)
 */
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

#define MS 1000000ULL
#define MAX_LOOPS 200

static void trace_free(struct cgctl_bw_trace *t)
{
	for (unsigned int i = 0; t && i < t->nthr; i++) {
		free(t->thr[i].busy);
		free(t->thr[i].idle);
	}
	if (t)
		free(t->thr);
}

/* One thread of @src, @loops times back to back, each copy padded to @len of wall time
 * (the recording's length: a thread that ended idle stays idle to its end). */
static int loop_thread(const struct bw_trace_thread *src, uint64_t len, uint64_t loops,
		       struct bw_trace_thread *dst)
{
	uint64_t span = 0;
	size_t n = src->n;

	memset(dst, 0, sizeof(*dst));
	if (!n)
		return 0;
	for (size_t k = 0; k < n; k++)
		span += src->busy[k] + src->idle[k];
	dst->busy = calloc(n * loops, sizeof(*dst->busy));
	dst->idle = calloc(n * loops, sizeof(*dst->idle));
	if (!dst->busy || !dst->idle)
		return -ENOMEM;
	for (uint64_t l = 0; l < loops; l++) {
		memcpy(dst->busy + l * n, src->busy, n * sizeof(*src->busy));
		memcpy(dst->idle + l * n, src->idle, n * sizeof(*src->idle));
		if (span < len)
			dst->idle[l * n + n - 1] += len - span;
	}
	dst->n = dst->cap = n * loops;
	return 0;
}

/* @t repeated to fill @run_ns, copies of @len each: the trace the run replays. */
static int trace_loop(const struct cgctl_bw_trace *t, uint64_t len, uint64_t run_ns,
		      struct cgctl_bw_trace *out)
{
	uint64_t loops = MIN((run_ns + len - 1) / len, (uint64_t)MAX_LOOPS);
	int r = 0;

	*out = *t;
	out->thr = calloc(t->nthr ? t->nthr : 1, sizeof(*out->thr));
	if (!out->thr)
		return -ENOMEM;
	for (unsigned int i = 0; i < t->nthr && r >= 0; i++)
		r = loop_thread(&t->thr[i], len, MAX(loops, 1), &out->thr[i]);
	return r;
}

static uint64_t default_duration(const struct cgctl_bw_replay_spec *sp)
{
	struct cgctl_bw_trace_info ti = { .size = sizeof(ti) };

	if (sp->trace && !sp->trace_loop_ns && cgctl_bw_trace_info(sp->trace, &ti) == 0)
		return 2 * ti.span_ns + 1000 * MS;	/* room for its throttled delays */
	return 10000 * MS;
}

static int check_spec(const struct cgctl_bw_replay_spec *sp,
		      const struct cgctl_bw_replay_result *ret, struct cgctl_error *e)
{
	if (!sp || !ret || sp->size < sizeof(*sp) || ret->size < sizeof(*ret))
		return cgctl_error_set(e, EINVAL, "replay: bad arguments");
	if (!sp->levels || !sp->nlevels || sp->nlevels > CGCTL_BW_REPLAY_LEVELS)
		return cgctl_error_set(e, EINVAL, "replay: %u limited levels", sp->nlevels);
	/* the library indexes the levels with its own size: another one is refused */
	for (unsigned int i = 0; i < sp->nlevels; i++)
		if (sp->levels[i].size != sizeof(sp->levels[i]))
			return cgctl_error_set(e, EINVAL, "replay: level %u: settings of size "
					       "%zu, not %zu", i, sp->levels[i].size,
					       sizeof(sp->levels[i]));
	if (sp->rewrite && sp->rewrite->size < sizeof(*sp->rewrite))
		return cgctl_error_set(e, EINVAL, "replay: rewrite settings of size %zu",
				       sp->rewrite->size);
	if (!!(sp->trace || sp->threads) + !!sp->nlist != 1 || (sp->nlist && !sp->list))
		return cgctl_error_set(e, EINVAL, "replay: one of a trace, a number of "
				       "threads, a list of threads");
	if (sp->nplace && !sp->place)
		return cgctl_error_set(e, EINVAL, "replay: %zu placements, none given",
				       sp->nplace);
	if (sp->trace_loop_ns && !sp->trace)
		return cgctl_error_set(e, EINVAL, "replay: a loop of no trace");
	return 0;
}

/* The neighbours: an unlimited sibling below the group's parent, both weighted. */
static int add_background(struct cgctl_bw_sim *sim, const struct cgctl_bw_replay_spec *sp,
			  int parent, int group)
{
	struct cgctl_bw_settings inf =
		CGCTL_BW_SETTINGS_INIT(CGCTL_BW_INF, sp->levels[sp->nlevels - 1].period_us, 0);
	struct cgctl_bw_thread t = { 0 };
	int r = 0;

	if (sp->shares)
		r = cgctl_bw_sim_set_weight(sim, group, sp->shares);
	if (r >= 0 && sp->bg_threads)
		r = t.group = cgctl_bw_sim_add_group(sim, parent, &inf);
	if (r >= 0 && sp->bg_threads && sp->bg_shares)
		r = cgctl_bw_sim_set_weight(sim, t.group, sp->bg_shares);
	for (unsigned int i = 0; i < sp->bg_threads && r >= 0; i++)
		r = cgctl_bw_sim_add_thread(sim, &t);
	return r < 0 ? r : 0;
}

static int add_demand(struct cgctl_bw_sim *sim, const struct cgctl_bw_replay_spec *sp,
		      const struct cgctl_bw_trace *tr, int group)
{
	int r = 0;

	if (tr && sp->threads) {	/* threads i replays the trace's thread i mod n */
		for (unsigned int i = 0; i < sp->threads && r >= 0; i++) {
			struct cgctl_bw_thread th = { .group = group, .busy_ns = sp->busy_ns,
						      .idle_ns = sp->idle_ns,
						      .jitter_ppm = sp->jitter_ppm, .trace = tr,
						      .trace_thread = tr->nthr ? i % tr->nthr : 0,
						      .account_ns = sp->account_ns };

			r = cgctl_bw_sim_add_thread(sim, &th);
		}
		return r;
	}
	if (tr) {
		for (unsigned int i = 0; i < tr->nthr && r >= 0; i++) {
			struct cgctl_bw_thread th = { .group = group, .trace = tr,
						      .trace_thread = i,
						      .account_ns = sp->account_ns };

			if (tr->thr[i].n)
				r = cgctl_bw_sim_add_thread(sim, &th);
		}
		return r;
	}
	for (unsigned int i = 0; i < sp->nlist && r >= 0; i++) {
		struct cgctl_bw_thread th = sp->list[i];

		th.group = group;
		r = cgctl_bw_sim_add_thread(sim, &th);
	}
	for (unsigned int i = 0; i < sp->threads && r >= 0; i++) {
		struct cgctl_bw_thread th = { .group = group, .busy_ns = sp->busy_ns,
					      .idle_ns = sp->idle_ns,
					      .jitter_ppm = sp->jitter_ppm,
					      .account_ns = sp->account_ns };

		r = cgctl_bw_sim_add_thread(sim, &th);
	}
	return r;
}

/* The levels from the top down, their prior state; *group is the last one's index. */
static int add_levels(struct cgctl_bw_sim *sim, const struct cgctl_bw_replay_spec *sp,
		      int *gidx)
{
	int g = -1, r = 0;

	for (unsigned int i = 0; i < sp->nlevels && r >= 0; i++) {
		r = g = cgctl_bw_sim_add_group(sim, g, &sp->levels[i]);
		if (r >= 0 && sp->silos && sp->silos[i])
			r = cgctl_bw_sim_set_silos(sim, g, sp->silos[i], sp->ncpus ? sp->ncpus : 1);
		gidx[i] = g;
	}
	return r < 0 ? r : 0;
}

static int results(struct cgctl_bw_sim *sim, const struct cgctl_bw_replay_spec *sp,
		   const int *gidx, struct cgctl_bw_replay_result *ret)
{
	int g = gidx[sp->nlevels - 1], r;
	const struct cgctl_bw_period *pd;
	ssize_t n;

	ret->parent_settled.size = sizeof(ret->parent_settled);	/* nlevels 1: zero */
	r = cgctl_bw_sim_stat(sim, g, false, &ret->st);
	if (r >= 0)
		r = cgctl_bw_sim_stat(sim, g, true, &ret->settled);
	if (r >= 0 && sp->nlevels > 1)
		r = cgctl_bw_sim_stat(sim, gidx[sp->nlevels - 2], true, &ret->parent_settled);
	for (unsigned int i = 0; r >= 0 && sp->silos_out && i < sp->nlevels; i++)
		if (sp->silos_out[i])
			r = cgctl_bw_sim_silos(sim, gidx[i], sp->silos_out[i],
					       sp->ncpus ? sp->ncpus : 1);
	if (r < 0 || !sp->record_periods)
		return r;
	n = cgctl_bw_sim_periods(sim, g, &pd);
	if (n < 0)
		return (int)n;
	ret->periods = n ? malloc((size_t)n * sizeof(*pd)) : NULL;
	if (n && !ret->periods)
		return -ENOMEM;
	if (n)
		memcpy(ret->periods, pd, (size_t)n * sizeof(*pd));
	ret->nperiods = (size_t)n;
	for (ssize_t i = 0; i < n; i++)
		ret->worst_period_ns = MAX(ret->worst_period_ns, pd[i].throttled_ns);
	return 0;
}

CGCTL_EXPORT int cgctl_bw_replay(const struct cgctl_bw_replay_spec *sp,
				 struct cgctl_bw_replay_result *ret, struct cgctl_error *e)
{
	struct cgctl_bw_sim_config cfg;
	struct cgctl_bw_trace looped = { 0 };
	const struct cgctl_bw_trace *tr;
	struct cgctl_bw_sim *sim = NULL;
	int gidx[CGCTL_BW_REPLAY_LEVELS], r = check_spec(sp, ret, e);
	size_t size;

	if (r < 0)
		return r;
	size = ret->size;
	memset(ret, 0, size);
	ret->size = size;
	cfg = (struct cgctl_bw_sim_config){
		.kver = sp->kver ? sp->kver : CGCTL_KVER_NEWEST, .ncpus = sp->ncpus,
		.hz = sp->hz, .slice_ns = sp->slice_ns, .seed = sp->seed ? sp->seed : 1,
		.duration_ns = sp->duration_ns ? sp->duration_ns : default_duration(sp),
		.settle_ns = sp->settle_ns ? sp->settle_ns :
			     4 * sp->levels[sp->nlevels - 1].period_us * 1000 + 500 * MS,
		.other_load_ppm = sp->other_load_ppm, .record_periods = sp->record_periods,
	};
	tr = sp->trace;
	if (sp->trace_loop_ns) {
		r = trace_loop(sp->trace, sp->trace_loop_ns, cfg.duration_ns, &looped);
		tr = &looped;
	}
	if (r >= 0)
		r = cgctl_bw_sim_new(&sim, &cfg);
	if (r >= 0)
		r = add_levels(sim, sp, gidx);
	if (r >= 0 && (sp->shares || sp->bg_threads))
		r = add_background(sim, sp, sp->nlevels > 1 ? gidx[sp->nlevels - 2] : -1,
				   gidx[sp->nlevels - 1]);
	if (r >= 0 && sp->rewrite)
		r = cgctl_bw_sim_write(sim, gidx[sp->nlevels - 1], sp->rewrite_at_ns,
				       sp->rewrite);
	if (r >= 0)
		r = add_demand(sim, sp, tr, gidx[sp->nlevels - 1]);
	for (size_t i = 0; i < sp->nplace && r >= 0; i++)
		r = cgctl_bw_sim_place(sim, (int)sp->place[i].thread, sp->place[i].at_ns,
				       (int)sp->place[i].cpu);
	if (r >= 0)
		r = (int)MIN(cgctl_bw_sim_run(sim), 0);
	if (r >= 0)
		r = results(sim, sp, gidx, ret);
	cgctl_bw_sim_free(sim);
	if (tr == &looped)
		trace_free(&looped);
	if (r < 0) {
		cgctl_bw_replay_result_free(ret);
		return cgctl_error_set(e, -r, "replay: %s", r == -EINVAL ?
				       "these settings cannot be simulated (the kernel would "
				       "refuse them)" : strerror(-r));
	}
	return 0;
}

CGCTL_EXPORT void cgctl_bw_replay_result_free(struct cgctl_bw_replay_result *ret)
{
	if (!ret)
		return;
	free(ret->periods);
	ret->periods = NULL;
	ret->nperiods = 0;
}
