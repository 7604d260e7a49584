/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of `cgctl mem` and `cgctl move`. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mem-util.h"

uint32_t mem_kver(struct cli *cli)
{
	return cli_kver(cli);
}

const char *mem_kver_str(uint32_t kver, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u", CGCTL_KVER_MAJOR(kver), CGCTL_KVER_MINOR(kver));
	return buf;
}

unsigned int mem_ncpu(struct cli *cli)
{
	return cli_ncpu(cli);
}

/* a figure of the snapshot, UINT64_MAX when absent */
static uint64_t fig(const struct cgctl_cgroup_stat *st, const char *key, bool *has)
{
	uint64_t v;
	bool ok = cgctl_cgroup_stat_get(st, key, &v) == 0;

	if (has)
		*has = ok;
	return ok ? v : UINT64_MAX;
}

/* a knob's value, UINT64_MAX when absent (or unreadable) */
static uint64_t knob(struct cgctl_cgroup *cg, enum cgctl_knob k, bool *has)
{
	uint64_t v;
	bool ok = cgctl_cgroup_get(cg, k, &v) == 0;

	if (has)
		*has = ok;
	return ok ? v : UINT64_MAX;
}

int mem_read_counters(struct cli *cli, const struct cgctl_mount *m, const char *path,
		      struct mem_counters *c)
{
	bool v1 = m->version == 1;
	struct cgctl_cgroup_stat *st = NULL;
	struct cgctl_cgroup *cg;
	int r;

	memset(c, 0xff, sizeof(*c));
	c->has_usage = c->has_limit = c->has_memsw = false;
	r = cgctl_cgroup_new(cli->ctx, "memory", path, &cg);
	if (r < 0)
		return r;
	r = cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM_ALL, &st);
	if (r == 0)
		r = cgctl_cgroup_stat_get(st, "memory.usage", &c->usage);
	if (r == 0)
		c->has_usage = true;
	else if (r == -ENODATA && !v1 && path[strspn(path, "/")] == '\0')
		r = 0;	/* the v2 root: no memory.current (CFTYPE_NOT_ON_ROOT) */
	else if (r == -ENODATA)
		r = -ENOENT;	/* no usage file: not a cgroup of this controller */
	if (r == 0) {
		c->usage = c->has_usage ? c->usage : UINT64_MAX;
		c->limit = knob(cg, CGCTL_KNOB_MEM_LIMIT, &c->has_limit);
		c->max_usage = fig(st, "memory.peak", NULL);
		c->failcnt = fig(st, "memory.failcnt", NULL);
		c->soft_limit = knob(cg, CGCTL_KNOB_MEM_SOFT, NULL);
		c->move_charge = knob(cg, CGCTL_KNOB_MEM_MOVE_CHARGE, NULL);
		c->memsw_usage = fig(st, v1 ? "memory.memsw.usage" : "memory.swap.usage",
				     &c->has_memsw);
		c->memsw_limit = fig(st, v1 ? "memory.memsw" : "memory.swap", NULL);
		if (v1) {
			c->memsw_failcnt = fig(st, "memory.memsw.failcnt", NULL);
			c->memsw_max_usage = fig(st, "memory.memsw.peak", NULL);
		}
	}
	cgctl_cgroup_stat_free(st);
	cgctl_cgroup_unref(cg);
	return r;
}
