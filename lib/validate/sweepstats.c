/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A sweep's summary: for each quantity, over the random cases that decided it, the
 * share within tolerance and the median and worst relative error, with the worst case
 * named so that it replays (`cgctl validate --sweep 1 --seed SEED --kind KIND`).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double rel_error(const struct cgctl_vquantity *q)
{
	double d = fabs(q->predicted) > q->tolerance ? fabs(q->predicted) : q->tolerance;

	return d > 0 ? fabs(q->observed.mean - q->predicted) / d : 0;
}

/* the index of @name in @st[0..n), or n */
static size_t slot(const struct cgctl_vsweep_stat *st, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(st[i].name, name) == 0)
			break;
	return i;
}

static void median_of(const struct cgctl_vreport *r, struct cgctl_vsweep_stat *s,
		      double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < r->n_scenarios; i++)
		for (size_t j = 0; j < r->scenarios[i].n_quantities; j++) {
			const struct cgctl_vquantity *q = &r->scenarios[i].quantities[j];

			if (strcmp(q->name, s->name) == 0 && q->verdict != CGCTL_VERDICT_NA)
				v[k++] = rel_error(q);
		}
	if (!k)
		return;
	qsort(v, k, sizeof(*v), dbl_cmp);
	s->median_rel_error = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

ssize_t cgctl_vreport_sweep_stats(const struct cgctl_vreport *r,
				  struct cgctl_vsweep_stat **ret)
{
	struct cgctl_vsweep_stat *st;
	size_t n = 0, i, j, k;
	double *v;

	if (!r || !ret)
		return -EINVAL;
	*ret = NULL;
	/* one value per quantity, not per scenario: a report read back may name a
	 * quantity twice in one scenario (make fuzz found the overflow) */
	for (i = 0, k = 0; i < r->n_scenarios; i++)
		k += r->scenarios[i].n_quantities;
	st = calloc(VQ_MAX * (r->n_scenarios + 1), sizeof(*st));
	v = calloc(k + 1, sizeof(*v));
	if (!st || !v) {
		free(st);
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < r->n_scenarios; i++)
		for (j = 0; j < r->scenarios[i].n_quantities; j++) {
			const struct cgctl_vquantity *q = &r->scenarios[i].quantities[j];
			double e;

			k = slot(st, n, q->name);
			if (k == n)
				snprintf(st[n++].name, sizeof(st->name), "%s", q->name);
			st[k].cases++;
			if (q->verdict == CGCTL_VERDICT_NA)
				continue;
			st[k].decided++;
			st[k].within += q->verdict == CGCTL_VERDICT_MATCH;
			e = rel_error(q);
			if (st[k].decided == 1 || e > st[k].worst_rel_error) {
				st[k].worst_rel_error = e;
				snprintf(st[k].worst_case, sizeof(st[k].worst_case), "%s",
					 r->scenarios[i].name);
			}
		}
	for (k = 0; k < n; k++)
		median_of(r, &st[k], v);
	free(v);
	*ret = st;
	return (ssize_t)n;
}
