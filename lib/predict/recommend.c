/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bw recommend: replay a demand trace in the bandwidth model (lib/engine/bandwidth-sim.c)
 * and search the smallest quota whose predicted cpu.stat keeps throttled periods (and the
 * throttled time of the worst period) within a budget.  Throttling falls as the quota
 * grows, so a bisection over the quota finds it; each candidate period and burst is
 * searched and the smallest quota / period wins.
 *
 * Several recordings of one workload (runs) are searched one by one, and the answer
 * covers the next run too: lib/predict/recommend-runs.c.
 *
 * Beside it, what a percentile recommender would set (Kubernetes VPA: a high percentile
 * of per-interval usage plus a margin) replayed the same way: it sees the mean use of
 * each interval and not the bursts inside a period, which is what throttles.
 */
#include <inttypes.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"
#include "predict/recommend-internal.h"

#define MS 1000000ULL
#define PCT_WINDOW_NS (1000 * MS)	/* usage sampled per second */
#define PCT_QUANTILE 0.90		/* VPA's target percentile */

uint32_t rec_budget_ppm(const struct cgctl_bw_recommend_opts *o)
{
	return o->max_throttled_ppm ? o->max_throttled_ppm : 10000;
}

/*
 * How many period timer phases a replay averages over.  Since 6.4
 * (kernel/sched/fair.c:init_cfs_bandwidth()) the period timer starts at a random offset,
 * and with idle gaps longer than a period it restarts at the next wakeup
 * (sched_cfs_period_timer() -> do_sched_cfs_period_timer() returns idle): where a
 * workload's bursts fall in the periods differs run to run, and on a short trace one
 * phase decides whether a period holds one burst or two.  Measured: sh bursty.sh
 * (tests/kernel/bw-record.sh: 12 bursts of ~15 ms, ~9 periods) replayed at one phase
 * needed 28.5 ms and the kernel then throttled 11-22% of its periods.  A long trace
 * already crosses the periods at every phase.
 */
#define PHASES_SHORT 4
#define SHORT_PERIODS 200

static unsigned int nphases(const struct rec_search *s, const struct cgctl_bw_settings *bw)
{
	return s->info.span_ns < SHORT_PERIODS * bw->period_us * 1000 ? PHASES_SHORT : 1;
}

void rec_stat_add(struct cgctl_bw_stat *acc, const struct cgctl_bw_stat *st)
{
	acc->nr_periods += st->nr_periods;
	acc->nr_throttled += st->nr_throttled;
	acc->nr_bursts += st->nr_bursts;
	acc->throttled_ns += st->throttled_ns;
	acc->throttled_local_ns += st->throttled_local_ns;
	acc->burst_ns += st->burst_ns;
	acc->usage_ns += st->usage_ns;
	acc->wait_ns += st->wait_ns;
}

/* One replay at one phase (cgctl_bw_replay(), as every door); adds its cpu.stat into
 * @sum. */
static int replay_phase(struct rec_search *s, const struct cgctl_bw_settings *bw,
			unsigned int phase, struct rec_sum *sum)
{
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .kver = s->o->kver, .ncpus = s->ncpus,
		/* another seed, another period timer phase (kernel 6.4+) */
		.seed = (s->o->seed ? s->o->seed : 1) + phase,
		.record_periods = s->o->max_delay_ns != 0,
		.levels = bw, .nlevels = 1, .trace = s->t,
	};
	int r = cgctl_bw_replay(&sp, &res, NULL);

	if (r < 0)
		return r;
	sum->worst_ns = MAX(sum->worst_ns, res.worst_period_ns);
	rec_stat_add(&sum->st, &res.st);
	sum->replays++;
	cgctl_bw_replay_result_free(&res);
	return 0;
}

/* Replay @bw on @s's trace at each phase, into @sum. */
int rec_replay_add(struct rec_search *s, const struct cgctl_bw_settings *bw,
		   struct rec_sum *sum, struct cgctl_error *e)
{
	unsigned int n = nphases(s, bw);
	int r = 0;

	s->replays++;
	for (unsigned int k = 0; k < n && r >= 0; k++)
		r = replay_phase(s, bw, k, sum);
	if (r < 0)
		return cgctl_error_set(e, -r, "replay of these settings failed: %s",
				       strerror(-r));
	return 0;
}

