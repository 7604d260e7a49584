/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The getters of struct cgctl_inventory (issue 28: an opaque result, its figures looked
 * up by name as the cgroup snapshot's are, so that its layout is no ABI).  The result
 * is built by lib/kernel/pagescan-result.c.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

struct fig {
	const char *name;
	uint64_t v;
};

static int lookup(const struct fig *f, size_t n, const char *key, uint64_t *ret)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].name, key)) {
			*ret = f[i].v;
			return 0;
		}
	return -EINVAL;
}

static int task_fig(const struct cgctl_inventory *inv, const char *key, uint64_t *ret)
{
	const struct fig f[] = {
		{ "pid", (uint64_t)inv->pid },
		{ "pfn_visible", inv->pfn_visible },
		{ "unknown", inv->unknown },
		{ "present_pages", inv->present_pages },
		{ "zero_pages", inv->zero_pages },
		{ "swap_pages", inv->swap_pages },
		{ "virt_pages", inv->virt_pages },
		{ "vmas", inv->n_vmas },
		{ "task_ino", inv->task_ino },
		{ "groups", inv->n_groups },
		{ "tasks", inv->n_tasks },
		{ "gone_tasks", inv->gone_tasks },
	};

	return lookup(f, ARRAY_SIZE(f), key, ret);
}

CGCTL_EXPORT int cgctl_inventory_get(const struct cgctl_inventory *inv, const char *key,
				     uint64_t *ret)
{
	if (!inv || !key || !ret)
		return -EINVAL;
	return task_fig(inv, key, ret);
}

CGCTL_EXPORT const char *cgctl_inventory_task_cgroup(const struct cgctl_inventory *inv)
{
	return inv ? inv->task_cgroup : NULL;
}

static int group_fig(const struct cgctl_inv_group *g, const char *key, uint64_t *ret)
{
	const struct fig f[] = {
		{ "ino", g->ino },
		{ "pages", g->pages },
		{ "anon_exclusive", g->anon_exclusive },
		{ "anon_shared", g->anon_shared },
		{ "anon_shared_mc2", g->anon_shared_mc2 },
		{ "file", g->file },
		{ "shmem", g->shmem },
		{ "thp", g->thp },
		{ "thp_pmd", g->thp_pmd },
		{ "thp_heads", g->thp_heads },
	};

	return lookup(f, ARRAY_SIZE(f), key, ret);
}

CGCTL_EXPORT int cgctl_inventory_group_get(const struct cgctl_inventory *inv, size_t i,
					   const char *key, uint64_t *ret)
{
	if (!inv || !key || !ret)
		return -EINVAL;
	if (i >= inv->n_groups)
		return -ERANGE;
	return group_fig(&inv->groups[i], key, ret);
}

CGCTL_EXPORT const char *cgctl_inventory_group_path(const struct cgctl_inventory *inv,
						    size_t i)
{
	return inv && i < inv->n_groups ? inv->groups[i].path : NULL;
}
