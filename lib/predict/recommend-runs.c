/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bw recommend over several recordings (runs) of one workload: a quota that also holds
 * for the next run.
 *
 * One recording shows one run.  The same fixed work costs a different amount of CPU
 * from run to run (on the shared 2-CPU machine this was written on, tests/kernel/
 * bw-record.sh's tree.sh: 430-640 ms for the same work within minutes), and with a 1%
 * budget on a short program the quota is set by its heaviest period: the smallest
 * quota within budget differs from recording to recording (tree.sh, five recordings:
 * 84-96 ms; the kernel then throttled 10 of 47 periods at 96 ms).  The largest of the
 * recordings' answers is exceeded by a next run one time in n + 1, and then by an
 * unknown margin.
 *
 * So each recording is searched alone (recommend.c) for each candidate period and
 * burst, and the quota is the upper prediction bound for one more run's answer: with
 * x_i = quota_i / period over n runs, mean m and sample standard deviation s,
 *     x = m + t(confidence, n - 1) * s * sqrt(1 + 1/n)
 * (the one-sided bound for a new observation of a normal sample), and never less than
 * the largest x_i.  One recording's quota is its own answer plus a next run's spread
 * from a block bootstrap over its periods (recommend-bootstrap.c).  Either is capped at all the CPUs the threads may use, and
 * taken up to them from close below (recommend-cap.c).  The recommendation is then
 * replayed on every recording, and its cpu.stat is their mean.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"
#include "predict/recommend-internal.h"

#define CONFIDENCE_DEFAULT 0.95
#define WINDOWS_MIN 6		/* windows of several recordings for a bound of their own */

/* Acklam's rational approximation of the standard normal quantile (relative error
 * below 1.2e-9), for p in (0, 1). */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
				    -2.759285104469687e+02, 1.383577518672690e+02,
				    -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
				    -1.556989798598866e+02, 6.680131188771972e+01,
				    -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
				    -2.400758277161838e+00, -2.549732539343734e+00,
				    4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
				    2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425 || p > 1 - 0.02425) {
		q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
		r = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
		return p < 0.5 ? r : -r;
	}
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/*
 * The @p quantile of Student's t with @df degrees of freedom, p in [0.5, 1): exact for
 * 1 and 2 degrees, else the Cornish-Fisher expansion around the normal quantile
 * (Abramowitz & Stegun 26.7.5; within 0.4% for p <= 0.99 and df >= 3).
 */
double rec_t_quantile(double p, unsigned int df)
{
	double z, z2, v = df;

	if (df == 1)
		return tan(M_PI * (p - 0.5));
	if (df == 2)
		return (2 * p - 1) / sqrt(2 * p * (1 - p));
	z = normal_quantile(p);
	z2 = z * z;
	return z + z * (z2 + 1) / (4 * v) +
	       z * ((5 * z2 + 16) * z2 + 3) / (96 * v * v) +
	       z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * v * v * v) +
	       z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) /
		       (92160 * v * v * v * v);
}

struct runs {
	struct rec_search *s;
	size_t n;
	const struct cgctl_bw_recommend_opts *o;
	double confidence;
	double mean_use;	/* all runs' busy time / all their spans */
	uint64_t *q, *best_q;	/* per run: this candidate's answer, the best's */
	runs_bound_t bound, best_bound;
};

/* The bound over @n answers @q (us of quota at @period_us) into @b, in us of quota: the
 * @p quantile for one more answer (@confidence is what @b reports). */
static uint64_t bound_over_p(const uint64_t *q, size_t n, uint64_t period_us, double p,
			     double confidence, runs_bound_t *b)
{
	uint64_t qmax = 0;
	double m = 0, ss = 0, x;

	for (size_t i = 0; i < n; i++) {
		m += (double)q[i] / (double)period_us;
		qmax = MAX(qmax, q[i]);
	}
	m /= (double)n;
	for (size_t i = 0; i < n; i++) {
		x = (double)q[i] / (double)period_us - m;
		ss += x * x;
	}
	b->confidence = confidence;
	b->samples = (unsigned int)n;
	b->mean_cpus = m;
	b->sd_cpus = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	b->t = n > 1 ? rec_t_quantile(p, (unsigned int)(n - 1)) : 0;
	x = m + b->t * b->sd_cpus * sqrt(1 + 1.0 / (double)n);
	/* never below the largest answer; exactly it when that rules (one run) */
	qmax = MAX(qmax, (uint64_t)ceil(x * (double)period_us - 1e-6));
	b->bound_cpus = (double)qmax / (double)period_us;
	return qmax;
}

