/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `cgctl set`'s raw writes as one plan of the settings executor.  A plan is checked
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "predict/settings-internal.h"

enum vkind {
	V_ANY,		/* anything without a newline: the kernel judges */
	V_MEM,		/* memparse() bytes, "-1" (v1) or "max" (v2) */
	V_U64,		/* decimal */
	V_S64,		/* decimal, may be negative */
	V_MAXU64,	/* "max" or decimal */
	V_BOOL,		/* 0 or 1 */
	V_CPUMAX,	/* "max|QUOTA [PERIOD]" */
};

#define K_ACTION	(1u << 0)	/* a write is an act: nothing to restore */
#define K_TASKS		(1u << 1)	/* moves tasks: refused, use move */
#define K_NORESTORE	(1u << 2)	/* reads back in a form it does not take */
#define K_BW		(1u << 3)	/* CPU bandwidth: planned against the tree */

struct known {
	const char *file;
	enum vkind kind;
	unsigned int flags;
};

static const struct known known[] = {
	{ "cgroup.procs", V_ANY, K_TASKS },
	{ "tasks", V_ANY, K_TASKS },
	{ "cgroup.threads", V_ANY, K_TASKS },
	{ "cgroup.kill", V_BOOL, K_ACTION },
	{ "cgroup.subtree_control", V_ANY, K_NORESTORE },
	{ "cgroup.type", V_ANY, K_NORESTORE },
	{ "memory.force_empty", V_ANY, K_ACTION },
	{ "memory.reclaim", V_ANY, K_ACTION },
	{ "memory.oom_control", V_BOOL, K_ACTION },
	{ "memory.limit_in_bytes", V_MEM, 0 },
	{ "memory.memsw.limit_in_bytes", V_MEM, 0 },
	{ "memory.soft_limit_in_bytes", V_MEM, 0 },
	{ "memory.max", V_MEM, 0 },
	{ "memory.high", V_MEM, 0 },
	{ "memory.low", V_MEM, 0 },
	{ "memory.min", V_MEM, 0 },
	{ "memory.swap.max", V_MEM, 0 },
	{ "memory.zswap.max", V_MEM, 0 },
	{ "memory.move_charge_at_immigrate", V_U64, 0 },
	{ "memory.swappiness", V_U64, 0 },
	{ "memory.use_hierarchy", V_BOOL, 0 },
	{ "memory.oom.group", V_BOOL, 0 },
	{ "cpu.cfs_quota_us", V_S64, K_BW },
	{ "cpu.cfs_period_us", V_U64, K_BW },
	{ "cpu.cfs_burst_us", V_U64, K_BW },
	{ "cpu.max", V_CPUMAX, K_BW },
	{ "cpu.max.burst", V_U64, K_BW },
	{ "cpu.shares", V_U64, 0 },
	{ "cpu.weight", V_U64, 0 },
	{ "cpu.weight.nice", V_S64, 0 },
	{ "cpu.idle", V_BOOL, 0 },
	{ "pids.max", V_MAXU64, 0 },
	{ "cgroup.freeze", V_BOOL, 0 },
};

