// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one table of cgroup interface files (lib/kernel/knobs.h).  First kernels are those
 * of the mainline release that added the file (Documentation/admin-guide/cgroup-v2.rst
 * and the v1 docs of each version); "no limit" is what the kernel prints and takes back:
 * v1 memory limits take "-1" (res_counter/page_counter_memparse()), v2 files "max".
 */
#include <string.h>

#include "internal.h"
#include "kernel/knobs.h"

#define K(a, b, c) CGCTL_KVER(a, b, c)
#define BOTH(u) { u, u }
#define V1(f) { f, NULL }
#define V2(f) { NULL, f }
#define NO { NULL, NULL }

/* memory limits: [down] rank when lowered (tighter first), [up] when raised (memsw
 * before memory: memory <= memsw at every step) */
static const struct knob knobs[] = {
	{ "memory.limit", { "memory.limit_in_bytes", "memory.max" }, BOTH(KNOB_BYTES),
	  { "-1", "max" }, { K(2, 6, 25), K(4, 5, 0) }, KNOB_LIMIT, CGCTL_MEMSET_MAX,
	  2, 3 },
	{ "memory.memsw", V1("memory.memsw.limit_in_bytes"), BOTH(KNOB_BYTES), V1("-1"),
	  { K(2, 6, 29), 0 }, KNOB_LIMIT, CGCTL_MEMSET_MEMSW, 3, 0 },
	{ "memory.soft", V1("memory.soft_limit_in_bytes"), BOTH(KNOB_BYTES), V1("-1"),
	  { K(2, 6, 29), 0 }, KNOB_LIMIT, CGCTL_MEMSET_SOFT, 0, 5 },
	{ "memory.high", V2("memory.high"), BOTH(KNOB_BYTES), V2("max"),
	  { 0, K(4, 5, 0) }, KNOB_LIMIT, CGCTL_MEMSET_HIGH, 1, 4 },
	{ "memory.low", V2("memory.low"), BOTH(KNOB_BYTES), V2("max"), { 0, K(4, 5, 0) },
	  KNOB_LIMIT, CGCTL_MEMSET_LOW, 6, 7 },
	{ "memory.min", V2("memory.min"), BOTH(KNOB_BYTES), V2("max"), { 0, K(4, 18, 0) },
	  KNOB_LIMIT, CGCTL_MEMSET_MIN, 7, 6 },
	{ "memory.swap", V2("memory.swap.max"), BOTH(KNOB_BYTES), V2("max"),
	  { 0, K(4, 5, 0) }, KNOB_LIMIT, CGCTL_MEMSET_SWAP, 4, 1 },
	{ "memory.zswap", V2("memory.zswap.max"), BOTH(KNOB_BYTES), V2("max"),
	  { 0, K(5, 19, 0) }, KNOB_LIMIT, 0, 5, 2 },
	{ "memory.move_charge", V1("memory.move_charge_at_immigrate"), BOTH(KNOB_COUNT),
	  NO, { K(2, 6, 34), 0 }, 0, CGCTL_MEMSET_MOVE, 0, 0 },
	{ "memory.use_hierarchy", V1("memory.use_hierarchy"), BOTH(KNOB_BOOL), NO,
	  { K(2, 6, 29), 0 }, 0, CGCTL_MEMSET_HIER, 0, 0 },
	{ "memory.swappiness", V1("memory.swappiness"), BOTH(KNOB_COUNT), NO,
	  { K(2, 6, 28), 0 }, 0, 0, 0, 0 },
	{ "memory.oom_group", V2("memory.oom.group"), BOTH(KNOB_BOOL), NO,
	  { 0, K(4, 19, 0) }, 0, CGCTL_MEMSET_OOMGROUP, 0, 0 },
	{ "memory.oom_control", V1("memory.oom_control"), BOTH(KNOB_BOOL), NO,
	  { K(2, 6, 34), 0 }, KNOB_ACTION, 0, 0, 0 },
	{ "memory.force_empty", V1("memory.force_empty"), BOTH(KNOB_TEXT), NO,
	  { K(2, 6, 25), 0 }, KNOB_ACTION, 0, 0, 0 },
	{ "memory.reclaim", V2("memory.reclaim"), BOTH(KNOB_TEXT), NO,
	  { 0, K(5, 19, 0) }, KNOB_ACTION, 0, 0, 0 },
	/* CFS bandwidth: v2 keeps quota and period in one file, cpu.max */
	{ "cpu.quota", { "cpu.cfs_quota_us", "cpu.max" }, { KNOB_SIGNED, KNOB_CPUMAX },
	  { "-1", "max" }, { K(2, 6, 39), K(4, 15, 0) }, KNOB_BW, 0, 0, 0 },
	{ "cpu.period", V1("cpu.cfs_period_us"), BOTH(KNOB_COUNT), NO,
	  { K(2, 6, 39), 0 }, KNOB_BW, 0, 0, 0 },
	{ "cpu.burst", { "cpu.cfs_burst_us", "cpu.max.burst" }, BOTH(KNOB_COUNT),
	  NO, { K(5, 14, 0), K(5, 14, 0) }, KNOB_BW, 0, 0, 0 },
	{ "cpu.shares", V1("cpu.shares"), BOTH(KNOB_COUNT), NO, { K(2, 6, 24), 0 },
	  0, 0, 0, 0 },
	{ "cpu.weight", V2("cpu.weight"), BOTH(KNOB_COUNT), NO, { 0, K(4, 15, 0) },
	  0, 0, 0, 0 },
	{ "cpu.weight.nice", V2("cpu.weight.nice"), BOTH(KNOB_SIGNED), NO,
	  { 0, K(4, 15, 0) }, 0, 0, 0, 0 },
	{ "cpu.idle", V2("cpu.idle"), BOTH(KNOB_BOOL), NO, { 0, K(5, 15, 0) },
	  0, 0, 0, 0 },
	{ "pids.max", { "pids.max", "pids.max" }, BOTH(KNOB_MAXCOUNT), { "max", "max" },
	  { K(4, 3, 0), K(4, 5, 0) }, 0, 0, 0, 0 },
	{ "cgroup.freeze", V2("cgroup.freeze"), BOTH(KNOB_BOOL), NO,
	  { 0, K(5, 2, 0) }, 0, 0, 0, 0 },
	{ "cgroup.kill", V2("cgroup.kill"), BOTH(KNOB_BOOL), NO, { 0, K(5, 14, 0) },
	  KNOB_ACTION, 0, 0, 0 },
	{ "cgroup.subtree_control", V2("cgroup.subtree_control"), BOTH(KNOB_TEXT),
	  NO, { 0, K(4, 5, 0) }, KNOB_NORESTORE, 0, 0, 0 },
	{ "cgroup.type", V2("cgroup.type"), BOTH(KNOB_TEXT), NO, { 0, K(4, 14, 0) },
	  KNOB_NORESTORE, 0, 0, 0 },
	{ "cgroup.procs", { "cgroup.procs", "cgroup.procs" }, BOTH(KNOB_TEXT), NO,
	  { K(2, 6, 24), K(4, 5, 0) }, KNOB_TASKS, 0, 0, 0 },
	{ "cgroup.tasks", V1("tasks"), BOTH(KNOB_TEXT), NO, { K(2, 6, 24), 0 },
	  KNOB_TASKS, 0, 0, 0 },
	{ "cgroup.threads", V2("cgroup.threads"), BOTH(KNOB_TEXT), NO,
	  { 0, K(4, 14, 0) }, KNOB_TASKS, 0, 0, 0 },
};