/* The bound over @n answers @q (us of quota at @period_us) into @b, in us of quota: at
 * @confidence for one more answer like them, each a whole run's. */
static uint64_t bound_over(const uint64_t *q, size_t n, uint64_t period_us,
			   double confidence, runs_bound_t *b)
{
	return bound_over_p(q, n, period_us, confidence, confidence, b);
}

/*
 * One recording: its own answer plus the spread of a next run's from a block bootstrap
 * over its periods (recommend-bootstrap.c), or the bound over its windows
 * (recommend-windows.c) where that is higher, taken as several recordings' windows
 * are: at confidence^(1/k) for one window, a run's answer being the largest of its k
 * windows'.  The periods' spread within one recording misses a whole run's level shift
 * (tests/kernel/bw-programs.sh, bootstrap alone: gzip's and make's next runs throttled
 * over 3% of their periods in 6 of 10 runs); the windows, each searched alone, show
 * some of it.  Capped at all CPUs.  *cand is @own's replay, or the bound's when that is
 * larger.  Returns: 0, -errno.
 */
static int one_recording(struct runs *r, uint64_t period_us, double frac, uint64_t fixed,
			 struct cgctl_bw_replay *cand, struct cgctl_error *e)
{
	unsigned int cpus = rec_cpus(&r->s[0]);
	struct cgctl_bw_settings bw = cand->bw;
	runs_bound_t wb;
	double own = (double)cand->bw.quota_us / (double)period_us, x;
	uint64_t q = cand->bw.quota_us, wq[REC_WINDOWS_MAX], win_ns = 0, qw = 0;
	size_t k = 0;
	int err = rec_bootstrap(&r->s[0], period_us, own, r->confidence, &x, &r->bound);

	if (err < 0)
		return cgctl_error_set(e, -err, "%s", strerror(-err));
	if (r->bound.method == CGCTL_BW_BOUND_NONE) {
		r->bound.confidence = r->confidence;
		r->bound.samples = 1;
		r->bound.mean_cpus = own;
		r->bound.own_cpus = own;
	}
	q = MAX(q, (uint64_t)ceil(x * (double)period_us - 1e-6));
	err = rec_windows(&r->s[0], period_us, frac, fixed, wq, &k, &win_ns, e);
	if (err < 0)
		return err;
	if (k) {
		memset(&wb, 0, sizeof(wb));
		qw = bound_over_p(wq, k, period_us, pow(r->confidence, 1.0 / (double)k),
				  r->confidence, &wb);
	}
	if (qw > q) {	/* the windows' spread is the wider: it rules */
		wb.method = CGCTL_BW_BOUND_WINDOWS;
		wb.window_ns = win_ns;
		wb.own_cpus = own;
		r->bound = wb;
		q = qw;
	}
	q = rec_cap_quota(cpus, period_us, MIN(q, (uint64_t)cpus * period_us));
	r->bound.bound_cpus = (double)q / (double)period_us;
	if (q == cand->bw.quota_us)
		return 0;
	bw.quota_us = q;
	bw.burst_us = fixed ? fixed : (uint64_t)(frac * (double)q);
	return rec_replay(&r->s[0], &bw, cand, e);
}

/*
 * Several recordings: the bound over all their windows (recommend-windows.c), for a run's
 * answer, which is the largest of its k windows' answers: at confidence^(1/k) for one
 * window (windows of one run vary together with the machine, so the largest of k is
 * less extreme than that of k independent ones: the bound errs high).  The recordings'
 * own answers are a few samples taken back to back; their windows show how much the
 * same work's heaviest periods vary within a run and from run to run as well (tree.sh
 * of tests/kernel/bw-record.sh: five recordings answered 90-110 ms and their bound was
 * 104.7 ms, then the kernel throttled 7.95% of the next runs' periods; the same
 * program's answers ranged 96-133 ms within minutes, its windows' 0.9-1.6 CPUs).
 * Returns: 0 (*q_us 0: too few windows), -errno.
 */
