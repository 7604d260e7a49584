/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal interface of lib/validate: a scenario is data (settings, workload, quantities
 * with tolerance rules) plus a driver that runs it once and returns, per quantity, the
 * engine's prediction and the kernel's observation.  The runner repeats, computes
 * statistics and verdicts; the writers render a struct cgctl_vreport.
 */
#ifndef CGCTL_VALIDATE_H
#define CGCTL_VALIDATE_H

#include <signal.h>
#include <stdio.h>

#include "libcgctl.h"

#define VQ_MAX 8		/* quantities per scenario */
#define VREASON_LEN 192

/* One predicted/observed quantity of a scenario and its tolerance rule. */
struct vq_def {
	const char *name;
	const char *unit;	/* "ns", "pages", "count", "bytes" */
	double abs_tol;		/* absolute tolerance in @unit */
	double rel_tol;		/* fraction of |predicted| */
};

/* What one repetition produced for one quantity. */
struct vsample {
	double pred;		/* engine prediction for this run */
	double bound;		/* model's own error bound for this run (0: none) */
	double obs;		/* what the kernel reported */
	bool na;		/* quantity does not apply; @reason says why */
	char reason[VREASON_LEN];
};

struct vrun;			/* per-invocation environment (ctx, scratch, options) */
struct vscenario;

/*
 * A driver: applies() returns 0 when the scenario can run, 1 with @reason when the kernel
 * lacks the feature (n/a), -errno on failure.  run_once() fills @out[0..nq) and returns
 * 0, or -errno with @reason (the run failed: workload crashed, write refused ...).
 */
struct vdriver {
	int (*applies)(struct vrun *run, const struct vscenario *s, char *reason, size_t len);
	int (*run_once)(struct vrun *run, const struct vscenario *s, struct vsample *out,
			char *reason, size_t len);
};

struct vscenario {
	const char *name;
	const char *summary;
	const struct vdriver *driver;
	const void *params;		/* driver-specific settings (see scenarios.c) */
	struct vq_def q[VQ_MAX];	/* terminated by name == NULL */
};

size_t vscenario_nq(const struct vscenario *s);

/* ---- stats.c ---- */
/* Tolerance that applies: max(abs, rel*|pred|, bound). */
double vtolerance(const struct vq_def *d, double pred, double bound);
/*
 * The verdict rule ("above the noise", like perf stat -r): differs iff
 * |mean_obs - pred| > max(tolerance, k*sd_resid), k = VNOISE_K.
 */
#define VNOISE_K 2.0
enum cgctl_verdict vverdict(double pred, double mean_obs, double tol, double sd_resid);

/* Fill @q from @n samples (all of them applicable). */
void vquantity_finish(struct cgctl_vquantity *q, const struct vq_def *d,
		      const struct vsample *s, size_t n);

/* ---- runner.c ---- */
struct vrun_opts {
	unsigned int runs;
	volatile int *cancel;
	void (*progress)(void *data, const char *scenario, unsigned int run, unsigned int runs);
	void *progress_data;
};
/* Run @s @o->runs times in @run into @out (allocated by the caller, names copied). Returns:
 * 0 (verdicts filled, failures recorded as n/a with reason and @out->failed), -EINTR when
 * cancelled. */
int vrunner_run(struct vrun *run, const struct vscenario *s, const struct vrun_opts *o,
		struct cgctl_vscenario_result *out);
/* Overall verdict of @r: DIFFERS if any quantity differs, else MATCH. */
enum cgctl_verdict vreport_verdict(const struct cgctl_vreport *r);

/* ---- report.c ---- */
int vreport_write_json(const struct cgctl_vreport *r, FILE *f);
void vjson_string(FILE *f, const char *s);
void vjson_number(FILE *f, double v);
int vreport_write_html(const struct cgctl_vreport *const *r, size_t n, FILE *f);

#endif
