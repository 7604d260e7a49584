/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The move plan: a page inventory (lib/kernel/pagescan) becomes the move-charge classes
 * of the engine's planner (lib/engine/movecharge.c) by one rule, and the plan adds the
 * destination's headroom and the OOM risk.  `cgctl move`, its --dry-run and validate's
 * move driver all come through here.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/pagescan.h"
#include "predict/moveplan.h"

int cgctl_move_expect_inventory(struct cgctl_memcg_tree *t, int from, int to,
				const struct cgctl_inventory *inv,
				uint64_t from_ino, struct cgctl_move_expect *e)
{
	struct cgctl_move_input in;
	uint64_t resident;
	int r = cgctl_move_input_from_inventory(inv, from_ino, &in);

	if (r < 0) {
		if (e)
			memset(e, 0, sizeof(*e));
		return r;
	}
	resident = inv->present_pages - MIN(inv->zero_pages, inv->present_pages);
	return cgctl_move_expect_input(t, from, to, &in, resident, e);
}

/*
 * With bit 1 (MOVE_FILE) the kernel also moves page cache the tasks' file mappings
 * cover without mapping it (mc_handle_file_pte(), v6.1: lib/kernel/pagecache.c): add
 * what is charged to the source, as file pages (large folios: precharged, not moved).
 * Unknown (not root, ...) adds nothing.
 */
void cgctl_move_input_add_unmapped(struct cgctl_move_input *in,
				   const struct cgctl_unmapped_cache *c)
{
	uint64_t large_file = c->large - MIN(c->large_shmem, c->large);

	in->from.file += c->file - MIN(large_file, c->file);
	in->from.shmem += c->shmem - MIN(c->large_shmem, c->shmem);
	in->from.file_large += c->large;
	in->from.file_large_counted += c->large;
}

CGCTL_EXPORT int cgctl_move_input_add_cache(struct cgctl_ctx *ctx, const pid_t *pids,
					   size_t n, uint64_t from_ino,
					   struct cgctl_move_input *in)
{
	struct cgctl_unmapped_cache c;
	int r;

	if (!ctx || !in || (n && !pids))
		return -EINVAL;
	r = cgctl_unmapped_cache_scan(ctx, pids, n, from_ino, &c);
	if (r < 0)
		return r;
	cgctl_move_input_add_unmapped(in, &c);
	return 0;
}

static int expect_tasks_inventory(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm, int f,
				  int t, const pid_t *pids, size_t n,
				  const struct cgctl_inventory *inv, struct cgctl_move_expect *e)
{
	struct cgctl_memcg_state to;
	struct cgctl_move_input in;
	struct cgctl_unmapped_cache c;
	uint64_t resident;
	int r = cgctl_move_input_from_inventory(inv, 0, &in);

	if (r < 0) {
		memset(e, 0, sizeof(*e));
		return r;
	}
	if (cgctl_memcg_moves_charges(mm->kver) && cgctl_memcg_get(mm->tree, t, &to) == 0 &&
	    (to.move_charge & CGCTL_MOVE_CHARGE_FILE) && inv->task_ino &&
	    cgctl_unmapped_cache_scan(ctx, pids, n, inv->task_ino, &c) == 0)
		cgctl_move_input_add_unmapped(&in, &c);
	resident = inv->present_pages - MIN(inv->zero_pages, inv->present_pages);
	return cgctl_move_expect_input(mm->tree, f, t, &in, resident, e);
}

int cgctl_move_expect_tasks_into(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm,
				 const pid_t *pids, size_t n, const char *from, const char *to,
				 struct cgctl_move_expect *e, struct cgctl_error *err)
{
	struct cgctl_inventory *inv = NULL;
	int f, t, r;

	if (!e)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	if (!ctx || !mm || !mm->tree || !pids || !n || !from || !to)
		return -EINVAL;
	f = cgctl_mem_model_node(ctx, mm, from);
	t = cgctl_mem_model_node(ctx, mm, to);
	if (f < 0 || t < 0) {
		e->why_none = "cannot read the memory counters";
		return 0;
	}
	if (f == t) {
		e->why_none = "already in the destination";
		return 0;
	}
	r = cgctl_inventory_scan_tasks(ctx, pids, n, CGCTL_INV_NO_PATHS, &inv, err);
	if (r == -ESRCH)
		return r;
	if (r < 0) {
		e->why_none = "cannot inventory the task's pages";
		return 0;
	}
	r = expect_tasks_inventory(ctx, mm, f, t, pids, n, inv, e);
	cgctl_inventory_free(inv);
	return r == -EINVAL ? 0 : r;
}