/* The replays in @sum as one answer: the throttled share over all their periods, the
 * mean cpu.stat of one replay, the worst period of any; slack against @mean_use. */
void rec_replay_finish(const struct rec_sum *sum, const struct cgctl_bw_settings *bw,
		       const struct cgctl_bw_recommend_opts *o, double mean_use,
		       struct cgctl_bw_replay *ret)
{
	const struct cgctl_bw_stat *st = &sum->st;
	uint64_t n = MAX(sum->replays, 1U);

	*ret = (struct cgctl_bw_replay){ .size = sizeof(*ret),
					 .st.size = sizeof(ret->st) };
	ret->bw = *bw;
	ret->bw.size = sizeof(ret->bw);
	if (st->nr_periods > 0)
		ret->throttled_frac = (double)st->nr_throttled / (double)st->nr_periods;
	ret->st.nr_periods = (st->nr_periods + n / 2) / n;
	ret->st.nr_throttled = (st->nr_throttled + n / 2) / n;
	ret->st.nr_bursts = (st->nr_bursts + n / 2) / n;
	ret->st.throttled_ns = st->throttled_ns / n;
	ret->st.throttled_local_ns = st->throttled_local_ns / n;
	ret->st.burst_ns = st->burst_ns / n;
	ret->st.usage_ns = st->usage_ns / n;
	ret->st.wait_ns = st->wait_ns / n;
	ret->max_period_throttled_ns = sum->worst_ns;
	if (bw->quota_us != CGCTL_BW_INF && mean_use > 0)
		ret->slack = (double)bw->quota_us / (double)bw->period_us / mean_use;
	ret->within = ret->throttled_frac * 1e6 <= rec_budget_ppm(o) &&
		      (!o->max_delay_ns || ret->max_period_throttled_ns <= o->max_delay_ns);
}

int rec_replay(struct rec_search *s, const struct cgctl_bw_settings *bw,
		  struct cgctl_bw_replay *ret, struct cgctl_error *e)
{
	struct rec_sum sum = { 0 };
	int r = rec_replay_add(s, bw, &sum, e);

	if (r < 0)
		return r;
	rec_replay_finish(&sum, bw, s->o, s->mean_use, ret);
	return 0;
}

int rec_search_init(struct rec_search *s, const struct cgctl_bw_trace *t,
		    const struct cgctl_bw_recommend_opts *o, struct cgctl_error *e)
{
	memset(s, 0, sizeof(*s));
	s->info.size = sizeof(s->info);
	s->t = t;
	s->o = o;
	if (!t || !o || cgctl_bw_trace_info(t, &s->info) < 0 || !s->info.busy_ns)
		return cgctl_error_set(e, EINVAL, "the trace has no busy time to size a limit for");
	if (o->max_throttled_ppm > 1000000 || (o->nperiods && !o->periods_us))
		return cgctl_error_set(e, EINVAL, "bad budget or period list");
	s->ncpus = o->ncpus ? o->ncpus : t->ncpus ? t->ncpus : 1;
	if (rec_peak_threads(t, &s->peak) < 0)
		return cgctl_error_set(e, ENOMEM, "%s", strerror(ENOMEM));
	/* the demand's own timeline (waits dropped), not the recording's wall time: waiting
	 * for a CPU another load held is not a lower use the limit may rely on */
	s->mean_use = (double)s->info.busy_ns / (double)MAX(s->info.span_ns, 1);
	return 0;
}

static int replay_quota(struct rec_search *s, uint64_t quota_us, uint64_t period_us,
			double burst_frac, uint64_t burst_us, struct cgctl_bw_replay *rp,
			struct cgctl_error *e)
{
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(quota_us, period_us, burst_us ? burst_us : (uint64_t)(burst_frac * quota_us));

	return rec_replay(s, &bw, rp, e);
}

/* Replay-checked bisection: the smallest quota in [lo, hi] within budget, for a burst
 * of @burst_frac x quota, capped at all CPUs (recommend-cap.c).  *best keeps the replay
 * of the answer. */
