/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgctl_bw_record: the kernel layer's context-switch records (lib/kernel/perf-record.c)
 * of a process list or a cgroup's processes, turned into a demand trace
 * (lib/predict/record-demand.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "kernel/perf.h"
#include "predict/record-internal.h"

#define POLL_MS 100

static uint64_t mono_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The processes of @path in the cpu hierarchy: each becomes a recorded process tree.
 * @rescan: a later look for processes that joined (moved in; children are inherited):
 * no process is then no error.  Returns: processes added, -errno. */
static int add_cgroup(struct cgctl_ctx *ctx, struct perf_rec *pr, const char *path,
		      bool rescan, struct cgctl_error *e)
{
	const struct cgctl_mount *m;
	char *buf = NULL, *save = NULL;
	size_t len;
	int r, n = 0;

	r = cgctl_mount_find(ctx, "cpu", &m);
	if (r < 0)
		return cgctl_error_set(e, -r, "no cpu controller hierarchy");
	r = cgctl_cg_read(ctx, m, path, "cgroup.procs", &buf, &len);
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot read cgroup.procs: %s", path,
				       strerror(-r));
	for (char *tok = strtok_r(buf, "\n", &save); tok && r >= 0;
	     tok = strtok_r(NULL, "\n", &save)) {
		r = perf_rec_add_process(pr, (pid_t)strtol(tok, NULL, 10), e);
		if (r == -ESRCH)
			r = 0;
		else if (r > 0)
			n++;
	}
	free(buf);
	if (r < 0)
		return r;
	if (!n && !rescan)
		return cgctl_error_set(e, ESRCH, "%s: no process to record", path);
	return n;
}