static int runs_windows(struct runs *r, uint64_t period_us, double frac, uint64_t fixed,
			uint64_t *q_us, runs_bound_t *b, struct cgctl_error *e)
{
	uint64_t *all = calloc(r->n * REC_WINDOWS_MAX, sizeof(*all)), win_ns = 0;
	size_t nall = 0, kmax = 0;
	int err = 0;

	*q_us = 0;
	if (!all)
		return cgctl_error_set(e, ENOMEM, "%s", strerror(ENOMEM));
	for (size_t i = 0; i < r->n && err >= 0; i++) {
		uint64_t w = 0;
		size_t k = 0;

		err = rec_windows(&r->s[i], period_us, frac, fixed, all + nall, &k, &w, e);
		nall += k;
		kmax = MAX(kmax, k);
		win_ns = MAX(win_ns, w);
	}
	if (err >= 0 && nall >= WINDOWS_MIN && kmax) {
		memset(b, 0, sizeof(*b));
		*q_us = bound_over_p(all, nall, period_us, pow(r->confidence, 1.0 / (double)kmax),
				     r->confidence, b);
		b->method = CGCTL_BW_BOUND_WINDOWS;
		b->window_ns = win_ns;
	}
	free(all);
	return err < 0 ? err : 0;
}

/* One candidate period and burst: each run's own answer, then the bound.  Returns:
 * 0 with *found and @cand's settings (one run: replayed, whole), -errno. */
static int candidate(struct runs *r, uint64_t period_us, double frac, uint64_t fixed,
		     struct cgctl_bw_replay *cand, bool *found, struct cgctl_error *e)
{
	runs_bound_t wb;
	unsigned int cpus = 1;
	uint64_t q, qw;
	int err;

	*found = false;
	for (size_t i = 0; i < r->n; i++) {
		struct cgctl_bw_replay rp;
		bool ok;

		err = rec_bisect(&r->s[i], period_us, frac, fixed, &rp, &ok, e);
		if (err < 0)
			return err;
		if (!ok)
			return 0;	/* one run needs more than all CPUs: no quota here */
		r->q[i] = rp.bw.quota_us;
		cpus = MAX(cpus, rec_cpus(&r->s[i]));
		if (r->n == 1)
			*cand = rp;	/* its answer, replayed already */
	}
	*found = true;
	if (r->n == 1)
		return one_recording(r, period_us, frac, fixed, cand, e);
	memset(cand, 0, sizeof(*cand));
	q = bound_over(r->q, r->n, period_us, r->confidence, &r->bound);
	r->bound.method = CGCTL_BW_BOUND_RECORDINGS;
	err = runs_windows(r, period_us, frac, fixed, &qw, &wb, e);
	if (err < 0)
		return err;
	if (qw > q) {	/* the windows' spread is the wider: it rules */
		wb.own_cpus = r->bound.bound_cpus;
		r->bound = wb;
		q = qw;
	}
	q = MIN(q, cpus * period_us);
	cand->bw.size = sizeof(cand->bw);
	cand->bw.period_us = period_us;
	cand->bw.quota_us = MAX(MIN_QUOTA_US, rec_cap_quota(cpus, period_us, q));
	cand->bw.burst_us = fixed ? fixed : (uint64_t)(frac * (double)cand->bw.quota_us);
	return 0;
}