const struct knob *knob_at(size_t i)
{
	return i < ARRAY_SIZE(knobs) ? &knobs[i] : NULL;
}

const char *knob_file(const struct knob *k, int version)
{
	return k && (version == 1 || version == 2) ? k->file[version - 1] : NULL;
}

const struct knob *knob_by_file(const char *file, int *version)
{
	for (size_t i = 0; file && i < ARRAY_SIZE(knobs); i++)
		for (int v = 1; v <= 2; v++)
			if (knobs[i].file[v - 1] && !strcmp(knobs[i].file[v - 1], file)) {
				if (version)
					*version = v;
				return &knobs[i];
			}
	return NULL;
}

const struct knob *knob_by_memset(unsigned int bit, int version)
{
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		if (knobs[i].memset == bit && knob_file(&knobs[i], version))
			return &knobs[i];
	return NULL;
}

uint32_t knob_kver(uint32_t kver)
{
	return kver ? kver : CGCTL_KVER(3, 19, 0);
}

/* mirrors mm/memcontrol.c:mem_cgroup_resize_max() (v6.1): "max <= memcg->memsw.max",
 * both in pages as page_counter_memparse() (or the res_counter era) stored them */
bool knob_memsw_ok(uint32_t kver, uint64_t mem, uint64_t memsw)
{
	uint64_t mp = cgctl_memcg_limit_pages(knob_kver(kver), mem);
	uint64_t sp = cgctl_memcg_limit_pages(knob_kver(kver), memsw);

	return mp <= sp;
}

/* Every interface file of the table, v1 files then v2 ones, each once. */
CGCTL_EXPORT const char *cgctl_knob_file(size_t i)
{
	for (int v = 1; v <= 2; v++)
		for (size_t k = 0; k < ARRAY_SIZE(knobs); k++) {
			const char *f = knobs[k].file[v - 1], *f1 = knobs[k].file[0];

			if (!f || (v == 2 && f1 && !strcmp(f1, f)))
				continue;
			if (i-- == 0)
				return f;
		}
	return NULL;
}
