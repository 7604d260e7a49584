/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * When may the recorded group have been throttled?  A thread switched out still runnable
 * was either held back by its group's limit or preempted by another task of the machine;
 * the switch record does not say which (both set PERF_RECORD_MISC_SWITCH_OUT_PREEMPT:
 * throttle_cfs_rq() dequeues a running task's cfs_rq and resched_curr()s it, 6.18's
 * task-based throttle dequeues the task at return to user with its state still
 * TASK_RUNNING).  The cgroups that can throttle the recorded tasks are their cpu cgroups
 * and every ancestor with a finite quota (tg_throttle_down() throttles the whole
 * subtree, and only the limited group's cfs_bandwidth counts it in nr_throttled); their
 * cpu.stat, read at each poll of the recording, marks the poll intervals in which one of
 * them was throttled: nr_throttled grows when throttle_cfs_rq() runs and throttled_time
 * when unthrottle_cfs_rq() does, so an interval and the one before it are marked.  A
 * poll lasts at most 100 ms, so the windows are that coarse: runnable time near a
 * throttle counts as withheld demand, as every runnable interval did before.
 */
#include <string.h>

#include "internal.h"
#include "predict/record-internal.h"

#define MAX_WATCH 64

static bool watched(const struct rec_watch *w, const char *path)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->path[i], path))
			return true;
	return false;
}

/* Watch @path and its ancestors that have a finite quota. */
static int watch_chain(struct cgctl_ctx *ctx, struct rec_watch *w, const char *path)
{
	char *p = strdup(path);
	int r = 0;

	if (!p)
		return -ENOMEM;
	for (;;) {
		struct cgctl_cpubw bw;
		char *slash;

		if (!watched(w, p) && w->n < MAX_WATCH &&
		    cgctl_cpubw_read(ctx, w->m, p, NULL, NULL, &bw) == 0 &&
		    bw.quota_us != UINT64_MAX) {
			w->path[w->n] = strdup(p);
			if (!w->path[w->n]) {
				r = -ENOMEM;
				break;
			}
			w->nr[w->n] = bw.stat.nr_throttled;
			w->ns[w->n] = bw.stat.throttled_ns;
			w->n++;
		}
		if (!strcmp(p, "/"))
			break;
		slash = strrchr(p, '/');
		if (!slash || slash == p)
			strcpy(p, "/");	/* the root last (v1 and v2: no quota file, skipped) */
		else
			*slash = '\0';
	}
	free(p);
	return r;
}

int rec_watch_init(struct cgctl_ctx *ctx, struct rec_watch *w, const char *cgroup,
		   const pid_t *pids, size_t npids, uint64_t now)
{
	memset(w, 0, sizeof(*w));
	w->last = w->prev = now;
	w->path = calloc(MAX_WATCH, sizeof(*w->path));
	w->nr = calloc(MAX_WATCH, sizeof(*w->nr));
	w->ns = calloc(MAX_WATCH, sizeof(*w->ns));
	if (!w->path || !w->nr || !w->ns)
		return -ENOMEM;
	if (cgctl_mount_find(ctx, "cpu", &w->m) < 0) {
		w->known = true;	/* no cpu controller: nothing can throttle */
		return 0;
	}
	w->known = true;
	if (cgroup)
		return watch_chain(ctx, w, cgroup);
	for (size_t i = 0; i < npids; i++) {
		char *cg;
		int r = cgctl_pid_cgroup(ctx, pids[i], w->m, &cg);

		if (r == -ESRCH)
			continue;
		if (r < 0) {	/* cannot tell: keep every runnable interval as demand */
			w->known = false;
			return 0;
		}
		r = watch_chain(ctx, w, cg);
		free(cg);
		if (r < 0)
			return r;
	}
	return 0;
}

static int push_window(struct rec_watch *w, uint64_t from, uint64_t to)
{
	if (w->nwin == w->capwin) {
		size_t cap = w->capwin ? 2 * w->capwin : 32;
		uint64_t *n = realloc(w->win, 2 * cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		w->win = n;
		w->capwin = cap;
	}
	w->win[2 * w->nwin] = from;
	w->win[2 * w->nwin + 1] = to;
	w->nwin++;
	return 0;
}

int rec_watch_poll(struct cgctl_ctx *ctx, struct rec_watch *w, uint64_t now)
{
	bool throttled = false;

	for (size_t i = 0; i < w->n; i++) {
		struct cgctl_cpubw bw;

		if (cgctl_cpubw_read(ctx, w->m, w->path[i], NULL, NULL, &bw) < 0)
			continue;	/* removed meanwhile: nothing more to throttle */
		if (bw.stat.nr_throttled != w->nr[i] || bw.stat.throttled_ns != w->ns[i])
			throttled = true;
		w->nr[i] = bw.stat.nr_throttled;
		w->ns[i] = bw.stat.throttled_ns;
	}
	if (throttled && push_window(w, w->prev, now) < 0)
		return -ENOMEM;
	w->prev = w->last;
	w->last = now;
	return 0;
}

int rec_watch_apply(const struct rec_watch *w, struct cgctl_bw_demand *d)
{
	int r = 0;

	if (!w->known)
		return 0;
	r = cgctl_bw_demand_throttled(d, 0, 0);
	for (size_t i = 0; r >= 0 && i < w->nwin; i++)
		r = cgctl_bw_demand_throttled(d, w->win[2 * i], w->win[2 * i + 1]);
	return r;
}

void rec_watch_free(struct rec_watch *w)
{
	for (size_t i = 0; w->path && i < w->n; i++)
		free(w->path[i]);
	free(w->path);
	free(w->nr);
	free(w->ns);
	free(w->win);
	memset(w, 0, sizeof(*w));
}
