/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scenario runner: check that the kernel has the feature, repeat the driver's
 * run_once(), keep per-quantity samples, and turn them into statistics and verdicts.
 * No I/O of its own: drivers observe, the engine predicts, this file compares.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"

size_t vscenario_nq(const struct vscenario *s)
{
	size_t n = 0;

	while (n < VQ_MAX && s->q[n].name)
		n++;
	return n;
}

static void init_quantities(const struct vscenario *s, struct cgctl_vscenario_result *out)
{
	size_t i;

	for (i = 0; i < out->n_quantities; i++) {
		struct cgctl_vquantity *q = &out->quantities[i];

		snprintf(q->name, sizeof(q->name), "%s", s->q[i].name);
		snprintf(q->unit, sizeof(q->unit), "%s", s->q[i].unit);
		q->predicted = NAN;
		q->verdict = CGCTL_VERDICT_NA;
	}
}

static void all_na(struct cgctl_vscenario_result *out, const char *reason)
{
	size_t i;

	for (i = 0; i < out->n_quantities; i++) {
		out->quantities[i].verdict = CGCTL_VERDICT_NA;
		out->quantities[i].predicted = NAN;
		snprintf(out->quantities[i].reason, sizeof(out->quantities[i].reason), "%.191s",
			 reason);
	}
}

/* A quantity that was n/a in any run is n/a overall, with the first reason given. */
static void finish(const struct vscenario *s, struct vsample *smp, unsigned int runs,
		   struct cgctl_vscenario_result *out)
{
	struct vsample *col;
	size_t i, nq = out->n_quantities;
	unsigned int r;

	col = calloc(runs, sizeof(*col));
	if (!col)
		return all_na(out, "out of memory");
	for (i = 0; i < nq; i++) {
		struct cgctl_vquantity *q = &out->quantities[i];
		const char *na = NULL;

		for (r = 0; r < runs; r++) {
			col[r] = smp[r * nq + i];
			if (col[r].na && !na)
				na = col[r].reason[0] ? col[r].reason : "not applicable";
		}
		if (na) {
			q->verdict = CGCTL_VERDICT_NA;
			snprintf(q->reason, sizeof(q->reason), "%s", na);
			continue;
		}
		vquantity_finish(q, &s->q[i], col, runs);
	}
	free(col);
}

static int run_all(struct vrun *run, const struct vscenario *s, const struct vrun_opts *o,
		   struct vsample *smp, struct cgctl_vscenario_result *out)
{
	size_t nq = out->n_quantities;
	char reason[VREASON_LEN];
	unsigned int r;
	int ret;

	for (r = 0; r < o->runs; r++) {
		if (o->cancel && *o->cancel)
			return -EINTR;
		if (o->progress)
			o->progress(o->progress_data, s->name, r + 1, o->runs);
		reason[0] = '\0';
		ret = s->driver->run_once(run, s, &smp[r * nq], reason, sizeof(reason));
		if (o->cancel && *o->cancel)
			return -EINTR;
		for (size_t i = 0; ret >= 0 && i < nq; i++)
			vlog(LOG_DEBUG, run ? vrun_ctx(run) : NULL,
			     "%s run %u: %s pred %g obs %g bound %g%s", s->name, r + 1,
			     s->q[i].name, smp[r * nq + i].pred, smp[r * nq + i].obs,
			     smp[r * nq + i].bound, smp[r * nq + i].na ? " (n/a)" : "");
		if (ret < 0) {
			char msg[VREASON_LEN + 32];

			out->failed = true;
			snprintf(msg, sizeof(msg), "run %u failed: %s", r + 1,
				 reason[0] ? reason : strerror(-ret));
			all_na(out, msg);
			return 0;
		}
	}
	finish(s, smp, o->runs, out);
	return 0;
}

int vrunner_run(struct vrun *run, const struct vscenario *s, const struct vrun_opts *o,
		struct cgctl_vscenario_result *out)
{
	char reason[VREASON_LEN] = "";
	struct vsample *smp;
	int ret;

	init_quantities(s, out);
	if (o->runs == 0)
		return -EINVAL;
	ret = s->driver->applies ? s->driver->applies(run, s, reason, sizeof(reason)) : 0;
	if (ret < 0) {
		out->failed = true;
		all_na(out, reason[0] ? reason : strerror(-ret));
		return 0;
	}
	if (ret > 0) {
		all_na(out, reason[0] ? reason : "not supported by this kernel");
		return 0;
	}
	smp = calloc((size_t)o->runs * (out->n_quantities ? out->n_quantities : 1),
		     sizeof(*smp));
	if (!smp)
		return -ENOMEM;
	ret = run_all(run, s, o, smp, out);
	free(smp);
	return ret;
}

enum cgctl_verdict vreport_verdict(const struct cgctl_vreport *r)
{
	size_t i, j;

	for (i = 0; i < r->n_scenarios; i++)
		for (j = 0; j < r->scenarios[i].n_quantities; j++)
			if (r->scenarios[i].quantities[j].verdict == CGCTL_VERDICT_DIFFERS)
				return CGCTL_VERDICT_DIFFERS;
	return CGCTL_VERDICT_MATCH;
}