/* Keep @e in @mm (freed with it).  Returns: 0, -ENOMEM. */
static int model_keep(struct cgctl_mem_model *mm, struct cgctl_move_expect *e)
{
	struct cgctl_move_expect **v;

	v = realloc(mm->expects, (mm->n_expects + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[mm->n_expects++] = e;
	mm->expects = v;
	return 0;
}

CGCTL_EXPORT int cgctl_move_expect_tasks(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm,
					 const pid_t *pids, size_t n, const char *from,
					 const char *to, const struct cgctl_move_expect **ret,
					 struct cgctl_error *err)
{
	struct cgctl_move_expect *e;
	int r;

	if (!ret || !mm)
		return -EINVAL;
	*ret = NULL;
	e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	r = cgctl_move_expect_tasks_into(ctx, mm, pids, n, from, to, e, err);
	if (r == 0)
		r = model_keep(mm, e);
	if (r < 0) {
		free(e);
		return r;
	}
	*ret = e;
	return 0;
}

/* The figures of a plan by name (struct cgctl_move_expect in lib/libcgctl.h). */
static bool expect_plan_get(const struct cgctl_move_expect *e, const char *key,
			    int64_t *ret)
{
	const struct cgctl_move_plan *p = &e->plan;
	const struct cgctl_move_counts *q = &p->qualify;
	const struct {
		const char *key;
		int64_t v;
	} t[] = {
		{ "moves", p->moves },
		{ "err", p->err },
		{ "precharge", (int64_t)p->precharge },
		{ "anon", (int64_t)(q->anon_excl + q->anon_shared2 + q->anon_shared_more +
				    q->thp) },
		{ "file", (int64_t)q->file },
		{ "shmem", (int64_t)q->shmem },
		{ "moved", (int64_t)p->moved },
		{ "moved_swap", (int64_t)p->moved_swap },
		{ "stays", (int64_t)p->stays },
		{ "resident", (int64_t)e->resident_pages },
		{ "headroom", (int64_t)e->headroom_pages },
		{ "oom_risk", e->oom_risk },
		{ "from_delta", e->from_delta_pages },
		{ "to_delta", e->to_delta_pages },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		if (!strcmp(t[i].key, key)) {
			*ret = t[i].v;
			return true;
		}
	}
	return false;
}

CGCTL_EXPORT int cgctl_move_expect_get(const struct cgctl_move_expect *e, const char *key,
				       int64_t *ret)
{
	int64_t v;

	if (!e || !key || !ret)
		return -EINVAL;
	if (!strcmp(key, "planned")) {
		*ret = e->have;
		return 0;
	}
	if (!expect_plan_get(e, key, &v))
		return -EINVAL;
	if (!e->have)
		return -ENODATA;
	*ret = v;
	return 0;
}

CGCTL_EXPORT const char *cgctl_move_expect_note(const struct cgctl_move_expect *e)
{
	if (!e)
		return NULL;
	if (!e->have)
		return e->why_none;
	return e->plan.moves ? NULL : e->plan.reason;
}

CGCTL_EXPORT uint64_t cgctl_move_tolerance_bytes(struct cgctl_ctx *ctx,
						 const struct cgctl_mem_model *mm,
						 const char *path)
{
	struct cgctl_memcg_era era = { .size = sizeof(era) };
	unsigned int n;

	if (!ctx || !mm || !mm->m || !path)
		return 0;
	/* the stock holds at most stock_slots cgroups a CPU: counting the subtree past
	 * that changes nothing (a move beside 2,000 sibling cgroups walked them all) */
	if (cgctl_memcg_era_get(mm->kver, &era) < 0)
		return 0;
	n = cgctl_mem_subtree_size_upto(ctx, mm->m, path, era.stock_slots);
	return cgctl_memcg_stock_max_pages(mm->kver, mm->ncpu, n) * CGCTL_PAGE_SIZE;
}

bool cgctl_memcg_moves_charges(uint32_t kver)
{
	struct cgctl_memcg_era era = { .size = sizeof(era) };

	return kver && cgctl_memcg_era_get(kver, &era) == 0 && era.move_bits != 0;
}