static int add_targets(struct cgctl_ctx *ctx, struct perf_rec *pr,
		       const struct cgctl_bw_record_opts *o, struct cgctl_error *e)
{
	if (!o->pids)
		return MIN(add_cgroup(ctx, pr, o->cgroup, false, e), 0);
	for (size_t i = 0; i < o->npids; i++) {
		int r = perf_rec_add_process(pr, o->pids[i], e);

		if (r == -ESRCH)
			return cgctl_error_set(e, ESRCH, "%d: no such process", o->pids[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* On-CPU time of each task when it was opened, for threads that never switch: entries
 * [@from, pr->ntids) of *@v are taken now (the array grows with the tasks).
 * Returns: 0, -ENOMEM. */
static int oncpu_snapshot(const struct perf_rec *pr, uint64_t **v, size_t from)
{
	uint64_t *n = realloc(*v, (pr->ntids ? pr->ntids : 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	*v = n;
	for (size_t i = from; i < pr->ntids; i++)
		if (perf_task_oncpu(pr->tids[i], &n[i]) < 0)
			n[i] = UINT64_MAX;
	return 0;
}

/* The progress callback: the recording so far (@start: its monotonic and process CPU
 * clocks at the start). */
static void report(const struct cgctl_bw_record_opts *o, const struct perf_rec *pr,
		   const uint64_t start[2])
{
	struct cgctl_bw_record_result p = {
		.size = sizeof(p), .duration_ns = mono_ns(CLOCK_MONOTONIC) - start[0],
		.switches = pr->switches, .lost = pr->lost, .ncpus = pr->ncpus,
		.threads = pr->live > 0 ? (unsigned int)pr->live : 0,
		.self_cpu_ns = mono_ns(CLOCK_PROCESS_CPUTIME_ID) - start[1],
	};

	o->progress(o->progress_data, &p);
}

/* Record until the duration is over, *stop is set or every recorded task has exited (a
 * cgroup too); between polls, note whether the group was throttled
 * and, recording a cgroup, open the processes that joined it since the last poll (moved
 * in: a joiner's first <= POLL_MS are not recorded; one that leaves stays recorded). */
static int record_loop(struct cgctl_ctx *ctx, struct perf_rec *pr, struct rec_watch *w,
		       const struct cgctl_bw_record_opts *o, const uint64_t clk0[2],
		       uint64_t **oncpu0, struct cgctl_error *e)
{
	uint64_t start = clk0[0];
	int r = 0;

	while (r == 0 && (r = rec_watch_poll(ctx, w, mono_ns(CLOCK_MONOTONIC))) == 0) {
		uint64_t now = mono_ns(CLOCK_MONOTONIC);
		int ms = POLL_MS;
		size_t had = pr->ntids;

		if (!o->pids) {
			r = add_cgroup(ctx, pr, o->cgroup, true, e);
			if (r > 0)
				r = oncpu_snapshot(pr, oncpu0, had);
			if (r < 0)
				break;
		}
		if ((o->duration_ns && now - start >= o->duration_ns) || (o->stop && *o->stop) ||
		    pr->live <= 0)
			break;
		if (o->duration_ns)
			ms = (int)MIN((uint64_t)POLL_MS,
				      (o->duration_ns - (now - start)) / 1000000 + 1);
		r = perf_rec_poll(pr, ms);
		if (r == 0 && o->progress)
			report(o, pr, clk0);
	}
	if (r == 0)
		r = rec_watch_poll(ctx, w, mono_ns(CLOCK_MONOTONIC));
	return r < 0 ? r : perf_rec_poll(pr, 0);
}

static bool in_set(const pid_t *set, size_t n, pid_t tid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (set[mid] == tid)
			return true;
		if (set[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Add the switch records of the threads in @only (sorted; NULL: every thread). */
static int add_switches(struct cgctl_bw_demand *d, const struct perf_rec *pr,
			const pid_t *only, size_t nonly)
{
	size_t from = 0;
	int r = 0;

	if (!only)
		return cgctl_bw_demand_add(d, pr->sw, pr->nsw);
	for (size_t i = 0; i <= pr->nsw && r >= 0; i++) {
		if (i < pr->nsw && in_set(only, nonly, (pid_t)pr->sw[i].tid))
			continue;
		if (i > from)	/* a run of wanted records */
			r = cgctl_bw_demand_add(d, pr->sw + from, i - from);
		from = i + 1;
	}
	return r;
}

static int make_trace(struct perf_rec *pr, const struct rec_watch *w,
		      const uint64_t *oncpu0, uint64_t start, uint64_t end,
		      const pid_t *only, size_t nonly, struct cgctl_bw_record_result *res)
{
	struct cgctl_bw_demand_meta meta = { .end_ns = end, .ncpus = pr->ncpus,
					     .lost = pr->lost };
	struct cgctl_bw_demand *d;
	int r = cgctl_bw_demand_new(&d, start);

	if (r < 0)
		return r;
	r = add_switches(d, pr, only, nonly);
	if (r >= 0)
		r = rec_watch_apply(w, d);
	for (size_t i = 0; r >= 0 && i < pr->ntids; i++) {
		uint64_t v;

		if (only && !in_set(only, nonly, pr->tids[i]))
			continue;
		if (oncpu0[i] != UINT64_MAX && perf_task_oncpu(pr->tids[i], &v) == 0 &&
		    v >= oncpu0[i])
			r = cgctl_bw_demand_known(d, (uint32_t)pr->tids[i], v - oncpu0[i]);
	}
	if (r >= 0)
		r = cgctl_bw_demand_trace(d, &meta, &res->trace, &res->len);
	cgctl_bw_demand_free(d);
	return r;
}

static unsigned int count_threads(const char *text)
{
	unsigned int n = 0;

	for (const char *p = text; (p = strstr(p, "\nthread ")); p++)
		n++;
	return n;
}

int rec_record(struct cgctl_ctx *ctx, const struct cgctl_bw_record_opts *o,
	       const pid_t *only, size_t nonly, struct cgctl_bw_record_result *res,
	       struct cgctl_bw_record_result *res_only, struct cgctl_error *e)
{
	struct perf_rec *pr;
	struct rec_watch w = { 0 };
	uint64_t start, end, clk0[2], *oncpu0 = NULL;
	unsigned int pages = o && o->pages ? o->pages : 128;
	int r;

	if (!o || !res || (!o->pids && !o->cgroup) || (o->pids && !o->npids) ||
	    (pages & (pages - 1)))
		return cgctl_error_set(e, EINVAL, "record: give processes or a cgroup");
	*res = (struct cgctl_bw_record_result){ .size = sizeof(*res) };
	if (res_only)
		*res_only = (struct cgctl_bw_record_result){ .size = sizeof(*res_only) };
	pr = malloc(sizeof(*pr));
	if (!pr)
		return -ENOMEM;
	r = perf_rec_init(pr, pages);
	clk0[1] = mono_ns(CLOCK_PROCESS_CPUTIME_ID);
	clk0[0] = start = mono_ns(CLOCK_MONOTONIC);
	if (r >= 0)
		r = add_targets(ctx, pr, o, e);
	if (r >= 0)
		r = oncpu_snapshot(pr, &oncpu0, 0);
	if (r >= 0)
		r = rec_watch_init(ctx, &w, o->pids ? NULL : o->cgroup, o->pids, o->npids,
				   start);
	if (r >= 0)
		r = record_loop(ctx, pr, &w, o, clk0, &oncpu0, e);
	end = mono_ns(CLOCK_MONOTONIC);
	if (r >= 0)
		r = make_trace(pr, &w, oncpu0, start, end, NULL, 0, res);
	if (r >= 0 && res_only)
		r = make_trace(pr, &w, oncpu0, start, end, only, nonly, res_only);
	if (r >= 0) {
		res->duration_ns = end - start;
		res->switches = pr->switches;
		res->lost = pr->lost;
		res->ncpus = pr->ncpus;
		res->threads = count_threads(res->trace);
		res->self_cpu_ns = mono_ns(CLOCK_PROCESS_CPUTIME_ID) - clk0[1];
	}
	free(oncpu0);
	rec_watch_free(&w);
	perf_rec_close(pr);
	free(pr);
	if (r < 0) {
		cgctl_bw_record_result_free(res);
		cgctl_bw_record_result_free(res_only);
	}
	return r < 0 ? r : 0;
}

CGCTL_EXPORT int cgctl_bw_record(struct cgctl_ctx *ctx, const struct cgctl_bw_record_opts *o,
				 struct cgctl_bw_record_result *res, struct cgctl_error *e)
{
	if (o && o->size < sizeof(*o))
		return cgctl_error_set(e, EINVAL, "record: options of an unknown size %zu",
				       o->size);
	if (res && res->size < sizeof(*res))
		return cgctl_error_set(e, EINVAL, "record: a result of an unknown size %zu",
				       res->size);
	return rec_record(ctx, o, NULL, 0, res, NULL, e);
}

CGCTL_EXPORT void cgctl_bw_record_result_free(struct cgctl_bw_record_result *res)
{
	if (!res)
		return;
	free(res->trace);
	res->trace = NULL;
	res->len = 0;
}
