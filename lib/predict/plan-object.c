// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct cgctl_plan: the one executor's object (lib/predict/plan.h).  It holds items
 * (raw writes, a cpu cgroup's bandwidth, a memory cgroup's knobs); check and apply plan
 * them anew each time under the cgroup lock of every cgroup they name, taken in the
 * order of their paths (two plans of the same cgroups never deadlock): the typed items
 * first, each in its own safe order, in the order added, then the raw writes in theirs
 * (lib/predict/settings-set.c: memory limits down, the others as given, memory limits
 * up, the irreversible write last).  apply then runs the steps (plan_run()).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "predict/plan.h"
#include "predict/settings-internal.h"

enum item_kind { ITEM_RAW, ITEM_BW, ITEM_MEM };

struct item {
	enum item_kind kind;
	const struct cgctl_mount *m;
	char *path, *file, *value;		/* file, value: ITEM_RAW */
	struct cgctl_bw_settings bw;		/* ITEM_BW */
	struct cgctl_mem_settings mem;		/* ITEM_MEM ... */
	unsigned int which;			/* ... its knobs, CGCTL_MEMSET_* */
};

struct cgctl_plan {
	struct cgctl_ctx *ctx;
	const struct predict_writer *wr;
	struct item items[CGCTL_SET_MAX];
	size_t n;
	struct plan_step steps[PLAN_STEPS];
	int nsteps;			/* steps of the last check or apply */
	int failed;
	bool rolled_back;
	int refused;
};

CGCTL_EXPORT int cgctl_plan_new(struct cgctl_ctx *ctx, struct cgctl_plan **ret)
{
	struct cgctl_plan *p;

	if (!ret)
		return -EINVAL;
	*ret = NULL;
	if (!ctx)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->ctx = cgctl_ref(ctx);
	p->failed = -1;
	p->refused = -1;
	*ret = p;
	return 0;
}

CGCTL_EXPORT void cgctl_plan_free(struct cgctl_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->items[i].path);
		free(p->items[i].file);
		free(p->items[i].value);
	}
	cgctl_unref(p->ctx);
	free(p);
}

void predict_plan_set_writer(struct cgctl_plan *p, const struct predict_writer *wr)
{
	p->wr = wr;
}

static bool same_group(const struct item *a, const struct cgctl_mount *m, const char *path)
{
	return a->m == m && !strcmp(a->path, path);
}

/* A new item for @path of @m.  A cgroup of a typed item takes no other item.
 * Returns: the item, or NULL with *@r set. */
static struct item *item_new(struct cgctl_plan *p, enum item_kind kind,
			     const struct cgctl_mount *m, const char *path, int *r)
{
	struct item *it;

	*r = -EINVAL;
	if (!p || !m || !path)
		return NULL;
	for (size_t i = 0; i < p->n; i++)
		if (same_group(&p->items[i], m, path) &&
		    (kind != ITEM_RAW || p->items[i].kind != ITEM_RAW))
			return NULL;
	*r = -E2BIG;
	if (p->n == CGCTL_SET_MAX)
		return NULL;
	*r = -ENOMEM;
	it = &p->items[p->n];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->m = m;
	it->path = strdup(path);
	if (!it->path)
		return NULL;
	*r = (int)p->n++;
	return it;
}

CGCTL_EXPORT int cgctl_plan_add(struct cgctl_plan *p, const struct cgctl_mount *m,
				const char *path, const char *file, const char *value)
{
	struct item *it;
	int r;

	if (!file || !value)
		return -EINVAL;
	it = item_new(p, ITEM_RAW, m, path, &r);
	if (!it)
		return r;
	it->file = strdup(file);
	it->value = strdup(value);
	if (!it->file || !it->value) {
		p->n--;
		free(it->path);
		free(it->file);
		free(it->value);
		return -ENOMEM;
	}
	return r;
}

CGCTL_EXPORT int cgctl_plan_add_bw(struct cgctl_plan *p, const struct cgctl_mount *m,
				   const char *path, const struct cgctl_bw_settings *want)
{
	struct item *it;
	int r;

	if (!want || want->size < sizeof(*want))
		return -EINVAL;
	it = item_new(p, ITEM_BW, m, path, &r);
	if (it) {
		it->bw = *want;
		it->bw.size = sizeof(it->bw);
	}
	return r;
}

CGCTL_EXPORT int cgctl_plan_add_mem(struct cgctl_plan *p, const struct cgctl_mount *m,
				    const char *path, const struct cgctl_mem_settings *want,
				    unsigned int which)
{
	struct item *it;
	int r;

	if (!want)
		return -EINVAL;
	it = item_new(p, ITEM_MEM, m, path, &r);
	if (it) {
		it->mem = *want;
		it->which = which;
	}
	return r;
}

/* ---- planning and running ---- */

/* How the messages of a failed write read: a plan of bandwidth items alone names the
 * files without values and, when the undo fails, every file of the setting; a plan
 * with raw writes speaks of "the earlier writes". */
