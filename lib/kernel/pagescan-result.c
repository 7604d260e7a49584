/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page inventory result: per-memcg counters into struct cgctl_inventory, and memcg
 * inode numbers (what /proc/kpagecgroup holds: mm/memcontrol.c:page_cgroup_ino(), the
 * kernfs node id of the cgroup directory) into paths of the memory hierarchy.  Most
 * pages belong to the task's own cgroup or an ancestor (pages of a removed cgroup
 * report the nearest online ancestor), so that chain is tried before a walk of the
 * whole hierarchy, breadth first, which stops once every inode is known.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/pagescan-result.h"

struct resolver {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	struct cgctl_inventory *inv;
	size_t remaining;	/* groups with a nonzero inode and no path yet */
};

/* Give @path to the group whose inode @path has.  Returns: 0, -ENOMEM. */
static int try_path(struct resolver *rs, const char *path)
{
	uint64_t ino;

	if (cgctl_cg_ino(rs->ctx, rs->m, path, &ino) < 0 || !ino)
		return 0;
	for (size_t i = 0; i < rs->inv->n_groups; i++) {
		struct cgctl_inv_group *g = &rs->inv->groups[i];

		if (g->ino != ino || g->path)
			continue;
		g->path = strdup(path);
		if (!g->path)
			return -ENOMEM;
		rs->remaining--;
	}
	return 0;
}

