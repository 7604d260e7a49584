/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Statistics and verdicts of repeated measurements, the way kernel developers present
 * before/after numbers (perf stat -r): mean, sample standard deviation, relative sd, and
 * whether a difference is above the noise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"

static const char *const verdict_names[] = {
	[CGCTL_VERDICT_MATCH] = "match",
	[CGCTL_VERDICT_DIFFERS] = "differs",
	[CGCTL_VERDICT_NA] = "n/a",
};

const char *cgctl_verdict_name(enum cgctl_verdict v)
{
	if ((unsigned int)v >= ARRAY_SIZE(verdict_names))
		return "n/a";
	return verdict_names[v];
}

int cgctl_verdict_parse(const char *s, enum cgctl_verdict *ret)
{
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(verdict_names); i++) {
		if (strcmp(s, verdict_names[i]) == 0) {
			*ret = (enum cgctl_verdict)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Welford's update: one pass, no catastrophic cancellation for ns-sized values. */
int cgctl_vstats_compute(const double *x, size_t n, struct cgctl_vstats *ret)
{
	double mean = 0, m2 = 0, d;
	size_t i;

	if (!x || !ret || n == 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		d = x[i] - mean;
		mean += d / (double)(i + 1);
		m2 += d * (x[i] - mean);
	}
	ret->n = n;
	ret->mean = mean;
	ret->sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
	ret->rsd = mean != 0 ? ret->sd / fabs(mean) : 0;
	return 0;
}

double vtolerance(const struct vq_def *d, double pred, double bound)
{
	double t = d->abs_tol;

	t = MAX(t, d->rel_tol * fabs(pred));
	return MAX(t, fabs(bound));
}

enum cgctl_verdict vverdict(double pred, double mean_obs, double tol, double sd_resid)
{
	double dev = mean_obs - pred;

	if (!isfinite(pred) || !isfinite(mean_obs))
		return CGCTL_VERDICT_NA;
	if (fabs(dev) > MAX(tol, VNOISE_K * sd_resid))
		return CGCTL_VERDICT_DIFFERS;
	return CGCTL_VERDICT_MATCH;
}

static void explain(struct cgctl_vquantity *q)
{
	const char *why;

	if (q->verdict == CGCTL_VERDICT_DIFFERS)
		why = "deviation above tolerance and noise";
	else if (fabs(q->deviation) <= q->tolerance)
		why = "inside tolerance";
	else
		why = "inside the noise";
	snprintf(q->reason, sizeof(q->reason), "%s (|dev| %.4g, tolerance %.4g, noise %.4g)",
		 why, fabs(q->deviation), q->tolerance, q->noise);
}

/*
 * Predictions may differ between runs (they use what each workload actually did), so the
 * noise is the spread of the per-run residuals, not of the raw observations; with a
 * constant prediction both are the same.
 */
static void set_na(struct cgctl_vquantity *q, const char *why)
{
	q->predicted = NAN;
	q->verdict = CGCTL_VERDICT_NA;
	snprintf(q->reason, sizeof(q->reason), "%s", why);
}

void vquantity_finish(struct cgctl_vquantity *q, const struct vq_def *d,
		      const struct vsample *s, size_t n)
{
	struct cgctl_vstats so, sp, sr;
	double *buf, tol = 0;
	size_t i;

	buf = malloc(3 * (n ? n : 1) * sizeof(*buf));
	if (!buf)
		return set_na(q, "out of memory");
	for (i = 0; i < n; i++) {
		buf[i] = s[i].obs;
		buf[n + i] = s[i].pred;
		buf[2 * n + i] = s[i].obs - s[i].pred;
		tol = MAX(tol, vtolerance(d, s[i].pred, s[i].bound));
	}
	if (cgctl_vstats_compute(buf, n, &so) < 0 || cgctl_vstats_compute(buf + n, n, &sp) < 0 ||
	    cgctl_vstats_compute(buf + 2 * n, n, &sr) < 0) {
		free(buf);
		return set_na(q, "no valid sample");
	}
	free(buf);
	q->observed = so;
	q->predicted = sp.mean;
	q->deviation = so.mean - sp.mean;
	q->tolerance = tol;
	q->noise = VNOISE_K * sr.sd;
	q->verdict = vverdict(sp.mean, so.mean, tol, sr.sd);
	explain(q);
}