int rec_bisect(struct rec_search *s, uint64_t period_us, double burst_frac,
	       uint64_t burst_us, struct cgctl_bw_replay *best, bool *found,
	       struct cgctl_error *e)
{
	unsigned int cpus = rec_cpus(s);
	uint64_t lo = MAX(MIN_QUOTA_US, (uint64_t)(s->mean_use * period_us * 0.98));
	uint64_t hi = (uint64_t)cpus * period_us, capped;
	struct cgctl_bw_replay rp;
	double sat;
	int r = rec_saturated(s, period_us, &sat);

	*found = false;
	if (r < 0)
		return cgctl_error_set(e, -r, "%s", strerror(-r));
	if (!burst_frac && !burst_us && sat * 1e6 > rec_budget_ppm(s->o))
		lo = hi;	/* only all the CPUs can keep the budget (no burst to lend) */
	lo = MAX(MIN(lo, hi), burst_us);	/* the kernel wants burst <= quota */
	while (lo <= hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		r = replay_quota(s, mid, period_us, burst_frac, burst_us, &rp, e);
		if (r < 0)
			return r;
		if (rp.within) {
			*best = rp;
			*found = true;
			if (mid == lo)
				break;
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
		if (*found && best->bw.quota_us - lo <= MAX(10ULL, best->bw.quota_us / 200))
			break;	/* within 0.5 %: the model is not finer than that */
	}
	if (!*found || (capped = rec_cap_quota(cpus, period_us, best->bw.quota_us)) ==
		       best->bw.quota_us)
		return 0;
	return replay_quota(s, capped, period_us, burst_frac, burst_us, best, e);
}

bool rec_better(const struct cgctl_bw_replay *a, const struct cgctl_bw_replay *b)
{
	double ra = (double)a->bw.quota_us / a->bw.period_us;
	double rb = (double)b->bw.quota_us / b->bw.period_us;

	if (ra < rb * 0.995)
		return true;
	return ra <= rb * 1.005 && a->bw.burst_us < b->bw.burst_us;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void rec_bin_busy(double *win, size_t nwin, uint64_t win_ns, uint64_t from, uint64_t to)
{
	while (from < to) {
		size_t w = from / win_ns;
		uint64_t end = MIN(to, (w + 1) * win_ns);

		if (w >= nwin)
			return;
		win[w] += (double)(end - from);
		from = end;
	}
}

/* The 90th percentile of the demand per 1 s window, in CPUs (at most ncpus), over the
 * windows of all @n recordings in @s. */
int rec_percentile_use(const struct rec_search *s, size_t n, double *use)
{
	size_t nwin = 0, at = 0, k;
	double *win;

	for (size_t r = 0; r < n; r++)
		nwin += s[r].info.span_ns / PCT_WINDOW_NS + 1;
	win = calloc(nwin, sizeof(*win));
	if (!win)
		return -ENOMEM;
	for (size_t r = 0; r < n; r++) {
		size_t own = s[r].info.span_ns / PCT_WINDOW_NS + 1;

		for (unsigned int i = 0; i < s[r].t->nthr; i++) {
			const struct bw_trace_thread *tt = &s[r].t->thr[i];
			uint64_t t = 0;

			for (size_t j = 0; j < tt->n; j++) {
				rec_bin_busy(win + at, own, PCT_WINDOW_NS, t, t + tt->busy[j]);
				t += tt->busy[j] + tt->idle[j];
			}
		}
		/* a last window of nothing (a span of whole seconds) is not one */
		if (own > 1 && s[r].info.span_ns % PCT_WINDOW_NS == 0)
			own--;
		for (size_t w = 0; w < own; w++)
			win[at + w] = MIN(win[at + w] / PCT_WINDOW_NS, (double)s[r].ncpus);
		at += own;
	}
	qsort(win, at, sizeof(*win), cmp_double);
	k = (size_t)(PCT_QUANTILE * at + 0.999999);
	*use = win[k ? k - 1 : 0];
	free(win);
	return 0;
}

int cgctl_bw_replay_run(const struct cgctl_bw_trace *t,
			const struct cgctl_bw_recommend_opts *o,
			const struct cgctl_bw_settings *bw,
			struct cgctl_bw_replay *ret, struct cgctl_error *e)
{
	struct rec_search s;
	int r = rec_search_init(&s, t, o, e);

	if (r < 0)
		return r;
	if (!bw || !ret)
		return -EINVAL;
	r = cgctl_bw_check(NULL, 0, 0, bw, 2, e);
	return r < 0 ? r : rec_replay(&s, bw, ret, e);
}
