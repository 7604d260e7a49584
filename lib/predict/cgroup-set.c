/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgctl_cgroup_set(): one knob of a struct cgctl_cgroup written as a plan of one item of
 * the one executor (struct cgctl_plan, lib/predict/plan-object.c): the same lock,
 * syntax check, kernel rules and rollback as `cgctl set`.  The value is spelt as the
 * knob table says the file takes it on this version (its "no limit" spelling for
 * UINT64_MAX); v2's period is written with the quota cpu.max holds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/cgroup.h"
#include "kernel/knobs.h"

static int spell(struct cgctl_cgroup *cg, const struct knob *kn, enum cgctl_knob k,
		 uint64_t v, char *buf, size_t len)
{
	int version = cg->m->version;
	const char *unlimited = kn->unlimited[version - 1];
	uint64_t quota;
	int r;

	if (version == 2 && k == CGCTL_KNOB_CPU_PERIOD) {
		if (v == UINT64_MAX)
			return -EINVAL;
		r = cgctl_cgroup_get(cg, CGCTL_KNOB_CPU_QUOTA, &quota);
		if (r < 0)
			return r;
		if (quota == UINT64_MAX)
			snprintf(buf, len, "max %" PRIu64, v);
		else
			snprintf(buf, len, "%" PRIu64 " %" PRIu64, quota, v);
		return 0;
	}
	if (v == UINT64_MAX) {
		if (!unlimited)
			return -EINVAL;	/* no "no limit" for this file */
		snprintf(buf, len, "%s", unlimited);
	} else {
		snprintf(buf, len, "%" PRIu64, v);
	}
	return 0;
}

int cgctl_cgroup_set(struct cgctl_cgroup *cg, enum cgctl_knob k, uint64_t value,
		     struct cgctl_error *e)
{
	struct cgctl_plan *p;
	const struct knob *kn;
	const char *file;
	char buf[48];
	int r;

	if (!cg || !(kn = cgroup_knob(k)))
		return -EINVAL;
	file = cgroup_knob_file(cg, k);
	if (!file)
		return -ENODATA;
	r = spell(cg, kn, k, value, buf, sizeof(buf));
	if (r < 0)
		return r;
	r = cgctl_plan_new(cg->ctx, &p);
	if (r < 0)
		return r;
	r = cgctl_plan_add(p, cg->m, cg->path, file, buf);
	if (r >= 0)
		r = cgctl_plan_apply(p, e);
	cgctl_plan_free(p);
	if (r == -ENOENT) {
		r = cgctl_cg_exists(cg->ctx, cg->m, cg->path);
		r = r < 0 ? r : r ? -ENODATA : -ENOENT;
	}
	return r < 0 ? r : 0;
}
