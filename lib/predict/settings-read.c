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
#include "kernel/knobs.h"
#include "predict/settings-internal.h"

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
		.size = sizeof(s),
		.version = m ? m->version : 0,
		.bw = CGCTL_BW_SETTINGS_INIT(CGCTL_BW_INF, 100000, 0),
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
	struct cgctl_error *e;	/* predict_bw_tree(): name what failed */
	bool lenient;		/* skip unreadable cgroups no rule of @target involves */
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

/* Is @path a descendant of @target? */
static bool below_target(const struct tree_walk *w, const char *path)
{
	size_t l = w->target ? strlen(w->target) : 0;

	if (!w->target)
		return false;
	if (!strcmp(w->target, "/"))
		return strcmp(path, "/") != 0;
	return !strncmp(path, w->target, l) && path[l] == '/';
}

/* The first bandwidth file of @path that cannot be read, for a message. */
static const char *bad_file(const struct tree_walk *w, const char *path)
{
	static const char *const v1[] = { "cpu.cfs_quota_us", "cpu.cfs_period_us" };
	static const char *const v2[] = { "cpu.max" };
	const char *const *f = w->m->version == 2 ? v2 : v1;
	size_t n = w->m->version == 2 ? ARRAY_SIZE(v2) : ARRAY_SIZE(v1);

	for (size_t i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len;
		int r = cgctl_cg_read(w->ctx, w->m, path, f[i], &buf, &len);

		free(buf);
		if (r < 0)
			return f[i];
	}
	return f[0];
}

/*
 * A cgroup that cannot be read (a broken or unreadable sibling, EACCES, EISDIR ...):
 * the kernel's rules of a write to @target (tg_cfs_schedulable_down(), v6.12) compare
 * the target with its nearest limited ancestor and its descendants with it, so a cgroup
 * neither above nor below the target is left out, with its subtree, when lenient.
 * Otherwise the error names it and its file.  Returns: 1 to leave it out, -errno.
 */
static int unreadable(struct tree_walk *w, const char *path, const char *what, int r)
{
	char eb[96];

	if (w->lenient && !on_target_path(w, path) && !below_target(w, path))
		return 1;
	if (!w->e)
		return r;
	if (!what)
		what = bad_file(w, path);
	return cgctl_error_set(w->e, -r, "%s%s%s: %s", path, strcmp(path, "/") ? "/" : "",
			       what, strerror_r(-r, eb, sizeof(eb)));
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
		s.bw = CGCTL_BW_SETTINGS(CGCTL_BW_INF, 100000, 0);
	else if (removed(w, path, r))
		return tree_drop(w, self);
	else if (r < 0)
		return (r = unreadable(w, path, NULL, r)) > 0 ? tree_drop(w, self) : r;
	w->t->nodes[self].bw = s.bw;
	nk = cgctl_cg_children(w->ctx, w->m, path, &kids);
	if (nk < 0 && removed(w, path, (int)nk))
		return tree_drop(w, self);
	if (nk < 0)
		return (r = unreadable(w, path, "(its children)", (int)nk)) > 0 ?
		       tree_drop(w, self) : r;
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

void cgctl_bw_tree_free(struct cgctl_bw_tree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free((char *)t->nodes[i].path);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

int cgctl_bw_tree_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
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

int predict_bw_tree(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *target,
		    struct cgctl_bw_tree *ret, struct cgctl_error *e)
{
	struct cgctl_error te = CGCTL_ERROR_INIT;
	struct tree_walk w = { .ctx = ctx, .m = m, .target = target, .t = ret, .e = &te,
			       .lenient = true };
	char eb[96];
	int r;

	memset(ret, 0, sizeof(*ret));
	r = tree_add(&w, -1, "/");
	if (r == 0 && !ret->has_target)
		r = -ENOENT;
	if (r == 0)
		return 0;
	cgctl_bw_tree_free(ret);
	if (te.msg[0])
		return cgctl_error_set(e, -r, "%s", te.msg);
	if (r == -ENOENT)
		return cgctl_error_set(e, ENOENT, "no such cgroup");
	return cgctl_error_set(e, -r, "cannot read the cpu hierarchy: %s",
			       strerror_r(-r, eb, sizeof(eb)));
}

/* ---- memory ---- */

/* A limit file: bytes, "max" (v2) or the kernel's largest value (v1) -> UINT64_MAX, by
 * the one parser of limits (cgctl_parse_mem_limit(): PAGE_COUNTER_MAX of any page size,
 * "-1" as written), which struct cgctl_cgroup's getters use too. */
static int read_limit(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      const char *file, uint64_t *v)
{
	char *buf;
	size_t len;
	int r = read_text(ctx, m, path, file, &buf, &len);

	if (r < 0)
		return r;
	r = cgctl_parse_mem_limit(buf, len, v);
	free(buf);
	return r;
}

uint64_t *predict_mem_field(struct cgctl_mem_settings *s, unsigned int bit)
{
	switch (bit) {
	case CGCTL_MEMSET_MAX: return &s->max;
	case CGCTL_MEMSET_MEMSW: return &s->memsw_max;
	case CGCTL_MEMSET_SOFT: return &s->soft;
	case CGCTL_MEMSET_HIGH: return &s->high;
	case CGCTL_MEMSET_LOW: return &s->low;
	case CGCTL_MEMSET_MIN: return &s->min;
	case CGCTL_MEMSET_SWAP: return &s->swap_max;
	default: return NULL;
	}
}

/* One knob of the table (lib/kernel/knobs.c) into @s. */
static int read_one(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		    const struct knob *k, struct cgctl_mem_settings *s)
{
	const char *file = knob_file(k, m->version);
	uint64_t v;
	int r;

	if (k->unit[m->version - 1] == KNOB_BYTES)
		return read_limit(ctx, m, path, file, predict_mem_field(s, k->memset));
	r = cgctl_cg_read_u64(ctx, m, path, file, &v);
	if (r < 0)
		return r;
	if (k->memset == CGCTL_MEMSET_MOVE)
		s->move_charge = (unsigned int)v;
	else if (k->memset == CGCTL_MEMSET_HIER)
		s->use_hierarchy = v != 0;
	else
		s->oom_group = v != 0;
	return 0;
}

CGCTL_EXPORT int cgctl_mem_settings_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
					 const char *path, struct cgctl_mem_settings *ret)
{
	struct cgctl_mem_settings s = {
		.size = sizeof(s),
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
	for (size_t i = 0; knob_at(i); i++) {
		const struct knob *k = knob_at(i);

		if (!k->memset || !knob_file(k, m->version))
			continue;
		r = read_one(ctx, m, path, k, &s);
		if (r == -ENOENT)	/* the root, no swap accounting, an older kernel */
			continue;
		if (r < 0)
			return r;
		s.present |= k->memset;
	}
	*ret = s;
	return 0;
}
