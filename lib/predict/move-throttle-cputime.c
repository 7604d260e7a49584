/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The move throttling prediction where recording is refused (perf_event_paranoid, no
 * CAP_PERFMON): each thread's CPU-time delta over the window (/proc/TID/schedstat) as
 * its demand, replayed as a worker that is always busy, or busy demand x period then
 * idle for the rest (start phases spread, 20% jitter).  It knows how much CPU each
 * thread used, not when: threads that took turns look like threads that ran together.
 */
#include <string.h>
#include <time.h>

#include "internal.h"
#include "kernel/perf.h"
#include "predict/move-throttle-internal.h"

#define BUSY_ALWAYS	0.95	/* a thread this busy is modelled always runnable */
#define BUSY_MIN	0.005	/* below this a thread is idle for the model */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Demand (fraction of one CPU) of each of @v's @n threads over @window. */
static int sample(const pid_t *v, size_t n, uint64_t window, double *d,
		  uint64_t *measured)
{
	uint64_t *t0 = calloc(n ? n : 1, sizeof(*t0)), start, elapsed;
	struct timespec ts = { (time_t)(window / 1000000000ULL),
			       (long)(window % 1000000000ULL) };

	if (!t0)
		return -ENOMEM;
	start = now_ns();
	for (size_t i = 0; i < n; i++)
		if (perf_task_oncpu(v[i], &t0[i]) < 0)
			t0[i] = UINT64_MAX;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	elapsed = now_ns() - start;
	*measured = elapsed;
	for (size_t i = 0; i < n; i++) {
		uint64_t t1;

		d[i] = 0;
		if (t0[i] != UINT64_MAX && perf_task_oncpu(v[i], &t1) == 0 && t1 >= t0[i] &&
		    elapsed)
			d[i] = MIN((double)(t1 - t0[i]) / (double)elapsed, 1.0);
	}
	free(t0);
	return 0;
}

/* Predict the destination's cpu.stat with the threads of demand @d. */
static int simulate(const struct cgctl_move_throttle *mt, uint32_t kver, const double *d,
		    size_t n, struct cgctl_move_throttle_side *side)
{
	uint64_t period = mt->lv[mt->levels - 1].period_us * 1000ULL;
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_thread *th = calloc(n ? n : 1, sizeof(*th));
	struct cgctl_bw_replay_spec sp;
	size_t k = 0;
	int r;

	memset(side, 0, sizeof(*side));
	side->run_ns = mt_run_ns(mt);
	if (!th)
		return -ENOMEM;
	mt_spec(mt, kver, &sp);
	for (size_t i = 0; i < n; i++) {
		struct cgctl_bw_thread *t = &th[sp.nlist];

		if (d[i] < BUSY_MIN)
			continue;
		side->threads++;
		side->demand_cpus += d[i];
		sp.nlist++;
		if (d[i] < BUSY_ALWAYS) {
			t->busy_ns = (uint64_t)(d[i] * (double)period);
			t->idle_ns = period - t->busy_ns;
			t->jitter_ppm = 200000;
			t->start_ns = period * (k++ % 16) / 16;	/* phases spread */
		}
	}
	sp.list = th;
	r = sp.nlist ? cgctl_bw_replay(&sp, &res, NULL) : 0;
	side->st = res.st;
	cgctl_bw_replay_result_free(&res);
	free(th);
	return r;
}

int mt_by_cputime(struct cgctl_ctx *ctx, const pid_t *pids, size_t n, const pid_t *in,
		  size_t nin, uint64_t sample_ns, uint32_t kver,
		  struct cgctl_move_throttle *mt)
{
	pid_t *mv = NULL, *all = NULL;
	size_t nmv = 0, o = 0;
	double *d = NULL;
	int r = 0;

	(void)ctx;
	for (size_t i = 0; i < n && r >= 0; i++) {
		r = perf_task_threads(pids[i], &mv, &nmv);
		if (r == -ESRCH)
			r = 0;	/* gone: reported when it moves */
	}
	if (r < 0)
		goto out;
	mt_tids_sort(mv, &nmv);
	all = malloc((nmv + nin + 1) * sizeof(*all));
	d = calloc(nmv + nin + 1, sizeof(*d));
	if (!all || !d) {
		r = -ENOMEM;
		goto out;
	}
	/* the destination's threads first, then the moving ones not among them (both
	 * sorted: one merge) */
	if (nin)
		memcpy(all, in, nin * sizeof(*all));
	for (size_t i = 0, j = 0; i < nmv; i++) {
		while (j < nin && in[j] < mv[i])
			j++;
		if (j == nin || in[j] != mv[i])
			all[nin + o++] = mv[i];
	}
	r = sample(all, nin + o, sample_ns, d, &mt->sample_ns);
	if (r >= 0)
		r = simulate(mt, kver, d, nin, &mt->before);
	if (r >= 0)
		r = simulate(mt, kver, d, nin + o, &mt->after);
out:
	free(mv);
	free(all);
	free(d);
	return r;
}
