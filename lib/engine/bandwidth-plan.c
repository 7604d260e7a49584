/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth: the order of file writes that takes a group from one setting to
 * another without passing through a state tg_set_cfs_bandwidth() rejects (each v1 file
 * write re-validates the whole triple), skipping unchanged values.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

struct plan {
	struct cgctl_bw_write *out;
	int n, version;
	struct cgctl_bw_settings cur;
	const struct cgctl_bw_node *nodes;
	size_t nn, target;
	struct cgctl_error *e;
	int reserve;	/* writes kept for the burst after the quota and period */
};

static const char *file_name(enum cgctl_bw_file f, int version)
{
	switch (f) {
	case CGCTL_BW_FILE_QUOTA: return "cpu.cfs_quota_us";
	case CGCTL_BW_FILE_PERIOD: return "cpu.cfs_period_us";
	case CGCTL_BW_FILE_BURST: return version == 1 ? "cpu.cfs_burst_us" : "cpu.max.burst";
	default: return "cpu.max";
	}
}

static void format_value(struct cgctl_bw_write *w, int version)
{
	const struct cgctl_bw_settings *a = &w->after;
	bool inf = a->quota_us == CGCTL_BW_INF;

	switch (w->file) {
	case CGCTL_BW_FILE_QUOTA:
		if (inf)
			snprintf(w->value, sizeof(w->value), "-1");
		else
			snprintf(w->value, sizeof(w->value), "%" PRIu64, a->quota_us);
		break;
	case CGCTL_BW_FILE_PERIOD:
		snprintf(w->value, sizeof(w->value), "%" PRIu64, a->period_us);
		break;
	case CGCTL_BW_FILE_BURST:
		snprintf(w->value, sizeof(w->value), "%" PRIu64, a->burst_us);
		break;
	case CGCTL_BW_FILE_MAX:
		if (inf)
			snprintf(w->value, sizeof(w->value), "max %" PRIu64, a->period_us);
		else
			snprintf(w->value, sizeof(w->value), "%" PRIu64 " %" PRIu64,
				 a->quota_us, a->period_us);
		break;
	}
}

/* Would the kernel accept @s at this point of the plan? */
static int valid(const struct plan *p, const struct cgctl_bw_settings *s)
{
	return cgctl_bw_check(p->nodes, p->nn, p->target, s, p->version, p->e);
}

static int emit(struct plan *p, enum cgctl_bw_file f, const struct cgctl_bw_settings *after)
{
	struct cgctl_bw_write *w = &p->out[p->n];
	int r = valid(p, after);

	if (r < 0)
		return r;
	memset(w, 0, sizeof(*w));
	w->file = f;
	w->name = file_name(f, p->version);
	w->after = *after;
	format_value(w, p->version);
	p->cur = *after;
	p->n++;
	return 0;
}

static int emit_quota(struct plan *p, uint64_t q)
{
	struct cgctl_bw_settings s = p->cur;

	s.quota_us = q;
	return emit(p, CGCTL_BW_FILE_QUOTA, &s);
}

static int emit_period(struct plan *p, uint64_t per)
{
	struct cgctl_bw_settings s = p->cur;

	s.period_us = per;
	return emit(p, CGCTL_BW_FILE_PERIOD, &s);
}

/*
 * Both quota and period change.  The two intermediates (q1, p0) and (q0, p1) have ratios
 * whose product is c*t; when both grow or both shrink one of them overshoots max(c, t):
 * prefer the one that undershoots (period first when growing, quota first when
 * shrinking).  Returns: true to write the period first.
 */
static bool period_first(const struct cgctl_bw_settings *o, const struct cgctl_bw_settings *n)
{
	if (o->quota_us == CGCTL_BW_INF)
		return true;
	if (n->quota_us == CGCTL_BW_INF)
		return false;
	return n->quota_us > o->quota_us && n->period_us > o->period_us;
}

/*
 * The values of one field (@quota: the quota, else the period) the kernel accepts with the
 * rest of @s fixed form an interval: every rule of tg_set_cfs_bandwidth() and
 * tg_cfs_schedulable_down() bounds the ratio quota/period, or the field itself, from one
 * side.  From @s, which is valid, the interval's ends by bisection into *@lo, *@hi.
 */
static void valid_range(const struct plan *p, struct cgctl_bw_settings s, bool quota,
			uint64_t *lo, uint64_t *hi)
{
	uint64_t *f = quota ? &s.quota_us : &s.period_us, at = *f;
	uint64_t min = 1000, max = quota ? CGCTL_BW_MAX_US : 1000000;

	for (int up = 0; up <= 1; up++) {
		uint64_t good = at, bad = up ? max + 1 : min - 1;

		while (good != bad && (up ? bad - good : good - bad) > 1) {
			uint64_t mid = up ? good + (bad - good) / 2 : bad + (good - bad) / 2;

			*f = mid;
			if (valid(p, &s) == 0)
				good = mid;
			else
				bad = mid;
		}
		if (up)
			*hi = good;
		else
			*lo = good;
	}
}

