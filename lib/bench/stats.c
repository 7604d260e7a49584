/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Statistics of `cgctl bench`: mean and sample standard deviation, Welch's unequal
 * variances t-test with the Student t distribution's CDF from the regularized incomplete
 * beta function, and the seeded random order of the repetitions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

void bstats_compute(const double *x, size_t n, struct bstats *s)
{
	double sum = 0, ss = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

/* Continued fraction of the incomplete beta function (modified Lentz's method). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double bstats_ibeta(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the continued fraction converges for x < (a + 1) / (a + b + 2); else the symmetry
	 * I_x(a, b) = 1 - I_(1-x)(b, a) */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double bstats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * bstats_ibeta(df / 2, 0.5, df / (df + t * t));	/* P(T > |t|) */
	return t > 0 ? 1 - tail : tail;
}

int bstats_welch(const struct bstats *a, const struct bstats *b, struct bwelch *w)
{
	double va, vb, se2;

	memset(w, 0, sizeof(*w));
	if (a->n < 2 || b->n < 2)
		return -EINVAL;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (se2 == 0) {
		/* no spread at all: any difference is certain, none is none */
		w->t = b->mean == a->mean ? 0 : copysign(INFINITY, b->mean - a->mean);
		w->df = (double)(a->n + b->n - 2);
		w->p = b->mean == a->mean ? 1 : 0;
		return 0;
	}
	w->t = (b->mean - a->mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w->p = 2 * bstats_t_cdf(-fabs(w->t), w->df);
	return 0;
}

/* splitmix64: a small seeded generator (the order must be reproducible from the seed) */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int bstats_order(unsigned int nconf, unsigned int reps, uint64_t seed, unsigned int **ret)
{
	size_t n = (size_t)nconf * reps, i;
	unsigned int *o;

	if (nconf == 0 || reps == 0)
		return -EINVAL;
	o = calloc(n, sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		o[i] = (unsigned int)(i % nconf);
	/* Fisher-Yates; the modulo bias of 64-bit draws over small n is negligible */
	for (i = n - 1; i > 0; i--) {
		size_t j = (size_t)(next_u64(&seed) % (i + 1));
		unsigned int t = o[i];

		o[i] = o[j];
		o[j] = t;
	}
	*ret = o;
	return 0;
}