/* @path and its ancestors up to the root. */
static int try_chain(struct resolver *rs, const char *path)
{
	char p[PATH_MAX];
	int r;

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return 0;
	for (;;) {
		char *slash;

		r = try_path(rs, p);
		if (r < 0 || !rs->remaining || strcmp(p, "/") == 0)
			return r;
		slash = strrchr(p, '/');
		if (!slash)
			return 0;
		if (slash == p)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/* A queue of cgroup paths to list, owned strings. */
struct pathq {
	char **v;
	size_t head, n, cap;
};

static int pathq_push(struct pathq *q, const char *path)
{
	if (q->n == q->cap) {
		size_t c = q->cap ? q->cap * 2 : 64;
		char **nv = realloc(q->v, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		q->v = nv;
		q->cap = c;
	}
	q->v[q->n] = strdup(path);
	if (!q->v[q->n])
		return -ENOMEM;
	q->n++;
	return 0;
}

static void pathq_free(struct pathq *q)
{
	for (size_t i = q->head; i < q->n; i++)
		free(q->v[i]);
	free(q->v);
}

/*
 * The whole hierarchy, breadth first: the owners not on the task's chain are most often
 * near the top (a sibling of the task's cgroup or of an ancestor), and a deep subtree of
 * thousands of cgroups (a service's, a benchmark's) is then listed only if they are not
 * found before.  Each cgroup is looked at once, when its parent is listed.
 */
static int walk(struct resolver *rs)
{
	struct pathq q = { 0 };
	int r = try_path(rs, "/");

	if (r == 0 && rs->remaining)
		r = pathq_push(&q, "/");
	while (r == 0 && rs->remaining && q.head < q.n) {
		char *path = q.v[q.head++], **kids = NULL;
		ssize_t n = cgctl_cg_children(rs->ctx, rs->m, path, &kids);

		/* (n < 0: removed meanwhile, or unreadable: skip that subtree) */
		for (ssize_t i = 0; i < n && rs->remaining && r == 0; i++) {
			char child[PATH_MAX];

			if (snprintf(child, sizeof(child), "%s/%s", strcmp(path, "/") ? path : "",
				     kids[i]) >= (int)sizeof(child))
				continue;
			r = try_path(rs, child);
			if (r == 0)
				r = pathq_push(&q, child);
		}
		cgctl_strv_free(kids);
		free(path);
	}
	pathq_free(&q);
	return r;
}

/* The task's memory cgroup (set in @inv, unless @out knows it already) and the paths of
 * all groups. */
static int resolve(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
		   struct ps_scan_out *out, struct cgctl_inventory *inv)
{
	struct resolver rs = { .ctx = ctx, .inv = inv };
	int r;

	if (cgctl_mount_find(ctx, "memory", &rs.m) < 0)
		return 0;	/* no memory hierarchy: no paths, not an error */
	if (out->task_known) {
		inv->task_cgroup = out->task_cgroup;
		inv->task_ino = out->task_ino;
		out->task_cgroup = NULL;
	} else if (cgctl_pid_cgroup(ctx, pid, rs.m, &inv->task_cgroup) == 0) {
		cgctl_cg_ino(ctx, rs.m, inv->task_cgroup, &inv->task_ino);
	}
	if (flags & CGCTL_INV_NO_PATHS || inv->unknown & CGCTL_INV_UNKNOWN_OWNER)
		return 0;
	for (size_t i = 0; i < inv->n_groups; i++) {
		struct cgctl_inv_group *g = &inv->groups[i];

		/* most pages are the task's own cgroup's: known without a stat */
		if (g->ino && g->ino == inv->task_ino && inv->task_cgroup && !g->path) {
			g->path = strdup(inv->task_cgroup);
			if (!g->path)
				return -ENOMEM;
		}
		rs.remaining += g->ino != 0 && !g->path;
	}
	r = 0;
	if (rs.remaining && inv->task_cgroup)
		r = try_chain(&rs, inv->task_cgroup);
	if (r == 0 && rs.remaining)
		r = walk(&rs);
	return r;
}

static void fill_group(struct cgctl_inv_group *d, const struct ps_group *s)
{
	d->ino = s->ino;
	d->anon_exclusive = s->cat[PS_ANON_EXCL];
	d->anon_shared = s->cat[PS_ANON_SHARED];
	d->anon_shared_mc2 = s->shared_mc2;
	d->file = s->cat[PS_FILE];
	d->shmem = s->cat[PS_SHMEM];
	d->thp = s->thp;
	d->thp_pmd = s->thp_pmd;
	d->thp_heads = s->thp_heads;
	d->pages = d->anon_exclusive + d->anon_shared + d->file + d->shmem;
}

static int group_cmp(const void *a, const void *b)
{
	const struct cgctl_inv_group *x = a, *y = b;

	if (x->pages != y->pages)
		return x->pages > y->pages ? -1 : 1;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

/* Pages whose PFN was hidden: one group of unknown owner. */
static int add_hidden(struct ps_groups *g, const struct ps_pmstat *st)
{
	struct ps_group *h;

	if (!(st->hidden_anon_excl | st->hidden_anon_shared | st->hidden_file))
		return 0;
	h = ps_groups_get(g, 0);
	if (!h)
		return -ENOMEM;
	h->cat[PS_ANON_EXCL] += st->hidden_anon_excl;
	h->cat[PS_ANON_SHARED] += st->hidden_anon_shared;
	h->cat[PS_FILE] += st->hidden_file;
	return 1;
}

static int build_groups(struct cgctl_inventory *inv, const struct ps_scan_out *out)
{
	struct ps_groups all = { 0 };
	int r = ps_groups_merge(&all, &out->groups);

	if (r == 0)
		r = add_hidden(&all, &out->st);
	if (r > 0) {
		inv->pfn_visible = false;
		inv->unknown |= CGCTL_INV_UNKNOWN_OWNER | CGCTL_INV_UNKNOWN_SHMEM |
				CGCTL_INV_UNKNOWN_THP | CGCTL_INV_UNKNOWN_MAPCOUNT;
		r = 0;
	}
	if (r == 0 && all.n) {
		inv->groups = calloc(all.n, sizeof(*inv->groups));
		r = inv->groups ? 0 : -ENOMEM;
	}
	for (size_t i = 0; r == 0 && i < all.n; i++) {
		uint64_t pages;

		fill_group(&inv->groups[i], &all.v[i]);
		pages = inv->groups[i].pages;
		if (pages)
			inv->groups[inv->n_groups++] = inv->groups[i];
	}
	ps_groups_free(&all);
	if (r == 0 && inv->n_groups)
		qsort(inv->groups, inv->n_groups, sizeof(*inv->groups), group_cmp);
	return r;
}

int ps_result_build(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
		    struct ps_scan_out *out, struct cgctl_inventory **ret,
		    struct cgctl_error *e)
{
	struct cgctl_inventory *inv = calloc(1, sizeof(*inv));
	int r;

	if (!inv)
		return cgctl_error_set(e, ENOMEM, "%d: out of memory", (int)pid);
	inv->pid = pid;
	inv->pfn_visible = true;
	inv->unknown = out->unknown;
	inv->swap_pages = out->st.swap;
	inv->zero_pages = out->zero;
	inv->present_pages = out->runs.pages + out->st.hidden_anon_excl +
			     out->st.hidden_anon_shared + out->st.hidden_file;
	inv->virt_pages = out->virt_pages;
	inv->n_vmas = out->n_vmas;
	r = build_groups(inv, out);
	if (r == 0)
		r = resolve(ctx, pid, flags, out, inv);
	if (r < 0) {
		cgctl_inventory_free(inv);
		return cgctl_error_set(e, -r, "%d: %s", (int)pid, strerror(-r));
	}
	*ret = inv;
	return 0;
}

CGCTL_EXPORT void cgctl_inventory_free(struct cgctl_inventory *inv)
{
	if (!inv)
		return;
	for (size_t i = 0; i < inv->n_groups; i++)
		free(inv->groups[i].path);
	free(inv->groups);
	free(inv->task_cgroup);
	free(inv);
}

const struct cgctl_inv_group *cgctl_inventory_group(
						    const struct cgctl_inventory *inv, uint64_t ino)
{
	for (size_t i = 0; inv && i < inv->n_groups; i++)
		if (inv->groups[i].ino == ino)
			return &inv->groups[i];
	return NULL;
}
