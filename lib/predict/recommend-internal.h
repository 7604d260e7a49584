/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bw recommend inside the library: one recording's search (recommend.c) and the
 * answer over several recordings of one workload (recommend-runs.c). */
#ifndef CGCTL_PREDICT_RECOMMEND_INTERNAL_H
#define CGCTL_PREDICT_RECOMMEND_INTERNAL_H

#include "internal.h"

#define MIN_QUOTA_US 1000ULL
#define PCT_MARGIN 1.15			/* VPA's safety margin */

/* One recording under search. */
struct rec_search {
	const struct cgctl_bw_trace *t;
	const struct cgctl_bw_recommend_opts *o;
	struct cgctl_bw_trace_info info;
	unsigned int ncpus;
	double mean_use;	/* CPUs: busy time / the demand's own span */
	unsigned int peak;	/* most threads busy at once in the trace */
	unsigned int replays;	/* settings replayed (each at one or more phases) */
};

/* Replays added up: cpu.stat summed over @replays simulations, the worst period. */
struct rec_sum {
	struct cgctl_bw_stat st;
	uint64_t worst_ns;
	unsigned int replays;
};

uint32_t rec_budget_ppm(const struct cgctl_bw_recommend_opts *o);
/* @acc += @st, field by field. */
void rec_stat_add(struct cgctl_bw_stat *acc, const struct cgctl_bw_stat *st);
/* Returns: 0, -EINVAL (no busy time, bad budget or period list). */
int rec_search_init(struct rec_search *s, const struct cgctl_bw_trace *t,
		    const struct cgctl_bw_recommend_opts *o, struct cgctl_error *e);
/* Replay @bw at each phase of @s's trace: rec_replay_add() and rec_replay_finish().
 * Returns: 0, -ENOMEM, -errno of the simulator. */
int rec_replay(struct rec_search *s, const struct cgctl_bw_settings *bw,
	       struct cgctl_bw_replay *ret, struct cgctl_error *e);
/* Returns: 0, -ENOMEM, -errno of the simulator. */
int rec_replay_add(struct rec_search *s, const struct cgctl_bw_settings *bw,
		   struct rec_sum *sum, struct cgctl_error *e);
void rec_replay_finish(const struct rec_sum *sum, const struct cgctl_bw_settings *bw,
		       const struct cgctl_bw_recommend_opts *o, double mean_use,
		       struct cgctl_bw_replay *ret);
/* The smallest quota within budget on @s alone, for a period and a burst (fixed
 * @burst_us, else @burst_frac x quota).  Returns: 0 (*found false: none up to all
 * CPUs), -errno. */
int rec_bisect(struct rec_search *s, uint64_t period_us, double burst_frac,
	       uint64_t burst_us, struct cgctl_bw_replay *best, bool *found,
	       struct cgctl_error *e);
/* @a needs less CPU than @b (then less burst). */
bool rec_better(const struct cgctl_bw_replay *a, const struct cgctl_bw_replay *b);
/* The @p quantile (0.5 <= p < 1) of Student's t with @df degrees of freedom. */
double rec_t_quantile(double p, unsigned int df);
/* Add [@from, @to) of busy time into the sums of windows of @win_ns from 0. */
void rec_bin_busy(double *win, size_t nwin, uint64_t win_ns, uint64_t from, uint64_t to);
/* Returns: 0, -ENOMEM. */
int rec_percentile_use(const struct rec_search *s, size_t n, double *use);

/* The CPU cap (recommend-cap.c).  The CPUs @s's threads may use: min(CPUs, the most
 * threads busy at once). */
unsigned int rec_cpus(const struct rec_search *s);
/* The most threads of @t busy at one time of its timeline.  Returns: 0, -ENOMEM. */
int rec_peak_threads(const struct cgctl_bw_trace *t, unsigned int *peak);
/* The share of @s's periods (4 timer phases) whose demand reaches all rec_cpus(s).
 * Returns: 0, -ENOMEM. */
int rec_saturated(const struct rec_search *s, uint64_t period_us, double *frac);
/* @quota_us, or all of @cpus when it comes within the cap's margin of them. */
uint64_t rec_cap_quota(unsigned int cpus, uint64_t period_us, uint64_t quota_us);

/* One recording's bound from its own windows (recommend-windows.c): *answer_us each
 * window's answer at this period and burst (up to REC_WINDOWS_MAX), *n how many
 * (0: too short to split).  Returns: 0, -ENOMEM, -errno of the search. */
#define REC_WINDOWS_MAX 8
int rec_windows(struct rec_search *s, uint64_t period_us, double burst_frac,
		uint64_t burst_us, uint64_t *answer_us, size_t *n, uint64_t *window_ns,
		struct cgctl_error *e);

/* One recording's bound from a circular block bootstrap over its periods
 * (recommend-bootstrap.c): *bound_cpus is @own_cpus (the recording's own answer at
 * @period_us) plus the @confidence quantile of the difference of two resampled runs'
 * answers, @b says how (method CGCTL_BW_BOUND_NONE: under REC_BOOT_MIN_PERIODS periods
 * of demand, *bound_cpus is @own_cpus).  Deterministic (a fixed seed).
 * Returns: 0, -ENOMEM. */
/* the bound of a recommendation (struct cgctl_bw_recommendation's bound member) */
typedef __typeof__(((struct cgctl_bw_recommendation *)0)->bound) runs_bound_t;

#define REC_BOOT_RESAMPLES 1000
#define REC_BOOT_MIN_PERIODS 6
int rec_bootstrap(const struct rec_search *s, uint64_t period_us, double own_cpus,
		  double confidence, double *bound_cpus, runs_bound_t *b);

#endif