/*
 * Three writes without the unlimited detour: a value of one field (@quota: the quota,
 * else the period) valid with both the old and the new value of the other, where the
 * two intervals of valid values meet: quota, period, quota (or period, quota, period).
 * Returns: 0 when written, -1 when there is no such value.
 */
static int via_third(struct plan *p, const struct cgctl_bw_settings *n, bool quota)
{
	struct cgctl_bw_settings o = p->cur, t = p->cur;
	uint64_t lo0, hi0, lo1, hi1, v;
	int n0 = p->n, r;

	if (o.quota_us == CGCTL_BW_INF || n->quota_us == CGCTL_BW_INF ||
	    p->n + 3 > CGCTL_BW_PLAN_MAX - p->reserve)
		return -1;
	t.quota_us = n->quota_us;
	t.period_us = n->period_us;
	valid_range(p, o, quota, &lo0, &hi0);
	valid_range(p, t, quota, &lo1, &hi1);
	v = MAX(lo0, lo1);
	if (v > MIN(hi0, hi1))
		return -1;
	if (quota)
		r = emit_quota(p, v) < 0 || emit_period(p, n->period_us) < 0 ||
		    emit_quota(p, n->quota_us) < 0;
	else
		r = emit_period(p, v) < 0 || emit_quota(p, n->quota_us) < 0 ||
		    emit_period(p, n->period_us) < 0;
	if (r) {	/* not reached: each state was checked above */
		p->n = n0;
		p->cur = o;
		return -1;
	}
	return 0;
}

static int both(struct plan *p, const struct cgctl_bw_settings *n)
{
	struct cgctl_bw_settings a = p->cur, b = p->cur;
	bool pf = period_first(&p->cur, n);

	a.quota_us = n->quota_us;	/* quota first */
	b.period_us = n->period_us;	/* period first */
	if (valid(p, pf ? &b : &a) < 0 && valid(p, pf ? &a : &b) == 0)
		pf = !pf;
	if (valid(p, pf ? &b : &a) == 0) {
		int r = pf ? emit_period(p, n->period_us) : emit_quota(p, n->quota_us);

		return r < 0 ? r : pf ? emit_quota(p, n->quota_us) : emit_period(p, n->period_us);
	}
	/* no two-write path: a third value between (below), else lift the limit briefly
	 * (quota -1 is always valid in v1) */
	if (via_third(p, n, true) == 0 || via_third(p, n, false) == 0)
		return 0;
	if (emit_quota(p, CGCTL_BW_INF) < 0 || emit_period(p, n->period_us) < 0)
		return -p->e->err;
	return emit_quota(p, n->quota_us);
}

static int quota_period(struct plan *p, const struct cgctl_bw_settings *n)
{
	bool q = n->quota_us != p->cur.quota_us, per = n->period_us != p->cur.period_us;

	if (p->version == 2) {
		struct cgctl_bw_settings s = p->cur;

		if (!q && !per)
			return 0;
		s.quota_us = n->quota_us;
		s.period_us = n->period_us;
		return emit(p, CGCTL_BW_FILE_MAX, &s);
	}
	if (q && per)
		return both(p, n);
	if (q)
		return emit_quota(p, n->quota_us);
	if (per)
		return emit_period(p, n->period_us);
	return 0;
}

static int burst(struct plan *p, uint64_t b)
{
	struct cgctl_bw_settings s = p->cur;

	s.burst_us = b;
	return emit(p, CGCTL_BW_FILE_BURST, &s);
}

int cgctl_bw_write_plan(const struct cgctl_bw_settings *old,
			const struct cgctl_bw_settings *new, int version,
			const struct cgctl_bw_node *nodes, size_t n, size_t target,
			struct cgctl_bw_write out[CGCTL_BW_PLAN_MAX],
			struct cgctl_error *e)
{
	struct cgctl_error scratch = CGCTL_ERROR_INIT;
	struct plan p = {
		.out = out, .version = version, .nodes = nodes, .nn = n,
		.target = target, .e = e ? e : &scratch,
	};
	int r;

	if (!old || !new || !out || (version != 1 && version != 2))
		return -EINVAL;
	p.cur = *old;
	r = valid(&p, new);
	if (r < 0)
		return r;
	if (new->burst_us < old->burst_us && (r = burst(&p, new->burst_us)) < 0)
		return r;
	p.reserve = new->burst_us > old->burst_us;
	r = quota_period(&p, new);
	if (r < 0)
		return r;
	if (new->burst_us > old->burst_us && (r = burst(&p, new->burst_us)) < 0)
		return r;
	cgctl_error_clear(e);
	return p.n;
}
