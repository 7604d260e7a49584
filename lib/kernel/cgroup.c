/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct cgctl_cgroup (issue 28): one cgroup of one hierarchy, opaque and reference
 * counted, the kmod_module way.  Its knobs are read through the one table of interface
 * files (lib/kernel/knobs.c): which file a knob is on cgroup v1 and v2, its unit and
 * its spellings of "no limit".  The getters hide the version; the setter is in
 * lib/predict/cgroup-set.c (a plan of the one executor).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/cgroup.h"
#include "kernel/knobs.h"

/* enum cgctl_knob -> the knob table's name */
static const char *const knob_names[CGCTL_KNOB_COUNT_] = {
	[CGCTL_KNOB_MEM_LIMIT] = "memory.limit",
	[CGCTL_KNOB_MEM_MEMSW] = "memory.memsw",
	[CGCTL_KNOB_MEM_SOFT] = "memory.soft",
	[CGCTL_KNOB_MEM_HIGH] = "memory.high",
	[CGCTL_KNOB_MEM_LOW] = "memory.low",
	[CGCTL_KNOB_MEM_MIN] = "memory.min",
	[CGCTL_KNOB_MEM_SWAP] = "memory.swap",
	[CGCTL_KNOB_MEM_SWAPPINESS] = "memory.swappiness",
	[CGCTL_KNOB_CPU_QUOTA] = "cpu.quota",
	[CGCTL_KNOB_CPU_PERIOD] = "cpu.period",
	[CGCTL_KNOB_CPU_BURST] = "cpu.burst",
	[CGCTL_KNOB_CPU_SHARES] = "cpu.shares",
	[CGCTL_KNOB_CPU_WEIGHT] = "cpu.weight",
	[CGCTL_KNOB_PIDS_MAX] = "pids.max",
	[CGCTL_KNOB_MEM_MOVE_CHARGE] = "memory.move_charge",
};

const struct knob *cgroup_knob(enum cgctl_knob k)
{
	const struct knob *kn;

	if ((unsigned int)k >= CGCTL_KNOB_COUNT_)
		return NULL;
	for (size_t i = 0; (kn = knob_at(i)); i++)
		if (!strcmp(kn->name, knob_names[k]))
			return kn;
	return NULL;
}

const char *cgroup_knob_file(const struct cgctl_cgroup *cg, enum cgctl_knob k)
{
	/* v2 has no file of its own for the period: cpu.max's second field */
	if (cg->m->version == 2 && k == CGCTL_KNOB_CPU_PERIOD)
		return "cpu.max";
	return knob_file(cgroup_knob(k), cg->m->version);
}

CGCTL_EXPORT int cgctl_cgroup_new(struct cgctl_ctx *ctx, const char *controller,
				  const char *path, struct cgctl_cgroup **ret)
{
	const struct cgctl_mount *m;
	struct cgctl_cgroup *cg;
	char norm[4096];
	int r;

	if (!ctx || !path || !ret)
		return -EINVAL;
	r = cgctl_path_normalize(path, norm, sizeof(norm));
	if (r < 0)
		return r;
	r = cgctl_mount_find(ctx, controller, &m);
	if (r < 0)
		return r;
	r = cgctl_cg_exists(ctx, m, norm);
	if (r <= 0)
		return r < 0 ? r : -ENOENT;
	cg = calloc(1, sizeof(*cg));
	if (!cg)
		return -ENOMEM;
	cg->path = strdup(norm);
	if (!cg->path) {
		free(cg);
		return -ENOMEM;
	}
	cg->refcount = 1;
	cg->ctx = cgctl_ref(ctx);
	cg->m = m;
	*ret = cg;
	return 0;
}

CGCTL_EXPORT struct cgctl_cgroup *cgctl_cgroup_ref(struct cgctl_cgroup *cg)
{
	if (cg)
		cg->refcount++;
	return cg;
}

CGCTL_EXPORT struct cgctl_cgroup *cgctl_cgroup_unref(struct cgctl_cgroup *cg)
{
	if (!cg || --cg->refcount > 0)
		return cg;
	cgctl_unref(cg->ctx);
	free(cg->path);
	free(cg);
	return NULL;
}

/* A read that failed with -ENOENT: the file is absent (-ENODATA) or the cgroup is gone. */
static int absent(const struct cgctl_cgroup *cg, int r)
{
	if (r != -ENOENT)
		return r;
	r = cgctl_cg_exists(cg->ctx, cg->m, cg->path);
	return r < 0 ? r : r ? -ENODATA : -ENOENT;
}

static int parse_value(const struct knob *kn, int version, enum cgctl_knob k,
		       const char *buf, size_t len, uint64_t *ret)
{
	uint64_t quota, period;
	int r;

	switch (kn->unit[version - 1]) {
	case KNOB_BYTES:
		return cgctl_parse_mem_limit(buf, len, ret);
	case KNOB_SIGNED:	/* v1 cpu.cfs_quota_us: -1 is unlimited */
		return cgctl_parse_cfs_quota(buf, len, ret);
	case KNOB_CPUMAX:
		r = cgctl_parse_cpu_max(buf, len, &quota, &period);
		if (r < 0)
			return r;
		*ret = k == CGCTL_KNOB_CPU_PERIOD ? period : quota;
		return 0;
	case KNOB_MAXCOUNT:
		if (len >= 3 && !strncmp(buf, "max", 3) && (len == 3 || buf[3] == '\n')) {
			*ret = UINT64_MAX;
			return 0;
		}
		return cgctl_parse_u64(buf, len, ret);
	case KNOB_COUNT:
	case KNOB_BOOL:
		return cgctl_parse_u64(buf, len, ret);
	default:
		return -EINVAL;
	}
}

CGCTL_EXPORT int cgctl_cgroup_get(struct cgctl_cgroup *cg, enum cgctl_knob k,
				  uint64_t *ret)
{
	const struct knob *kn;
	const char *file;
	char *buf = NULL;
	size_t len = 0;
	uint64_t v;
	int version, r;

	if (!cg || !ret || !(kn = cgroup_knob(k)))
		return -EINVAL;
	version = cg->m->version;
	file = cgroup_knob_file(cg, k);
	if (!file)
		return -ENODATA;
	if (version == 2 && k == CGCTL_KNOB_CPU_PERIOD)
		kn = cgroup_knob(CGCTL_KNOB_CPU_QUOTA);	/* cpu.max's syntax */
	r = cgctl_cg_read(cg->ctx, cg->m, cg->path, file, &buf, &len);
	if (r < 0)
		return absent(cg, r);
	r = parse_value(kn, version, k, buf, len, &v);
	free(buf);
	if (r < 0)
		return r;
	*ret = v;
	return 0;
}
