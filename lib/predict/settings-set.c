/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The raw writes of a plan (cgctl_plan_add(), `cgctl set`) as steps of the one executor
 * (lib/predict/plan.c).  The
 * files it knows, their syntax and order come from the knob table (lib/kernel/knobs.c).  A plan is checked
 * whole before anything is written (every value's syntax for the files we know, the
 * kernel's rules for memory and CPU bandwidth), then ordered:
 *   1. memory limits that go down (tighter first, memory before memsw),
 *   2. CPU bandwidth (the tree-checked plan of cgctl_bw_write_plan()) and the other
 *      files, in the order given,
 *   3. memory limits that go up (memsw before memory),
 *   4. at most one irreversible write (an action file such as memory.force_empty,
 *      memory.reclaim or cgroup.kill, or a file whose value cannot be read back), only
 *      after every other write succeeded.
 * So the group is never looser than both its old and new setting.  A failed write is
 * undone newest first, each file back to what it held before its step: the reverse of
 * a plan whose every state the kernel accepted.  Task files (cgroup.procs, tasks,
 * cgroup.threads) are refused: moves have their own checks (cgctl_move_*).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/knobs.h"
#include "predict/plan.h"
#include "predict/settings-internal.h"

/* A file of the knob table and the version it was named for; counters a write resets
 * (*failcnt, *max_usage_in_bytes, memory.*peak, the v1 cpuacct.usage) are actions. */
struct known {
	const struct knob *k;
	int version;
	enum knob_unit unit;
	unsigned int flags;
};

static bool lookup(const char *file, struct known *ret)
{
	size_t len = strlen(file);

	ret->k = knob_by_file(file, &ret->version);
	if (ret->k) {
		ret->unit = ret->k->unit[ret->version - 1];
		ret->flags = ret->k->flags;
		return true;
	}
	ret->unit = KNOB_TEXT;
	ret->flags = 0;
	if ((len >= 7 && strcmp(file + len - 7, "failcnt") == 0) ||
	    (len >= 18 && strcmp(file + len - 18, "max_usage_in_bytes") == 0) ||
	    (len >= 5 && strcmp(file + len - 5, ".peak") == 0) ||
	    strcmp(file, "cpuacct.usage") == 0)
		ret->flags = KNOB_ACTION;
	return ret->flags != 0;
}

/* ---- value syntax ---- */

static bool decimal(const char *s, bool neg, uint64_t *ret)
{
	uint64_t v = 0;

	if (neg && *s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (ret)
		*ret = v;
	return true;
}

/* memparse() of lib/cmdline.c (v6.1) as page_counter_memparse() takes it, decimal
 * only: digits and one of K M G T P E, or @unlimited.  Returns: 0, -EINVAL, -ERANGE. */
static int memparse(const char *s, const char *unlimited, uint64_t *ret)
{
	static const char units[] = "KMGTPE";
	uint64_t v = 0;
	const char *p = s;
	int shift = 0;

	if (unlimited && strcmp(s, unlimited) == 0) {
		*ret = UINT64_MAX;
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		const char *u = strchr(units, toupper((unsigned char)*p));

		if (!u || p[1])
			return -EINVAL;
		shift = 10 * (int)(u - units + 1);
	}
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	v <<= shift;
	/* the kernel caps at PAGE_COUNTER_MAX pages: as large means unlimited */
	*ret = v >= (uint64_t)INT64_MAX - 65535 ? UINT64_MAX : v;
	return 0;
}

static bool cpumax(const char *s)
{
	char q[32], p[32], extra;
	int k = sscanf(s, "%31s %31s %c", q, p, &extra);

	if (k < 1 || k > 2 || isspace((unsigned char)*s))
		return false;
	if (strcmp(q, "max") != 0 && !decimal(q, false, NULL))
		return false;
	return k == 1 || decimal(p, false, NULL);
}

static const char *unlimited_of(const struct known *k)
{
	return k->k ? k->k->unlimited[k->version - 1] : NULL;
}

static int check_value(const struct known *k, const struct set_item *it,
		       struct cgctl_error *e)
{
	uint64_t v;
	int r;

	switch (k->unit) {
	case KNOB_TEXT:
		return 0;
	case KNOB_BYTES:
		r = memparse(it->value, unlimited_of(k), &v);
		if (r == -ERANGE)
			return cgctl_error_set(e, EINVAL, "%s=%s: too large", it->file, it->value);
		if (r < 0)
			return cgctl_error_set(e, EINVAL, "%s=%s: not a size (bytes, with an "
					       "optional K, M, G, T, P or E, or %s)", it->file,
					       it->value, unlimited_of(k));
		return 0;
	case KNOB_COUNT:
		if (decimal(it->value, false, NULL))
			return 0;
		break;
	case KNOB_SIGNED:
		if (decimal(it->value, true, &v) && v <= (uint64_t)INT64_MAX)
			return 0;
		break;
	case KNOB_MAXCOUNT:
		if (strcmp(it->value, "max") == 0 || decimal(it->value, false, NULL))
			return 0;
		return cgctl_error_set(e, EINVAL, "%s=%s: not a number or max", it->file,
				       it->value);
	case KNOB_BOOL:
		if (strcmp(it->value, "0") == 0 || strcmp(it->value, "1") == 0)
			return 0;
		return cgctl_error_set(e, EINVAL, "%s=%s: takes 0 or 1", it->file, it->value);
	case KNOB_CPUMAX:
		if (cpumax(it->value))
			return 0;
		return cgctl_error_set(e, EINVAL, "%s=%s: not 'max' or 'QUOTA [PERIOD]' in "
				       "microseconds", it->file, it->value);
	}
	return cgctl_error_set(e, EINVAL, "%s=%s: not a decimal number", it->file, it->value);
}

/* ---- the plan ---- */

struct planner {
	struct cgctl_ctx *ctx;
	struct plan *pl;
	const struct set_item *items;
	size_t n;
	uint32_t kver;
	struct known k[CGCTL_SET_MAX];
	char old[CGCTL_SET_MAX][PLAN_OLD_MAX];
	bool has_old[CGCTL_SET_MAX], done[CGCTL_SET_MAX];
	int phase[CGCTL_SET_MAX];	/* 0 down, 1 as given, 2 up, 3 irreversible */
	int rank[CGCTL_SET_MAX];
};

static bool same_group(const struct set_item *a, const struct set_item *b)
{
	return a->m == b->m && strcmp(a->path, b->path) == 0;
}

/* Read what @it's file holds now, as a value it takes back. */
static int read_old(struct planner *p, size_t i, struct cgctl_error *e)
{
	const struct set_item *it = &p->items[i];
	int r = plan_read_old(p->ctx, it->m, it->path, it->file, p->old[i], sizeof(p->old[i]));

	if (r == -ENOENT)
		return cgctl_error_set(e, ENOENT, "%s: no such control file", it->file);
	if (r == -EACCES || r == -EPERM || r == -EINVAL || r == -EFBIG)
		return 0;	/* write-only or not one line: not restorable */
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot read the old value", it->file);
	p->has_old[i] = true;
	return 0;
}

/* A planned v1 limit of @file in @it's group, else @dflt. */
static uint64_t planned(struct planner *p, const struct set_item *it, const char *file,
			uint64_t dflt)
{
	uint64_t v;

	for (size_t j = 0; j < p->n; j++)
		if (same_group(&p->items[j], it) && strcmp(p->items[j].file, file) == 0 &&
		    memparse(p->items[j].value, "-1", &v) == 0)
			return v;
	return dflt;
}

/* What @file of @it's group holds now.  Returns: 0, -errno. */
static int limit_now(struct planner *p, const struct set_item *it, const char *file,
		     uint64_t *ret)
{
	char *buf = NULL;
	size_t len;
	int r = cgctl_cg_read(p->ctx, it->m, it->path, file, &buf, &len);

	if (r == 0)
		r = cgctl_parse_mem_limit(buf, len, ret);
	free(buf);
	return r;
}

/* The v1 rule memory <= memsw (knob_memsw_ok()) once the plan is done (its order keeps
 * it at every step). */
static int mem_end_rule(struct planner *p, size_t i, struct cgctl_error *e)
{
	const struct set_item *it = &p->items[i];
	uint64_t mem, memsw;

	if (it->m->version != 1 || (strcmp(it->file, "memory.limit_in_bytes") != 0 &&
				    strcmp(it->file, "memory.memsw.limit_in_bytes") != 0))
		return 0;
	/* no swap accounting (no memsw file): no rule */
	if (limit_now(p, it, "memory.limit_in_bytes", &mem) < 0 ||
	    limit_now(p, it, "memory.memsw.limit_in_bytes", &memsw) < 0)
		return 0;
	mem = planned(p, it, "memory.limit_in_bytes", mem);
	memsw = planned(p, it, "memory.memsw.limit_in_bytes", memsw);
	if (!knob_memsw_ok(p->kver, mem, memsw))
		return cgctl_error_set(e, EINVAL, "memory.limit_in_bytes would exceed "
				       "memory.memsw.limit_in_bytes (memory must not exceed "
				       "memory+swap)");
	return 0;
}

/* Phase of a memory limit: down (0), up (2), or unchanged (-1: not written). */
static int mem_phase(struct planner *p, size_t i)
{
	const struct set_item *it = &p->items[i];
	uint32_t kv = knob_kver(p->kver);
	uint64_t nv, ov;

	if (!p->has_old[i] || memparse(it->value, unlimited_of(&p->k[i]), &nv) < 0 ||
	    cgctl_parse_mem_limit(p->old[i], strlen(p->old[i]), &ov) < 0)
		return 1;
	if (cgctl_memcg_limit_pages(kv, nv) == cgctl_memcg_limit_pages(kv, ov))
		return -1;
	return nv < ov ? 0 : 2;
}

static int check_item(struct planner *p, size_t i, struct cgctl_error *e)
{
	const struct set_item *it = &p->items[i];
	const struct known *k = &p->k[i];
	int r;

	if (k->flags & KNOB_TASKS)
		return cgctl_error_set(e, EINVAL, "%s: moving tasks is not a setting; use "
				       "cgctl move, which checks them", it->file);
	for (size_t j = 0; j < i; j++)
		if (same_group(&p->items[j], it) && strcmp(p->items[j].file, it->file) == 0)
			return cgctl_error_set(e, EINVAL, "%s: given twice", it->file);
	r = check_value(k, it, e);
	if (r < 0)
		return r;
	r = read_old(p, i, e);
	if (r < 0)
		return r;
	if (k->unit == KNOB_BYTES) {
		r = mem_end_rule(p, i, e);
		if (r < 0)
			return r;
	}
	if ((k->flags & (KNOB_ACTION | KNOB_NORESTORE)) || !p->has_old[i])
		p->phase[i] = 3;
	else if (k->flags & KNOB_LIMIT)
		p->phase[i] = mem_phase(p, i);
	else
		p->phase[i] = 1;
	if (p->phase[i] == 0 || p->phase[i] == 2)
		p->rank[i] = p->phase[i] == 0 ? k->k->down : k->k->up;
	return 0;
}

/* ---- CPU bandwidth: the items of one group become cgctl_bw_write_plan()'s writes ---- */

static int bw_want(struct planner *p, size_t i, struct cgctl_bw_settings *want)
{
	const struct set_item *it = &p->items[i];
	int64_t q;
	uint64_t v;

	if (strcmp(it->file, "cpu.cfs_quota_us") == 0) {
		q = strtoll(it->value, NULL, 10);
		want->quota_us = q < 0 ? CGCTL_BW_INF : (uint64_t)q;
	} else if (strcmp(it->file, "cpu.cfs_period_us") == 0) {
		decimal(it->value, false, &want->period_us);
	} else if (strcmp(it->file, "cpu.cfs_burst_us") == 0 ||
		   strcmp(it->file, "cpu.max.burst") == 0) {
		decimal(it->value, false, &want->burst_us);
	} else {
		uint64_t period = 0;

		if (cgctl_parse_cpu_max(it->value, strlen(it->value), &v, &period) < 0)
			return -EINVAL;
		want->quota_us = v;
		if (period)
			want->period_us = period;
	}
	return 0;
}

static int plan_bw(struct planner *p, size_t first, struct cgctl_error *e)
{
	const struct set_item *it = &p->items[first];
	struct cgctl_cpu_settings old;
	struct cgctl_bw_settings want;
	int r;

	r = cgctl_cpu_settings_read(p->ctx, it->m, it->path, &old);
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot read the bandwidth setting", it->file);
	want = old.bw;
	for (size_t j = first; j < p->n; j++) {
		if (!(p->k[j].flags & KNOB_BW) || !same_group(&p->items[j], it))
			continue;
		if (bw_want(p, j, &want) < 0)
			return cgctl_error_set(e, EINVAL, "%s=%s: malformed", p->items[j].file,
					       p->items[j].value);
		p->done[j] = true;
	}
	r = predict_bw_steps(p->pl, it->m, it->path, &old.bw, &want, it->item, e);
	return r < 0 ? r : 0;
}

static int build(struct planner *p, struct cgctl_error *e)
{
	int r;

	for (int phase = 0; phase <= 3; phase++) {
		for (int rank = 0; rank < 16; rank++) {
			for (size_t i = 0; i < p->n; i++) {
				const struct set_item *it = &p->items[i];

				if (p->done[i] || p->phase[i] != phase || p->rank[i] != rank)
					continue;
				if ((p->k[i].flags & KNOB_BW) && phase == 1) {
					r = plan_bw(p, i, e);
					if (r < 0)
						return r;
					continue;
				}
				p->done[i] = true;
				/* an irreversible write has nothing to restore */
				if (!plan_add(p->pl, it->m, it->path, it->file, it->value,
					      p->has_old[i] && phase != 3 ? p->old[i] : NULL,
					      it->item))
					return cgctl_error_set(e, E2BIG, "too many writes in one "
							       "set");
			}
			if (phase == 1 || phase == 3)
				break;	/* rank only orders memory limits */
		}
	}
	return 0;
}

static int plan(struct planner *p, size_t *refused, struct cgctl_error *e)
{
	int r, irreversible = 0;

	for (size_t i = 0; i < p->n; i++) {
		r = check_item(p, i, e);
		if (r < 0) {
			*refused = i;
			return r;
		}
		if (p->phase[i] == 3 && irreversible++) {
			*refused = i;
			return cgctl_error_set(e, EINVAL, "%s: a second irreversible write (an "
					       "action, or a value that cannot be restored); "
					       "give it a set of its own", p->items[i].file);
		}
	}
	return build(p, e);
}

/* The items' syntax that needs no reading; their knobs from the table. */
static int check_names(struct planner *p, size_t *refused, struct cgctl_error *e)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct set_item *it = &p->items[i];

		*refused = i;
		if (!it->m || !it->path || !it->file || !it->value || !*it->file ||
		    strchr(it->file, '/'))
			return cgctl_error_set(e, EINVAL, "invalid argument");
		if (strpbrk(it->value, "\n\r"))
			return cgctl_error_set(e, EINVAL, "%s: a value cannot contain a newline",
					       it->file);
		lookup(it->file, &p->k[i]);
	}
	*refused = (size_t)-1;
	return 0;
}

int predict_set_plan(struct plan *pl, const struct set_item *items, size_t n,
		     size_t *refused, struct cgctl_error *e)
{
	struct planner *p;
	int r;

	*refused = (size_t)-1;
	if (n == 0 || n > CGCTL_SET_MAX)
		return cgctl_error_set(e, E2BIG, "at most %d files in one set", CGCTL_SET_MAX);
	p = calloc(1, sizeof(*p));
	if (!p)
		return cgctl_error_set(e, ENOMEM, "out of memory");
	p->ctx = pl->ctx;
	p->pl = pl;
	p->items = items;
	p->n = n;
	p->kver = cgctl_kver_of(pl->ctx);
	r = check_names(p, refused, e);
	if (r == 0)
		r = plan(p, refused, e);
	free(p);
	return r;
}
