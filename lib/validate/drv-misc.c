/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Drivers of the per-cpu counter scenarios:
 *  - rss: a multi-threaded workload faults in pages; /proc/PID/status and /proc/PID/stat
 *    must lie within the model's error bound of the exact page-table walk (smaps_rollup);
 *  - pcp: the page allocator's per-cpu list batch and high limits of every zone, as
 *    /proc/zoneinfo prints them, against zone_batchsize()/zone_highsize() of the model.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"
#include "validate/scenarios.h"

static void set(struct vsample *o, double obs, double pred, double bound)
{
	o->obs = obs;
	o->pred = pred;
	o->bound = bound;
}

static void na(struct vsample *o, const char *why, const char *release)
{
	o->na = true;
	snprintf(o->reason, sizeof(o->reason), "%s (kernel %s)", why, release);
}

/* ---- RSS counters ---- */
static int rss_observe(struct vrun *run, const struct vrss_params *p, struct cgctl_procrss *r,
		       char *reason, size_t len)
{
	struct vwork_spec ws = { .cpu = -1 };
	struct vwork w = { .pid = -1 };
	char n[16], t[16], line[128];
	int err;

	snprintf(n, sizeof(n), "%u", p->pages);
	snprintf(t, sizeof(t), "%u", p->threads);
	ws.argv[0] = "touch";
	ws.argv[1] = n;
	ws.argv[2] = t;
	err = vwork_start(run, &ws, &w, reason, len);
	if (err >= 0)
		err = vwork_expect(run, &w, "ready", line, sizeof(line), 10000, reason, len);
	if (err >= 0)
		err = vwork_send(&w, "go\n");
	if (err >= 0)
		err = vwork_expect(run, &w, "done", line, sizeof(line), 20000, reason, len);
	if (err >= 0) {
		err = cgctl_procrss_read(run->ctx, w.pid, r);
		if (err < 0)
			snprintf(reason, len, "read /proc/%d RSS files: %s", (int)w.pid,
				 strerror(-err));
	}
	if (err >= 0)
		err = vwork_finish(run, &w, 5000, reason, len);
	vwork_kill(run, &w);
	return err;
}

static int rss_bound(struct vrun *run, const struct vrss_params *p, enum cgctl_rss_file f,
		     double *bound, char *reason, size_t len)
{
	struct cgctl_rss_bound b;
	int err = cgctl_rss_bound(run->model_kver, run->ncpu, p->threads, f, &b);

	if (err < 0)
		snprintf(reason, len, "RSS model: %s", strerror(-err));
	*bound = (double)b.vmrss_pages;
	return err;
}

static int rss_run_once(struct vrun *run, const struct vscenario *s, struct vsample *out,
			char *reason, size_t len)
{
	const struct vrss_params *p = s->params;
	double exact, bst, bstat;
	struct cgctl_procrss r;
	size_t i;
	int err;

	err = rss_observe(run, p, &r, reason, len);
	if (err >= 0)
		err = rss_bound(run, p, CGCTL_RSS_FILE_STATUS, &bst, reason, len);
	if (err >= 0)
		err = rss_bound(run, p, CGCTL_RSS_FILE_STAT, &bstat, reason, len);
	if (err < 0)
		return err;
	exact = (double)r.smaps_rss_kb / 4;
	for (i = 0; i < vscenario_nq(s); i++) {
		const char *n = s->q[i].name;

		if (r.smaps_rss_kb == UINT64_MAX)
			na(&out[i], "no smaps_rollup to compare with (added in 4.14)", run->release);
		else if (strcmp(n, "status_vmrss_error") == 0)
			set(&out[i], (double)r.vmrss_kb / 4 - exact, 0, bst);
		else if (strcmp(n, "stat_rss_error") == 0)
			set(&out[i], (double)r.stat_rss_pages - exact, 0, bstat);
	}
	return 0;
}

const struct vdriver vdriver_rss = {
	.run_once = rss_run_once,
};

