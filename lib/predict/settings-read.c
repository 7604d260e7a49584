/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Settings as the interface files hold them: CPU bandwidth (v1 cpu.cfs_*, v2 cpu.max and
 * cpu.max.burst) and the configured memory knobs, read in one place for `bw show`,
 * `bw set`, `mem set`, the move throttling prediction and validate.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "predict/settings-internal.h"

/* The largest v1 limit the kernel prints: PAGE_COUNTER_MAX pages of 4 KiB (3.19+); the
 * res_counter era printed U64_MAX.  Either means "no limit". */
#define MEM_V1_UNLIMITED 9223372036854771712ULL

static int read_text(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		     const char *file, char **buf, size_t *len)
{
	*buf = NULL;
	return cgctl_cg_read(ctx, m, path, file, buf, len);
}

static int read_v2(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   struct cgctl_cpu_settings *s)
{
	char *buf;
	size_t len;
	int r = read_text(ctx, m, path, "cpu.max", &buf, &len);

	if (r == 0)
		r = cgctl_parse_cpu_max(buf, len, &s->bw.quota_us, &s->bw.period_us);
	free(buf);
	if (r == -ENOENT && !strcmp(path, "/")) {
		/* the v2 root has no cpu.max: the kernel's default, no limit */
		s->present |= CGCTL_CPUSET_DEFAULT;
		r = 0;
	}
	return r;
}

static int read_v1(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   struct cgctl_cpu_settings *s)
{
	char *buf;
	size_t len;
	int r = read_text(ctx, m, path, "cpu.cfs_quota_us", &buf, &len);

	if (r == 0)
		r = cgctl_parse_cfs_quota(buf, len, &s->bw.quota_us);
	free(buf);
	if (r == 0)
		r = cgctl_cg_read_u64(ctx, m, path, "cpu.cfs_period_us", &s->bw.period_us);
	return r;
}

CGCTL_EXPORT int cgctl_cpu_settings_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
					 const char *path, struct cgctl_cpu_settings *ret)
{
	struct cgctl_cpu_settings s = {
		.version = m ? m->version : 0,
		.bw = { CGCTL_BW_INF, 100000, 0 },
	};
	int r;

	if (!ctx || !m || !path || !ret)
		return -EINVAL;
	r = m->version == 2 ? read_v2(ctx, m, path, &s) : read_v1(ctx, m, path, &s);
	if (r < 0)
		return r;
	if (cgctl_cg_read_u64(ctx, m, path,
			      m->version == 2 ? "cpu.max.burst" : "cpu.cfs_burst_us",
			      &s.bw.burst_us) == 0)
		s.present |= CGCTL_CPUSET_BURST;
	else
		s.bw.burst_us = 0;
	*ret = s;
	return 0;
}

/* ---- the whole tree, for the write rules ---- */

struct tree_walk {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	const char *target;
	struct cgctl_bw_tree *t;
	size_t cap;
};