static int search(struct runs *r, struct cgctl_bw_recommendation *ret, struct cgctl_error *e)
{
	static const double bursts[] = { 0, 0.25, 0.5, 1 };
	static const uint64_t dflt_period = 100000;
	const struct cgctl_bw_recommend_opts *o = r->o;
	const uint64_t *periods = o->nperiods ? o->periods_us : &dflt_period;
	size_t np = o->nperiods ? o->nperiods : 1;
	size_t nb = o->burst_auto ? ARRAY_SIZE(bursts) : 1;

	for (size_t i = 0; i < np; i++)
		for (size_t b = 0; b < nb; b++) {
			struct cgctl_bw_replay cand;
			bool found;
			int err = candidate(r, periods[i], o->burst_auto ? bursts[b] : 0,
					    o->burst_auto ? 0 : o->burst_us, &cand, &found, e);

			if (err < 0)
				return err;
			if (found && (!ret->feasible || rec_better(&cand, &ret->best))) {
				ret->best = cand;
				ret->feasible = true;
				memcpy(r->best_q, r->q, r->n * sizeof(*r->q));
				r->best_bound = r->bound;
			}
		}
	return 0;
}

/* @bw replayed on every run: *ret over all of them, each run's share in @runs. */
static int replay_all(struct runs *r, const struct cgctl_bw_settings *bw,
		      struct cgctl_bw_replay *ret, struct cgctl_bw_run *runs,
		      struct cgctl_error *e)
{
	struct rec_sum all = { 0 };

	for (size_t i = 0; i < r->n; i++) {
		struct rec_sum one = { 0 };
		struct cgctl_bw_replay rp;
		int err = rec_replay_add(&r->s[i], bw, &one, e);

		if (err < 0)
			return err;
		if (runs) {
			rec_replay_finish(&one, bw, r->o, r->s[i].mean_use, &rp);
			runs[i].throttled_frac = rp.throttled_frac;
		}
		rec_stat_add(&all.st, &one.st);
		all.worst_ns = MAX(all.worst_ns, one.worst_ns);
		all.replays += one.replays;
	}
	rec_replay_finish(&all, bw, r->o, r->mean_use, ret);
	return 0;
}

static int percentile(struct runs *r, struct cgctl_bw_recommendation *ret,
		      struct cgctl_error *e)
{
	uint64_t period = r->o->nperiods ? r->o->periods_us[0] : 100000;
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(0, period, 0);
	int err = rec_percentile_use(r->s, r->n, &ret->pct_use);

	if (err < 0)
		return cgctl_error_set(e, -err, "%s", strerror(-err));
	bw.quota_us = MAX(MIN_QUOTA_US, (uint64_t)(ret->pct_use * PCT_MARGIN * (double)period));
	return replay_all(r, &bw, &ret->pct, NULL, e);
}

/* The CPUs the threads may use at the answer's period, the share of periods that
 * saturate them, and whether the answer is all of them. */
static int cap_of(struct runs *r, struct cgctl_bw_recommendation *ret, struct cgctl_error *e)
{
	uint64_t period = ret->best.bw.period_us;
	double sum = 0, frac;

	ret->cpus = 1;
	for (size_t i = 0; i < r->n; i++) {
		int err = rec_saturated(&r->s[i], period, &frac);

		if (err < 0)
			return cgctl_error_set(e, -err, "%s", strerror(-err));
		sum += frac;
		ret->cpus = MAX(ret->cpus, rec_cpus(&r->s[i]));
	}
	ret->saturated_frac = sum / (double)r->n;
	ret->all_cpus = ret->feasible ? ret->best.bw.quota_us == ret->cpus * period :
		        ret->saturated_frac * 1e6 > rec_budget_ppm(r->o);
	return 0;
}

static int runs_init(struct runs *r, const struct cgctl_bw_trace *const *t, size_t n,
		     const struct cgctl_bw_recommend_opts *o, double confidence,
		     struct cgctl_error *e)
{
	double busy = 0, span = 0;
	int err;

