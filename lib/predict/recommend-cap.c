/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CPU cap of bw recommend.  A period in which the group's threads run on every CPU
 * they may use, throughout, uses cpus x period of runtime; any quota below that runs
 * the pool dry before the period ends (kernel/sched/fair.c:__account_cfs_rq_runtime()
 * charges, __assign_cfs_rq_runtime() finds the pool empty, throttle_cfs_rq(); v6.1 as
 * 6.18), so that period is throttled whatever the quota's distance below.  Measured
 * (issue 32): xz -T2 on 2 CPUs was answered 1.991 CPUs and the kernel throttled 13% of
 * its periods, each saturated one 0.9 ms short.  The recording sees such a period a few
 * percent short of all CPUs (the recorder's own 1-2%, other tasks holding a CPU are
 * "ready" time, idle to the replay), so the replay can find a quota a hair below that
 * keeps its budget; the kernel then does not.
 *
 * So: when more of the recording's periods than the budget allows reach all the CPUs
 * (within SAT_MARGIN) and no burst may lend them runtime, or the answer comes within
 * SAT_MARGIN of all of them, the answer is all of them: cpus x period.
 *
 * The CPUs the threads may use are min(CPUs, the most threads busy at once in the
 * recording), not min(CPUs, threads): a quota of as many CPUs as ever run at once is
 * never throttled in the replay, and threads that follow one another (a shell, then the
 * program it execs) use one CPU however many they are.  Any overlap counts: timer.py
 * of tests/kernel/bw-programs.sh has 2 threads busy at once for 14 ms of 3.4 s (python's
 * start-up), so its cap stays 2 CPUs, and its windows' bound (start-up window ~1 CPU,
 * the others ~0.2) reaches it: slack 7.7-8.2 in 5 runs, none throttled.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"
#include "predict/recommend-internal.h"

#define SAT_MARGIN 0.05		/* all CPUs less the recorder and others' share */
#define SAT_PHASES 4		/* timer phases (a period's start) looked at */

unsigned int rec_cpus(const struct rec_search *s)
{
	return MAX(1U, MIN(s->ncpus, s->peak ? s->peak : s->t->nthr));
}

/* A busy interval's start (+1) or end (-1) on the trace's timeline. */
struct edge {
	uint64_t at;
	int d;
};

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->d - y->d;	/* an end before a start at the same time */
}

int rec_peak_threads(const struct cgctl_bw_trace *t, unsigned int *peak)
{
	size_t n = 0, k = 0;
	struct edge *ev;
	int now = 0, most = 0;

	for (unsigned int i = 0; i < t->nthr; i++)
		n += t->thr[i].n;
	*peak = 0;
	if (!n)
		return 0;
	ev = malloc(2 * n * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	for (unsigned int i = 0; i < t->nthr; i++) {
		const struct bw_trace_thread *tt = &t->thr[i];
		uint64_t at = 0;

		for (size_t j = 0; j < tt->n; j++) {
			if (tt->busy[j]) {
				ev[k++] = (struct edge){ at, 1 };
				ev[k++] = (struct edge){ at + tt->busy[j], -1 };
			}
			at += tt->busy[j] + tt->idle[j];
		}
	}
	qsort(ev, k, sizeof(*ev), cmp_edge);
	for (size_t i = 0; i < k; i++) {
		now += ev[i].d;
		most = MAX(most, now);
	}
	free(ev);
	*peak = (unsigned int)most;
	return 0;
}

uint64_t rec_cap_quota(unsigned int cpus, uint64_t period_us, uint64_t quota_us)
{
	uint64_t all = (uint64_t)cpus * period_us;

	if (quota_us < all && (double)quota_us >= (1 - SAT_MARGIN) * (double)all)
		return all;
	return quota_us;
}

/* The saturated periods among those wholly inside the trace, at timer phase @shift. */
static void count_phase(const struct rec_search *s, uint64_t period_ns, uint64_t shift,
			double *win, size_t nwin, size_t *sat, size_t *all)
{
	double full = (1 - SAT_MARGIN) * (double)period_ns * rec_cpus(s);

	memset(win, 0, nwin * sizeof(*win));
	for (unsigned int i = 0; i < s->t->nthr; i++) {
		const struct bw_trace_thread *tt = &s->t->thr[i];
		uint64_t t = shift;

		for (size_t j = 0; j < tt->n; j++) {
			rec_bin_busy(win, nwin, period_ns, t, t + tt->busy[j]);
			t += tt->busy[j] + tt->idle[j];
		}
	}
	/* window w covers [w P - shift, (w + 1) P - shift) of the trace */
	for (size_t w = shift ? 1 : 0; w < nwin; w++) {
		if ((w + 1) * period_ns - shift > s->info.span_ns)
			break;
		(*all)++;
		*sat += win[w] >= full;
	}
}

int rec_saturated(const struct rec_search *s, uint64_t period_us, double *frac)
{
	uint64_t period_ns = period_us * 1000;
	size_t nwin = s->info.span_ns / period_ns + 2, sat = 0, all = 0;
	double *win = calloc(nwin, sizeof(*win));

	if (!win)
		return -ENOMEM;
	for (unsigned int k = 0; k < SAT_PHASES; k++)
		count_phase(s, period_ns, k * period_ns / SAT_PHASES, win, nwin, &sat, &all);
	free(win);
	*frac = all ? (double)sat / (double)all : 0;
	return 0;
}
