/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `cgctl move`: the CPU throttling the destination's cpu cgroup will see once the moved
 * tasks join it.  The moving tasks and the tasks already in the destination (and below
 * it) are recorded for a short window with perf context-switch records (cgctl_bw_record:
 * busy, idle, and runnable time told apart), and every recorded thread is replayed by the
 * bandwidth engine as it ran, its recording repeated back to back to fill the simulated
 * time (at least 20 periods and 2 s, at most 10 s; cgctl_bw_replay(), the replay every
 * door uses), under the destination's quota/period/burst
 * and its limited ancestors (each level its own pool, as tg_set_cfs_bandwidth()
 * configures them): once with the tasks there now (before), once with both (after).
 * Unlike CPU-time deltas, the recording keeps when a thread ran: two threads that take
 * turns on a lock and two that run together use the same CPU time and throttle
 * differently.  Where recording is refused, the CPU-time deltas of the same threads
 * (lib/predict/move-throttle-cputime.c) stand in and the result says so.  Threads
 * elsewhere under the ancestors are not observed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "engine/bandwidth.h"
#include "predict/move-throttle-internal.h"
#include "predict/record-internal.h"

#define MS		1000000ULL

/*
 * A v2 cgroup whose parent does not pass the cpu controller down has no cpu.max: its
 * tasks are throttled by the nearest ancestor that has it (their cpu css is that
 * ancestor's: cgroup_e_css(), kernel/cgroup/cgroup.c v6.12), and so is every cgroup
 * below it.  Returns: true if @pfx exists but has no cpu controller.
 */
static bool v2_without_cpu(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *pfx, int r)
{
	return m->version == 2 && r == -ENOENT && cgctl_cg_exists(ctx, m, pfx) == 1;
}

/*
 * The limited groups from the top down to @dest (always included), or on v2 down to
 * the deepest group above @dest that has the cpu controller (an unlimited level of the
 * kernel's default 100 ms period for the root).
 */
static int read_levels(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		       const char *dest, struct cgctl_move_throttle *mt)
{
	struct cgctl_bw_settings deepest = CGCTL_BW_SETTINGS_INIT(CGCTL_BW_INF, 100000, 0);
	bool deepest_in = false;
	const char *p = dest;

	mt->levels = 0;
	mt->limit_cpus = 0;
	for (;;) {
		const char *slash = strchr(p + 1, '/');
		size_t len = slash ? (size_t)(slash - dest) : strlen(dest);
		struct cgctl_cpu_settings cs;
		char pfx[sizeof(mt->path)];
		bool last = !slash;
		int r;

		snprintf(pfx, sizeof(pfx), "%.*s", (int)(len ? len : 1), dest);
		r = cgctl_cpu_settings_read(ctx, m, pfx, &cs);
		if (r < 0 && v2_without_cpu(ctx, m, pfx, r)) {
			if (!last && cgctl_cg_exists(ctx, m, dest) != 1)
				return -ENOENT;
			if (!deepest_in && mt->levels < CGCTL_MOVE_THROTTLE_LEVELS)
				mt->lv[mt->levels++] = deepest;
			break;
		}
		if (r < 0)
			return r;
		deepest = cs.bw;
		deepest_in = cs.bw.quota_us != CGCTL_BW_INF || last;
		if (cs.bw.quota_us != CGCTL_BW_INF && cs.bw.period_us) {
			double cpus = (double)cs.bw.quota_us / (double)cs.bw.period_us;

			if (!mt->limit_cpus || cpus < mt->limit_cpus) {
				mt->limit_cpus = cpus;
				snprintf(mt->limit_path, sizeof(mt->limit_path), "%s", pfx);
			}
		}
		if ((cs.bw.quota_us != CGCTL_BW_INF || last) &&
		    mt->levels < CGCTL_MOVE_THROTTLE_LEVELS)
			mt->lv[mt->levels++] = cs.bw;
		if (last || !strcmp(dest, "/"))
			break;
		p = slash;
	}
	mt->bw = mt->lv[mt->levels - 1];
	return 0;
}

