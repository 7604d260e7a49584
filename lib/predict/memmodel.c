/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memory counters of a cgroup as the kernel reports them (v1 and v2 names, one
 * spelling of unlimited and absent), and a memcg model (lib/engine/memcg*) seeded from
 * them for a cgroup and its ancestors: what `cgctl mem`, `cgctl move` and validate read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"
#include "predict/moveplan.h"

/* The counters are read through one open of the cgroup's directory (a move reads them
 * for each level before and after). */
static bool read_opt(int dfd, const char *file, uint64_t *v)
{
	if (cgctl_cg_read_u64_in(dfd, file, v) == 0)
		return true;
	*v = UINT64_MAX;
	return false;
}

static void read_v2(int dfd, struct cgctl_mem_counters *c)
{
	if (read_opt(dfd, "memory.max", &c->limit))
		c->present |= CGCTL_MEMC_LIMIT;
	if (read_opt(dfd, "memory.peak", &c->max_usage))
		c->present |= CGCTL_MEMC_MAX_USAGE;
	c->present_memsw = read_opt(dfd, "memory.swap.current", &c->memsw_usage);
	read_opt(dfd, "memory.swap.max", &c->memsw_limit);
	read_opt(dfd, "memory.swap.peak", &c->memsw_max_usage);
}