static const struct known *lookup(const char *file)
{
	static const struct known reset = { NULL, V_ANY, K_ACTION };
	size_t len = strlen(file);

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (strcmp(known[i].file, file) == 0)
			return &known[i];
	/* counters a write resets: *failcnt, *max_usage_in_bytes, memory.*peak, the
	 * v1 cpuacct.usage */
	if ((len >= 7 && strcmp(file + len - 7, "failcnt") == 0) ||
	    (len >= 18 && strcmp(file + len - 18, "max_usage_in_bytes") == 0) ||
	    (len >= 5 && strcmp(file + len - 5, ".peak") == 0) ||
	    strcmp(file, "cpuacct.usage") == 0)
		return &reset;
	return NULL;
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
 * only: digits and one of K M G T P E.  Returns: 0, -EINVAL, -ERANGE. */
static int memparse(const char *s, int version, uint64_t *ret)
{
	static const char units[] = "KMGTPE";
	uint64_t v = 0;
	const char *p = s;
	int shift = 0;

	if ((version == 2 && strcmp(s, "max") == 0) || (version == 1 && strcmp(s, "-1") == 0)) {
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

static int check_value(const struct known *k, const struct cgctl_set_item *it,
		       struct cgctl_error *e)
{
	uint64_t v;
	int r;

	switch (k ? k->kind : V_ANY) {
	case V_ANY:
		return 0;
	case V_MEM:
		r = memparse(it->value, it->m->version, &v);
		if (r == -ERANGE)
			return cgctl_error_set(e, EINVAL, "%s=%s: too large", it->file, it->value);
		if (r < 0)
			return cgctl_error_set(e, EINVAL, "%s=%s: not a size (bytes, with an "
					       "optional K, M, G, T, P or E, or %s)", it->file,
					       it->value, it->m->version == 2 ? "max" : "-1");
		return 0;
	case V_U64:
		if (decimal(it->value, false, NULL))
			return 0;
		break;
	case V_S64:
		if (decimal(it->value, true, &v) && v <= (uint64_t)INT64_MAX)
			return 0;
		break;
	case V_MAXU64:
		if (strcmp(it->value, "max") == 0 || decimal(it->value, false, NULL))
			return 0;
		return cgctl_error_set(e, EINVAL, "%s=%s: not a number or max", it->file,
				       it->value);
	case V_BOOL:
		if (strcmp(it->value, "0") == 0 || strcmp(it->value, "1") == 0)
			return 0;
		return cgctl_error_set(e, EINVAL, "%s=%s: takes 0 or 1", it->file, it->value);
	case V_CPUMAX:
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
	const struct cgctl_set_item *items;
	size_t n;
	struct cgctl_set_applied *res;
	const struct known *k[CGCTL_SET_MAX];
	char old[CGCTL_SET_MAX][CGCTL_SET_OLD_MAX];
	bool has_old[CGCTL_SET_MAX], done[CGCTL_SET_MAX];
	int phase[CGCTL_SET_MAX];	/* 0 down, 1 as given, 2 up, 3 irreversible */
	int rank[CGCTL_SET_MAX];
};

static bool same_group(const struct cgctl_set_item *a, const struct cgctl_set_item *b)
{
	return a->m == b->m && strcmp(a->path, b->path) == 0;
}

/* Read what @it's file holds now, as a value it takes back. */
static int read_old(struct planner *p, size_t i, struct cgctl_error *e)
{
	const struct cgctl_set_item *it = &p->items[i];
	char *buf = NULL;
	size_t len;
	int r;

	r = cgctl_cg_read(p->ctx, it->m, it->path, it->file, &buf, &len);
	if (r == -ENOENT)
		return cgctl_error_set(e, ENOENT, "%s: no such control file", it->file);
	if (r == -EACCES || r == -EPERM || r == -EINVAL)
		return 0;	/* write-only: not restorable */
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot read the old value", it->file);
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (!strchr(buf, '\n') && len < sizeof(p->old[i])) {
		memcpy(p->old[i], buf, len + 1);
		p->has_old[i] = true;
	}
	free(buf);
	return 0;
}

static int mem_rank(const char *file, bool down)
{
	static const char *const down_order[] = {
		"memory.soft_limit_in_bytes", "memory.high", "memory.limit_in_bytes",
		"memory.max", "memory.memsw.limit_in_bytes", "memory.swap.max",
		"memory.zswap.max", "memory.low", "memory.min",
	};
	static const char *const up_order[] = {
		"memory.memsw.limit_in_bytes", "memory.swap.max", "memory.zswap.max",
		"memory.limit_in_bytes", "memory.max", "memory.high",
		"memory.soft_limit_in_bytes", "memory.min", "memory.low",
	};
	const char *const *o = down ? down_order : up_order;

	for (int i = 0; i < (int)ARRAY_SIZE(down_order); i++)
		if (strcmp(o[i], file) == 0)
			return i;
	return 0;
}

/* A planned v1 limit of @file in @it's group, else @dflt. */
static uint64_t planned(struct planner *p, const struct cgctl_set_item *it, const char *file,
			uint64_t dflt)
{
	uint64_t v;

	for (size_t j = 0; j < p->n; j++)
		if (same_group(&p->items[j], it) && strcmp(p->items[j].file, file) == 0 &&
		    memparse(p->items[j].value, 1, &v) == 0)
			return v;
	return dflt;
}

/* What @file of @it's group holds now.  Returns: 0, -errno. */
static int limit_now(struct planner *p, const struct cgctl_set_item *it, const char *file,
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

/* The v1 rule of mem_cgroup_resize_max(): limit_in_bytes <= memsw.limit_in_bytes
 * once the plan is done (its order keeps it at every step). */
static int mem_end_rule(struct planner *p, size_t i, struct cgctl_error *e)
{
	const struct cgctl_set_item *it = &p->items[i];
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
	if (memsw != UINT64_MAX && (mem == UINT64_MAX ||
				    mem / CGCTL_PAGE_SIZE > memsw / CGCTL_PAGE_SIZE))
		return cgctl_error_set(e, EINVAL, "memory.limit_in_bytes would exceed "
				       "memory.memsw.limit_in_bytes (memory must not exceed "
				       "memory+swap)");
	return 0;
}

/* Phase of a memory limit: down (0), up (2), or unchanged (-1: not written). */
static int mem_phase(struct planner *p, size_t i)
{
	const struct cgctl_set_item *it = &p->items[i];
	uint64_t nv, ov;

	if (!p->has_old[i] || memparse(it->value, it->m->version, &nv) < 0 ||
	    cgctl_parse_mem_limit(p->old[i], strlen(p->old[i]), &ov) < 0)
		return 1;
	if (nv == ov || (nv != UINT64_MAX && ov != UINT64_MAX &&
			 nv / CGCTL_PAGE_SIZE == ov / CGCTL_PAGE_SIZE))
		return -1;
	return nv < ov ? 0 : 2;
}

static int check_item(struct planner *p, size_t i, struct cgctl_error *e)
{
	const struct cgctl_set_item *it = &p->items[i];
	int r;

	if (!it->m || !it->path || !it->file || !it->value || !*it->file ||
	    strchr(it->file, '/'))
		return cgctl_error_set(e, EINVAL, "invalid argument");
	if (strpbrk(it->value, "\n\r"))
		return cgctl_error_set(e, EINVAL, "%s: a value cannot contain a newline",
				       it->file);
	p->k[i] = lookup(it->file);
	if (p->k[i] && (p->k[i]->flags & K_TASKS))
		return cgctl_error_set(e, EINVAL, "%s: moving tasks is not a setting; use "
				       "cgctl move, which checks them", it->file);
	for (size_t j = 0; j < i; j++)
		if (same_group(&p->items[j], it) && strcmp(p->items[j].file, it->file) == 0)
			return cgctl_error_set(e, EINVAL, "%s: given twice", it->file);
	r = check_value(p->k[i], it, e);
	if (r < 0)
		return r;
	r = read_old(p, i, e);
	if (r < 0)
		return r;
	if (p->k[i] && p->k[i]->kind == V_MEM) {
		r = mem_end_rule(p, i, e);
		if (r < 0)
			return r;
	}
	if ((p->k[i] && (p->k[i]->flags & (K_ACTION | K_NORESTORE))) || !p->has_old[i])
		p->phase[i] = 3;
	else if (p->k[i] && p->k[i]->kind == V_MEM)
		p->phase[i] = mem_phase(p, i);
	else
		p->phase[i] = 1;
	p->rank[i] = p->phase[i] == 0 || p->phase[i] == 2 ?
		     mem_rank(it->file, p->phase[i] == 0) : 0;
	return 0;
}

static struct cgctl_set_step *step(struct planner *p, const struct cgctl_set_item *it,
				   const char *file, const char *value, const char *old,
				   size_t item)
{
	struct cgctl_set_step *s = &p->res->s[p->res->n++];

	s->m = it->m;
	s->path = it->path;
	s->file = file;
	s->item = item;
	s->value = value;
	s->has_old = old != NULL;
	if (old)
		snprintf(s->old, sizeof(s->old), "%s", old);
	return s;
}

/* ---- CPU bandwidth: the items of one group become cgctl_bw_write_plan()'s writes ---- */

static int bw_want(struct planner *p, size_t i, struct cgctl_bw_settings *want)
{
	const struct cgctl_set_item *it = &p->items[i];
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

/* The old value of @file in the group of @it: the last planned write, else as read. */
static const char *bw_old(struct planner *p, const struct cgctl_set_item *it,
			  const char *file, char *buf, size_t len)
{
	char *rb = NULL;
	size_t rl;

	for (int k = p->res->n - 1; k >= 0; k--)
		if (p->res->s[k].m == it->m && strcmp(p->res->s[k].path, it->path) == 0 &&
		    strcmp(p->res->s[k].file, file) == 0)
			return p->res->s[k].value;
	for (size_t j = 0; j < p->n; j++)
		if (same_group(&p->items[j], it) && strcmp(p->items[j].file, file) == 0)
			return p->has_old[j] ? p->old[j] : NULL;
	if (cgctl_cg_read(p->ctx, it->m, it->path, file, &rb, &rl) < 0)
		return NULL;
	while (rl && rb[rl - 1] == '\n')
		rb[--rl] = '\0';
	snprintf(buf, len, "%s", rb);
	free(rb);
	return buf;
}

static int plan_bw(struct planner *p, size_t first, struct cgctl_error *e)
{
	const struct cgctl_set_item *it = &p->items[first];
	struct cgctl_cpu_settings old;
	struct cgctl_bw_settings want;
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];
	struct cgctl_bw_tree t;
	int n, r;

	r = cgctl_cpu_settings_read(p->ctx, it->m, it->path, &old);
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot read the bandwidth setting", it->file);
	want = old.bw;
	for (size_t j = first; j < p->n; j++) {
		if (!p->k[j] || !(p->k[j]->flags & K_BW) || !same_group(&p->items[j], it))
			continue;
		if (bw_want(p, j, &want) < 0)
			return cgctl_error_set(e, EINVAL, "%s=%s: malformed", p->items[j].file,
					       p->items[j].value);
		p->done[j] = true;
	}
	r = cgctl_bw_tree_read(p->ctx, it->m, it->path, &t);
	if (r < 0)
		return cgctl_error_set(e, -r, "cannot read the cpu hierarchy");
	if (t.has_target)
		t.nodes[t.target].bw = old.bw;
	n = cgctl_bw_write_plan(&old.bw, &want, it->m->version, t.has_target ? t.nodes : NULL,
				t.has_target ? t.n : 0, t.target, w, e);
	cgctl_bw_tree_free(&t);
	if (n < 0)
		return n;
	if ((size_t)p->res->n + (size_t)n > ARRAY_SIZE(p->res->s))
		return cgctl_error_set(e, E2BIG, "too many writes in one set");
	for (int k = 0; k < n; k++) {
		char ob[CGCTL_SET_OLD_MAX];
		const char *o = bw_old(p, it, w[k].name, ob, sizeof(ob));
		struct cgctl_set_step *s = step(p, it, w[k].name, NULL, o, first);

		snprintf(s->buf, sizeof(s->buf), "%s", w[k].value);
		s->value = s->buf;
	}
	return 0;
}

static int build(struct planner *p, struct cgctl_error *e)
{
	int r;

	for (int phase = 0; phase <= 3; phase++) {
		for (int rank = 0; rank < 16; rank++) {
			for (size_t i = 0; i < p->n; i++) {
				const struct cgctl_set_item *it = &p->items[i];

				if (p->done[i] || p->phase[i] != phase || p->rank[i] != rank)
					continue;
				if (p->k[i] && (p->k[i]->flags & K_BW) && phase == 1) {
					r = plan_bw(p, i, e);
					if (r < 0)
						return r;
					continue;
				}
				p->done[i] = true;
				/* an irreversible write has nothing to restore */
				step(p, it, it->file, it->value,
				     p->has_old[i] && phase != 3 ? p->old[i] : NULL, i);
			}
			if (phase == 1 || phase == 3)
				break;	/* rank only orders memory limits */
		}
	}
	return 0;
}

/* ---- running it ---- */

static int do_write(const struct predict_writer *wr, struct cgctl_ctx *ctx,
		    const struct cgctl_set_step *s, const char *value)
{
	if (wr && wr->write)
		return wr->write(wr->arg, ctx, s->m, s->path, s->file, value);
	return cgctl_cg_write(ctx, s->m, s->path, s->file, value);
}

/* Undo steps [0, upto) newest first.  Returns: 0, -errno with the step in @e. */
static int undo(const struct predict_writer *wr, struct cgctl_ctx *ctx,
		struct cgctl_set_applied *res, int upto, struct cgctl_error *e)
{
	for (int i = upto - 1; i >= 0; i--) {
		const struct cgctl_set_step *s = &res->s[i];
		int r;

		if (!s->has_old)
			continue;
		r = do_write(wr, ctx, s, s->old);
		if (r < 0) {
			char eb[96];

			return cgctl_error_set(e, -r, "%s=%s: %s", s->file, s->old,
					       strerror_r(-r, eb, sizeof(eb)));
		}
	}
	return 0;
}

/* What the files of steps [0, upto] hold now, "F=V ...", into @out. */
static void holdings(struct cgctl_ctx *ctx, const struct cgctl_set_applied *res, int upto,
		     char *out, size_t len)
{
	size_t used = (size_t)snprintf(out, len, "now");

	for (int i = 0; i <= upto && used < len; i++) {
		const struct cgctl_set_step *s = &res->s[i];
		char *buf = NULL;
		size_t bl;
		bool dup = false;

		for (int k = 0; k < i; k++)
			dup |= res->s[k].m == s->m && strcmp(res->s[k].path, s->path) == 0 &&
			       strcmp(res->s[k].file, s->file) == 0;
		if (dup)
			continue;
		if (cgctl_cg_read(ctx, s->m, s->path, s->file, &buf, &bl) < 0) {
			used += (size_t)snprintf(out + used, len - used, " %s=(unreadable)",
						 s->file);
			continue;
		}
		while (bl && (buf[bl - 1] == '\n' || buf[bl - 1] == ' '))
			buf[--bl] = '\0';
		used += (size_t)snprintf(out + used, len - used, " %s=%s", s->file, buf);
		free(buf);
	}
}

static int failed(const struct predict_writer *wr, struct cgctl_ctx *ctx,
		  struct cgctl_set_applied *res, int i, int r, struct cgctl_error *e)
{
	const struct cgctl_set_step *s = &res->s[i];
	struct cgctl_error ue = { 0 };
	char eb[96], msg[512];

	int upto = i;

	res->failed = i;
	/* a failed write the kernel took all the same (a short write) is undone too */
	if (s->has_old && !predict_unchanged(ctx, s->m, s->path, s->file, s->old))
		upto = i + 1;
	if (undo(wr, ctx, res, upto, &ue) == 0) {
		res->rolled_back = true;
		return cgctl_error_set(e, -r, "%s=%s: %s%s", s->file, s->value,
				       strerror_r(-r, eb, sizeof(eb)),
				       upto ? "; the earlier writes were restored" : "");
	}
	holdings(ctx, res, i, msg, sizeof(msg));
	return cgctl_error_set(e, -r, "%s=%s: %s; restoring failed too (%s); %s", s->file,
			       s->value, strerror_r(-r, eb, sizeof(eb)), ue.msg, msg);
}

static int plan(struct planner *p, struct cgctl_error *e)
{
	int r, irreversible = 0;

	for (size_t i = 0; i < p->n; i++) {
		r = check_item(p, i, e);
		if (r < 0) {
			p->res->refused = (size_t)i;
			return r;
		}
		if (p->phase[i] == 3 && irreversible++) {
			p->res->refused = i;
			return cgctl_error_set(e, EINVAL, "%s: a second irreversible write (an "
					       "action, or a value that cannot be restored); "
					       "give it a set of its own", p->items[i].file);
		}
	}
	return build(p, e);
}

int predict_set_apply_with(struct cgctl_ctx *ctx, const struct cgctl_set_item *items,
			   size_t n, struct cgctl_set_applied *res, struct cgctl_error *e,
			   const struct predict_writer *wr)
{
	struct planner *p;
	sigset_t set, saved;
	bool blocked = false;
	int r = 0;

	if (!ctx || !items || !res || n == 0)
		return cgctl_error_set(e, EINVAL, "invalid argument");
	memset(res, 0, sizeof(*res));
	res->failed = -1;
	res->refused = (size_t)-1;
	if (n > CGCTL_SET_MAX)
		return cgctl_error_set(e, E2BIG, "at most %d files in one set", CGCTL_SET_MAX);
	p = calloc(1, sizeof(*p));
	if (!p)
		return cgctl_error_set(e, ENOMEM, "out of memory");
	p->ctx = ctx;
	p->items = items;
	p->n = n;
	p->res = res;
	r = plan(p, e);
	free(p);
	if (r < 0) {
		res->n = 0;
		return r;
	}
	if (res->n > 1) {
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigaddset(&set, SIGHUP);
		sigaddset(&set, SIGQUIT);
		blocked = pthread_sigmask(SIG_BLOCK, &set, &saved) == 0;
	}
	for (int i = 0; i < res->n; i++) {
		r = do_write(wr, ctx, &res->s[i], res->s[i].value);
		if (r < 0) {
			r = failed(wr, ctx, res, i, r, e);
			break;
		}
	}
	if (blocked)
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (r < 0)
		return r;
	cgctl_error_clear(e);
	return res->n;
}

CGCTL_EXPORT int cgctl_set_apply(struct cgctl_ctx *ctx, const struct cgctl_set_item *items,
				 size_t n, struct cgctl_set_applied *res,
				 struct cgctl_error *e)
{
	return predict_set_apply_with(ctx, items, n, res, e, NULL);
}