int cgctl_move_throttle_limits_into(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				    const char *dest, unsigned int ncpus,
				    struct cgctl_move_throttle *mt, struct cgctl_error *e)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int r;

	if (!ctx || !m || !dest || dest[0] != '/' || !mt)
		return cgctl_error_set(e, EINVAL, "move throttling: bad arguments");
	memset(mt, 0, sizeof(*mt));
	snprintf(mt->path, sizeof(mt->path), "%s", dest);
	mt->ncpus = ncpus ? ncpus : online > 0 ? (unsigned int)online : 1;
	r = read_levels(ctx, m, dest, mt);
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot read the CPU bandwidth settings: %s",
				       dest, strerror(-r));
	mt->limited = mt->limit_cpus > 0;
	return 0;
}

/* The simulated time: at least 20 periods and 2 s, at most 10 s. */
uint64_t mt_run_ns(const struct cgctl_move_throttle *mt)
{
	uint64_t period = mt->lv[mt->levels - 1].period_us * 1000ULL;
	uint64_t run = MAX(20 * period, 2000 * MS);

	return MIN(run, 10000 * MS);
}

/* @mt's levels and simulated time in @sp, for a replay at @kver. */
void mt_spec(const struct cgctl_move_throttle *mt, uint32_t kver,
	     struct cgctl_bw_replay_spec *sp)
{
	*sp = (struct cgctl_bw_replay_spec){
		.size = sizeof(*sp), .kver = kver, .ncpus = mt->ncpus,
		.duration_ns = mt_run_ns(mt), .levels = mt->lv, .nlevels = mt->levels,
	};
}

/* Replay @t (recorded for @rec_ns) repeated over the simulated time. */
int mt_replay_trace(const struct cgctl_move_throttle *mt, uint32_t kver,
		    const struct cgctl_bw_trace *t, uint64_t rec_ns,
		    struct cgctl_move_throttle_side *side)
{
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp;
	struct cgctl_bw_trace_info ti = { .size = sizeof(ti) };
	int r;

	memset(side, 0, sizeof(*side));
	side->run_ns = mt_run_ns(mt);
	r = cgctl_bw_trace_info(t, &ti);
	if (r < 0 || !rec_ns)
		return r < 0 ? r : -EINVAL;
	for (unsigned int i = 0; i < t->nthr; i++) {
		uint64_t busy = 0;

		for (size_t k = 0; k < t->thr[i].n; k++)
			busy += t->thr[i].busy[k];
		if (busy * 200 >= rec_ns)	/* 0.5% of a CPU: idle for the model */
			side->threads++;
	}
	side->demand_cpus = (double)ti.busy_ns / (double)rec_ns;
	mt_spec(mt, kver, &sp);
	sp.trace = t;
	sp.trace_loop_ns = rec_ns;
	r = cgctl_bw_replay(&sp, &res, NULL);
	side->st = res.st;
	cgctl_bw_replay_result_free(&res);
	return r;
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

void mt_tids_sort(pid_t *v, size_t *n)
{
	size_t o = 0;

	if (*n)
		qsort(v, *n, sizeof(*v), pid_cmp);
	for (size_t i = 0; i < *n; i++)
		if (!o || v[o - 1] != v[i])
			v[o++] = v[i];
	*n = o;
}

/* Every task of @path and of its descendants, appended to *v. */
int mt_tasks_below(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   pid_t **v, size_t *n, int depth)
{
	pid_t *t = NULL;
	char **kids = NULL;
	ssize_t k = cgctl_cg_pids(ctx, m, path, m->version == 2 ? "cgroup.threads" : "tasks",
				  &t);
	int r = 0;

	if (k < 0)
		return (int)k;
	if (k > 0) {
		pid_t *nv = realloc(*v, (*n + (size_t)k) * sizeof(*nv));

		if (!nv) {
			free(t);
			return -ENOMEM;
		}
		memcpy(nv + *n, t, (size_t)k * sizeof(*t));
		*v = nv;
		*n += (size_t)k;
	}
	free(t);
	if (depth > 64)
		return 0;
	k = cgctl_cg_children(ctx, m, path, &kids);
	for (ssize_t i = 0; i < k && r >= 0; i++) {
		char sub[4096];

		snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") ? path : "", kids[i]);
		r = mt_tasks_below(ctx, m, sub, v, n, depth + 1);
		if (r == -ENOENT)
			r = 0;	/* removed meanwhile */
	}
	if (k >= 0)
		cgctl_strv_free(kids);	/* also the empty list */
	return r;
}

/* Record the movers and the destination's tasks; replay before and after. */
static int by_recording(struct cgctl_ctx *ctx, const pid_t *pids, size_t n,
			const pid_t *in, size_t nin, uint64_t sample_ns, uint32_t kver,
			struct cgctl_move_throttle *mt, struct cgctl_error *e)
{
	struct cgctl_bw_record_result all = { 0 }, only = { 0 };
	struct cgctl_bw_record_opts o = { .size = sizeof(o), .duration_ns = sample_ns };
	struct cgctl_bw_trace *ta = NULL, *tb = NULL;
	pid_t *v = malloc((n + nin + 1) * sizeof(*v));
	int r;