static int tree_grow(struct tree_walk *w)
{
	struct cgctl_bw_node *nd;
	size_t cap;

	if (w->t->n < w->cap)
		return 0;
	cap = w->cap ? 2 * w->cap : 16;
	nd = realloc(w->t->nodes, cap * sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	w->t->nodes = nd;
	w->cap = cap;
	return 0;
}

/* Is @path the root, @target or one of its ancestors? */
static bool on_target_path(const struct tree_walk *w, const char *path)
{
	size_t l = strlen(path);

	if (!strcmp(path, "/"))
		return true;
	return w->target && !strncmp(w->target, path, l) &&
	       (w->target[l] == '\0' || w->target[l] == '/');
}

/*
 * A cgroup removed by another program while the tree is read (listed, then its files
 * or its directory gone: ENOENT, or ENODEV from kernfs while it is being removed) is
 * left out, as the kernel leaves it out: sched_release_group() (kernel/sched/core.c,
 * v6.12) unlinks its task group from the parent's children, so __cfs_schedulable()'s
 * walk_tg_tree() no longer checks it.  Until then a write may still be refused for it,
 * which the executor rolls back.  The target and its ancestors must be there.
 */
static bool removed(const struct tree_walk *w, const char *path, int r)
{
	return (r == -ENOENT || r == -ENODEV) && !on_target_path(w, path);
}

/* Drop the last node, @self, added for @path (no child of it added yet). */
static int tree_drop(struct tree_walk *w, int self)
{
	free((char *)w->t->nodes[self].path);
	w->t->n = (size_t)self;
	return 0;
}

static int tree_add(struct tree_walk *w, int parent, const char *path)
{
	struct cgctl_cpu_settings s;
	struct cgctl_bw_node *nd;
	char **kids = NULL;
	ssize_t nk;
	int self, r = tree_grow(w);

	if (r < 0)
		return r;
	self = (int)w->t->n;
	nd = &w->t->nodes[w->t->n++];
	nd->parent = parent;
	nd->path = strdup(path);
	if (!nd->path)
		return -ENOMEM;
	if (w->target && !strcmp(path, w->target)) {
		w->t->target = (size_t)self;
		w->t->has_target = true;
	}
	r = cgctl_cpu_settings_read(w->ctx, w->m, path, &s);
	if (r == -ENOENT && w->m->version == 2)	/* cpu controller not enabled there */
		s.bw = (struct cgctl_bw_settings){ CGCTL_BW_INF, 100000, 0 };
	else if (removed(w, path, r))
		return tree_drop(w, self);
	else if (r < 0)
		return r;
	w->t->nodes[self].bw = s.bw;
	nk = cgctl_cg_children(w->ctx, w->m, path, &kids);
	if (nk < 0 && removed(w, path, (int)nk))
		return tree_drop(w, self);
	if (nk < 0)
		return (int)nk;
	r = 0;
	for (ssize_t i = 0; i < nk && r == 0; i++) {
		char child[PATH_MAX];

		if ((size_t)snprintf(child, sizeof(child), "%s/%s", strcmp(path, "/") ? path : "",
				     kids[i]) >= sizeof(child))
			r = -ENAMETOOLONG;
		else
			r = tree_add(w, self, child);
	}
	cgctl_strv_free(kids);
	return r;
}

CGCTL_EXPORT void cgctl_bw_tree_free(struct cgctl_bw_tree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free((char *)t->nodes[i].path);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

CGCTL_EXPORT int cgctl_bw_tree_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				    const char *target, struct cgctl_bw_tree *ret)
{
	struct tree_walk w = { .ctx = ctx, .m = m, .target = target, .t = ret };
	int r;

	if (!ctx || !m || !ret)
		return -EINVAL;
	memset(ret, 0, sizeof(*ret));
	r = tree_add(&w, -1, "/");
	if (r < 0)
		cgctl_bw_tree_free(ret);
	return r;
}

/* ---- memory ---- */

/* A limit file: bytes, "max" (v2) or the kernel's largest value (v1) -> UINT64_MAX. */
static int read_limit(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      const char *file, uint64_t *v)
{
	char *buf;
	size_t len;
	int r = read_text(ctx, m, path, file, &buf, &len);

	if (r < 0)
		return r;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	if (!strcmp(buf, "max") || !strcmp(buf, "-1"))	/* "-1": as written (fixtures) */
		*v = UINT64_MAX;
	else
		r = cgctl_parse_u64(buf, len, v);
	free(buf);
	if (r == 0 && m->version == 1 && *v >= MEM_V1_UNLIMITED)
		*v = UINT64_MAX;
	return r;
}

struct mem_file {
	unsigned int bit;
	int version;
	const char *name;
	size_t off;	/* of the uint64_t field; SIZE_MAX: not a limit */
};

#define LIM(f) offsetof(struct cgctl_mem_settings, f)
static const struct mem_file mem_files[] = {
	{ CGCTL_MEMSET_MAX, 1, "memory.limit_in_bytes", LIM(max) },
	{ CGCTL_MEMSET_MEMSW, 1, "memory.memsw.limit_in_bytes", LIM(memsw_max) },
	{ CGCTL_MEMSET_SOFT, 1, "memory.soft_limit_in_bytes", LIM(soft) },
	{ CGCTL_MEMSET_MOVE, 1, "memory.move_charge_at_immigrate", SIZE_MAX },
	{ CGCTL_MEMSET_HIER, 1, "memory.use_hierarchy", SIZE_MAX },
	{ CGCTL_MEMSET_MAX, 2, "memory.max", LIM(max) },
	{ CGCTL_MEMSET_HIGH, 2, "memory.high", LIM(high) },
	{ CGCTL_MEMSET_LOW, 2, "memory.low", LIM(low) },
	{ CGCTL_MEMSET_MIN, 2, "memory.min", LIM(min) },
	{ CGCTL_MEMSET_SWAP, 2, "memory.swap.max", LIM(swap_max) },
	{ CGCTL_MEMSET_OOMGROUP, 2, "memory.oom.group", SIZE_MAX },
};
#undef LIM

/* Returns: the interface file of @bit for cgroup @version, or NULL. */
const char *predict_mem_file(unsigned int bit, int version)
{
	for (size_t i = 0; i < ARRAY_SIZE(mem_files); i++)
		if (mem_files[i].bit == bit && mem_files[i].version == version)
			return mem_files[i].name;
	return NULL;
}

static int read_one(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		    const struct mem_file *f, struct cgctl_mem_settings *s)
{
	uint64_t v;
	int r;

	if (f->off != SIZE_MAX)
		return read_limit(ctx, m, path, f->name, (uint64_t *)((char *)s + f->off));
	r = cgctl_cg_read_u64(ctx, m, path, f->name, &v);
	if (r < 0)
		return r;
	if (f->bit == CGCTL_MEMSET_MOVE)
		s->move_charge = (unsigned int)v;
	else if (f->bit == CGCTL_MEMSET_HIER)
		s->use_hierarchy = v != 0;
	else
		s->oom_group = v != 0;
	return 0;
}

CGCTL_EXPORT int cgctl_mem_settings_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
					 const char *path, struct cgctl_mem_settings *ret)
{
	struct cgctl_mem_settings s = {
		.version = m ? m->version : 0,
		.max = UINT64_MAX, .memsw_max = UINT64_MAX, .soft = UINT64_MAX,
		.high = UINT64_MAX, .swap_max = UINT64_MAX,
	};
	int r;

	if (!ctx || !m || !path || !ret)
		return -EINVAL;
	r = cgctl_cg_exists(ctx, m, path);
	if (r <= 0)
		return r ? r : -ENOENT;
	for (size_t i = 0; i < ARRAY_SIZE(mem_files); i++) {
		const struct mem_file *f = &mem_files[i];

		if (f->version != m->version)
			continue;
		r = read_one(ctx, m, path, f, &s);
		if (r == -ENOENT)	/* the root, no swap accounting, an older kernel */
			continue;
		if (r < 0)
			return r;
		s.present |= f->bit;
	}
	*ret = s;
	return 0;
}