static void read_v1(int dfd, struct cgctl_mem_counters *c)
{
	static const struct {
		const char *file;
		size_t off;
		unsigned int bit;
	} f[] = {
		{ "memory.limit_in_bytes", offsetof(struct cgctl_mem_counters, limit),
		  CGCTL_MEMC_LIMIT },
		{ "memory.failcnt", offsetof(struct cgctl_mem_counters, failcnt),
		  CGCTL_MEMC_FAILCNT },
		{ "memory.max_usage_in_bytes", offsetof(struct cgctl_mem_counters, max_usage),
		  CGCTL_MEMC_MAX_USAGE },
		{ "memory.soft_limit_in_bytes", offsetof(struct cgctl_mem_counters, soft_limit),
		  CGCTL_MEMC_SOFT_LIMIT },
		{ "memory.move_charge_at_immigrate",
		  offsetof(struct cgctl_mem_counters, move_charge), CGCTL_MEMC_MOVE_CHARGE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (read_opt(dfd, f[i].file, (uint64_t *)((char *)c + f[i].off)))
			c->present |= f[i].bit;
	c->present_memsw = read_opt(dfd, "memory.memsw.usage_in_bytes",
				    &c->memsw_usage);
	read_opt(dfd, "memory.memsw.limit_in_bytes", &c->memsw_limit);
	read_opt(dfd, "memory.memsw.failcnt", &c->memsw_failcnt);
	read_opt(dfd, "memory.memsw.max_usage_in_bytes", &c->memsw_max_usage);
}

/* The v2 root has no memory.current, memory.max, memory.peak nor memory.swap.* (the
 * kernel's memory_files[] mark them CFTYPE_NOT_ON_ROOT). */
static bool is_v2_root(const struct cgctl_mount *m, const char *path)
{
	return m->version == 2 && path[strspn(path, "/")] == '\0';
}

int cgctl_mem_counters_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			    const char *path, struct cgctl_mem_counters *c)
{
	int dfd, r;

	if (!ctx || !m || !path || !c)
		return -EINVAL;
	memset(c, 0xff, sizeof(*c));
	c->present = 0;
	c->present_memsw = false;
	dfd = cgctl_cg_open(ctx, m, path);
	if (dfd < 0)
		return dfd;
	r = cgctl_cg_read_u64_in(dfd, m->version == 2 ? "memory.current" :
				 "memory.usage_in_bytes", &c->usage);
	if (r == 0)
		c->present |= CGCTL_MEMC_USAGE;
	else if (!(r == -ENOENT && is_v2_root(m, path))) {
		close(dfd);
		return r;
	} else
		c->usage = UINT64_MAX;
	if (m->version == 2)
		read_v2(dfd, c);
	else
		read_v1(dfd, c);
	close(dfd);
	return 0;
}

unsigned int cgctl_mem_subtree_size_upto(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
					 const char *path, unsigned int max)
{
	char **kids = NULL;
	ssize_t n;
	unsigned int total = 1;

	if (max <= 1)
		return 1;
	n = cgctl_cg_children(ctx, m, path, &kids);
	for (ssize_t i = 0; i < n && total < max; i++) {
		char sub[PATH_MAX];

		snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") ? path : "", kids[i]);
		total += cgctl_mem_subtree_size_upto(ctx, m, sub, max - total);
	}
	if (n >= 0)
		cgctl_strv_free(kids);
	return total;
}

CGCTL_EXPORT unsigned int cgctl_mem_subtree_size(struct cgctl_ctx *ctx,
						 const struct cgctl_mount *m,
						 const char *path)
{
	return cgctl_mem_subtree_size_upto(ctx, m, path, UINT_MAX);
}

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

static void seed_node(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm, int id,
		      const char *path)
{
	struct cgctl_mem_counters c;
	struct cgctl_memcg_state s = { .charged = 0 };
	uint64_t h;

	if (cgctl_mem_counters_read(ctx, mm->m, path, &c) < 0)
		return;
	seed_counter(&s.memory, c.usage, c.limit, c.max_usage, c.failcnt);
	seed_counter(&s.memsw, c.memsw_usage, c.memsw_limit, c.memsw_max_usage,
		     c.memsw_failcnt);
	if (!c.present_memsw)
		s.memsw = s.memory;
	cgctl_memcg_seed(mm->tree, id, &s);
	if (mm->m->version != 1)
		return;
	if (cgctl_cg_read_u64(ctx, mm->m, path, "memory.use_hierarchy", &h) == 0)
		cgctl_memcg_set_use_hierarchy(mm->tree, id, h != 0);
	if (c.present & CGCTL_MEMC_MOVE_CHARGE)
		cgctl_memcg_set_move_charge(mm->tree, id, (unsigned int)c.move_charge);
}

static int add_node(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm, int parent,
		    const char *path)
{
	char **v = realloc(mm->paths, (mm->n + 1) * sizeof(*v));
	char *dup = strdup(path);
	int id;

	if (v)
		mm->paths = v;
	if (!v || !dup) {
		free(dup);
		return -ENOMEM;
	}
	id = parent < 0 ? CGCTL_MEMCG_ROOT : cgctl_memcg_create(mm->tree, parent);
	if (id < 0) {
		free(dup);
		return id;
	}
	v[mm->n++] = dup;
	seed_node(ctx, mm, id, path);
	return id;
}

int cgctl_mem_model_node(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm,
			 const char *path)
{
	char parent[PATH_MAX];
	char *slash;
	int pid;

	if (!ctx || !mm || !mm->tree || !path || path[0] != '/')
		return -EINVAL;
	for (size_t i = 0; i < mm->n; i++)
		if (!strcmp(mm->paths[i], path))
			return (int)i;
	if (!strcmp(path, "/"))
		return add_node(ctx, mm, -1, "/");
	if (snprintf(parent, sizeof(parent), "%s", path) >= (int)sizeof(parent))
		return -EINVAL;
	slash = strrchr(parent, '/');
	if (slash == parent)
		slash[1] = '\0';
	else
		*slash = '\0';
	pid = cgctl_mem_model_node(ctx, mm, parent);
	return pid < 0 ? pid : add_node(ctx, mm, pid, path);
}

int cgctl_mem_model_init(struct cgctl_ctx *ctx, const struct cgctl_mount *m, uint32_t kver,
			 unsigned int ncpu, struct cgctl_mem_model *mm)
{
	unsigned int flags = 0;
	uint64_t v;
	int r;

	if (!mm)
		return -EINVAL;
	memset(mm, 0, sizeof(*mm));
	if (!ctx || !m || !ncpu)
		return -EINVAL;
	mm->m = m;
	mm->kver = kver;
	mm->ncpu = ncpu;
	if (m->version == 2)
		flags |= CGCTL_MEMCG_V2;
	else if (cgctl_cg_read_u64(ctx, m, "/", "memory.memsw.usage_in_bytes", &v) == 0)
		flags |= CGCTL_MEMCG_SWAP_ACCOUNT;
	/* an unknown kernel (a fixture without osrelease) is modelled as the newest era */
	r = cgctl_memcg_tree_new(&mm->tree, kver ? kver : CGCTL_KVER_NEWEST, ncpu, flags, 1);
	if (r < 0)
		return r;
	r = cgctl_mem_model_node(ctx, mm, "/");
	if (r < 0)
		cgctl_mem_model_fini(mm);
	return r < 0 ? r : 0;
}

void cgctl_mem_model_fini(struct cgctl_mem_model *mm)
{
	if (!mm)
		return;
	for (size_t i = 0; i < mm->n; i++)
		free(mm->paths[i]);
	free(mm->paths);
	for (size_t i = 0; i < mm->n_expects; i++)
		free(mm->expects[i]);
	free(mm->expects);
	cgctl_memcg_tree_free(mm->tree);
	memset(mm, 0, sizeof(*mm));
}

CGCTL_EXPORT int cgctl_mem_model_new(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				     uint32_t kver, unsigned int ncpu,
				     struct cgctl_mem_model **ret)
{
	struct cgctl_mem_model *mm;
	int r;

	if (!ret)
		return -EINVAL;
	*ret = NULL;
	mm = malloc(sizeof(*mm));
	if (!mm)
		return -ENOMEM;
	r = cgctl_mem_model_init(ctx, m, kver, ncpu, mm);
	if (r < 0) {
		free(mm);
		return r;
	}
	*ret = mm;
	return 0;
}

CGCTL_EXPORT void cgctl_mem_model_free(struct cgctl_mem_model *mm)
{
	cgctl_mem_model_fini(mm);
	free(mm);
}