/* ---- per-cpu page lists ---- */
struct pcp_count {
	double batch_bad, high_bad, limits_bad;
	bool limits_printed;
	/* the zone with the most managed pages */
	double batch, high_min, high_max;
	struct cgctl_pcp_pred pred;
};

static int pcp_zone(struct vrun *run, const struct cgctl_zone *z, int fraction,
		    struct cgctl_pcp_pred *pred)
{
	struct cgctl_pcp_zone pz;
	int ncpu, err;

	ncpu = cgctl_node_ncpu(run->ctx, z->node);
	if (ncpu <= 0)
		ncpu = (int)run->ncpu;
	err = cgctl_zone_to_pcp(z, (unsigned int)ncpu, (unsigned int)fraction, &pz);
	if (err >= 0)
		err = cgctl_pcp_predict(run->model_kver, run->ncpu, &pz, pred);
	return err;
}

static int pcp_count(struct vrun *run, const struct cgctl_zoneinfo *zi, struct pcp_count *c)
{
	const struct cgctl_zone *big = NULL;
	struct cgctl_pcp_pred pred;
	int fraction = cgctl_pcp_fraction_read(run->ctx);
	size_t i, j;
	int err, ok;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < zi->nzones; i++) {
		const struct cgctl_zone *z = &zi->zones[i];

		if (z->managed <= 0 || z->npagesets == 0)
			continue;
		err = pcp_zone(run, z, fraction > 0 ? fraction : 0, &pred);
		if (err < 0)
			return err;
		for (j = 0; j < z->npagesets; j++) {
			ok = cgctl_pcp_check(&pred, &z->pagesets[j]);
			c->batch_bad += !(ok & CGCTL_PCP_BATCH_OK);
			c->high_bad += !(ok & CGCTL_PCP_HIGH_OK);
			c->limits_bad += !(ok & CGCTL_PCP_LIMITS_OK);
			c->limits_printed |= z->pagesets[j].high_min >= 0;
		}
		if (!big || z->managed > big->managed) {
			big = z;
			c->pred = pred;
		}
	}
	if (!big)
		return -ENODATA;
	c->batch = (double)big->pagesets[0].batch;
	c->high_min = (double)big->pagesets[0].high_min;
	c->high_max = (double)big->pagesets[0].high_max;
	return 0;
}

static int pcp_run_once(struct vrun *run, const struct vscenario *s, struct vsample *out,
			char *reason, size_t len)
{
	struct cgctl_zoneinfo *zi = NULL;
	struct pcp_count c;
	size_t i;
	int err;

	err = cgctl_zoneinfo_read(run->ctx, &zi);
	if (err >= 0)
		err = pcp_count(run, zi, &c);
	cgctl_zoneinfo_free(zi);
	if (err < 0) {
		snprintf(reason, len, "/proc/zoneinfo: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < vscenario_nq(s); i++) {
		const char *n = s->q[i].name;
		bool limit = strstr(n, "high_m") || strcmp(n, "limit_mismatches") == 0;

		if (limit && !c.limits_printed)
			na(&out[i], "this kernel's zoneinfo prints no high_min/high_max "
			   "(6.12 does not, 6.18 does)", run->release);
		else if (strcmp(n, "batch_mismatches") == 0)
			set(&out[i], c.batch_bad, 0, 0);
		else if (strcmp(n, "high_outside_range") == 0)
			set(&out[i], c.high_bad, 0, 0);
		else if (strcmp(n, "limit_mismatches") == 0)
			set(&out[i], c.limits_bad, 0, 0);
		else if (strcmp(n, "batch") == 0)
			set(&out[i], c.batch, c.pred.batch, 0);
		else if (strcmp(n, "high_min") == 0)
			set(&out[i], c.high_min, c.pred.high_min, 0);
		else if (strcmp(n, "high_max") == 0)
			set(&out[i], c.high_max, c.pred.high_max, 0);
	}
	return 0;
}

const struct vdriver vdriver_pcp = {
	.run_once = pcp_run_once,
};
