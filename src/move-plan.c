/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cgctl move` planning: inventory a task's pages (pagescan), turn them into the
 * engine's input classes, and run cgctl_move_plan() on a model of the source and
 * destination branches seeded from the kernel's own counters.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "move-plan.h"

#define MIN_U(a, b) ((a) < (b) ? (a) : (b))

static uint64_t pages_of(uint64_t bytes)
{
	return bytes == UINT64_MAX ? CGCTL_MEMCG_UNLIMITED : bytes / CGCTL_PAGE_SIZE;
}

static void seed_counter(struct cgctl_memcg_counter *c, uint64_t usage, uint64_t limit,
			 uint64_t peak, uint64_t failcnt)
{
	c->usage = pages_of(usage == UINT64_MAX ? 0 : usage);
	c->max = pages_of(limit);
	c->watermark = peak == UINT64_MAX ? c->usage : pages_of(peak);
	c->failcnt = failcnt == UINT64_MAX ? 0 : failcnt;
}

static void seed_node(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm,
		      int id, const char *path)
{
	struct mem_counters c;
	struct cgctl_memcg_state s = { .charged = 0 };

	if (mem_read_counters(cli, m, path, &c) < 0)
		return;
	seed_counter(&s.memory, c.usage, c.limit, c.max_usage, c.failcnt);
	seed_counter(&s.memsw, c.memsw_usage, c.memsw_limit, c.memsw_max_usage,
		     c.memsw_failcnt);
	if (!c.present_memsw)
		s.memsw = s.memory;
	cgctl_memcg_seed(mm->tree, id, &s);
	if (m->version == 1) {
		uint64_t h = mem_read_or_max(cli, m, path, "memory.use_hierarchy");

		cgctl_memcg_set_use_hierarchy(mm->tree, id, h != 0);
		if (c.move_charge != UINT64_MAX)
			cgctl_memcg_set_move_charge(mm->tree, id, (unsigned int)c.move_charge);
	}
}

static int add_node(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm,
		    int parent, const char *path)
{
	char **v = realloc(mm->paths, (mm->n + 1) * sizeof(*v));
	int id;

	if (!v)
		return -ENOMEM;
	mm->paths = v;
	id = parent < 0 ? CGCTL_MEMCG_ROOT : cgctl_memcg_create(mm->tree, parent);
	if (id < 0)
		return id;
	v[mm->n] = strdup(path);
	if (!v[mm->n])
		return -ENOMEM;
	mm->n++;
	seed_node(cli, m, mm, id, path);
	return id;
}

/* The model id of @path, creating it and its missing ancestors (seeded) on the way. */
static int node_of(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm,
		   const char *path)
{
	char parent[PATH_MAX];
	char *slash;
	int pid;

	for (size_t i = 0; i < mm->n; i++)
		if (!strcmp(mm->paths[i], path))
			return (int)i;
	if (!strcmp(path, "/"))
		return add_node(cli, m, mm, -1, "/");
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (slash == parent)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	pid = node_of(cli, m, mm, parent);
	return pid < 0 ? pid : add_node(cli, m, mm, pid, path);
}

int move_model_init(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm)
{
	unsigned int flags = m->version == 2 ? CGCTL_MEMCG_V2 : 0;
	int r;

	memset(mm, 0, sizeof(*mm));
	mm->kver = mem_kver(cli);
	mm->ncpu = mem_ncpu(cli);
	if (m->version == 1 && mem_read_or_max(cli, m, "/", "memory.memsw.usage_in_bytes") !=
			       UINT64_MAX)
		flags |= CGCTL_MEMCG_SWAP_ACCOUNT;
	r = cgctl_memcg_tree_new(&mm->tree, mm->kver ? mm->kver : CGCTL_KVER(6, 18, 0),
				 mm->ncpu, flags, 1);
	if (r < 0)
		return r;
	r = node_of(cli, m, mm, "/");
	return r < 0 ? r : 0;
}

void move_model_free(struct move_model *mm)
{
	for (size_t i = 0; i < mm->n; i++)
		free(mm->paths[i]);
	free(mm->paths);
	cgctl_memcg_tree_free(mm->tree);
}

static void add_group(struct cgctl_move_counts *c, const struct cgctl_inv_group *g)
{
	uint64_t thp = g->thp_pmd, shared_more = g->anon_shared - g->anon_shared_mc2;
	uint64_t excl = g->anon_exclusive;
	uint64_t t_excl = MIN_U(thp, excl);

	/* whole PMD-mapped THPs are their own class; take them out of the anon counts */
	excl -= t_excl;
	shared_more -= MIN_U(thp - t_excl, shared_more);
	c->anon_excl += excl;
	c->anon_shared2 += g->anon_shared_mc2;
	c->anon_shared_more += shared_more;
	c->thp += thp;
	c->file += g->file;
	c->shmem += g->shmem;
}

/* Split the inventory: groups charged to the task's memcg vs. everywhere else. */
static void fill_input(const struct cgctl_inventory *inv, struct cgctl_move_input *in)
{
	memset(in, 0, sizeof(*in));
	for (size_t i = 0; i < inv->n_groups; i++) {
		const struct cgctl_inv_group *g = &inv->groups[i];
		bool mine = (inv->unknown & CGCTL_INV_UNKNOWN_OWNER) || g->ino == inv->task_ino;

		if (g->ino == 0 && !(inv->unknown & CGCTL_INV_UNKNOWN_OWNER))
			continue;	/* not charged at all (zero page, ...) */
		add_group(mine ? &in->from : &in->elsewhere, g);
	}
	in->from.swap = inv->swap_pages;
}

/* Room below the limits of @to and its ancestors (up to, not including, the root). */
static void headroom(const struct move_model *mm, int to, struct move_expect *e)
{
	uint64_t room = UINT64_MAX;

	for (int id = to; id > 0; id = cgctl_memcg_parent(mm->tree, id)) {
		struct cgctl_memcg_state s;

		if (cgctl_memcg_get(mm->tree, id, &s) < 0)
			break;
		if (s.memory.max != CGCTL_MEMCG_UNLIMITED)
			room = MIN_U(room, s.memory.max > s.memory.usage ?
					   s.memory.max - s.memory.usage : 0);
	}
	e->headroom_known = room != UINT64_MAX;
	e->headroom_pages = room;
}

int move_expect(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm,
		pid_t pid, const char *from, const char *to, struct move_expect *e)
{
	return move_expect_tasks(cli, m, mm, &pid, 1, from, to, e);
}

int move_expect_tasks(struct cli *cli, const struct cgctl_mount *m, struct move_model *mm,
		      const pid_t *pids, size_t n, const char *from, const char *to,
		      struct move_expect *e)
{
	pid_t pid = pids[0];
	struct cgctl_inventory *inv = NULL;
	struct cgctl_move_input in;
	struct cgctl_error err = { 0 };
	int f, t, r;

	memset(e, 0, sizeof(*e));
	f = node_of(cli, m, mm, from);
	t = node_of(cli, m, mm, to);
	if (f < 0 || t < 0) {
		e->why_none = "cannot read the memory counters";
		return 0;
	}
	if (f == t) {
		e->why_none = "already in the destination";
		return 0;
	}
	r = cgctl_inventory_scan_tasks(cli->ctx, pids, n, CGCTL_INV_NO_PATHS, &inv, &err);
	if (r == -ESRCH)
		return r;
	if (r < 0) {
		e->why_none = "cannot inventory the task's pages";
		cli_warn(cli, "%d: no plan: %s", (int)pid, err.msg[0] ? err.msg : cli_strerror(r));
		return 0;
	}
	fill_input(inv, &in);
	e->resident_pages = inv->present_pages - MIN_U(inv->zero_pages, inv->present_pages);
	cgctl_inventory_free(inv);
	headroom(mm, t, e);
	r = cgctl_move_plan(mm->tree, f, t, 0, &in, NULL, &e->plan);
	if (r < 0) {
		e->why_none = "the model cannot plan this move";
		return 0;
	}
	e->have = true;
	return 0;
}

uint64_t move_tolerance(struct cli *cli, const struct cgctl_mount *m,
			const struct move_model *mm, const char *path)
{
	return cgctl_memcg_stock_max_pages(mm->kver, mm->ncpu,
					   mem_subtree_size(cli, m, path)) * CGCTL_PAGE_SIZE;
}