static void style(struct cgctl_plan *p, struct plan *pl)
{
	static const char *const v1[] = {
		"cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.cfs_burst_us", NULL,
	};
	static const char *const v2[] = { "cpu.max", "cpu.max.burst", NULL };
	bool raw = false, bw_only = true;

	for (size_t i = 0; i < p->n; i++) {
		raw |= p->items[i].kind == ITEM_RAW;
		bw_only &= p->items[i].kind == ITEM_BW;
	}
	if (raw) {
		pl->restored = "the earlier writes were restored";
		pl->undo_failed = "restoring failed too";
	} else if (bw_only) {
		pl->name_only = true;
		pl->also = p->items[0].m->version == 2 ? v2 : v1;
	}
}

/* Every cgroup of the items, locked in the order of their paths. */
static int lock_all(struct cgctl_plan *p, struct plan *pl, struct cgctl_error *e)
{
	size_t order[CGCTL_SET_MAX];

	for (size_t i = 0; i < p->n; i++) {
		const struct item *it = &p->items[i];
		size_t j = i;

		while (j > 0) {
			const struct item *o = &p->items[order[j - 1]];
			int c = strcmp(o->m->path, it->m->path);

			if (c < 0 || (c == 0 && (o->m != it->m || strcmp(o->path, it->path) <= 0)))
				break;
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct item *it = &p->items[order[i]];
		int r = plan_lock(pl, it->m, it->path, e);

		if (r < 0)
			return r;
	}
	return 0;
}

static int plan_typed(struct cgctl_plan *p, struct plan *pl, struct cgctl_error *e)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct item *it = &p->items[i];
		int r = 0;

		if (it->kind == ITEM_BW)
			r = predict_bw_plan(pl, it->m, it->path, &it->bw, i, e);
		else if (it->kind == ITEM_MEM)
			r = predict_mem_plan(pl, it->m, it->path, &it->mem, it->which, i, e);
		if (r < 0) {
			p->refused = (int)i;
			return r;
		}
	}
	return 0;
}

static int plan_raw(struct cgctl_plan *p, struct plan *pl, struct cgctl_error *e)
{
	struct set_item raw[CGCTL_SET_MAX];
	size_t n = 0, refused;
	int r;

	for (size_t i = 0; i < p->n; i++) {
		const struct item *it = &p->items[i];

		if (it->kind == ITEM_RAW)
			raw[n++] = (struct set_item){ it->m, it->path, it->file, it->value, i };
	}
	if (n == 0)
		return 0;
	r = predict_set_plan(pl, raw, n, &refused, e);
	if (r < 0 && refused != (size_t)-1)
		p->refused = (int)raw[refused].item;
	return r;
}

/* Plan the items under their locks, and with @run write them.  Returns: the number of
 * steps, -errno with @e. */
static int execute(struct cgctl_plan *p, bool run, struct cgctl_error *e)
{
	struct plan pl;
	int r;

	if (!p)
		return cgctl_error_set(e, EINVAL, "invalid argument");
	p->nsteps = 0;
	p->failed = -1;
	p->rolled_back = false;
	p->refused = -1;
	if (p->n == 0)
		return cgctl_error_set(e, EINVAL, "an empty plan");
	plan_init(&pl, p->ctx, p->wr, p->steps, PLAN_STEPS);
	style(p, &pl);
	r = lock_all(p, &pl, e);
	if (r == 0)
		r = plan_typed(p, &pl, e);
	if (r == 0)
		r = plan_raw(p, &pl, e);
	if (r < 0)
		pl.n = 0;	/* refused: nothing planned, nothing written */
	else if (run)
		r = plan_run(&pl, e);
	else
		cgctl_error_clear(e);
	p->nsteps = pl.n;
	p->failed = pl.failed;
	p->rolled_back = pl.rolled_back;
	plan_unlock(&pl);
	return r < 0 ? r : pl.n;
}

CGCTL_EXPORT int cgctl_plan_check(struct cgctl_plan *p, struct cgctl_error *e)
{
	return execute(p, false, e);
}

CGCTL_EXPORT int cgctl_plan_apply(struct cgctl_plan *p, struct cgctl_error *e)
{
	return execute(p, true, e);
}

/* ---- what was planned and done ---- */

CGCTL_EXPORT int cgctl_plan_step(const struct cgctl_plan *p, size_t i,
				 const struct cgctl_mount **m, const char **path,
				 const char **file, const char **value, const char **old,
				 unsigned int *flags)
{
	const struct plan_step *s;

	if (!p)
		return -EINVAL;
	if (i >= (size_t)p->nsteps)
		return -ERANGE;
	s = &p->steps[i];
	if (m)
		*m = s->m;
	if (path)
		*path = s->path;
	if (file)
		*file = s->file;
	if (value)
		*value = s->value;
	if (old)
		*old = s->has_old ? s->old : NULL;
	if (flags)
		*flags = s->flags;
	return 0;
}

CGCTL_EXPORT int cgctl_plan_failed(const struct cgctl_plan *p)
{
	return p ? p->failed : -1;
}

CGCTL_EXPORT bool cgctl_plan_rolled_back(const struct cgctl_plan *p)
{
	return p && p->rolled_back;
}

CGCTL_EXPORT int cgctl_plan_refused(const struct cgctl_plan *p)
{
	return p ? p->refused : -1;
}
