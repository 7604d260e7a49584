/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The run-to-run spread from one recording: its timeline cut into equal windows, each
 * searched alone as a recording of its own (rec_bisect()).  The windows' answers differ
 * as the demand of the workload differs from part to part, which is what a next run
 * varies by as well; recommend-runs.c takes their upper prediction bound as it does
 * several recordings', never below the whole recording's answer.
 *
 * Windows of 10 periods where the recording has 30 or more (at most 8 windows: the
 * search is run once more per window), else 3 windows of at least 2 periods; a
 * recording under 6 periods is not split (its own answer, said so).  With a 1% budget
 * a window's answer is its worst period's need, as a whole run's is.
 */
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"
#include "predict/record-internal.h"
#include "predict/recommend-internal.h"

#define WIN_PERIODS 10		/* periods per window, where the recording allows */
#define WIN_MIN 3		/* windows, at least */
#define WIN_MIN_PERIODS 2	/* periods per window, at least */

/* Add the part of [at, at + len) inside [from, to) to @tt. */
static int clip_add(struct bw_trace_thread *tt, bool busy, uint64_t at, uint64_t len,
		    uint64_t from, uint64_t to)
{
	uint64_t a = MAX(at, from), b = MIN(at + len, to);

	return a < b ? bw_trace_add_interval(tt, busy, b - a) : 0;
}

/* @t's demand in [@from, @to) of its timeline, as a trace starting at @from. */
static int window_trace(const struct cgctl_bw_trace *t, uint64_t from, uint64_t to,
			struct cgctl_bw_trace **ret)
{
	struct cgctl_bw_trace *w = calloc(1, sizeof(*w));
	int r = 0;

	if (!w || !(w->thr = calloc(t->nthr, sizeof(*w->thr)))) {
		free(w);
		return -ENOMEM;
	}
	w->nthr = t->nthr;
	w->version = t->version;
	w->ncpus = t->ncpus;
	w->duration_ns = to - from;
	for (unsigned int i = 0; i < t->nthr && r >= 0; i++) {
		const struct bw_trace_thread *tt = &t->thr[i];
		uint64_t at = 0;

		for (size_t j = 0; j < tt->n && at < to && r >= 0; j++) {
			r = clip_add(&w->thr[i], true, at, tt->busy[j], from, to);
			at += tt->busy[j];
			if (r >= 0)
				r = clip_add(&w->thr[i], false, at, tt->idle[j], from, to);
			at += tt->idle[j];
		}
	}
	if (r < 0) {
		cgctl_bw_trace_free(w);
		return r;
	}
	*ret = w;
	return 0;
}

/* One window's answer in us of quota: 0 when it holds no busy time, all the CPUs when
 * nothing below them keeps the budget. */
static int window_answer(struct rec_search *s, uint64_t from, uint64_t to,
			 uint64_t period_us, double burst_frac, uint64_t burst_us,
			 uint64_t *answer_us, struct cgctl_error *e)
{
	struct cgctl_bw_trace *wt;
	struct cgctl_bw_replay rp;
	struct rec_search ws;
	bool found;
	int r = window_trace(s->t, from, to, &wt);

	if (r < 0)
		return cgctl_error_set(e, -r, "%s", strerror(-r));
	*answer_us = 0;
	if (rec_search_init(&ws, wt, s->o, NULL) >= 0) {
		r = rec_bisect(&ws, period_us, burst_frac, burst_us, &rp, &found, e);
		*answer_us = found ? rp.bw.quota_us : (uint64_t)rec_cpus(&ws) * period_us;
		s->replays += ws.replays;
	}
	cgctl_bw_trace_free(wt);
	return r;
}

int rec_windows(struct rec_search *s, uint64_t period_us, double burst_frac,
		uint64_t burst_us, uint64_t *answer_us, size_t *n, uint64_t *window_ns,
		struct cgctl_error *e)
{
	uint64_t period_ns = period_us * 1000, span = s->info.span_ns, len;
	size_t k = span / (WIN_PERIODS * period_ns);
	int r = 0;

	*n = 0;
	if (span < WIN_MIN * WIN_MIN_PERIODS * period_ns)
		return 0;
	k = MIN(MAX(k, (size_t)WIN_MIN), (size_t)REC_WINDOWS_MAX);
	len = span / k;
	for (size_t i = 0; i < k && r >= 0; i++)
		r = window_answer(s, i * len, (i + 1) * len, period_us, burst_frac, burst_us,
				  &answer_us[i], e);
	if (r < 0)
		return r;
	*n = k;
	*window_ns = len;
	return 0;
}