	memset(r, 0, sizeof(*r));
	if (!t || !n || !o)
		return cgctl_error_set(e, EINVAL, "no recording to size a limit for");
	if (o->size < sizeof(*o))
		return cgctl_error_set(e, EINVAL, "recommend: options of an unknown size %zu",
				       o->size);
	r->confidence = confidence ? confidence : CONFIDENCE_DEFAULT;
	if (!(r->confidence >= 0.5 && r->confidence <= 0.995))
		return cgctl_error_set(e, EINVAL, "confidence %g is not in [0.5, 0.995]",
				       confidence);
	for (size_t i = 0; i < o->nperiods; i++)
		if (o->periods_us[i] < 1000 || o->periods_us[i] > 1000000)
			return cgctl_error_set(e, EINVAL, "period %" PRIu64 " us is not in "
					       "[1 ms, 1 s]", o->periods_us[i]);
	r->n = n;
	r->o = o;
	r->s = calloc(n, sizeof(*r->s));
	r->q = calloc(2 * n, sizeof(*r->q));
	if (!r->s || !r->q)
		return cgctl_error_set(e, ENOMEM, "%s", strerror(ENOMEM));
	r->best_q = r->q + n;
	for (size_t i = 0; i < n; i++) {
		err = rec_search_init(&r->s[i], t[i], o, e);
		if (err < 0 && n > 1 && e) {
			char msg[sizeof(e->msg)];

			snprintf(msg, sizeof(msg), "%s", e->msg);
			return cgctl_error_set(e, -err, "recording %zu: %s", i + 1, msg);
		}
		if (err < 0)
			return err;
		busy += (double)r->s[i].info.busy_ns;
		span += (double)MAX(r->s[i].info.span_ns, 1);
	}
	r->mean_use = busy / span;
	return 0;
}

CGCTL_EXPORT int cgctl_bw_recommend_runs(const struct cgctl_bw_trace *const *t, size_t n,
					 const struct cgctl_bw_recommend_opts *o,
					 double confidence,
					 struct cgctl_bw_recommendation *ret,
					 struct cgctl_bw_run *runs,
					 struct cgctl_error *e)
{
	struct runs r;
	int err;

	if (!ret)
		return -EINVAL;
	if (ret->size < sizeof(*ret))
		return cgctl_error_set(e, EINVAL, "recommend: a result of an unknown size %zu",
				       ret->size);
	for (size_t i = 0; runs && i < n; i++)
		if (runs[i].size < sizeof(*runs))
			return cgctl_error_set(e, EINVAL, "recommend: run %zu of an unknown size %zu",
					       i + 1, runs[i].size);
	*ret = (struct cgctl_bw_recommendation){ .size = sizeof(*ret) };
	err = runs_init(&r, t, n, o, confidence, e);
	if (err >= 0) {
		ret->mean_use = r.mean_use;
		err = search(&r, ret, e);
	}
	if (err >= 0 && !ret->feasible) {	/* nothing finite fits: say unlimited */
		ret->best.bw = CGCTL_BW_SETTINGS(CGCTL_BW_INF, 100000, 0);
		for (size_t i = 0; i < n; i++)
			r.best_q[i] = CGCTL_BW_INF;
	}
	if (err >= 0 && n == 1 && ret->feasible) {	/* the search replayed it already */
		if (runs)
			runs[0].throttled_frac = ret->best.throttled_frac;
	} else if (err >= 0) {
		struct cgctl_bw_settings bw = ret->best.bw;	/* the replay rewrites ret->best */

		err = replay_all(&r, &bw, &ret->best, runs, e);
	}
	if (err >= 0)
		err = percentile(&r, ret, e);
	if (err >= 0)
		err = cap_of(&r, ret, e);
	for (size_t i = 0; err >= 0 && runs && i < n; i++)
		runs[i].quota_us = r.best_q[i];
	if (err >= 0)
		ret->bound = r.best_bound;
	ret->best.size = ret->pct.size = sizeof(ret->best);
	for (size_t i = 0; r.s && i < n; i++)
		ret->replays += r.s[i].replays;
	free(r.s);
	free(r.q);
	return err < 0 ? err : 0;
}

int cgctl_bw_recommend(const struct cgctl_bw_trace *t,
		       const struct cgctl_bw_recommend_opts *o,
		       struct cgctl_bw_recommendation *ret, struct cgctl_error *e)
{
	if (ret)	/* the library's own callers: this version's layout */
		ret->size = sizeof(*ret);
	return cgctl_bw_recommend_runs(&t, 1, o, 0, ret, NULL, e);
}
