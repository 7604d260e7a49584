/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The run-to-run spread from one recording: a circular block bootstrap over its
 * periods (Politis & Romano 1992).
 *
 * The recording's timeline is cut into periods of the candidate's length (timer phase
 * 0) and each period's demand d_i (busy time of all threads, in CPUs) taken.  A run's
 * answer under a budget that lets m = floor(budget x N) of its N periods throttle is,
 * to first order, the (m + 1)-th largest d_i: that statistic, theta, is what the
 * bootstrap resamples.  A resampled run is N periods made of blocks of L consecutive
 * periods starting at uniformly drawn periods (wrapping around the end), so that the
 * demand's correlation from period to period within a block is kept.  L is the first
 * lag at which the periods' sample autocorrelation falls below 2 / sqrt(N) (no longer
 * told apart from none at about 95%), within [1, N / 3].
 *
 * The bound is for the NEXT run's answer, not for the recording's own: with theta-hat
 * this recording's and theta the workload's, theta_next - theta-hat =
 * (theta_next - theta) - (theta-hat - theta), two independent draws that the bootstrap
 * gives as theta*_a - theta-hat and theta*_b - theta-hat; so the bound is the whole
 * recording's own answer (the simulator's, recommend.c) plus the @confidence quantile of
 * theta*_a - theta*_b over independent pairs of resamples, never below the own answer.
 * The statistic is the whole run's answer, so the confidence is the run's, not a
 * window's (recommend-windows.c's bound over windows stated 0.95 per window while a
 * run's answer is the largest of its k windows').  The draws come from a fixed seed:
 * the same recording gives the same bound.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"
#include "util/num.h"
#include "predict/record-internal.h"
#include "predict/recommend-internal.h"

#define BOOT_SEED 0x9e3779b97f4a7c15ULL

/* The @k-th largest (0: the largest) of @a[0..@n), @a reordered: selection with a
 * three-way partition (many periods may have the same demand, 0 or all CPUs). */
static double kth_largest(double *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (lo < hi) {
		double pivot = a[lo + (hi - lo) / 2], x;
		ptrdiff_t lt = lo, i = lo, gt = hi;

		while (i <= gt) {
			if (a[i] > pivot) {
				x = a[lt], a[lt++] = a[i], a[i++] = x;
			} else if (a[i] < pivot) {
				x = a[gt], a[gt--] = a[i], a[i] = x;
			} else {
				i++;
			}
		}
		if (kk < lt)
			hi = lt - 1;
		else if (kk > gt)
			lo = gt + 1;
		else
			return pivot;
	}
	return a[kk];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Each period's demand in CPUs, from the first period with busy time to the last. */
static int period_demand(const struct cgctl_bw_trace *t, uint64_t period_ns, double **ret,
			 size_t *n)
{
	uint64_t end = 0;
	size_t nper, first = 0, last;
	double *d;

	for (unsigned int i = 0; i < t->nthr; i++) {
		uint64_t at = 0;

		for (size_t j = 0; j < t->thr[i].n; j++)
			at += t->thr[i].busy[j] + t->thr[i].idle[j];
		end = MAX(end, at);
	}
	nper = (size_t)((end + period_ns - 1) / period_ns);
	if (!(d = calloc(MAX(nper, (size_t)1), sizeof(*d))))
		return -ENOMEM;
	for (unsigned int i = 0; i < t->nthr; i++) {
		const struct bw_trace_thread *tt = &t->thr[i];
		uint64_t at = 0;

		for (size_t j = 0; j < tt->n; j++) {
			rec_bin_busy(d, nper, period_ns, at, at + tt->busy[j]);
			at += tt->busy[j] + tt->idle[j];
		}
	}
	while (first < nper && d[first] == 0)
		first++;
	last = nper;
	while (last > first && d[last - 1] == 0)
		last--;
	for (size_t i = first; i < last; i++)
		d[i - first] = d[i] / (double)period_ns;
	*ret = d;
	*n = last - first;
	return 0;
}

/* The first lag whose sample autocorrelation is below 2 / sqrt(n), within [1, n / 3]. */
static size_t block_length(const double *d, size_t n)
{
	size_t lmax = MAX(n / 3, (size_t)1);
	double m = 0, c0 = 0, lim = 2 / sqrt((double)n);

	for (size_t i = 0; i < n; i++)
		m += d[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		c0 += (d[i] - m) * (d[i] - m);
	if (c0 <= 1e-18 * (double)n)
		return 1;	/* a constant demand (to 1e-9 CPU): any block is the same */
	for (size_t l = 1; l < lmax; l++) {
		double c = 0;

		for (size_t i = 0; i + l < n; i++)
			c += (d[i] - m) * (d[i + l] - m);
		if (c / c0 < lim)
			return l;
	}
	return lmax;
}

int rec_bootstrap(const struct rec_search *s, uint64_t period_us, double own_cpus,
		  double confidence, double *bound_cpus, runs_bound_t *b)
{
	size_t n, l, m, nres = REC_BOOT_RESAMPLES, half = nres / 2, kq;
	double *d, *x = NULL, *theta = NULL, *diff = NULL, sum = 0, ss = 0;
	uint64_t seed = BOOT_SEED;
	int r = period_demand(s->t, period_us * 1000, &d, &n);

	if (r < 0)
		return r;
	memset(b, 0, sizeof(*b));
	*bound_cpus = own_cpus;
	if (n < REC_BOOT_MIN_PERIODS) {	/* too short to resample: its own answer */
		free(d);
		return 0;
	}
	x = calloc(n, sizeof(*x));
	theta = calloc(nres, sizeof(*theta));
	diff = calloc(half, sizeof(*diff));
	if (!x || !theta || !diff) {
		r = -ENOMEM;
		goto out;
	}
	l = block_length(d, n);
	m = (size_t)((double)rec_budget_ppm(s->o) * (double)n / 1e6);
	m = MIN(m, n - 1);
	for (size_t k = 0; k < nres; k++) {
		for (size_t i = 0; i < n;) {
			size_t start = (size_t)(cgctl_splitmix64(&seed) % n);

			for (size_t j = 0; j < l && i < n; j++, i++)
				x[i] = d[(start + j) % n];
		}
		theta[k] = kth_largest(x, n, m);
		sum += theta[k];
	}
	for (size_t k = 0; k < nres; k++)
		ss += (theta[k] - sum / (double)nres) * (theta[k] - sum / (double)nres);
	/* independent pairs: the first half against the second */
	for (size_t k = 0; k < half; k++)
		diff[k] = theta[k] - theta[half + k];
	qsort(diff, half, sizeof(*diff), cmp_double);
	kq = (size_t)ceil(confidence * (double)half);
	*bound_cpus = own_cpus + MAX(0.0, diff[MIN(kq ? kq - 1 : 0, half - 1)]);
	b->method = CGCTL_BW_BOUND_BOOTSTRAP;
	b->confidence = confidence;
	b->samples = (unsigned int)n;
	b->block_periods = (unsigned int)l;
	b->blocks = (unsigned int)((n + l - 1) / l);
	b->resamples = (unsigned int)nres;
	b->mean_cpus = sum / (double)nres;
	b->sd_cpus = sqrt(ss / (double)(nres - 1));
	b->own_cpus = own_cpus;
	b->bound_cpus = *bound_cpus;
out:
	free(d);
	free(x);
	free(theta);
	free(diff);
	return r;
}