	if (!v)
		return -ENOMEM;
	if (n)
		memcpy(v, pids, n * sizeof(*v));
	if (nin)
		memcpy(v + n, in, nin * sizeof(*v));
	o.pids = v;
	o.npids = n + nin;
	/* nothing in the destination: no second trace, nothing before */
	r = rec_record(ctx, &o, in, nin, &all, nin ? &only : NULL, e);
	free(v);
	if (r < 0)
		return r;
	mt->sample_ns = all.duration_ns;
	r = cgctl_bw_trace_parse(all.trace, all.len, &ta, e);
	if (r >= 0 && only.len)	/* nothing recorded of the destination: none before */
		r = cgctl_bw_trace_parse(only.trace, only.len, &tb, e);
	if (r >= 0 && tb)
		r = mt_replay_trace(mt, kver, tb, all.duration_ns, &mt->before);
	else if (r >= 0)
		mt->before.run_ns = mt_run_ns(mt);
	if (r >= 0)
		r = mt_replay_trace(mt, kver, ta, all.duration_ns, &mt->after);
	cgctl_bw_trace_free(ta);
	cgctl_bw_trace_free(tb);
	cgctl_bw_record_result_free(&all);
	cgctl_bw_record_result_free(&only);
	return r;
}

CGCTL_EXPORT int cgctl_move_throttle_predict(struct cgctl_ctx *ctx,
					     const struct cgctl_mount *m, const char *dest,
					     const pid_t *pids, size_t n, uint64_t sample_ns,
					     uint32_t kver, struct cgctl_move_throttle *mt,
					     struct cgctl_error *e)
{
	struct cgctl_error re = CGCTL_ERROR_INIT;
	pid_t *in = NULL;
	size_t nin = 0;
	int r;

	if (!ctx || !m || !dest || !mt || !mt->levels || (n && !pids) || !sample_ns)
		return cgctl_error_set(e, EINVAL, "move throttling: bad arguments");
	r = mt_tasks_below(ctx, m, dest, &in, &nin, 0);
	if (r < 0) {
		free(in);
		return cgctl_error_set(e, -r, "%s: cannot list the tasks to observe: %s", dest,
				       strerror(-r));
	}
	mt_tids_sort(in, &nin);
	r = n + nin ? by_recording(ctx, pids, n, in, nin, sample_ns, kver, mt, &re) : 0;
	if (r >= 0) {
		mt->demand = CGCTL_MOVE_DEMAND_RECORD;
	} else if (r == -EACCES || r == -EPERM) {
		snprintf(mt->why_not_recorded, sizeof(mt->why_not_recorded), "%s", re.msg);
		r = mt_by_cputime(ctx, pids, n, in, nin, sample_ns, kver, mt);
		if (r >= 0)
			mt->demand = CGCTL_MOVE_DEMAND_CPUTIME;
	} else {
		cgctl_error_set(e, -r, "%s: cannot record the tasks' CPU demand: %s", dest,
				re.msg[0] ? re.msg : strerror(-r));
	}
	free(in);
	if (r < 0 && e && !e->msg[0])
		cgctl_error_set(e, -r, "%s: cannot predict the throttling: %s", dest,
				strerror(-r));
	return r < 0 ? r : 0;
}
